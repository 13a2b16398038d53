// OCR provider: offline by construction. The language data comes from Debian's tessdata; a child
// process with every network call blocked (and, where it can be had, no network at all) still reads.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULTS, ROOT } from '../pipeline/config.ts';
import { closeOcr, OcrPool, OcrUnavailableError, TESSDATA } from '../pipeline/providers/ocr.ts';
import { analyse } from './analyse.ts';
import { openPdf, pageShapes, renderPage } from '../pipeline/providers/pdf.ts';
import { imagesToPdf } from '../pipeline/providers/image-pdf.ts';
import { isScan, scanImage } from '../pipeline/providers/scan.ts';
import { paperLanguage } from '../pipeline/ocr/paper-language.ts';
import { scriptOfText } from '../pipeline/text/script.ts';
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

/** An A4 page drawn from SVG (1240 × 1754 pixels), stored as a one-picture PDF as a scanner makes it, and the language its pixels are read in. */
async function languageOfScan(svg: string, name: string) {
  const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
  const size = { width: 595, height: 842 };
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'script-')), `${name}.pdf`);
  fs.writeFileSync(file, await imagesToPdf([{ image: jpeg, ...size }]));
  const pdf = await openPdf(new Uint8Array(fs.readFileSync(file)));
  const chosen = await paperLanguage(await pdf.getPage(1), size, DEFAULTS.ocrScripts, (await scanImage(file, 1)) ?? undefined);
  await pdf.destroy();
  return { file, chosen };
}

const canUnshare = spawnSync('unshare', ['-n', 'true']).status === 0;

describe('ocr', () => {
  it('has the language data installed locally', () => {
    for (const l of ['kor', 'eng', 'chi_sim', 'spa', 'jpn', 'rus', 'ell', 'ara', 'hin', 'tha', 'vie']) expect(fs.existsSync(path.join(TESSDATA, `${l}.traineddata`)), l).toBe(true);
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

  it('tells the script a text is written in, a bilingual page by its own language beside English', () => {
    expect(scriptOfText('Задача 1. Найдите значение выражения')).toBe('Cyrillic');
    expect(scriptOfText('가로가 16 cm, 세로가 10 cm인 직사각형의 넓이는? A rectangle measures 16 cm by 10 cm. What is its area')).toBe('Hangul');
    expect(scriptOfText('赤玉を取り出す確率を求めよ。')).toBe('Japanese');
    expect(scriptOfText('计算 15 + 6 × 7 的结果是')).toBe('Han');
    expect(scriptOfText('Cho cấp số cộng có số hạng đầu bằng 4 và công sai d = 3. Giá trị của u₃ bằng')).toBe('Vietnamese');
    expect(scriptOfText('Calcule el valor de la expresión. ¿Cuántas bolas quedan?')).toBe('Latin');
    // Nothing read (a blank page): no script is told but Latin's, never one with nothing of it.
    expect(scriptOfText('')).toBe('Latin');
    expect(scriptOfText('1. 2 + 3 = 5')).toBe('Latin');
  });

  it('reads a scanned page in the language of the script it is written in, found from a band of it', async () => {
    const lines = ['Задача 1. Найдите значение выражения 3 + 4 · 5.', 'А) 23   Б) 35   В) 27   Г) 32', 'Задача 2. Сколько книг прочитал класс за неделю?', 'А) 40   Б) 42   В) 44   Г) 46', 'Задача 3. Решите уравнение 2x + 6 = 20.'];
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1240" height="1754"><rect width="100%" height="100%" fill="white"/>${lines.map((l, i) => `<text x="120" y="${500 + i * 70}" font-family="DejaVu Sans" font-size="34">${l}</text>`).join('')}</svg>`;
    const { file, chosen } = await languageOfScan(svg, 'ru');
    expect(chosen).toMatchObject({ script: 'Cyrillic', lang: 'rus+eng' });
    expect(chosen?.sample).toMatch(/Задача|Найдите|Сколько|Решите/);
    // The whole paper read so: its pages in Russian, not look-alike Latin letters (`3anaua`).
    const doc = await analyse(file, 'text-layer');
    expect(doc.ocrLanguage).toMatchObject({ script: 'Cyrillic', lang: 'rus+eng' });
    expect(doc.pages[0].spans.map(s => s.text).join(' ')).toMatch(/Задача/);
  }, 180_000);

  it('tells a Japanese cover whose inkiest band is a title in kanji alone by a second band, where the kana are', async () => {
    // The title, set large and bold, holds the most ink and no kana: read alone it says Chinese.
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1240" height="1754"><rect width="100%" height="100%" fill="white"/>
      <text x="160" y="330" font-family="Noto Serif CJK JP" font-weight="bold" font-size="92">中学三年 数学 期末試験</text>
      <text x="160" y="900" font-family="Noto Serif CJK JP" font-size="30">問題冊子は指示があるまで開いてはいけません。</text>
      <text x="160" y="950" font-family="Noto Serif CJK JP" font-size="30">解答は解答用紙の所定の欄に記入しなさい。</text></svg>`;
    const { chosen } = await languageOfScan(svg, 'ja');
    expect(chosen).toMatchObject({ script: 'Japanese', lang: 'jpn+eng' });
  }, 180_000);
});
