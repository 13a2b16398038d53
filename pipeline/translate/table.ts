// The `translations` table (pipeline/store/schema.sql): one row per item and target language, written
// as soon as the item is done (one statement, autocommit), so a killed pass loses at most the item
// in flight. Reads and writes go through here; the Store only merges the rows into records.
import type Database from 'better-sqlite3';
import type { Check, ItemText } from './checks.ts';

export type TranslationStatus = 'ok' | 'flagged' | 'failed';

export interface HistoryEntry { who: string; when: string; version: number; stem: string | null; options: ItemText['options'] | null; checks: Check[] }

export interface TranslationRow {
  item: string;
  lang: string;
  /** Hash of what the translation was made from: source text, languages, glossary, model, translator version. */
  input: string;
  status: TranslationStatus;
  /** The translation; null when no usable reply came (status failed). */
  text: ItemText | null;
  /** The item's own checks, or why it failed. */
  checks: Check[];
  /** Checks over all records of the pass (a glossary term translated two ways). */
  consistency: Check[];
  /** Who made the current text: `model:<name>`, `copy:<item>` (same source text) or a reviewer's name. */
  by: string;
  version: number;
  /** Every earlier text of the row, oldest first. */
  history: HistoryEntry[];
  updated_at: string;
}

interface Raw { item: string; lang: string; input: string; status: string; stem: string | null; options: string | null; checks: string; consistency: string; by: string; version: number; history: string; updated_at: string }

const statusOf = (text: ItemText | null, checks: Check[], consistency: Check[]): TranslationStatus => (text === null ? 'failed' : checks.length || consistency.length ? 'flagged' : 'ok');

function fromRaw(r: Raw): TranslationRow {
  return {
    item: r.item, lang: r.lang, input: r.input, status: r.status as TranslationStatus,
    text: r.stem === null ? null : { stem: r.stem, options: JSON.parse(r.options ?? '[]') },
    checks: JSON.parse(r.checks), consistency: JSON.parse(r.consistency), by: r.by, version: r.version, history: JSON.parse(r.history), updated_at: r.updated_at,
  };
}

export class TranslationTable {
  constructor(private readonly db: Database.Database) {}

  get(item: string, lang: string): TranslationRow | null {
    const r = this.db.prepare('SELECT * FROM translations WHERE item = ? AND lang = ?').get(item, lang) as Raw | undefined;
    return r ? fromRaw(r) : null;
  }

  all(lang: string): TranslationRow[] {
    return (this.db.prepare('SELECT * FROM translations WHERE lang = ? ORDER BY item').all(lang) as Raw[]).map(fromRaw);
  }

  /**
   * Store a new text (or a failure) for an item: the version goes up and the previous text, if any,
   * joins the history. The consistency findings are kept until the pass recomputes them.
   */
  put(row: { item: string; lang: string; input: string; text: ItemText | null; checks: Check[]; by: string }): TranslationRow {
    const prior = this.get(row.item, row.lang);
    const history = prior ? [...prior.history, ...(prior.text ? [{ who: prior.by, when: prior.updated_at, version: prior.version, stem: prior.text.stem, options: prior.text.options, checks: prior.checks }] : [])] : [];
    const consistency = prior?.consistency ?? [];
    const next: TranslationRow = {
      ...row, status: statusOf(row.text, row.checks, consistency), consistency, version: (prior?.version ?? 0) + 1, history, updated_at: new Date().toISOString(),
    };
    this.db.prepare(`INSERT INTO translations (item, lang, input, status, stem, options, checks, consistency, by, version, history, updated_at)
      VALUES (@item, @lang, @input, @status, @stem, @options, @checks, @consistency, @by, @version, @history, @updated_at)
      ON CONFLICT(item, lang) DO UPDATE SET input = excluded.input, status = excluded.status, stem = excluded.stem, options = excluded.options,
        checks = excluded.checks, consistency = excluded.consistency, by = excluded.by, version = excluded.version, history = excluded.history, updated_at = excluded.updated_at`).run({
      item: next.item, lang: next.lang, input: next.input, status: next.status, stem: next.text?.stem ?? null, options: next.text ? JSON.stringify(next.text.options) : null,
      checks: JSON.stringify(next.checks), consistency: JSON.stringify(next.consistency), by: next.by, version: next.version, history: JSON.stringify(next.history), updated_at: next.updated_at,
    });
    return next;
  }

  /** Replace the consistency findings of every row of a language (and with them the rows' status). Returns how many rows changed. */
  setConsistency(lang: string, findings: ReadonlyMap<string, Check[]>): number {
    let changed = 0;
    this.db.transaction(() => {
      const put = this.db.prepare('UPDATE translations SET consistency = ?, status = ? WHERE item = ? AND lang = ? AND (consistency IS NOT ? OR status IS NOT ?)');
      for (const row of this.all(lang)) {
        const c = findings.get(row.item) ?? [];
        const status = statusOf(row.text, row.checks, c);
        changed += put.run(JSON.stringify(c), status, row.item, lang, JSON.stringify(c), status).changes;
      }
    })();
    return changed;
  }

  /** Drop the rows of items no longer in the store. */
  prune(): number {
    return this.db.prepare('DELETE FROM translations WHERE item NOT IN (SELECT id FROM items)').run().changes;
  }
}
