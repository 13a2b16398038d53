// tag: every record of the store gets its curriculum paths. Tags are redone only for records whose
// text, section or trees (or the model) changed since they were made. Where a model is configured
// and LLM_TAG=1 it chooses among the units the cues scored (pipeline/corpus/llm-tagger.ts).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makeClient, type Usage } from '../llm/client.ts';
import { loadCurricula } from './curriculum.ts';
import { tagWithLlm } from './llm-tagger.ts';
import type { CorpusStage } from './stage.ts';
import { tagRecord } from './tagger.ts';
import { proseOf, type CorpusRecord } from './record-text.ts';
import { paperLanguage } from '../text/language.ts';

/** Bump when the tagger's scoring changes: every tag is made again. */
const TAGGER_VERSION = 2;

export function tagStage(): CorpusStage {
  return {
    name: 'tag',
    input(config) {
      // The trees as they are on disk (an edit without a version bump still counts here).
      const dir = config.curriculumDir;
      const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter(f => f.endsWith('.json')).sort() : [];
      const h = crypto.createHash('sha256').update(JSON.stringify([TAGGER_VERSION, config.knowledgeSecondShare, config.llmTag && config.llm && [config.llm.baseURL, config.llm.model]]));
      for (const f of files) h.update(`\0${f}\0`).update(fs.readFileSync(path.join(dir, f)));
      return h.digest('hex');
    },
    async run({ config, store, records }) {
      const trees = loadCurricula(config.curriculumDir);
      const treeKey = JSON.stringify([TAGGER_VERSION, config.knowledgeSecondShare, trees.map(t => t.version), config.llmTag && config.llm && [config.llm.baseURL, config.llm.model]]);
      const client = config.llm && config.llmTag ? makeClient(config.llm) : null;
      const usage: Usage = { requests: 0, promptTokens: 0, completionTokens: 0 };
      const known = store.knowledgeInputs();
      const rows = [];
      let noted = 0;
      const languageOf = paperLanguages(records);
      for (const r of records) {
        const input = crypto.createHash('sha256').update(treeKey).update(JSON.stringify([r.stem, r.options, r.section, r.exam, r.source.file])).digest('hex').slice(0, 16);
        if (known.get(r.id) === input) continue;
        const cue = tagRecord(r, trees, config.knowledgeSecondShare, languageOf(r));
        const { paths, note } = client && config.llm ? await tagWithLlm(client, config.llm, r, cue, usage) : cue;
        if (note) noted++;
        rows.push({ item: r.id, input, paths, note });
      }
      const changed = store.saveKnowledge(rows);
      const model = client ? `, model: ${usage.requests} requests, ${usage.promptTokens} + ${usage.completionTokens} tokens` : '';
      return `tag: ${records.length} records, ${rows.length} tagged (${records.length - rows.length} unchanged, ${changed} changed), ${noted} with a note (weak evidence or an unusable model reply), ${trees.length} trees${model}`;
    },
  };
}

/**
 * Each paper's language, decided once over all its records' text where its template declares none
 * (`und`): one short question alone may not tell German from English, the whole paper does.
 */
export function paperLanguages(records: readonly CorpusRecord[]): (r: CorpusRecord) => string | null {
  const texts = new Map<string, string[]>();
  for (const r of records) {
    const t = texts.get(r.source.sha256) ?? [];
    t.push(...[r.stem, ...r.options.map(o => o.text)].map(proseOf));
    texts.set(r.source.sha256, t);
  }
  const cache = new Map<string, string | null>();
  return r => {
    const key = `${r.source.sha256}\0${r.exam.language ?? ''}`;
    if (!cache.has(key)) cache.set(key, paperLanguage(r.exam.language, () => (texts.get(r.source.sha256) ?? []).join(' ')));
    return cache.get(key)!;
  };
}
