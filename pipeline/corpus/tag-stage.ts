// tag: every record of the store gets its curriculum paths. Tags are redone only for records whose
// text, section or trees changed since they were made.
import crypto from 'node:crypto';
import { loadCurricula } from './curriculum.ts';
import type { CorpusStage } from './stage.ts';
import { tagRecord } from './tagger.ts';

/** Bump when the tagger's scoring changes: every tag is made again. */
const TAGGER_VERSION = 1;

export function tagStage(): CorpusStage {
  return {
    name: 'tag',
    async run({ config, store, records }) {
      const trees = loadCurricula(config.curriculumDir);
      const treeKey = JSON.stringify([TAGGER_VERSION, config.knowledgeSecondShare, trees.map(t => t.version)]);
      const known = store.knowledgeInputs();
      const rows = [];
      let weak = 0;
      for (const r of records) {
        const input = crypto.createHash('sha256').update(treeKey).update(JSON.stringify([r.stem, r.options, r.section, r.exam, r.source.file])).digest('hex').slice(0, 16);
        if (known.get(r.id) === input) continue;
        const { paths, note } = tagRecord(r, trees, config.knowledgeSecondShare);
        if (note) weak++;
        rows.push({ item: r.id, input, paths, note });
      }
      const changed = store.saveKnowledge(rows);
      return `tag: ${records.length} records, ${rows.length} tagged (${records.length - rows.length} unchanged, ${changed} changed), ${weak} with weak evidence, ${trees.length} trees`;
    },
  };
}
