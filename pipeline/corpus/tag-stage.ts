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

/** Bump when the tagger's scoring changes: every tag is made again. */
const TAGGER_VERSION = 1;

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
      for (const r of records) {
        const input = crypto.createHash('sha256').update(treeKey).update(JSON.stringify([r.stem, r.options, r.section, r.exam, r.source.file])).digest('hex').slice(0, 16);
        if (known.get(r.id) === input) continue;
        const cue = tagRecord(r, trees, config.knowledgeSecondShare);
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
