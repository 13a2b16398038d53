// manifest.json: what a split is and how it was made — its cut-off and window, counts by family,
// subject, section, type, modality and difficulty, every source paper (and its key and stats files
// where the refresh saw them) with hashes, the pipeline and template versions, the previous split,
// what it supersedes or withdraws, and the sha256 of every other file in the split.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { knowledgePaths, type SplitItem } from './item.ts';

export interface SourceFile { file: string; sha256: string }

export interface ManifestSource extends SourceFile {
  exam_date: string;
  exam_date_source: 'cover' | 'added';
  items: number;
  /** The answer key and published error rates beside the paper, where the refresh saw the paper in the inbox. */
  key?: SourceFile;
  stats?: SourceFile;
}

export interface Manifest {
  split: string;
  cutoff: string;
  /** Exam dates the split covers: after `after` (the previous split's cut-off; null for the first split) up to and including `through`. */
  window: { after: string | null; through: string };
  previous: string | null;
  created_at: string;
  pipeline_version: number;
  /** sha256 of each template file, by name. */
  templates: Record<string, string>;
  settings: { reviewed_only: boolean; dpi: number };
  counts: Record<string, Record<string, number>>;
  sources: ManifestSource[];
  /** Items of earlier splits this split publishes a new version of; they stay where they were. */
  superseded: { id: string; version: number; split: string }[];
  /** Items of earlier splits that are no longer in the benchmark (rejected, a duplicate, gone), from this split on. */
  withdrawn: { id: string; version: number; split: string }[];
  /** Items new in this split whose exam date is before its window (their paper was added after the split covering it was frozen). */
  late: string[];
  /** sha256 of every file of the split but this one, by path relative to the split. */
  files: Record<string, string>;
}

export function sha256File(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

export function templateHashes(dir: string): Record<string, string> {
  return Object.fromEntries(fs.readdirSync(dir).filter(f => f.endsWith('.json')).sort().map(f => [f, sha256File(path.join(dir, f))]));
}

function tally(items: readonly SplitItem[], of: (it: SplitItem) => (string | null | undefined)[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const it of items) for (const k of of(it)) out[k ?? 'unknown'] = (out[k ?? 'unknown'] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Counts of the items: overall, and by family, subject, section, type, modality, difficulty, primary tag's subject and language. */
export function countItems(items: readonly SplitItem[]): Record<string, Record<string, number>> {
  return {
    total: { items: items.length, new: items.filter(i => i.version === 1).length, corrected: items.filter(i => i.version > 1).length },
    family: tally(items, i => [i.exam.family]),
    subject: tally(items, i => [i.exam.subject]),
    section: tally(items, i => [i.section]),
    type: tally(items, i => [i.type]),
    // Every item has its text (TO) and page images (IO); TI counts the items with a figure to show.
    modality: tally(items, i => [
      i.modalities.TO.text ? 'TO' : null,
      i.modalities.TI.images.length ? 'TI' : null,
      i.modalities.IO.page_image.length ? 'IO' : null,
    ].filter(Boolean)),
    difficulty: tally(items, i => [i.difficulty]),
    // The curriculum subject of each item's primary tag (수학I, 미적분, …), finer than the cover's subject.
    knowledge: tally(items, i => [knowledgePaths(i.knowledge)[0]?.split(' > ')[0]]),
    language: tally(items, i => [i.exam.language as string | undefined]),
  };
}

/** One entry per source paper of the items, in file order; companions from the inbox where known. */
export function sourcesOf(items: readonly SplitItem[], companions: ReadonlyMap<string, { key?: SourceFile; stats?: SourceFile }>): ManifestSource[] {
  const bySha = new Map<string, ManifestSource>();
  for (const it of items) {
    const s = bySha.get(it.source.sha256);
    if (s) { s.items++; continue; }
    bySha.set(it.source.sha256, { file: it.source.file, sha256: it.source.sha256, exam_date: it.exam_date, exam_date_source: it.exam_date_source, items: 1, ...companions.get(it.source.sha256) });
  }
  return [...bySha.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.sha256 < b.sha256 ? -1 : 1));
}

/** sha256 of every file under dir (but the manifest), by posix path relative to dir, sorted. */
export function hashFiles(dir: string, except: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else if (r !== except) out[r] = sha256File(path.join(dir, r));
    }
  };
  walk('');
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
