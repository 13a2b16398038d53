// OCR provider: offline by construction. The language data comes from Debian's tessdata; a child
// process with every network call blocked (and, where it can be had, no network at all) still reads.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../pipeline/config.ts';
import { closeOcr, OcrPool, OcrUnavailableError, TESSDATA } from '../pipeline/providers/ocr.ts';
import { analyse } from './analyse.ts';
import { openPdf, pageShapes, renderPage } from '../pipeline/providers/pdf.ts';
import { imagesToPdf } from '../pipeline/providers/image-pdf.ts';
import { isScan, scanImage } from '../pipeline/providers/scan.ts';
import os from 'node:os';
import sharp from 'sharp';

const SAMPLE = path.join(ROOT, 'fixtures/samples/2026-sample-math-dif.pdf');
afterAll(() => closeOcr());

async function samplePage(): Promise<string> {
  const file = path.join(ROOT, 'out', 'test', 'ocr-sample-p1.png');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const pdf = await openPdf(new Uint8Array(fs.readFileSync(SAMPLE)));
  fs.writeFileSync(file, await renderPage(await pdf.getPage(1), 200));
  await pdf.destroy();
  return file;
}

const canUnshare = spawnSync('unshare', ['-n', 'true']).status === 0;

describe('ocr', () => {
  it('has the language data installed locally', () => {
    for (const l of ['kor', 'eng', 'chi_sim', 'spa']) expect(fs.existsSync(path.join(TESSDATA, `${l}.traineddata`)), l).toBe(true);
    expect(() => new OcrPool('xyz')).toThrow(OcrUnavailableError);
  });

  it(`reads a page with every network call blocked${canUnshare ? ' and no network interface' : ''}`, async () => {
    const image = await samplePage();
    const cmd = [process.execPath, '--require', path.join(ROOT, 'test/no-network.cjs'), '--import', 'tsx', path.join(ROOT, 'test/ocr-probe.ts'), image];
    const r = canUnshare ? spawnSync('unshare', ['-n', ...cmd], { cwd: ROOT, encoding: 'utf8' }) : spawnSync(cmd[0], cmd.slice(1), { cwd: ROOT, encoding: 'utf8' });
    expect(r.stderr).not.toMatch(/network attempt blocked/);
    expect(r.status, r.stderr).toBe(0);
    // The guard ran in the main thread and in the OCR workers.
    expect((r.stderr.match(/no-network guard active/g) ?? []).length).toBeGreaterThanOrEqual(2);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(out.text).toMatch(/수학/);
    expect(out.text).toMatch(/값은/);
    expect(out.words).toBeGreaterThan(40);
  }, 120_000);

  it('recognises text that matches the text layer of the same page', async () => {
    const doc = await analyse(SAMPLE, 'text-layer');
    const pool = new OcrPool('kor+eng', 1);
    const { text } = await pool.recognize(await samplePage(), { mode: 'auto' });
    await pool.close();
    const layer = [...doc.pages[0].spans, ...doc.pages[0].furniture].map(s => s.text).join('');
    const hangul = (s: string) => [...s.replace(/\s/g, '')].filter(c => /\p{Script=Hangul}/u.test(c));
    const want = new Set(hangul(layer));
    const got = hangul(text);
    expect(got.filter(c => want.has(c)).length / got.length).toBeGreaterThan(0.9);
  }, 120_000);

  it('takes a scanned page\'s picture out of the PDF as stored, and nothing from a page that is not one picture', async () => {
    const jpeg = await sharp(await samplePage()).flatten({ background: '#ffffff' }).jpeg({ quality: 85 }).toBuffer();
    const size = { width: 595, height: 842 };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scan-'));
    const scan = path.join(dir, 'scan.pdf');
    fs.writeFileSync(scan, await imagesToPdf([{ image: jpeg, ...size }]));
    const pdf = await openPdf(new Uint8Array(fs.readFileSync(scan)));
    expect(isScan(await pageShapes(await pdf.getPage(1), 1), size)).toBe(true);
    await pdf.destroy();
    expect((await scanImage(scan, 1))?.equals(jpeg)).toBe(true);
    // Drawn smaller than the page, it is a picture on a page, not a scan.
    expect(isScan([{ page: 1, kind: 'image', bbox: [100, 100, 300, 300], visible: true }], size)).toBe(false);
    // The born-digital sample: text and drawings, no picture to take out.
    const sample = await openPdf(new Uint8Array(fs.readFileSync(SAMPLE)));
    expect(isScan(await pageShapes(await sample.getPage(1), 1), size)).toBe(false);
    await sample.destroy();
    expect(await scanImage(SAMPLE, 1)).toBeNull();
  });
});

