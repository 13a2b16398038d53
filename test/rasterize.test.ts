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
import { loadGray, renderGray } from '../pipeline/pixels/gray.ts';
import { openPdf, renderPage } from '../pipeline/providers/pdf.ts';

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

  it('draws a page to grey as sharp makes a PNG of it grey, give or take one on a coloured pixel', async () => {
    const pdf = await openPdf(new Uint8Array(fs.readFileSync(SAMPLE)));
    const page = await pdf.getPage(1);
    const direct = await renderGray(page, 100);
    const viaPng = await loadGray(await renderPage(page, 100));
    await pdf.destroy();
    expect([direct.width, direct.height]).toEqual([viaPng.width, viaPng.height]);
    let differ = 0, most = 0;
    for (let i = 0; i < direct.data.length; i++) {
      const d = Math.abs(direct.data[i] - viaPng.data[i]);
      if (d) differ++;
      most = Math.max(most, d);
    }
    expect(most).toBeLessThanOrEqual(1);
    expect(differ / direct.data.length).toBeLessThan(0.001);
  });
});

