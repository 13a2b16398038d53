// figures: what counts as a figure (drawings, images, tables) and what does not (frames, rules).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { BBox, Question, Shape } from '../pipeline/document.ts';
import { bboxUnion, centerX, centerY, contains, intersects } from '../pipeline/document.ts';
import { optionMarkers } from '../pipeline/figures/option-cells.ts';
import { cropPng } from '../pipeline/providers/image.ts';
import { openPdf, renderPage } from '../pipeline/providers/pdf.ts';
import type { StageContext } from '../pipeline/stage.ts';
import { composeStem } from '../pipeline/stages/compose.ts';
import { classify, figuresStage, findFigures } from '../pipeline/stages/figures.ts';
import type { Box } from '../pipeline/pixels/runs.ts';
import type { Store } from '../pipeline/store/db.ts';
import { analyse, config, templates } from './analyse.ts';
import { haveShared, SHARED } from './helpers.ts';
import { haveChromium, launch } from './review-browser.ts';

const shape = (kind: Shape['kind'], bbox: BBox): Shape => ({ page: 1, kind, bbox, visible: true });
const frame = (x0: number, y0: number, x1: number, y1: number, gap = false): Shape[] => [
  ...(gap ? [shape('line', [x0, y0, x0 + 100, y0]), shape('line', [x0 + 150, y0, x1, y0])] : [shape('line', [x0, y0, x1, y0])]),
  shape('line', [x0, y1, x1, y1]), shape('line', [x0, y0, x0, y1]), shape('line', [x1, y0, x1, y1]),
];

describe('figures', () => {
  it('does not take a box around conditions for a figure, even with a gap for its title', () => {
    expect(classify(frame(448, 321, 753, 439))).toBeNull();
    expect(classify(frame(448, 321, 753, 439, true))).toBeNull();
    expect(classify([shape('rect', [448, 321, 753, 439])])).toBeNull();
  });

  it('takes ruled grids for tables, curves and diagonals for drawings, images for images', () => {
    const grid = [...frame(100, 100, 400, 160), shape('line', [100, 130, 400, 130]), shape('line', [200, 100, 200, 160]), shape('line', [300, 100, 300, 160])];
    expect(classify(grid)).toBe('table');
    expect(classify([shape('path', [100, 100, 300, 250]), shape('line', [100, 250, 320, 250])])).toBe('drawing');
    expect(classify([shape('line', [100, 100, 300, 250]), shape('line', [100, 250, 320, 250])])).toBe('drawing');
    expect(classify([shape('image', [100, 100, 300, 230])])).toBe('image');
  });

  it('takes one path spanning its box for a drawing where no text fills it, for a frame where text does', () => {
    const span = (bbox: BBox) => ({ page: 1, text: 'word word word', bbox, baseline: bbox[3], size: 10, font: 'x', math: false });
    expect(classify([shape('path', [100, 100, 300, 250])], [])).toBe('drawing');
    expect(classify([shape('path', [100, 100, 300, 250])], [span([110, 110, 290, 124]), span([110, 130, 290, 144]), span([110, 150, 290, 164])])).toBeNull();
    expect(classify([shape('rect', [100, 100, 300, 250])], [])).toBeNull();
  });

  it('ignores rules and bars too small to be a figure', () => {
    expect(classify([shape('line', [100, 100, 160, 100])])).toBeNull();
    expect(classify([shape('path', [100, 100, 110, 112])])).toBeNull();
  });
});

/** The widest blank band across a crop's ink, as a share of its width (x) and height (y): two graphs side by side or stacked leave one. */
async function blankBands(file: string): Promise<{ x: number; y: number; ink: number }> {
  const { data, info } = await sharp(file).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  const cols = new Array(info.width).fill(0), rows = new Array(info.height).fill(0);
  let ink = 0;
  for (let y = 0; y < info.height; y++) for (let x = 0; x < info.width; x++) if (data[y * info.width + x] < 160) { cols[x]++; rows[y]++; ink++; }
  const widest = (p: number[]) => {
    const first = p.findIndex(v => v > 0), last = p.length - 1 - [...p].reverse().findIndex(v => v > 0);
    let best = 0, run = 0;
    for (let i = first; i <= last; i++) { run = p[i] ? 0 : run + 1; best = Math.max(best, run); }
    return best / p.length;
  };
  return { x: widest(cols), y: widest(rows), ink };
}

/** Register → compose with the figures stage on the pages of the named questions only (rendered here, not the whole paper). */
async function withFigures(file: string, numbers: number[], yearDir: string): Promise<Question[]> {
  const doc = await analyse(file);
  const qs = doc.questions.filter(q => numbers.includes(q.number));
  fs.mkdirSync(path.join(yearDir, 'pages'), { recursive: true });
  const pdf = await openPdf(new Uint8Array(fs.readFileSync(file)));
  try {
    for (const p of new Set(qs.flatMap(q => q.regions.map(r => r.page)))) {
      const rel = `pages/${doc.sha256.slice(0, 12)}-${p}.png`;
      fs.writeFileSync(path.join(yearDir, rel), await renderPage(await pdf.getPage(p), config.dpi));
      doc.pages[p - 1].image = rel;
    }
  } finally {
    await pdf.destroy();
  }
  const ctx: StageContext = { config: { ...config, yearDir }, templates, store: undefined as unknown as Store, runKey: 'test' };
  await figuresStage().run(doc, ctx);
  return qs;
}

describe.skipIf(!haveShared())('options that are pictures (PAES)', () => {
  const PAES = path.join(SHARED, 'fixtures', 'papers', 'paes');
  const yearDir = fs.mkdtempSync(path.join(os.tmpdir(), 'option-pictures-'));
  // Read by eye on the pages: graphs as options (28, 31: lines; 54: bar charts and histograms),
  // tables as options (2024 55); 2022 23 prints its options as boxed systems of equations: text.
  const GRAPHS: Record<string, number[]> = { 'M1-2022-1': [28, 31, 54], 'M1-2024-1': [54, 55] };
  const TABLES: Record<string, number[]> = { 'M1-2024-1': [55] };

  for (const [paper, numbers] of Object.entries(GRAPHS)) {
    it(`${paper}: every option of ${numbers.join(', ')} carries its own crop of one picture, in option order`, async () => {
      const file = path.join(PAES, `${paper}.pdf`);
      const extra = paper === 'M1-2022-1' ? [23] : [];
      const qs = await withFigures(file, [...numbers, ...extra], yearDir);
      for (const q of qs.filter(x => numbers.includes(x.number))) {
        const where = `${paper} ${q.number}`;
        expect(q.options.length, where).toBeGreaterThanOrEqual(4);
        const markers = optionMarkers(q)!;
        const crops = q.options.map(o => q.figures.find(f => f.path === o.image));
        expect(crops.every(Boolean), where).toBe(true);
        // The TI images: the question's own figures, then one per option in option order.
        expect(q.figures.slice(-q.options.length).map(f => f.path), where).toEqual(q.options.map(o => o.image));
        for (const [i, f] of crops.entries()) {
          // Position: below and right of its own label, holding no other label, apart from the other crops.
          const own = markers[i].span.bbox;
          expect(centerX(f!.bbox) > own[0] && centerY(f!.bbox) > own[1], `${where} ${q.options[i].label}`).toBe(true);
          for (const [j, m] of markers.entries()) if (j !== i) expect(contains(f!.bbox, m.span.bbox), `${where} ${q.options[i].label} holds ${q.options[j].label}`).toBe(false);
          for (const [j, g] of crops.entries()) if (j !== i) expect(intersects(f!.bbox, g!.bbox), `${where} ${q.options[i].label} overlaps ${q.options[j].label}`).toBe(false);
          // Ink: one picture, with no blank band across it as two side by side or stacked leave.
          const bands = await blankBands(path.join(yearDir, f!.path!));
          expect(bands.ink, `${where} ${q.options[i].label}`).toBeGreaterThan(500);
          expect(Math.max(bands.x, bands.y), `${where} ${q.options[i].label}`).toBeLessThan(0.15);
        }
        // What is drawn inside a graph is the graph's, not the option's text.
        // A table's cells are text: each option its own table's, row by row.
        if (TABLES[paper]?.includes(q.number)) for (const o of q.options) expect(o.text, `${where} ${o.label}`).toMatch(/^Sueldos Frecuencia( (\d,\d|\[\d, \d\[) \d+){4}$/);
        else expect(q.options.filter(o => o.text).map(o => o.text), where).toEqual([]);
      }
      if (paper === 'M1-2022-1') {
        // The check can fail: a crop of two graphs (A and B side by side) shows the band between them.
        const q28 = qs.find(q => q.number === 28)!;
        const [a, b] = [q28.options[0], q28.options[1]].map(o => q28.figures.find(f => f.path === o.image)!.bbox);
        const two = path.join(yearDir, 'two.png');
        const page = path.join(yearDir, `pages/${fs.readdirSync(path.join(yearDir, 'pages')).find(n => n.endsWith(`-${q28.page}.png`))}`);
        await cropPng(page, bboxUnion([a, b]), config.dpi / 72, two);
        expect((await blankBands(two)).x).toBeGreaterThanOrEqual(0.15);
        // Options that are text in a ruled box keep their text (with the box's crop alongside).
        const q23 = qs.find(q => q.number === 23)!;
        // (Compared less `$`, spaces and the minus sign's form, which the math stage decides.)
        expect(q23.options.map(o => o.text.replace(/[\s$]+/g, '').replace(/−/g, '-'))).toEqual(['x+y=423x+\\frac{y}{2}=y', 'x=42-y\\frac{x}{3}+\\frac{y}{2}=y', 'y=42+x3y+\\frac{x}{2}=x', 'x=42+y\\frac{x}{3}+\\frac{y}{2}=y']);
      }
    }, 400_000);
  }
});

/** A quiz printed by Chromium from HTML, read up to its questions, each given the figures found for it. */
async function printedQuiz(style: string, body: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-'));
  const file = path.join(dir, 'quiz.pdf');
  const browser = await launch();
  try {
    const page = await browser.newPage();
    await page.setContent(`<!doctype html><meta charset="utf-8"><style>body{font-family:serif;font-size:14px;margin:40px} p{margin:6px 0}${style}</style>
      <h2>Geometry quiz</h2>${body}
      <p>(A) 40°  (B) 60°  (C) 70°  (D) 80°</p>
      <p>2. What is 3 + 4?</p>
      <p>(A) 5  (B) 6  (C) 7  (D) 8</p>`);
    await page.pdf({ path: file, format: 'A4' });
  } finally {
    await browser.close();
  }
  const doc = await analyse(file, 'segment');
  for (const [q, figures] of findFigures(doc)) q.figures = figures;
  return doc;
}

describe.skipIf(!haveChromium())('an inline vector figure', () => {
  it('a triangle printed from an inline SVG is a figure with its labels, and they do not leak into the stem', async () => {
    const doc = await printedQuiz('', `<p>1. In the triangle ABC below, AB = AC and the angle at A is 40°. Find the angle at B.</p>
      <svg width="220" height="170" viewBox="0 0 220 170"><polygon points="110,15 20,150 200,150" fill="none" stroke="black" stroke-width="1.5"/>
      <text x="104" y="12" font-size="14">A</text><text x="6" y="162" font-size="14">B</text><text x="204" y="162" font-size="14">C</text></svg>`);
    const [q1, q2] = doc.questions;
    expect(q1.figures.map(f => f.kind)).toEqual(['drawing']);
    const labels = doc.pages[0].spans.filter(s => /^[ABC]$/.test(s.text.trim()));
    expect(labels.length).toBe(3);
    for (const s of labels) expect(contains(q1.figures[0].bbox, s.bbox), s.text).toBe(true);
    expect(composeStem(q1, doc.template)).toBe('In the triangle ABC below, AB = AC and the angle at A is 40°. Find the angle at B.');
    expect(q1.options.map(o => o.text)).toEqual(['40°', '60°', '70°', '80°']);
    expect(q2.figures).toEqual([]);
  }, 120_000);
});

describe.skipIf(!haveChromium())('a line set just above a drawing', () => {
  it('is the question\'s text, not the drawing\'s labels, though its words are each as narrow as a label', async () => {
    // OCR reads a line word by word, and a text layer breaks it where a glyph comes from another
    // font (Vietnamese `ư`, `ẽ`): pieces as narrow as a label. The line stands just above the
    // triangle and runs on past its right side.
    const words = 'Cho tam giác ABC như hình vẽ dưới đây, tính góc';
    const doc = await printedQuiz('i{font-style:normal;display:inline-block;margin-right:5px}', `<p style="margin-bottom:0">1. ${words.split(' ').map(w => `<i>${w}</i>`).join('')}</p>
      <svg width="160" height="120" viewBox="0 0 160 120" style="display:block;margin-left:30px"><polygon points="80,4 10,110 150,110" fill="none" stroke="black" stroke-width="1.5"/>
      <text x="0" y="118" font-size="12">B</text><text x="150" y="118" font-size="12">C</text></svg>`);
    const q = doc.questions[0];
    expect(q.figures.map(f => f.kind)).toEqual(['drawing']);
    const first = doc.lines.find(l => l.spans.some(s => s.text.includes('giác')))!;
    // Some of its pieces are as narrow as a label and stand within a label's reach of the strokes.
    expect(first.spans.filter(s => s.bbox[2] - s.bbox[0] < 40 && q.figures[0].bbox[1] - s.bbox[3] < 10).length).toBeGreaterThan(0);
    for (const s of first.spans) expect(intersects(q.figures[0].bbox, s.bbox), s.text).toBe(false);
    for (const s of doc.pages[0].spans.filter(s => /^[BC]$/.test(s.text.trim()))) expect(contains(q.figures[0].bbox, s.bbox), s.text).toBe(true);
    expect(composeStem(q, doc.template)).toBe(words);
  }, 120_000);
});

describe.skipIf(!haveChromium())('a short numbered line set just above a drawing', () => {
  it('keeps the words after the question\'s number in the stem, however narrow and near the drawing', async () => {
    // `1. 5² の値を求めよ。` over a row of pictured options: the whole line is narrower than the
    // drawings' row, so no rule of running past their sides tells it from their labels.
    const doc = await printedQuiz('', `<p style="margin-bottom:0">1. Find 2<sup>4</sup> now.</p>
      <svg width="90" height="90" viewBox="0 0 90 90" style="display:block;margin-left:12px"><path d="M5,10 Q45,150 85,10" fill="none" stroke="black" stroke-width="1.5"/>
      <line x1="0" y1="70" x2="90" y2="70" stroke="gray"/><line x1="45" y1="2" x2="45" y2="90" stroke="gray"/></svg>`);
    const q = doc.questions[0];
    expect(q.figures.map(f => f.kind)).toEqual(['drawing']);
    const first = doc.lines.find(l => l.spans.some(s => s.text.includes('now')))!;
    for (const s of first.spans) expect(intersects(q.figures[0].bbox, s.bbox), s.text).toBe(false);
    expect(composeStem(q, doc.template)).toBe('Find $2^{4}$ now.');
  }, 120_000);
});

describe('drawings on a page read from its pixels', () => {
  // A 400×300 picture: a circle (one piece of strokes) with a label just outside it, a frame round
  // two words of text, and a row of small glyphs; OCR read a "word" out of the circle's stroke.
  const W = 400, H = 300;
  const data = new Uint8Array(W * H).fill(255);
  const ink = (x: number, y: number) => { data[y * W + x] = 0; };
  for (let a = 0; a < 2 * Math.PI; a += 0.002) for (const r of [59, 60]) ink(Math.round(100 + r * Math.cos(a)), Math.round(100 + r * Math.sin(a)));
  for (let y = 30; y < 38; y++) for (let x = 168; x < 174; x++) ink(x, y); // the label, 8 px right of the circle's top right
  for (let x = 220; x < 380; x++) { ink(x, 40); ink(x, 120); }
  for (let y = 40; y <= 120; y++) { ink(220, y); ink(379, y); }
  for (let y = 70; y < 90; y++) for (let x = 240; x < 360; x++) if (x % 6 < 3) ink(x, y); // text in the frame
  for (let k = 0; k < 10; k++) for (let y = 250; y < 262; y++) for (let x = 20 + k * 14; x < 28 + k * 14; x++) ink(x, y);
  const g = { width: W, height: H, data };
  const words = [
    { bbox: [238, 68, 362, 92] as [number, number, number, number] }, // the framed text
    { bbox: [155, 95, 162, 105] as [number, number, number, number] }, // read out of the circle's right side
    { bbox: [18, 248, 160, 264] as [number, number, number, number] }, // the glyphs
  ];
  it('finds a piece of strokes larger than any glyph, with its labels, and not a frame round text', async () => {
    const { drawingsIn } = await import('../pipeline/pixels/drawings.ts');
    const found = drawingsIn(g, [[0, 0, W, H]], words, 72, 48, 10);
    expect(found.boxes).toEqual([[40, 30, 174, 161]]);
    // What OCR read on the circle's stroke is no text; the frame's text and the glyphs are.
    expect([...found.strokes]).toEqual([1]);
    // Without room for labels the drawing is its strokes alone.
    expect(drawingsIn(g, [[0, 0, W, H]], words, 72, 48, 0).boxes).toEqual([[40, 40, 161, 161]]);
  });

  it('paints out a drawing\'s strokes (not its box) for reading the text near it, faint grey axes and the picture\'s own strokes with them, its label kept', async () => {
    const { drawingsIn } = await import('../pipeline/pixels/drawings.ts');
    const w = 300, h = 160;
    const traced = new Uint8Array(w * h).fill(255);
    // A parabola over its axes (the axes faint grey, lighter than ink), the label `a)` beside its top
    // left, and a text line above it all.
    for (let x = 50; x < 210; x++) traced[120 * w + x] = 190;
    for (let y = 30; y < 150; y++) traced[y * w + 130] = 190;
    const curve = (x: number) => Math.round(40 + ((x - 130) / 70) ** 2 * 90);
    for (let x = 60; x < 200; x++) for (let y = Math.min(curve(x), curve(x + 1)); y <= Math.max(curve(x), curve(x + 1)); y++) traced[y * w + x] = 0;
    for (let y = 34; y < 44; y++) for (let x = 40; x < 50; x++) traced[y * w + x] = 0;
    for (let y = 10; y < 20; y++) for (let x = 40; x < 260; x++) if (x % 5 < 3) traced[y * w + x] = 0;
    // The picture bands are read from: the same, with a second curve the traced picture lacks.
    const read = Uint8Array.from(traced);
    for (let x = 140; x < 200; x++) read[100 * w + x] = 0;
    read[100 * w + 139] = 180;
    const g = { width: w, height: h, data: traced };
    const found = drawingsIn(g, [[0, 0, w, h]], [{ bbox: [38, 8, 262, 22] }], 72, 48, 12);
    expect(found.boxes.length).toBe(1);
    const clean = found.withoutStrokes({ width: w, height: h, data: read }, 1);
    const dark = (b: Box, below = 200) => { let n = 0; for (let y = b[1]; y < b[3]; y++) for (let x = b[0]; x < b[2]; x++) if (clean.data[y * w + x] < below) n++; return n; };
    // The curve, the faint axes and the second curve are gone; the label and the text line stay whole.
    expect(dark([55, 30, 215, 155])).toBe(0);
    expect(dark([40, 34, 50, 44])).toBe(100);
    expect(dark([40, 10, 260, 20])).toBe(1320);
    // The traced picture is left as it was.
    expect(traced[120 * w + 100]).toBe(190);
    // Text inside the curve's box is the drawing's own; its label beside it and the line above are not.
    expect([[100, 60, 120, 80], [40, 34, 50, 44], [40, 10, 260, 20]].map(b => found.holds(b as Box))).toEqual([true, false, false]);
  });

  it('takes a curve the scan broke in two for one drawing, and what OCR read over it, its box reaching past the strokes, for no text', async () => {
    const { drawingsIn } = await import('../pipeline/pixels/drawings.ts');
    // An axis pair with a curve from its origin up to a peak, and the curve's fall from the peak on,
    // parted from it by two blank pixels: two pieces, each within the other's labels' reach.
    const w = 300, h = 200;
    const px = new Uint8Array(w * h).fill(255);
    const ink = (x: number, y: number) => { px[y * w + x] = 0; };
    for (let x = 20; x < 280; x++) ink(x, 180);
    for (let y = 20; y <= 180; y++) ink(20, y);
    for (let x = 20; x < 120; x++) ink(x, Math.round(180 - 1.5 * (x - 20)));
    for (let x = 122; x < 260; x++) ink(x, Math.round(30 + (x - 122) * 0.9));
    const g = { width: w, height: h, data: px };
    // OCR's box for what it read out of the strokes stands two pixels past them at the top and left.
    const read = [{ bbox: [18, 18, 262, 182] as [number, number, number, number] }];
    const found = drawingsIn(g, [[0, 0, w, h]], read, 72, 48, 10);
    expect(found.boxes).toEqual([[20, 20, 280, 181]]);
    expect([...found.strokes]).toEqual([0]);
  });

  it('judges whole a piece that runs on out of its column\'s box: a frame round text set across two columns is none, a chart cut in two is one', async () => {
    const { drawingsIn } = await import('../pipeline/pixels/drawings.ts');
    const w = 400, h = 400;
    const px = new Uint8Array(w * h).fill(255);
    const ink = (x: number, y: number) => { px[y * w + x] = 0; };
    // A frame across both halves with five lines of instructions, all in the left half.
    for (let x = 20; x < 380; x++) { ink(x, 20); ink(x, 150); }
    for (let y = 20; y <= 150; y++) { ink(20, y); ink(379, y); }
    for (let y = 40; y < 130; y += 20) for (let x = 40; x < 180; x++) if (x % 6 < 3) for (let k = 0; k < 8; k++) ink(x, y + k);
    // A bar chart on a base line from x = 120 to 280, lower down.
    for (let x = 120; x < 280; x++) ink(x, 380);
    for (const [x0, top] of [[130, 300], [170, 260], [210, 320], [250, 280]]) for (let x = x0; x < x0 + 20; x++) for (let y = top; y < 380; y++) ink(x, y);
    const g = { width: w, height: h, data: px };
    const read = [40, 60, 80, 100, 120].map(y => ({ bbox: [40, y, 180, y + 8] as [number, number, number, number] }));
    // Two columns meeting at x = 200: the frame's right half holds no text, the chart is cut in two.
    expect(drawingsIn(g, [[0, 0, 200, h], [200, 0, w, h]], read, 50, 48, 10).boxes).toEqual([[120, 260, 280, 381]]);
  });
});

describe.skipIf(!haveChromium())('a paper printed twice side by side, a language a column', () => {
  it('gives each question the figures beside its own text and its twin, none of an earlier twin\'s', async () => {
    // Fuzzer seed 20261209, paper 0249: a table beside question 1's English and another beside 5's;
    // each twin's band reached up to the page's top, so questions 2–12 took them too.
    const { generatePapers } = await import('../fixtures/papers/generate.ts');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'twin-figures-'));
    await generatePapers({ seed: 20261209, count: 300, only: [249], out: dir });
    const doc = await analyse(path.join(dir, 'gen-20261209-0249.pdf'), 'segment');
    const found = findFigures(doc);
    const truth = fs.readFileSync(path.join(dir, 'truth', 'gen-20261209-0249.csv'), 'utf8').trim().split('\n').slice(1).map(r => r.split(','));
    const figured = (n: number) => (found.get(doc.questions.find(q => q.number === n)!) ?? []).length > 0;
    const pageOne = truth.filter(r => r[8] === '1').map(r => Number(r[2]));
    expect(pageOne.map(figured)).toEqual(truth.filter(r => r[8] === '1').map(r => r[9] === 'y'));
  }, 300_000);
});
