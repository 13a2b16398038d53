// rasterize: page images at the configured resolution, cached by content hash.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { resolveConfig, ROOT } from '../pipeline/config.ts';
import { newDocument } from '../pipeline/run.ts';
import { registerStage } from '../pipeline/stages/register.ts';
import { rasterizeStage } from '../pipeline/stages/rasterize.ts';
import type { StageContext } from '../pipeline/stage.ts';
import type { Store } from '../pipeline/store/db.ts';
import { templates } from './analyse.ts';

const SAMPLE = path.join(ROOT, 'fixtures/samples/2026-sample-math-dif.pdf');

async function rasterize(outDir: string, dpi: number) {
  const config = resolveConfig({ year: '2026', outDir, dpi, progress: false }, {});
  const doc = newDocument(SAMPLE, new Uint8Array(fs.readFileSync(SAMPLE)));
  const ctx: StageContext = { config, templates, store: undefined as unknown as Store, runKey: 'test' };
  await registerStage().run(doc, ctx);
  await rasterizeStage().run(doc, ctx);
  await ctx.pdf?.destroy();
  return doc;
}

describe('rasterize', () => {
  it('renders every page at the configured resolution, once', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'raster-'));
    const first = await rasterize(out, 72);
    expect(first.counters).toMatchObject({ pagesRendered: 4 });
    const meta = await sharp(path.join(out, '2026', first.pages[0].image!)).metadata();
    expect(meta.width).toBe(Math.ceil(first.pages[0].width));
    expect(meta.height).toBe(Math.ceil(first.pages[0].height));
    const stats = await sharp(path.join(out, '2026', first.pages[0].image!)).stats();
    expect(stats.channels[0].min).toBeLessThan(60); // there is ink on the page
    const again = await rasterize(out, 72);
    expect(again.counters).toEqual({ pagesCached: 4 });
    const sharper = await rasterize(out, 144);
    expect(sharper.counters).toMatchObject({ pagesRendered: 4 });
    expect((await sharp(path.join(out, '2026', sharper.pages[0].image!)).metadata()).width).toBe(Math.ceil(first.pages[0].width * 2));
  });
});
