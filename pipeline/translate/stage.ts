// translate: every record of the store into each target language (TRANSLATE=en,ko), through the
// configured model. A record is redone only when what it was made from changed (source text,
// languages, glossary, model, this pass's version); a failed one is asked again next run; a
// reviewer's edit stands while its source is unchanged. A record whose source text is the same as
// one already done (a common question in every elective's booklet) takes that translation without a
// request. Each row is written as soon as it is done; the glossary's consistency over the whole set
// is checked at the end.
import crypto from 'node:crypto';
import type { Config } from '../config.ts';
import { makeClient, type Usage } from '../llm/client.ts';
import type { CorpusStage } from '../corpus/stage.ts';
import type { ItemText } from './checks.ts';
import { refreshConsistency, sourceOf } from './consistency.ts';
import { loadGlossary, type Glossary } from './glossary.ts';
import { recordLanguage } from './scripts.ts';
import { TranslationTable, type TranslationRow } from './table.ts';
import { translateItem } from './translator.ts';

/** Bump when the prompt, protection or checks change: every translation is made again. */
export const TRANSLATOR_VERSION = 1;

/** The hash a translation is made under; the record id is left out, so equal texts share one. */
export function translationInput(config: Config, source: ItemText, from: string, to: string, glossary: Glossary): string {
  // The model's name, not the server's address: the same local model behind another port is the same model.
  const model = config.llm?.model ?? null;
  return crypto.createHash('sha256').update(JSON.stringify([TRANSLATOR_VERSION, from, to, glossary.version, model, source.stem, source.options])).digest('hex').slice(0, 16);
}

/** A row's text is the reviewer's (kept while its source is unchanged) rather than a model's or a copy. */
const byReviewer = (row: TranslationRow) => !row.by.startsWith('model:') && !row.by.startsWith('copy:');

export function translateStage(): CorpusStage {
  return {
    name: 'translate',
    async run({ config, store, records }) {
      if (!config.translate || !config.llm) return 'translate: off (TRANSLATE= names no language, or no model: LLM_BASE_URL / LLM_MODEL)';
      const llm = config.llm;
      const client = makeClient(llm);
      const table = new TranslationTable(store.db);
      const usage: Usage = { requests: 0, promptTokens: 0, completionTokens: 0 };
      const glossaries = new Map<string, Glossary>();
      const glossaryFor = (from: string, to: string) => {
        const key = `${from}-${to}`;
        if (!glossaries.has(key)) glossaries.set(key, loadGlossary(config.translate!.glossaryDir, from, to));
        return glossaries.get(key)!;
      };
      const count = { translated: 0, copied: 0, unchanged: 0, same: 0, failed: 0, flagged: 0, inconsistent: 0 };
      const pruned = table.prune();
      for (const lang of config.translate.langs) {
        // Done translations by input, so a record with the same source text takes one without a request.
        const done = new Map<string, TranslationRow>();
        for (const row of table.all(lang)) if (row.text && !byReviewer(row)) done.set(row.input, row);
        for (const r of records) {
          const source = sourceOf(r);
          const from = recordLanguage(r.exam, source.stem);
          if (from === lang) { count.same++; continue; }
          const glossary = glossaryFor(from, lang);
          const input = translationInput(config, source, from, lang, glossary);
          const prior = table.get(r.id, lang);
          if (prior && prior.input === input && prior.status !== 'failed') { count.unchanged++; continue; }
          const twin = done.get(input);
          let row: TranslationRow;
          if (twin && twin.item !== r.id) {
            row = table.put({ item: r.id, lang, input, text: twin.text, checks: twin.checks, by: `copy:${twin.item}` });
            count.copied++;
          } else {
            const result = await translateItem(client, llm, r.id, source, from, lang, glossary, usage);
            row = table.put({ item: r.id, lang, input, text: result.text, checks: result.checks, by: `model:${llm.model}` });
            count.translated++;
          }
          if (row.text) done.set(input, row);
        }
        // One translation per term over the whole set, this run's and earlier runs' alike.
        count.inconsistent += refreshConsistency(table, lang, records, glossaryFor);
        for (const row of table.all(lang)) {
          if (row.status === 'failed') count.failed++;
          else if (row.status === 'flagged') count.flagged++;
        }
      }
      const langs = config.translate.langs.join(',');
      return `translate (${langs}): ${records.length} records, ${count.translated} sent to the model, ${count.copied} copied from a record with the same text, ${count.unchanged} unchanged, ${count.same} already in the language; `
        + `stored now: ${count.failed} failed, ${count.flagged} flagged by a check (${count.inconsistent} for a term translated two ways)${pruned ? `, ${pruned} rows of removed items dropped` : ''}; `
        + `model ${llm.model}: ${usage.requests} requests, ${usage.promptTokens} + ${usage.completionTokens} tokens`;
    },
  };
}
