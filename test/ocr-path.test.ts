// The OCR path: image-only copies of KICE booklets (every page rasterised by poppler at 200 dpi
// and rebuilt as a PDF of grey pictures, made here from ../shared, keys beside them) go through the
// same layout and segmentation as a text layer, and must score recall, points and answers ≥ 0.97
// with every page right. The pieces that make that possible are tested on their own first.
// Which booklets: one of each of the nine sittings, the electives in turn, and all three of
// 2022-11 (the sitting whose figures the README's figure figures were first measured on): eleven
// of 27. The sittings share their common part (questions 1–22) across electives, so the eleven
// hold every common page; reading all 27 took 1500 s or more of the suite's time on its own
// (OCR_PATH_BOOKLETS=all reads them all, as the README's image-only figures were measured).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../pipeline/config.ts';
import { inferIndexes, type Ring } from '../pipeline/ocr/rings.ts';
import { findColumnsFromInk } from '../pipeline/ocr/columns.ts';
import type { Gray } from '../pipeline/pixels/gray.ts';
import { runBatch } from '../pipeline/run.ts';
import { ocrNumberText } from '../pipeline/stages/segment.ts';
import { nearlyContains } from '../pipeline/stages/text-layer.ts';
import { alignNumbers, misreadings } from '../pipeline/text/number-run.ts';
import { haveShared, KCSAT, lintOf, SCORER, TEST_OUT, TRUTH } from './helpers.ts';
import { imageOnlyCopies } from './image-only.ts';

const ring = (x: number, y: number, index: number): Ring => ({ box: [x, y, x + 40, y + 40], index });

describe('circled markers told by their ring', () => {
  it('fills digits OCR could not read, and corrects one it misread, from the run of the line', () => {
    const found = inferIndexes([ring(0, 0, 1), ring(100, 2, 0), ring(200, 0, 3), ring(300, 1, 4), ring(400, 0, 0)]);
    expect(found.map(r => r.index)).toEqual([1, 2, 3, 4, 5]);
    // ⑤ read as 3 on a second line after ①②③: the run carries on, ④⑤.
    const two = inferIndexes([ring(0, 0, 1), ring(100, 0, 2), ring(200, 0, 3), ring(0, 100, 4), ring(100, 100, 3)]);
    expect(two.map(r => r.index)).toEqual([1, 2, 3, 4, 5]);
  });

  it('takes a line of five unread rings for ①–⑤ and drops a lone ring nothing says anything about', () => {
    expect(inferIndexes([0, 1, 2, 3, 4].map(i => ring(i * 100, 0, 0))).map(r => r.index)).toEqual([1, 2, 3, 4, 5]);
    expect(inferIndexes([ring(0, 0, 0)])).toEqual([]);
    // A run that cannot fit five markers is cut to what fits.
    expect(inferIndexes([ring(0, 0, 4), ring(100, 0, 5)]).map(r => r.index)).toEqual([4, 5]);
  });
});

describe('question numbers as OCR reads them', () => {
  it.each([
    ['7, 함수', '7. 함수'],
    ['A, 함수', '4. 함수'],
    ['l2. 다음', '12. 다음'],
    ['28, 하나의', '28. 하나의'],
    ['3. 이미', '3. 이미'],
    ['0.5 이상', '0.5 이상'],
    ['함수 f(x)', '함수 f(x)'],
  ])('%s → %s', (read, meant) => expect(ocrNumberText(read)).toBe(meant));

  it('chooses the numbers of a section at once: a misreading takes its place, a stray candidate is dropped', () => {
    expect(alignNumbers([1, 2, 9, 4, 5], 1, 50)).toEqual([1, 2, 3, 4, 5]);
    expect(alignNumbers([1, 2, 3, 17, 4, 5], 1, 50)).toEqual([1, 2, 3, null, 4, 5]);
    // An unread mark at the margin fills a gap, and only a gap.
    expect(alignNumbers([1, 2, null, 4, 5], 1, 50)).toEqual([1, 2, 3, 4, 5]);
    expect(alignNumbers([1, 2, null, 3, 4], 1, 50)).toEqual([1, 2, null, 3, 4]);
    // A number nothing was found for stays missing; the last question read wrong is still the next one.
    expect(alignNumbers([23, 24, 26, 27], 23, 50)).toEqual([23, 24, 26, 27]);
    expect(alignNumbers([19, 20, 21, 29], 19, 50)).toEqual([19, 20, 21, 22]);
  });

  it('never lets the run override a number read: a misreading takes another number only where a neighbour\'s reading pins it, and is reported', () => {
    // Two misreadings in a row, pinned by 2 before and 5 after.
    const read = [1, 2, 9, 9, 5];
    expect(alignNumbers(read, 1, 50)).toEqual([1, 2, 3, 4, 5]);
    expect(misreadings(read, alignNumbers(read, 1, 50))).toEqual([2, 3]);
    // 9 read after a gap keeps its number, and the unreadable last mark follows it; the run does not
    // renumber 9 and what comes after as 7, 8.
    expect(alignNumbers([1, 2, 3, 4, 6, 9, 1], 1, 50)).toEqual([1, 2, 3, 4, 6, 9, 10]);
    // 2, 3, 4 read as 4, 9, 8: the 4 read stays 4, and what nothing pins is no question (not 2, 3, 4).
    expect(alignNumbers([1, 4, 9, 8, 5, 6], 1, 50)).toEqual([1, 4, null, null, 5, 6]);
    expect(misreadings([1, 2, 3, 17, 4, 5], alignNumbers([1, 2, 3, 17, 4, 5], 1, 50))).toEqual([]);
  });

  it('finds an elective\'s name in a running head OCR read with a letter wrong', () => {
    expect(nearlyContains('수학영역(획률과통계)', '확률과통계')).toBe(true);
    expect(nearlyContains('수학영역(미적분)', '확률과통계')).toBe(false);
    expect(nearlyContains('수학영역(기히)', '기하')).toBe(false);
  });
});

describe('columns of a scan found in its ink', () => {
  /** A white page (one pixel a point) with inked boxes on it. */
  const page = (w: number, h: number, boxes: [number, number, number, number][]): Gray => {
    const data = new Uint8Array(w * h).fill(255);
    for (const [x0, y0, x1, y1] of boxes) for (let y = y0; y < y1; y++) data.fill(0, y * w + x0, y * w + x1);
    return { width: w, height: h, data };
  };
  /** A line of words (40 wide, 8 apart) from x0 to x1 at y, 8 high (a line whose words stand closer is one piece of ink). */
  const words = (x0: number, x1: number, y: number) => Array.from({ length: Math.floor((x1 - x0) / 48) }, (_, i) => [x0 + i * 48, y, x0 + i * 48 + 40, y + 8] as [number, number, number, number]);

  it('splits a page printed in two columns with no rule between them, below a title and a box set across both', () => {
    // The right column's lines stand 5 points lower than the left's (a scan a little askew): a band
    // across the page would hold a line of each, read as one.
    const left = Array.from({ length: 25 }, (_, i) => words(50, 290, 150 + i * 22)).flat();
    const right = Array.from({ length: 25 }, (_, i) => words(320, 560, 155 + i * 22)).flat();
    const g = page(600, 800, [[150, 60, 450, 70], [50, 90, 560, 98], [50, 110, 560, 118], ...left, ...right]);
    const { top, columns } = findColumnsFromInk(g, { width: 600, height: 800 }, { y0: 40, y1: 760 }, [], 1);
    expect(columns).toHaveLength(2);
    expect(columns[0].x1).toBeLessThan(300);
    expect(columns[1].x0).toBeGreaterThan(310);
    // The title and the two lines of a box above (their words closer than a gutter) are one block across the page.
    expect(top).toBeGreaterThanOrEqual(118);
    expect(top).toBeLessThanOrEqual(150);
  });

  it('keeps a page in one column whose only line is a key\'s pairs set wide apart, under its title', () => {
    // Seed 20261213, paper 0524: `1.A 2.A … 19.C` alone on the key's page, its gaps wider than a gutter in three places.
    const pairs = [...words(40, 232, 100), ...words(262, 406, 100), ...words(436, 580, 100)];
    const g = page(600, 800, [[40, 60, 80, 70], ...pairs]);
    const { columns } = findColumnsFromInk(g, { width: 600, height: 800 }, { y0: 40, y1: 760 }, [], 1);
    expect(columns).toHaveLength(1);
    // Beside a column of lines, a second of lines is a column still.
    const flow = (x0: number, x1: number) => Array.from({ length: 12 }, (_, i) => words(x0, x1, 150 + i * 22)).flat();
    expect(findColumnsFromInk(page(600, 800, [...flow(50, 290), ...flow(320, 560)]), { width: 600, height: 800 }, { y0: 40, y1: 760 }, [], 1).columns).toHaveLength(2);
  });

  it('joins a column none of whose lines reaches across it to the column of text beside it: marks at the left of a right-to-left page, under the far end of a name line', () => {
    // Seed 20261214, paper 0028 (Arabic, one column): its marks `[1 درجات]` stand at the left edge,
    // under the end of the name line's rule; the questions run right to left from the right edge.
    const text = Array.from({ length: 20 }, (_, i) => words(300 + (i % 3) * 48, 552, 150 + i * 22)).flat();
    const marks = Array.from({ length: 20 }, (_, i) => i % 2 ? [] : [[50, 150 + i * 22, 98 + (i % 4) * 3, 158 + i * 22] as [number, number, number, number]]).flat();
    const rule: [number, number, number, number][] = [[210, 118, 256, 121], [226, 126, 256, 129]];
    const g = page(600, 800, [[150, 60, 450, 70], ...rule, ...marks, ...text]);
    expect(findColumnsFromInk(g, { width: 600, height: 800 }, { y0: 40, y1: 760 }, [], 1).columns).toHaveLength(1);
    // Marks as wide as their column, a column of lines of its own: two columns.
    const flow = Array.from({ length: 20 }, (_, i) => words(50, 250, 150 + i * 22)).flat();
    expect(findColumnsFromInk(page(600, 800, [[150, 60, 450, 70], ...flow, ...text]), { width: 600, height: 800 }, { y0: 40, y1: 760 }, [], 1).columns).toHaveLength(2);
  });

  it('keeps a page in one column whose lines run across the middle', () => {
    const lines = Array.from({ length: 25 }, (_, i) => words(50, 560, 150 + i * 22)).flat();
    const { columns } = findColumnsFromInk(page(600, 800, lines), { width: 600, height: 800 }, { y0: 40, y1: 760 }, [], 1);
    expect(columns).toHaveLength(1);
  });
});

// One booklet of each sitting, the electives in turn (dif, geo, pro, dif …), and every booklet of 2022-11.
const ELECTIVES = ['dif', 'geo', 'pro'];
const inTurn = (file: string, _i: number, all: string[]): boolean => {
  if (process.env.OCR_PATH_BOOKLETS === 'all') return true;
  const sitting = file.slice(0, 6);
  if (sitting === '202211') return true;
  const sittings = [...new Set(all.map(f => f.slice(0, 6)))];
  return file.includes(`-${ELECTIVES[sittings.indexOf(sitting) % ELECTIVES.length]}.pdf`);
};

describe.skipIf(!haveShared())('OCR path on image-only copies of the KICE booklets', () => {
  const dir = path.join(TEST_OUT, 'image-only');
  const inDir = path.join(dir, 'in');
  const out = path.join(dir, 'out');
  let seconds = 0;

  beforeAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    const t = Date.now();
    const booklets = fs.readdirSync(KCSAT).filter(f => f.endsWith('.pdf')).sort().filter(inTurn);
    await imageOnlyCopies(booklets.map(f => path.join(KCSAT, f)), inDir);
    console.log(`image-only copies of ${booklets.length} booklets made in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    const result = await runBatch(resolveConfig({ year: '2099', inDir, outDir: out, progress: false }, {}));
    seconds = result.seconds;
    expect(result.papers.filter(p => p.status !== 'done')).toEqual([]);
    console.log(`OCR ingest: ${result.papers.length} booklets, ${result.papers.reduce((n, p) => n + p.pages, 0)} pages in ${seconds.toFixed(1)} s`);
  }, 3_000_000);

  it('gives text with no control characters, private-use code points, bracket pieces or doubled text by the scorer\'s lint, and every option OCR could not read its crop (≥ 0.995 clean)', () => {
    const s = lintOf(path.join(out, '2099', 'items.jsonl'));
    console.log(`image-only lint: records=${s.lint_records} clean=${s.lint_clean} ${JSON.stringify(s.lint_counts)}`);
    for (const k of ['ctrl', 'pua', 'pieces', 'doubled']) expect(s.lint_counts[k] ?? 0, k).toBe(0);
    // Options OCR reads as nothing or alike (fractions, radicals) carry their printed cell: 0.89
    // before they did, 0.9975 after (the text layer of the same booklets: 1.0).
    expect(s.lint_clean).toBeGreaterThanOrEqual(0.995);
  });

  it('scores recall, points, answers and figures ≥ 0.97, precision and page 1', () => {
    const report = JSON.parse(execFileSync('node', [SCORER, '--items', path.join(out, '2099', 'items.jsonl'), '--truth', TRUTH, '--json'], { encoding: 'utf8' }));
    const s = report.summary;
    console.log(`image-only scorer: papers=${s.papers} questions=${s.questions} recall=${s.recall} precision=${s.precision} points=${s.points} answer=${s.answer} type=${s.type} options=${s.options} page=${s.page} figure=${s.figure}`);
    expect(s.papers).toBe(process.env.OCR_PATH_BOOKLETS === 'all' ? 27 : 11);
    expect(s.recall).toBeGreaterThanOrEqual(0.97);
    expect(s.points).toBeGreaterThanOrEqual(0.97);
    expect(s.answer).toBeGreaterThanOrEqual(0.97);
    expect(s.precision).toBeGreaterThanOrEqual(0.99);
    expect(s.page).toBe(1);
    // Figures on pages read from pixels are their drawings' ink (pixels/drawings.ts): 0.822 before
    // they were looked for there, 0.989 after, on the 90 questions whose figures the truth labels.
    expect(s.figure).toBeGreaterThanOrEqual(0.97);
  });

  it('reads every page of every copy by OCR, and finds each booklet\'s elective from its running head', () => {
    const recs = fs.readFileSync(path.join(out, '2099', 'items.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l));
    for (const f of fs.readdirSync(inDir).filter(f => f.endsWith('.pdf'))) {
      const elective = { pro: 'prob-stat', dif: 'calculus', geo: 'geometry' }[/-(pro|dif|geo)\.pdf$/.exec(f)![1] as 'pro' | 'dif' | 'geo'];
      const late = recs.filter(r => r.source.file === f && r.number >= 23);
      expect(late.filter(r => r.section === elective).length, f).toBeGreaterThanOrEqual(late.length - 1);
    }
  });
});
