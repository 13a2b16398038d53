// repeats: a paper whose pages come again (the shipped booklet three times over, put together with
// qpdf) is read once: one warning names the repeated pages as ranges, the repeats are neither
// rendered nor read, and the questions are the booklet's own. A scan repeated is told by its picture.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig, ROOT } from '../pipeline/config.ts';
import { imagesToPdf } from '../pipeline/providers/image-pdf.ts';
import { openPdf, pageSize, renderPage } from '../pipeline/providers/pdf.ts';
import { newDocument, runBatch } from '../pipeline/run.ts';
import { describeRepeats, repeatsStage } from '../pipeline/stages/repeats.ts';
import type { StageContext } from '../pipeline/stage.ts';
import { PaperCollector } from '../pipeline/store/paper-write.ts';

const SAMPLE = path.join(ROOT, 'fixtures/samples/2026-sample-math-dif.pdf');

describe('repeated pages', () => {
  it('describes repeats as ranges, grouped by the pages they repeat', () => {
    const of = (pairs: [number, number][]) => describeRepeats(new Map(pairs));
    expect(of([[5, 1], [6, 2], [7, 3], [8, 4], [9, 1], [10, 2], [11, 3], [12, 4]])).toBe('pages 5–8, 9–12 repeat pages 1–4');
    expect(of([[7, 3]])).toBe('page 7 repeats page 3');
    expect(of([[4, 2], [5, 3], [9, 1]])).toBe('pages 4–5 repeat pages 2–3; page 9 repeats page 1');
  });

  it('reads a booklet printed three times into one file once: one warning with the ranges, the repeats not rendered, its own questions', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'repeats-'));
    const inDir = path.join(dir, 'in');
    fs.mkdirSync(inDir);
    execFileSync('qpdf', ['--empty', '--pages', SAMPLE, SAMPLE, SAMPLE, '--', path.join(inDir, 'thrice.pdf')]);
    const result = await runBatch(resolveConfig({ year: '2026', inDir, outDir: path.join(dir, 'out'), progress: false }, { WORKERS: '1' }));
    const [paper] = result.papers;
    expect(paper.status).toBe('done');
    expect(paper.pages).toBe(12);
    expect(paper.pagesRendered).toBe(4);
    expect(paper.questions).toBe(10);
    const warnings = paper.messages.filter(m => m.rule === 'repeats/pages');
    expect(warnings.map(w => w.message)).toEqual(['pages 5–8, 9–12 repeat pages 1–4 (the same text and drawing): those 8 of the 12 pages are not read again']);
    const records = fs.readFileSync(result.itemsFile, 'utf8').trim().split('\n').map(l => JSON.parse(l));
    expect(records.map(r => r.page).every(p => p <= 4)).toBe(true);
    expect(fs.readdirSync(path.join(dir, 'out', '2026', 'pages'))).toHaveLength(4);
  }, 120_000);

  it('tells a repeated scan by its picture, and leaves distinct scans alone', async () => {
    // An image-only copy of the sample (pages drawn at 50 dpi, rebuilt from the pictures), then its pages 1, 2, 1, 3.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'repeats-scan-'));
    const pdf = await openPdf(new Uint8Array(fs.readFileSync(SAMPLE)));
    const pages = [];
    for (let n = 1; n <= 3; n++) {
      const page = await pdf.getPage(n);
      pages.push({ image: await renderPage(page, 50), ...pageSize(page) });
    }
    await pdf.destroy();
    const scan = path.join(dir, 'scan.pdf');
    fs.writeFileSync(scan, await imagesToPdf(pages));
    const repeated = path.join(dir, 'repeated.pdf');
    execFileSync('qpdf', ['--empty', '--pages', scan, '1,2,1,3', '--', repeated]);
    const doc = newDocument(repeated, new Uint8Array(fs.readFileSync(repeated)));
    const ctx: StageContext = { config: resolveConfig({ year: '2026', inDir: dir, outDir: dir }, {}), templates: [], store: new PaperCollector(), runKey: 'x' };
    ctx.pdf = await openPdf(doc.bytes);
    try {
      doc.pageCount = ctx.pdf.numPages;
      for (let n = 1; n <= doc.pageCount; n++) doc.pages.push({ number: n, ...pageSize(await ctx.pdf.getPage(n)), body: { y0: 0, y1: 0 }, columns: [], section: null, spans: [], shapes: [], furniture: [] });
      await repeatsStage().run(doc, ctx);
    } finally {
      await ctx.pdf.destroy();
    }
    expect(doc.pages.map(p => p.repeatOf ?? null)).toEqual([null, null, 1, null]);
    expect(doc.messages.list.map(m => m.message)).toEqual(['page 3 repeats page 1 (the same picture): those 1 of the 4 pages are not read again']);
  });
});
