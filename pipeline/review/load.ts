// What the review pages are built from: the records of items.jsonl (the run's output, overlays
// included) and, from the store, each paper's page sizes and images, its diagnostics and the
// papers that failed. The store is opened read-only: building a review never writes to it.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import type { PageInfo, StoreDiagnostic } from './item-html.ts';
import type { ReviewRecord } from './record.ts';
import type { StructureStatus } from '../reading-verdict.ts';

/** A paper's structural verdict as its records carry it (every record of a paper carries the same). */
export interface PaperStructure {
  status: StructureStatus;
  reasons: string[];
  coverage: number | null;
}

export interface PaperData {
  sha256: string;
  file: string;
  exam: Record<string, unknown>;
  /** The raw JSON lines of its records, in items.jsonl order (what the page hash is taken over). */
  lines: string[];
  records: ReviewRecord[];
  pages: Map<number, PageInfo>;
  diagnostics: StoreDiagnostic[];
  /** How many pages the paper has (its records' `source.pages`); null where they do not say. */
  pageCount: number | null;
  /** The verdict on its structure; null where its records carry none (not judged, or emitted before verdicts). */
  structure: PaperStructure | null;
}

export interface FailedPaper {
  sha256: string;
  file: string;
  error: string | null;
}

export interface YearData {
  yearDir: string;
  papers: PaperData[];
  failed: FailedPaper[];
}

export class ReviewInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReviewInputError';
  }
}

export function loadYear(yearDir: string): YearData {
  const itemsFile = path.join(yearDir, 'items.jsonl');
  if (!fs.existsSync(itemsFile)) throw new ReviewInputError(`no items.jsonl in ${yearDir}: ingest the papers first (make ingest)`);
  const byPaper = new Map<string, PaperData>();
  const lines = fs.readFileSync(itemsFile, 'utf8').split('\n').filter(l => l.trim());
  for (const [i, line] of lines.entries()) {
    let record: ReviewRecord;
    try {
      record = JSON.parse(line);
    } catch (e) {
      throw new ReviewInputError(`${itemsFile}:${i + 1}: not JSON (${(e as Error).message})`);
    }
    const sha = record.source?.sha256 ?? 'unknown';
    let paper = byPaper.get(sha);
    if (!paper) {
      paper = { sha256: sha, file: record.source?.file ?? '?', exam: record.exam ?? {}, lines: [], records: [], pages: new Map(), diagnostics: [], pageCount: record.source?.pages ?? null, structure: null };
      byPaper.set(sha, paper);
    }
    if (!paper.structure && record.structure) paper.structure = { status: record.structure.status, reasons: record.structure.reasons ?? [], coverage: record.structure.coverage ?? null };
    paper.lines.push(line);
    paper.records.push(record);
  }
  const failed: FailedPaper[] = [];
  const storeFile = path.join(yearDir, 'store.sqlite');
  if (fs.existsSync(storeFile)) {
    const db = new Database(storeFile, { readonly: true, fileMustExist: true });
    try {
      const pages = db.prepare('SELECT number, width, height, image FROM pages WHERE paper = ?');
      const diags = db.prepare('SELECT severity, rule, message, page, item FROM diagnostics WHERE paper = ? ORDER BY rowid');
      for (const paper of byPaper.values()) {
        for (const p of pages.all(paper.sha256) as { number: number; width: number; height: number; image: string | null }[]) {
          paper.pages.set(p.number, { width: p.width, height: p.height, image: p.image });
        }
        paper.diagnostics = diags.all(paper.sha256) as StoreDiagnostic[];
      }
      failed.push(...(db.prepare(`SELECT sha256, file, error FROM papers WHERE status = 'failed' ORDER BY file`).all() as FailedPaper[]));
    } finally {
      db.close();
    }
  }
  return { yearDir, papers: [...byPaper.values()], failed };
}
