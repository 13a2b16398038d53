// What the translate pass adds to a record when items.jsonl is written: `translations: {<lang>:
// {stem, options, status, checks, by, version}}` and one diagnostic per finding (`translate/…`, the
// language first in the message). Records without a translation are left as they are.
import type { Check } from './checks.ts';
import type { RecordOverlay } from '../store/overlay.ts';

/** The column Store.records selects: a JSON array of the item's translation rows (see translationsColumn). */
export interface TranslationColumns { translations?: string | null }

/** The SQL expression for that column, over the items row aliased `i`. */
export const TRANSLATIONS_COLUMN = `(SELECT json_group_array(json_object('lang', t.lang, 'status', t.status, 'stem', t.stem, 'options', json(t.options),
  'checks', json(t.checks), 'consistency', json(t.consistency), 'by', t.by, 'version', t.version)) FROM translations t WHERE t.item = i.id) AS translations`;

interface Row { lang: string; status: string; stem: string | null; options: { label: string; text: string }[] | null; checks: Check[]; consistency: Check[]; by: string; version: number }

export function withTranslations<T extends Record<string, unknown>>(record: T, column: TranslationColumns): T {
  const rows = JSON.parse(column.translations ?? '[]') as Row[];
  if (!rows.length) return record;
  const translations: Record<string, unknown> = {};
  const diagnostics = [...((record.diagnostics as unknown[]) ?? [])];
  for (const r of [...rows].sort((a, b) => a.lang.localeCompare(b.lang))) {
    const checks = [...r.checks, ...r.consistency];
    translations[r.lang] = { stem: r.stem, options: r.options, status: r.status, checks: checks.map(c => ({ rule: c.rule, severity: c.severity, message: c.message })), by: r.by, version: r.version };
    for (const c of checks) diagnostics.push({ severity: c.severity, rule: c.rule, message: `${r.lang}: ${c.message}` });
  }
  return { ...record, translations, diagnostics };
}

/** The translations table read onto each record. */
export const translationOverlay: RecordOverlay = {
  columns: [TRANSLATIONS_COLUMN],
  apply: (rec, row) => withTranslations(rec, row as TranslationColumns),
};
