// Custom sets on disk: <setsDir>/<set>/inbox/ (the uploaded papers and their keys, what the
// pipeline reads), failed/ (papers that could not be read, moved out so they fail once), and
// <year>/ (items.jsonl, store.sqlite, pages/, figures/: the pipeline's own output layout).
import fs from 'node:fs';
import path from 'node:path';
import { Store } from '../store/db.ts';
import { writeJsonl } from '../store/jsonl.ts';
import type { ReviewRecord } from '../review/record.ts';
import { HttpError } from './http-error.ts';
import { checkSetName, safeStem } from './security.ts';
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

export class Sets {
  private readonly stores = new Map<string, Store>();

  constructor(private readonly settings: ServerSettings) {}

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
    const store = new Store(p.store);
    this.stores.set(name, store);
    return store;
  }

  /** Every record of the set's done papers, with the corpus passes' and reviewers' overlays. */
  records(name: string): ReviewRecord[] {
    const store = this.store(name);
    return store ? store.records(store.donePapers()).map(l => JSON.parse(l) as ReviewRecord) : [];
  }

  /** The set an item belongs to; 404 when none holds it, 409 when several do and none was named. */
  setOf(itemId: string, named?: string | null): string {
    const candidates = named ? [checkSetName(named)] : this.list();
    const holders = candidates.filter(s => this.store(s)?.db.prepare('SELECT 1 FROM items WHERE id = ?').get(itemId));
    if (!holders.length) throw new HttpError(404, `no set holds item ${itemId}`);
    if (holders.length > 1) throw new HttpError(409, `item ${itemId} is in several sets (${holders.join(', ')}): name one with ?set=`);
    return holders[0];
  }

  /** items.jsonl of the set, written again from the store (so review.status follows decisions). */
  writeItems(name: string): boolean {
    const store = this.store(name);
    if (!store) return false;
    return writeJsonl(this.paths(name).items, store.records(store.donePapers()));
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
    for (const s of this.stores.values()) s.close();
    this.stores.clear();
  }
}
