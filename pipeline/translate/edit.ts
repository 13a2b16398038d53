// A reviewer's edit of a translation: the new text is checked like a model's (every check runs
// again on save), stored as a new version with the earlier text kept in the row's history, and the
// set's glossary consistency is worked out again. An edit names the version it was made on; an
// older one is refused, as review decisions are.
import type Database from 'better-sqlite3';
import { checkTranslation, type ItemText } from './checks.ts';
import { refreshConsistency, sourceOf, type SourceRecord } from './consistency.ts';
import { loadGlossary } from './glossary.ts';
import { recordLanguage } from './scripts.ts';
import { TranslationTable, type TranslationRow } from './table.ts';

export class TranslationEditError extends Error {
  constructor(readonly status: 400 | 404 | 409, message: string, readonly extra: Record<string, unknown> = {}) {
    super(message);
    this.name = 'TranslationEditError';
  }
}

export interface TranslationEdit { stem: string; options: ItemText['options']; version: number; who: string }


/** An edit from a request body {stem, options?, version, who?}, or a 400 naming what is wrong. */
export function translationEditFrom(body: Record<string, unknown>, reviewer: string | undefined): TranslationEdit {
  const { stem, options, version } = body;
  if (typeof stem !== 'string' || !stem.trim()) throw new TranslationEditError(400, 'stem must be non-empty text');
  if (options !== undefined && (!Array.isArray(options) || options.some(o => !o || typeof o.label !== 'string' || typeof o.text !== 'string'))) throw new TranslationEditError(400, 'options must be a list of {label, text}');
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) throw new TranslationEditError(400, 'version (the translation version the edit was made on) is required');
  const who = String(body.who ?? reviewer ?? 'anonymous').trim().slice(0, 80) || 'anonymous';
  return { stem, options: ((options as ItemText['options'] | undefined) ?? []).map(o => ({ label: o.label, text: o.text })), version, who };
}

/**
 * Saves a reviewer's translation of `item` into `lang`; returns the new row with its checks. The
 * row keeps the input it was made under, so the translate pass leaves the edit alone until the
 * source text changes. `records` are the set's records, for the consistency over the set.
 */
export function saveTranslationEdit(db: Database.Database, records: readonly SourceRecord[], item: string, lang: string, edit: TranslationEdit, glossaryDir: string): TranslationRow {
  const table = new TranslationTable(db);
  const record = records.find(r => r.id === item);
  if (!record) throw new TranslationEditError(404, `no item ${item}`);
  return db.transaction(() => {
    const current = table.get(item, lang);
    if (!current) throw new TranslationEditError(404, `item ${item} has no ${lang} translation yet: run make translate LANGS=${lang} first`);
    if (current.version !== edit.version) {
      throw new TranslationEditError(409, `conflict: this translation was changed by ${current.by} (now version ${current.version}); reload it and edit again`, { version: current.version });
    }
    const source = sourceOf(record);
    const from = recordLanguage(record.exam, record.stem);
    const glossary = loadGlossary(glossaryDir, from, lang);
    // Options not sent keep the current translation's (an edit of the stem alone).
    const text: ItemText = { stem: edit.stem, options: edit.options.length || !current.text ? edit.options : current.text.options };
    const row = table.put({ item, lang, input: current.input, text, checks: checkTranslation(source, text, from, lang, glossary), by: edit.who });
    refreshConsistency(table, lang, records, (f, t) => (f === from && t === lang ? glossary : loadGlossary(glossaryDir, f, t)));
    return table.get(item, lang) ?? row;
  })();
}
