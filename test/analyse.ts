// Runs the stages up to segmentation on one paper, for tests that look at the document itself.
import fs from 'node:fs';
import path from 'node:path';
import { resolveConfig, ROOT } from '../pipeline/config.ts';

import type { PaperDocument } from '../pipeline/document.ts';
import { newDocument } from '../pipeline/run.ts';
import { registerStage } from '../pipeline/stages/register.ts';
import { textLayerStage } from '../pipeline/stages/text-layer.ts';
import { layoutStage } from '../pipeline/stages/layout.ts';
import { segmentStage } from '../pipeline/stages/segment.ts';
import { composeStage } from '../pipeline/stages/compose.ts';
import type { StageContext } from '../pipeline/stage.ts';
import { loadTemplates } from '../pipeline/template.ts';
import type { Store } from '../pipeline/store/db.ts';

export const config = resolveConfig({ year: '2099', outDir: path.join(ROOT, 'out', 'test', 'analyse'), progress: false }, {});
export const templates = loadTemplates(config.templatesDir, config.root);

/** register → text-layer → layout → segment → compose: no images, no figures, no store. */
export async function analyse(file: string, upTo: 'text-layer' | 'layout' | 'segment' | 'compose' = 'compose'): Promise<PaperDocument> {
  const doc = newDocument(file, new Uint8Array(fs.readFileSync(file)));
  const ctx: StageContext = { config, templates, store: undefined as unknown as Store, runKey: 'test' };
  const list = [registerStage(), textLayerStage(), layoutStage(), segmentStage(), composeStage()];
  const stop = list.findIndex(s => s.name === upTo);
  try {
    for (const s of list.slice(0, stop + 1)) await s.run(doc, ctx);
  } finally {
    await ctx.pdf?.destroy();
  }
  return doc;
}

export function parseCsv(text: string): Record<string, string>[] {
  const [head, ...rows] = text.trim().split(/\r?\n/).map(l => l.split(','));
  return rows.map(r => Object.fromEntries(head.map((h, i) => [h, r[i] ?? ''])));
}


