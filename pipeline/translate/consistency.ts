// One translation per glossary term over a whole set: recomputed over every stored translation into
// a language (this run's and earlier ones', a reviewer's too) after the pass and after an edit.
import { glossaryConsistency, type Check, type ItemText } from './checks.ts';
import type { Glossary } from './glossary.ts';
import { recordLanguage } from './scripts.ts';
import type { TranslationTable } from './table.ts';

export interface SourceRecord { id: string; stem: string; options: { label: string; text: string }[]; exam?: { language?: string } }

export const sourceOf = (r: SourceRecord): ItemText => ({ stem: r.stem, options: r.options.map(o => ({ label: o.label, text: o.text })) });

/** Stores the findings for every row of `lang`; returns how many items a term translated two ways was found on. */
export function refreshConsistency(table: TranslationTable, lang: string, records: readonly SourceRecord[], glossaryFor: (from: string, to: string) => Glossary): number {
  const byId = new Map(records.map(r => [r.id, r]));
  const items = table.all(lang).filter(row => row.text && byId.has(row.item)).map(row => {
    const r = byId.get(row.item)!;
    return { id: row.item, from: recordLanguage(r.exam, r.stem), source: sourceOf(r), target: row.text! };
  });
  const findings = new Map<string, Check[]>();
  // Per source language: a glossary is a pair of languages.
  for (const from of new Set(items.map(it => it.from))) {
    for (const [id, checks] of glossaryConsistency(items.filter(it => it.from === from), glossaryFor(from, lang))) findings.set(id, checks);
  }
  table.setConsistency(lang, findings);
  return findings.size;
}
