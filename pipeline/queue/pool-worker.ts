// One process of the WORKERS=n pool: reads the papers it is sent, one at a time, and sends back
// each paper's outcome and rows. It writes page images and figure crops (names fixed by the
// paper's hash) but never the store. It ends when the pool disconnects.
import type { Config } from '../config.ts';
import { closeOcr } from '../providers/ocr.ts';
import { analysePaper, type PaperJob, type PaperResult, type PaperSettings } from '../paper.ts';
import { loadTemplates } from '../template.ts';

export type PoolRequest = { type: 'init'; config: Config } | { type: 'paper'; job: PaperJob };
export interface PoolReply { result: PaperResult }

let settings: PaperSettings | undefined;

process.on('message', (m: PoolRequest) => {
  if (m.type === 'init') {
    settings = { config: Object.freeze(m.config), templates: loadTemplates(m.config.templatesDir, m.config.root) };
    return;
  }
  if (!settings) throw new Error('internal: a paper before the pool worker was given its settings');
  void analysePaper(m.job, settings).then(result => process.send!({ result } satisfies PoolReply));
});

process.on('disconnect', () => { void closeOcr().finally(() => process.exit(0)); });
