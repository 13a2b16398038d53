// The SQLite store (better-sqlite3, WAL). Each document is written in one transaction, so a run
// killed mid-batch leaves whole papers or none, and a re-run resumes from what is done.
import type BetterSqlite3 from 'better-sqlite3';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../config.ts';
import type { Diagnostic } from '../diagnostics.ts';
import type { StructureVerdict } from '../reading-verdict.ts';
import { overlaid, recordSelect, type RecordOverlay } from './overlay.ts';
import { load } from '../providers/lazy.ts';

// Through require, not import: Node's ES-module loader would first scan the package's CommonJS
// source for its export names, 11.5 ms against 7 for require on every command that opens a store
// (a warm re-run's bar is 2 % of a cold one: README, "Speed").
const Database = load<typeof BetterSqlite3>('better-sqlite3');

// From the project root, so the compiled commands (dist/) find it too.
const SCHEMA = fs.readFileSync(path.join(ROOT, 'pipeline', 'store', 'schema.sql'), 'utf8');

export type { ItemRow, PageRow, PaperInput, PaperRow, PaperSink } from './rows.ts';
import type { ItemRow, PageRow, PaperInput, PaperRow, PaperSink } from './rows.ts';

/** Columns added to `papers` after stores were first written, with their types: a store that lacks one gets it (Store.migrate). */
const LATER_PAPER_COLUMNS: [string, string][] = [['structure', 'TEXT'], ['structure_reasons', 'TEXT'], ['coverage', 'REAL'], ['unsure', 'TEXT']];

export class Store implements PaperSink {
  readonly db: BetterSqlite3.Database;
  /** What is put on each record read out (records, record): the layers above say, in order. */
  private readonly overlays: readonly RecordOverlay[];

  constructor(file: string, overlays: readonly RecordOverlay[] = []) {
    this.overlays = overlays;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('foreign_keys = ON');
    this.db.exec(SCHEMA);
    this.migrate();
  }

  /** Stores made before a column existed get it; the schema's CREATE TABLE IF NOT EXISTS leaves them alone. */
  private migrate(): void {
    const columns = (this.db.prepare('PRAGMA table_info(papers)').all() as { name: string }[]).map(c => c.name);
    if (!columns.includes('added_at')) {
      // A paper's first-seen date is unknown there; its last update is the best that is left.
      this.db.transaction(() => {
        this.db.exec('ALTER TABLE papers ADD COLUMN added_at TEXT');
        this.db.exec('UPDATE papers SET added_at = updated_at WHERE added_at IS NULL');
      })();
    }
    // A paper stored before verdicts were kept has none (NULL): it was not judged, and says so.
    for (const [name, type] of LATER_PAPER_COLUMNS) if (!columns.includes(name)) this.db.exec(`ALTER TABLE papers ADD COLUMN ${name} ${type}`);
  }

  /** A stored paper's structural verdict; null where it has none (not judged, or not stored). */
  verdict(sha256: string): StructureVerdict | null {
    const row = this.paper(sha256);
    if (!row?.structure) return null;
    return { status: row.structure, reasons: JSON.parse(row.structure_reasons ?? '[]'), coverage: row.coverage, unsure: JSON.parse(row.unsure ?? '[]') };
  }

  /** Every done paper with what dates it: the cover (exam JSON) and when the store first saw it. */
  paperDates(): { sha256: string; file: string; exam: string | null; added_at: string }[] {
    return this.db.prepare(`SELECT sha256, file, exam, COALESCE(added_at, updated_at) AS added_at FROM papers WHERE status = 'done' ORDER BY file`).all() as { sha256: string; file: string; exam: string | null; added_at: string }[];
  }

  paper(sha256: string): PaperRow | undefined {
    return this.db.prepare('SELECT * FROM papers WHERE sha256 = ?').get(sha256) as PaperRow | undefined;
  }

  /** Write one document's outcome whole: paper, pages, items, diagnostics. Returns how many item rows changed. */
  saveDocument(paper: PaperInput, pages: PageRow[], items: ItemRow[], diagnostics: Diagnostic[]): number {
    let changed = 0;
    const { verdict, ...row } = paper;
    const judged = {
      structure: verdict?.status ?? null,
      structure_reasons: verdict ? JSON.stringify(verdict.reasons) : null,
      coverage: verdict?.coverage ?? null,
      unsure: verdict ? JSON.stringify(verdict.unsure) : null,
    };
    this.db.transaction(() => {
      this.db.prepare(`INSERT INTO papers (sha256, file, pages, template, exam, status, error, run_key, updated_at, added_at, structure, structure_reasons, coverage, unsure)
        VALUES (@sha256, @file, @pages, @template, @exam, 'done', NULL, @run_key, datetime('now'), datetime('now'), @structure, @structure_reasons, @coverage, @unsure)
        ON CONFLICT(sha256) DO UPDATE SET file = excluded.file, pages = excluded.pages, template = excluded.template, exam = excluded.exam,
          status = 'done', error = NULL, run_key = excluded.run_key, updated_at = excluded.updated_at,
          structure = excluded.structure, structure_reasons = excluded.structure_reasons, coverage = excluded.coverage, unsure = excluded.unsure`).run({ ...row, ...judged });
      const page = this.db.prepare(`INSERT INTO pages (paper, number, width, height, image, section) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT(paper, number) DO UPDATE SET width = excluded.width, height = excluded.height, image = excluded.image, section = excluded.section
        WHERE pages.width IS NOT excluded.width OR pages.height IS NOT excluded.height OR pages.image IS NOT excluded.image OR pages.section IS NOT excluded.section`);
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
    this.db.prepare(`INSERT INTO papers (sha256, file, status, error, updated_at, added_at) VALUES (?, ?, 'failed', ?, datetime('now'), datetime('now'))
      ON CONFLICT(sha256) DO UPDATE SET file = excluded.file, status = 'failed', error = excluded.error, updated_at = excluded.updated_at`).run(sha256, file, error);
  }

  /** Every record of the given papers, in a stable order (file, then section order of appearance, number), with the store's overlays on. */
  records(papers: string[]): string[] {
    if (!papers.length) return [];
    // Paper by paper, each paper's rows sorted alone: one sort over every row with its record JSON
    // spills to temporary files (measured: 0.75 s against 0.19 s for 5,000 records).
    const files = new Map((this.db.prepare(`SELECT sha256, file FROM papers WHERE sha256 IN (${papers.map(() => '?').join(',')})`).all(...papers) as { sha256: string; file: string }[]).map(r => [r.sha256, r.file]));
    // By file name as SQLite's ORDER BY file had it: bytes of UTF-8.
    const ordered = [...new Set(papers)].filter(p => files.has(p)).sort((a, b) => Buffer.compare(Buffer.from(files.get(a)!), Buffer.from(files.get(b)!)));
    this.recordsOfPaper ??= this.db.prepare(`${recordSelect(this.overlays)} WHERE i.paper = ? ORDER BY i.page, i.rowid`);
    const statement = this.recordsOfPaper;
    return ordered.flatMap(p => (statement.all(p) as { record: string }[]).map(r => overlaid(r, this.overlays)));
  }

  private recordsOfPaper: BetterSqlite3.Statement | null = null;
  private recordById: BetterSqlite3.Statement | null = null;

  /**
   * One record of a done paper by its id, with the same overlays as `records`: one indexed read, so
   * the review server answers for one item without reading the set. Undefined where there is none.
   */
  record(id: string): string | undefined {
    this.recordById ??= this.db.prepare(`${recordSelect(this.overlays)} WHERE i.id = ? AND p.status = 'done'`);
    const row = this.recordById.get(id) as { record: string } | undefined;
    return row && overlaid(row, this.overlays);
  }

  /** The papers the store holds as done, in file order. */
  donePapers(): string[] {
    return (this.db.prepare(`SELECT sha256 FROM papers WHERE status = 'done' ORDER BY file`).all() as { sha256: string }[]).map(r => r.sha256);
  }

  /** The record of every item of every done paper, as emitted (without overlays), in file order. */
  storedRecords(): string[] {
    return (this.db.prepare(`SELECT i.record FROM items i JOIN papers p ON p.sha256 = i.paper WHERE p.status = 'done' ORDER BY p.file, i.page, i.rowid`).all() as { record: string }[]).map(r => r.record);
  }

  /** Input hashes of the stored tags, by item. */
  knowledgeInputs(): Map<string, string> {
    return new Map((this.db.prepare('SELECT item, input FROM knowledge').all() as { item: string; input: string }[]).map(r => [r.item, r.input]));
  }

  /** Replace the tags of the given items, and drop tags of items no longer in the store. */
  saveKnowledge(rows: { item: string; input: string; paths: unknown; note: string | null }[]): number {
    let changed = 0;
    this.db.transaction(() => {
      const put = this.db.prepare(`INSERT INTO knowledge (item, input, paths, note) VALUES (?, ?, ?, ?)
        ON CONFLICT(item) DO UPDATE SET input = excluded.input, paths = excluded.paths, note = excluded.note
        WHERE knowledge.paths IS NOT excluded.paths OR knowledge.input IS NOT excluded.input OR knowledge.note IS NOT excluded.note`);
      for (const r of rows) changed += put.run(r.item, r.input, JSON.stringify(r.paths), r.note).changes;
      this.db.prepare('DELETE FROM knowledge WHERE item NOT IN (SELECT id FROM items)').run();
    })();
    return changed;
  }

  /**
   * Make the cluster table these rows (clusters are a property of the store as a whole): rows that
   * are the same are left alone, so a re-run that finds the same clusters writes nothing. Returns
   * how many rows changed.
   */
  saveClusters(rows: { item: string; duplicateOf: string | null; canonical: string; evidence: unknown }[]): number {
    let changed = 0;
    this.db.transaction(() => {
      const keep = new Set(rows.map(r => r.item));
      const drop = this.db.prepare('DELETE FROM clusters WHERE item = ?');
      for (const { item } of this.db.prepare('SELECT item FROM clusters').all() as { item: string }[]) if (!keep.has(item)) changed += drop.run(item).changes;
      const put = this.db.prepare(`INSERT INTO clusters (item, duplicate_of, canonical, evidence) VALUES (?, ?, ?, ?)
        ON CONFLICT(item) DO UPDATE SET duplicate_of = excluded.duplicate_of, canonical = excluded.canonical, evidence = excluded.evidence
        WHERE clusters.duplicate_of IS NOT excluded.duplicate_of OR clusters.canonical IS NOT excluded.canonical OR clusters.evidence IS NOT excluded.evidence`);
      for (const r of rows) changed += put.run(r.item, r.duplicateOf, r.canonical, r.evidence === null ? null : JSON.stringify(r.evidence)).changes;
    })();
    return changed;
  }

  /** What the done papers are: each one's hash and run key, hashed (a pass over the store that ran on the same has nothing new to do). */
  papersKey(): string {
    const h = crypto.createHash('sha256');
    for (const r of this.db.prepare(`SELECT sha256, run_key FROM papers WHERE status = 'done' ORDER BY sha256`).all() as { sha256: string; run_key: string | null }[]) h.update(`${r.sha256}:${r.run_key}\n`);
    return h.digest('hex');
  }

  /** The input a pass over the store last ran on (see passes in schema.sql). */
  passInput(name: string): string | undefined {
    return (this.db.prepare('SELECT input FROM passes WHERE name = ?').get(name) as { input: string } | undefined)?.input;
  }

  savePassInput(name: string, input: string): void {
    this.db.prepare('INSERT INTO passes (name, input) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET input = excluded.input WHERE passes.input IS NOT excluded.input').run(name, input);
  }

  /** How many rows the tables records are made from have been written since the store was made (schema.sql, `generation`). */
  generation(): number {
    return (this.db.prepare('SELECT n FROM generation WHERE id = 1').get() as { n: number } | undefined)?.n ?? 0;
  }

  /** The state a file written from the store was last left in (store/jsonl.ts). */
  outputState(file: string): string | undefined {
    return (this.db.prepare('SELECT state FROM outputs WHERE file = ?').get(file) as { state: string } | undefined)?.state;
  }

  saveOutputState(file: string, state: string): void {
    this.db.prepare('INSERT INTO outputs (file, state) VALUES (?, ?) ON CONFLICT(file) DO UPDATE SET state = excluded.state').run(file, state);
  }

  /** A paper file's hash, where the store hashed it when its stat was this one (schema.sql, `file_hashes`). */
  knownHash(file: string, stat: string): string | undefined {
    return (this.db.prepare('SELECT sha256 FROM file_hashes WHERE path = ? AND stat = ?').get(file, stat) as { sha256: string } | undefined)?.sha256;
  }

  saveHash(file: string, stat: string, sha256: string): void {
    this.db.prepare('INSERT INTO file_hashes (path, stat, sha256) VALUES (?, ?, ?) ON CONFLICT(path) DO UPDATE SET stat = excluded.stat, sha256 = excluded.sha256').run(file, stat, sha256);
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
