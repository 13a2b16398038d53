// Custom sets on disk: <setsDir>/<set>/inbox/ (the uploaded papers and their keys, what the
// pipeline reads), failed/ (papers that could not be read, moved out so they fail once), and
// <year>/ (items.jsonl, store.sqlite, pages/, figures/: the pipeline's own output layout).
import fs from 'node:fs';
import path from 'node:path';
import type { Store } from '../store/db.ts';
import { openStore } from '../open-store.ts';
import { writeJsonl } from '../store/jsonl.ts';
import type { ReviewRecord } from '../review/record.ts';
import { HttpError } from './http-error.ts';
import { checkSetName, safeStem } from './security.ts';
import { paperLanguage } from '../text/language.ts';
import { reviewFirst } from '../reading-verdict.ts';
import { ItemsWriter } from './items-writer.ts';
import type { ServerSettings } from './settings.ts';

export interface SetPaths {
  name: string;
  dir: string;
  inbox: string;
  failed: string;
  /** The pipeline's outDir: its yearDir is <dir>/<year>. */
  outDir: string;
  yearDir: string;
  store: string;
  items: string;
}

/** A stored paper of a set as the review page lists it. */
export interface SetPaper {
  sha256: string;
  file: string;
  pages: number | null;
  /** needs-review where its structure is in doubt (the reasons say why); done otherwise. */
  status: 'needs-review' | 'done';
  reasons: string[];
  coverage: number | null;
  items: number;
  unsure: number;
}

export class Sets {
  private readonly stores = new Map<string, Store>();
  private readonly languages = new Map<string, string | null>();
  private readonly orders = new Map<string, string[]>();
  private readonly writer: ItemsWriter;

  constructor(private readonly settings: ServerSettings) {
    this.writer = new ItemsWriter(settings.itemsWriteDelayMs, (name, current) => this.writeStepwise(name, current));
  }

  paths(name: string): SetPaths {
    checkSetName(name);
    const dir = path.join(this.settings.setsDir, name);
    const yearDir = path.join(dir, this.settings.year);
    return { name, dir, inbox: path.join(dir, 'inbox'), failed: path.join(dir, 'failed'), outDir: dir, yearDir, store: path.join(yearDir, 'store.sqlite'), items: path.join(yearDir, 'items.jsonl') };
  }

  list(): string[] {
    if (!fs.existsSync(this.settings.setsDir)) return [];
    return fs.readdirSync(this.settings.setsDir, { withFileTypes: true }).filter(d => d.isDirectory() && /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(d.name)).map(d => d.name).sort();
  }

  /** The set's store, opened once and kept; null while nothing was ingested into the set. */
  store(name: string): Store | null {
    const p = this.paths(name);
    const open = this.stores.get(name);
    if (open) return open;
    if (!fs.existsSync(p.store)) return null;
    const store = openStore(p.store);
    this.stores.set(name, store);
    return store;
  }

  /** Every record of the set's done papers, with the corpus passes' and reviewers' overlays. */
  records(name: string): ReviewRecord[] {
    const store = this.store(name);
    return store ? store.records(store.donePapers()).map(l => JSON.parse(l) as ReviewRecord) : [];
  }

  /** One record of the set by its id (one indexed read of the store, overlays applied); 404 where the set has none. */
  record(name: string, id: string): ReviewRecord {
    const line = this.store(name)?.record(id);
    if (!line) throw new HttpError(404, `no item ${id} in set ${name}`);
    return JSON.parse(line) as ReviewRecord;
  }

  /** The ids of the set's items in items.jsonl's order (file, page, position), kept until a job changes the set. */
  order(name: string): string[] {
    let ids = this.orders.get(name);
    if (!ids) {
      ids = ((this.store(name)?.db.prepare(`SELECT i.id FROM items i JOIN papers p ON p.sha256 = i.paper WHERE p.status = 'done' ORDER BY p.file, i.page, i.rowid`).all() ?? []) as { id: string }[]).map(r => r.id);
      this.orders.set(name, ids);
    }
    return ids;
  }

  /**
   * The set's stored papers with their pages, coverage and structural status, for the page's list
   * of papers: those whose structure needs review first (least explained first), then by name.
   */
  papers(name: string): SetPaper[] {
    const rows = (this.store(name)?.db.prepare(`SELECT p.sha256, p.file, p.pages, p.structure, p.structure_reasons, p.coverage,
      (SELECT count(*) FROM items i WHERE i.paper = p.sha256) AS items,
      (SELECT count(*) FROM items i WHERE i.paper = p.sha256 AND json_extract(i.record, '$.structure.unsure')) AS unsure
      FROM papers p WHERE p.status = 'done'`).all() ?? []) as { sha256: string; file: string; pages: number | null; structure: string | null; structure_reasons: string | null; coverage: number | null; items: number; unsure: number }[];
    const papers = rows.map(r => ({ sha256: r.sha256, file: r.file, pages: r.pages, status: r.structure === 'needs-review' ? 'needs-review' as const : 'done' as const, reasons: JSON.parse(r.structure_reasons ?? '[]') as string[], coverage: r.coverage, items: r.items, unsure: r.unsure }));
    return papers.sort((a, b) => reviewFirst(a, b) || a.file.localeCompare(b.file));
  }

  /**
   * A paper's language, decided once over all its records' text where its template says `und`
   * (kept until a job changes the set's papers).
   */
  paperLanguage(name: string, record: ReviewRecord): string | null {
    const key = `${name}\0${record.source.sha256}`;
    if (!this.languages.has(key)) {
      const texts = () => ((this.store(name)?.db.prepare(`SELECT json_extract(record, '$.stem') AS stem, json_extract(record, '$.options') AS options FROM items WHERE paper = ?`).all(record.source.sha256) ?? []) as { stem: string | null; options: string | null }[])
        .flatMap(r => [r.stem ?? '', ...(JSON.parse(r.options ?? '[]') as { text: string }[]).map(o => o.text)]).join(' ');
      this.languages.set(key, paperLanguage(record.exam?.language as string | undefined, texts));
    }
    return this.languages.get(key)!;
  }

  /** The set an item belongs to; 404 when none holds it, 409 when several do and none was named. */
  setOf(itemId: string, named?: string | null): string {
    const candidates = named ? [checkSetName(named)] : this.list();
    const holders = candidates.filter(s => this.store(s)?.db.prepare('SELECT 1 FROM items WHERE id = ?').get(itemId));
    if (!holders.length) throw new HttpError(404, `no set holds item ${itemId}`);
    if (holders.length > 1) throw new HttpError(409, `item ${itemId} is in several sets (${holders.join(', ')}): name one with ?set=`);
    return holders[0];
  }

  /** items.jsonl of the set, written again from the store now (so review.status follows decisions). */
  writeItems(name: string): boolean {
    this.writer.writingNow(name);
    this.orders.delete(name);
    for (const k of this.languages.keys()) if (k.startsWith(`${name}\0`)) this.languages.delete(k);
    const store = this.store(name);
    if (!store) return false;
    return writeJsonl(this.paths(name).items, store.records(store.donePapers()));
  }

  /** After a decision: items.jsonl is written once decisions pause, not per decision (items-writer.ts). */
  scheduleWrite(name: string): void {
    this.writer.schedule(name);
  }

  /** Writes a set's items.jsonl now where a decision is not in it yet; returns whether one was. */
  flush(name: string): boolean {
    if (!this.writer.behind(name)) return false;
    this.writeItems(name);
    return true;
  }

  /** items.jsonl paper by paper, the event loop free between papers; dropped where `current()` turns false. */
  private async writeStepwise(name: string, current: () => boolean): Promise<void> {
    const store = this.store(name);
    if (!store) return;
    const file = this.paths(name).items;
    const tmp = `${file}.${process.pid}.stepwise.tmp`;
    const fd = fs.openSync(tmp, 'w');
    let kept = false;
    try {
      for (const sha of store.donePapers()) {
        if (!current()) return;
        const lines = store.records([sha]);
        if (lines.length) fs.writeSync(fd, lines.join('\n') + '\n');
        await new Promise(resolve => setImmediate(resolve));
      }
      if (!current()) return;
      fs.closeSync(fd);
      fs.renameSync(tmp, file);
      kept = true;
    } finally {
      if (!kept) {
        try { fs.closeSync(fd); } catch { /* closed already */ }
        fs.rmSync(tmp, { force: true });
      }
    }
  }

  /**
   * Puts an uploaded paper (and its key, as `<stem>-answer.<ext>`, which the pipeline reads) into
   * the set's inbox under a safe name; a different paper of the same name gets a numbered stem.
   */
  saveUpload(name: string, fileName: string, pdf: Uint8Array, key: { bytes: Uint8Array; ext: string } | null): string {
    const p = this.paths(name);
    fs.mkdirSync(p.inbox, { recursive: true });
    const base = safeStem(fileName);
    let stem = base;
    for (let n = 2; ; n++) {
      const target = path.join(p.inbox, `${stem}.pdf`);
      if (!fs.existsSync(target) || fs.readFileSync(target).equals(pdf)) break;
      stem = `${base}-${n}`;
    }
    for (const f of fs.readdirSync(p.inbox)) if (f.startsWith(`${stem}-answer.`)) fs.rmSync(path.join(p.inbox, f));
    if (key) fs.writeFileSync(path.join(p.inbox, `${stem}-answer.${key.ext}`), key.bytes);
    fs.writeFileSync(path.join(p.inbox, `${stem}.pdf`), pdf);
    // A paper that failed before under this name is tried afresh.
    fs.rmSync(path.join(p.failed, `${stem}.pdf.txt`), { force: true });
    return `${stem}.pdf`;
  }

  /** A file of the set's output (pages/…, figures/…) by its path relative to the year folder; null when outside them. */
  outputFile(name: string, relative: string): string | null {
    const p = this.paths(name);
    const file = path.resolve(p.yearDir, relative);
    const inside = ['pages', 'figures'].some(d => file.startsWith(path.join(p.yearDir, d) + path.sep));
    return inside && fs.existsSync(file) && fs.statSync(file).isFile() ? file : null;
  }

  close(): void {
    for (const name of this.writer.close()) this.writeItems(name);
    for (const s of this.stores.values()) s.close();
    this.stores.clear();
  }
}
