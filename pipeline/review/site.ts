// `make review`: the static, read-only review site of a batch year, <yearDir>/review/index.html
// and one page per paper under papers/, opening from file:// with no server and no script. A
// paper's page is written again only when what it is built from changed: a content hash per page
// is kept in review/manifest.json and an unchanged page is skipped.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { urlPath } from './escape.ts';
import { writeAssets, writeIfChanged } from './assets.ts';
import { loadYear, type PaperData } from './load.ts';
import { renderIndex, renderPaperPage, type IndexEntry } from './page-html.ts';
import { paperStats } from './paper-stats.ts';
import { treeTitles } from './trees.ts';

/** Bumped whenever the markup changes, so every page is rebuilt once. */
export const SITE_VERSION = 5;

export interface SiteResult {
  dir: string;
  index: string;
  papers: number;
  items: number;
  /** Paper pages written this time, and those left as they were. */
  written: number;
  skipped: number;
  removed: number;
  seconds: number;
}

interface Manifest {
  version: number;
  pages: Record<string, string>;
}

const pageName = (sha256: string) => `${sha256.slice(0, 16)}.html`;

function pageHash(paper: PaperData, targets: string[]): string {
  const h = crypto.createHash('sha256');
  h.update(JSON.stringify({ v: SITE_VERSION, file: paper.file, pages: [...paper.pages], diagnostics: paper.diagnostics, targets }));
  for (const line of paper.lines) h.update(line).update('\n');
  return h.digest('hex');
}

function readManifest(file: string): Manifest {
  try {
    const m = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
    return m.version === SITE_VERSION && m.pages ? m : { version: SITE_VERSION, pages: {} };
  } catch {
    return { version: SITE_VERSION, pages: {} };
  }
}

export function buildReviewSite(yearDir: string, title = `Review: ${path.basename(yearDir)}`): SiteResult {
  const t0 = performance.now();
  const data = loadYear(yearDir);
  const dir = path.join(yearDir, 'review');
  const papersDir = path.join(dir, 'papers');
  fs.mkdirSync(papersDir, { recursive: true });
  writeAssets(path.join(dir, 'assets'));
  const manifestFile = path.join(dir, 'manifest.json');
  const manifest = readManifest(manifestFile);
  const next: Manifest = { version: SITE_VERSION, pages: {} };
  // Where each record's element is, for duplicate_of links across papers.
  const home = new Map<string, string>();
  for (const p of data.papers) for (const r of p.records) home.set(r.id, pageName(p.sha256));
  let written = 0, skipped = 0, items = 0;
  const treeTitle = treeTitles();
  const entries: IndexEntry[] = [];
  for (const paper of data.papers) {
    const name = pageName(paper.sha256);
    const stats = paperStats(paper);
    entries.push({ paper, stats, href: `papers/${name}` });
    items += paper.records.length;
    const targets = paper.records.map(r => r.duplicate_of).filter((t): t is string => !!t).map(t => `${t}@${home.get(t) ?? ''}`);
    const hash = pageHash(paper, targets);
    next.pages[name] = hash;
    const file = path.join(papersDir, name);
    if (manifest.pages[name] === hash && fs.existsSync(file)) {
      skipped++;
      continue;
    }
    const html = renderPaperPage(paper, stats, {
      pages: paper.pages,
      paperDiagnostics: paper.diagnostics,
      asset: rel => `../../${urlPath(rel)}`,
      treeTitle,
      link: id => {
        const at = home.get(id);
        if (!at) return null;
        return at === name ? `#${encodeURIComponent(id)}` : `${at}#${encodeURIComponent(id)}`;
      },
    });
    if (writeIfChanged(file, html)) written++;
    else skipped++;
  }
  // Pages of papers no longer in items.jsonl go, so the site shows exactly this run's records.
  let removed = 0;
  for (const f of fs.readdirSync(papersDir)) {
    if (f.endsWith('.html') && !(f in next.pages)) {
      fs.rmSync(path.join(papersDir, f));
      removed++;
    }
  }
  const index = path.join(dir, 'index.html');
  writeIfChanged(index, renderIndex(title, entries, data.failed));
  writeIfChanged(manifestFile, JSON.stringify(next, null, 1) + '\n');
  return { dir, index, papers: data.papers.length, items, written, skipped, removed, seconds: (performance.now() - t0) / 1000 };
}


