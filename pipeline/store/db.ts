// The SQLite store (better-sqlite3, WAL). Each document is written in one transaction, so a run
// killed mid-batch leaves whole papers or none, and a re-run resumes from what is done.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from '../diagnostics.ts';

const SCHEMA = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'schema.sql'), 'utf8');

export interface PaperRow {
  sha256: string;
  file: string;
  pages: number | null;
  template: string | null;
  exam: string | null;
  status: 'done' | 'failed';
  error: string | null;
  run_key: string | null;
}

export interface ItemRow {
  id: string;
  section: string | null;
  number: number;
  page: number;
  record: string;
}

export interface PageRow {
  number: number;
  width: number;
  height: number;
  image: string | null;
  section: string | null;
}

export class Store {
  readonly db: Database.Database;

  constructor(file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('foreign_keys = ON');
    this.db.exec(SCHEMA);
  }

  paper(sha256: string): PaperRow | undefined {
    return this.db.prepare('SELECT * FROM papers WHERE sha256 = ?').get(sha256) as PaperRow | undefined;
  }

  /** Write one document's outcome whole: paper, pages, items, diagnostics. Returns how many item rows changed. */
  saveDocument(paper: Omit<PaperRow, 'status' | 'error'>, pages: PageRow[], items: ItemRow[], diagnostics: Diagnostic[]): number {
    let changed = 0;
    this.db.transaction(() => {
      this.db.prepare(`INSERT INTO papers (sha256, file, pages, template, exam, status, error, run_key, updated_at)
        VALUES (@sha256, @file, @pages, @template, @exam, 'done', NULL, @run_key, datetime('now'))
        ON CONFLICT(sha256) DO UPDATE SET file = excluded.file, pages = excluded.pages, template = excluded.template, exam = excluded.exam,
          status = 'done', error = NULL, run_key = excluded.run_key, updated_at = excluded.updated_at`).run(paper);
      const page = this.db.prepare(`INSERT INTO pages (paper, number, width, height, image, section) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT(paper, number) DO UPDATE SET width = excluded.width, height = excluded.height, image = excluded.image, section = excluded.section`);
      for (const p of pages) page.run(paper.sha256, p.number, p.width, p.height, p.image, p.section);
      const keep = new Set(items.map(i => i.id));
      for (const old of this.db.prepare('SELECT id FROM items WHERE paper = ?').all(paper.sha256) as { id: string }[]) {
        if (!keep.has(old.id)) changed += this.db.prepare('DELETE FROM items WHERE id = ?').run(old.id).changes;
      }
      // Unchanged records are not rewritten: the upsert only fires where the JSON differs.
      const item = this.db.prepare(`INSERT INTO items (id, paper, section, number, page, record) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET paper = excluded.paper, section = excluded.section, number = excluded.number, page = excluded.page, record = excluded.record
        WHERE items.record IS NOT excluded.record`);
      for (const i of items) changed += item.run(i.id, paper.sha256, i.section, i.number, i.page, i.record).changes;
      this.db.prepare('DELETE FROM diagnostics WHERE paper = ?').run(paper.sha256);
      const diag = this.db.prepare('INSERT INTO diagnostics (paper, severity, rule, message, page, item) VALUES (?, ?, ?, ?, ?, ?)');
      for (const d of diagnostics) diag.run(paper.sha256, d.severity, d.rule, d.message, d.page ?? null, d.item ?? null);
    })();
    return changed;
  }

  /** Record a failed document; items of an earlier successful run of the same bytes are kept. */
  saveFailure(sha256: string, file: string, error: string): void {
    this.db.prepare(`INSERT INTO papers (sha256, file, status, error, updated_at) VALUES (?, ?, 'failed', ?, datetime('now'))
      ON CONFLICT(sha256) DO UPDATE SET file = excluded.file, status = 'failed', error = excluded.error, updated_at = excluded.updated_at`).run(sha256, file, error);
  }

  /** Every record of the given papers, in a stable order (file, then section order of appearance, number). */
  records(papers: string[]): string[] {
    if (!papers.length) return [];
    const rows = this.db.prepare(`SELECT i.record FROM items i JOIN papers p ON p.sha256 = i.paper
      WHERE i.paper IN (${papers.map(() => '?').join(',')}) ORDER BY p.file, i.page, i.rowid`).all(...papers) as { record: string }[];
    return rows.map(r => r.record);
  }

  startRun(): number {
    return Number(this.db.prepare(`INSERT INTO runs (started_at) VALUES (datetime('now'))`).run().lastInsertRowid);
  }

  finishRun(id: number, s: { papers: number; skipped: number; failed: number; pages: number; questions: number; written: number; seconds: number }): void {
    this.db.prepare(`UPDATE runs SET finished_at = datetime('now'), papers = @papers, skipped = @skipped, failed = @failed, pages = @pages,
      questions = @questions, written = @written, seconds = @seconds WHERE id = @id`).run({ id, ...s });
  }

  close(): void {
    this.db.close();
  }
}
