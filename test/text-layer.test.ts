// text-layer: the equation font decoded through our own table, furniture set aside, page sections;
// CJK radical code points read as ideographs, legacy 8-bit fonts found by what their text is.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../pipeline/config.ts';
import { decodeSpan, splitFurniture, unicodeMathFonts } from '../pipeline/stages/text-layer.ts';
import type { PageInfo } from '../pipeline/document.ts';
import { decodeGlyphIds, glyphIdFonts, glyphIdTable } from '../pipeline/text/glyph-ids.ts';
import { drawnRules } from '../pipeline/text/drawn-rules.ts';
import { dropOverprint } from '../pipeline/text/overprint.ts';
import { dropHidden, markStroked } from '../pipeline/text/hidden.ts';
import { isBold } from '../pipeline/text/bold.ts';
import { framesOf } from '../pipeline/text/boxes.ts';
import { closingNotice } from '../pipeline/text/notice.ts';
import { isGradeTable } from '../pipeline/text/grade-table.ts';
import { isMarginFurniture, namesOwnPage } from '../pipeline/text/margins.ts';
import { isAddress, isStamp, paperFurniture, type FurniturePage } from '../pipeline/text/furniture.ts';
import { radicalTable, RADICAL, unifyRadicals } from '../pipeline/text/cjk-radicals.ts';
import { holdsLegacyText, isLegacy, legacyEvidence, legacyFonts } from '../pipeline/text/legacy-font.ts';
import { openPdf, pageGraphics, pageSpans } from '../pipeline/providers/pdf.ts';
import { markedSequences, pageActualText } from '../pipeline/providers/actual-text.ts';
import { unshapeArabic } from '../pipeline/text/presentation-forms.ts';
import { splitAcrossLines } from '../pipeline/text/run-lines.ts';
import { lineText } from '../pipeline/text/line-text.ts';
import { printHtml, printingPage } from '../fixtures/chromium.ts';
import { haveChromium } from './review-browser.ts';
import zlib from 'node:zlib';
import os from 'node:os';
import { legacyCodes } from '../fixtures/legacy-codes.ts';
import { analyse, templates } from './analyse.ts';
import { haveShared, KCSAT, SHARED } from './helpers.ts';

const kcsat = templates.find(t => t.id === 'kcsat-math')!;
const generic = templates.find(t => t.id === 'generic')!;

describe('text-layer', () => {
  it('decodes private-use glyphs of the equation font and flags formula runs', () => {
    const d = decodeSpan({ text: '\ue0ea\ue044\ue0fc\ue045 \ue047 \ue035\ue0fc', bbox: [0, 0, 1, 1], baseline: 1, size: 11, font: 'HyhwpEQ' }, kcsat);
    expect(d).toEqual({ text: 'f(x) = 2x', math: true, unknown: [] });
    const plain = decodeSpan({ text: '의 값은', bbox: [0, 0, 1, 1], baseline: 1, size: 11, font: 'HYSinMyeongJo' }, kcsat);
    expect(plain.math).toBe(false);
    const unknown = decodeSpan({ text: '\ue7ff', bbox: [0, 0, 1, 1], baseline: 1, size: 11, font: 'HyhwpEQ' }, kcsat);
    expect(unknown.unknown).toEqual([0xe7ff]);
  });

  it('reads the glyph codes Word gives Cambria Math (2ଷସ, ൅4, ඲) as characters, and leaves a paper in Odia as it is', () => {
    const table = glyphIdTable(ROOT);
    const runs = [{ text: '𝐴ଷସ', font: 'CIDFont+F4' }, { text: '൅4 ඲𝑒ଶ௫', font: 'CIDFont+F4' }, { text: 'ଓଡ଼ିଆ ଭାଷା ଶିକ୍ଷା', font: 'NotoSansOriya' }];
    const fonts = glyphIdFonts(runs, table);
    expect([...fonts]).toEqual(['CIDFont+F4']);
    expect(runs.map(r => (fonts.has(r.font) ? decodeGlyphIds(r.text, table) : r.text))).toEqual(['𝐴34', '+4 ∫𝑒2x', 'ଓଡ଼ିଆ ଭାଷା ଶିକ୍ଷା']);
  });

  it('takes a font that sets math italic letters more than Latin ones for a formula font, and its drawn bars for rules', () => {
    expect([...unicodeMathFonts([{ text: '𝑦 = 𝑎𝑥 + 𝑏', font: 'F4' }, { text: 'Cho hàm số 𝑥', font: 'F2' }])]).toEqual(['F4']);
    // 5/2 as Word exports it: the digits of F4 over and under a 6.6 pt filled rectangle.
    const g = (text: string, x: number, baseline: number) => ({ text, bbox: [x, baseline - 10, x + 6, baseline + 2] as [number, number, number, number], baseline, size: 12, font: 'F4' });
    const bar = { page: 1, kind: 'rect' as const, bbox: [343.8, 572.2, 350.4, 572.9] as [number, number, number, number], visible: true };
    const rules = drawnRules([bar], [g('5', 344, 566.9), g('2', 344, 584)], f => f === 'F4');
    expect(rules.map(r => [r.text, r.bbox[0], r.bbox[2], r.font])).toEqual([['―', 343.8, 350.4, 'F4']]);
    expect(drawnRules([bar], [g('5', 344, 566.9)], f => f === 'F4')).toEqual([]);
  });

  it('drops overprinted copies (same text within a fraction of an em), not equal glyphs side by side', () => {
    const g = (text: string, x: number, y = 100, size = 10) => ({ text, bbox: [x, y - 8.5, x + 6, y + 2] as [number, number, number, number], baseline: y, size });
    const spans = [g('확인 사항', 10), g('확인 사항', 10.3, 100.2), g('1', 50), g('1', 56), g('1', 50, 130)];
    expect(dropOverprint(spans)).toEqual([spans[0], spans[2], spans[3], spans[4]]);
  });

  it('leaves out a run only when every character of it was hidden over its box', () => {
    const run = (text: string, x: number) => ({ text, bbox: [x, 0, x + 20, 10] as [number, number, number, number] });
    const runs = [run('的', 0), run('的 值', 100), run('。', 200)];
    const { kept, dropped } = dropHidden(runs, [run('的', 2), run('的', 101), run('。', 400)]);
    expect(dropped).toEqual([runs[0]]);
    expect(kept).toEqual([runs[1], runs[2]]);
  });

  it('finds a frame drawn as four strokes, and the closing notice only at the foot of the last column', () => {
    const line = (b: [number, number, number, number]) => ({ page: 1, kind: 'line' as const, bbox: b, visible: true });
    const frame = [line([436, 960, 754, 960]), line([436, 1060, 754, 1060]), line([436, 960, 436, 1060]), line([754, 960, 754, 1060])];
    expect(framesOf([...frame, ...frame])).toEqual([[436, 960, 754, 1060]]);
    const sp = (text: string, x: number, y: number) => ({ page: 1, text, bbox: [x, y, x + 300, y + 11] as [number, number, number, number], baseline: y + 9, size: 11, font: 'F', math: false });
    const page = { shapes: frame, body: { y0: 150, y1: 1070 }, spans: [sp('22. 구하시오.', 440, 500), sp('확인 사항', 450, 970)] };
    expect(closingNotice(page, 421)).toEqual([436, 960, 754, 1060]);
    expect(closingNotice({ ...page, spans: [...page.spans, sp('(단, 자연수)', 440, 1062.5)] }, 421)).toBeNull();
    expect(closingNotice({ ...page, spans: [sp('22. 구하시오.', 440, 500)] }, 421)).toBeNull();
  });

  it('keeps a boxed heading in a scanned page\'s top margin in the body, and the margin\'s other text out of it', () => {
    // Fuzzer seed 20261208, paper 0047 (an A3 scan): each subject's page opens with its name in a
    // frame at y 46–64, above the share of the page a body starts at where no rule draws it (71).
    const sp = (text: string, x: number, y: number) => ({ page: 2, text, bbox: [x, y, x + 40, y + 12] as [number, number, number, number], baseline: y + 10, size: 10, font: 'ocr-bold', math: false });
    const page: PageInfo = { number: 2, width: 842, height: 1190, body: { y0: 0, y1: 1190 }, columns: [], section: null, spans: [], shapes: [{ page: 2, kind: 'rect', visible: true, bbox: [44, 46, 93, 64] }], furniture: [], ocr: true };
    const heading = sp('Φυσική', 46, 49), speck = sp('1ο Λύκειο', 400, 40), first = sp('1. Να υπολογίσετε', 40, 90);
    splitFurniture(page, [heading, speck, first], generic);
    expect(page.spans).toEqual([heading, first]);
    expect(page.furniture).toEqual([speck]);
  });

  it('keeps what stands level with a boxed heading kept in a scan\'s top margin, and starts the columns there', () => {
    // Fuzzer seed 20261216, paper 0021 (an A3 scan in two columns): `Phần A` in a frame atop the first
    // column, and the second column's first question on its row, both above the page's share (71 pt).
    const sp = (text: string, x: number, y: number) => ({ page: 2, text, bbox: [x, y, x + 40, y + 10] as [number, number, number, number], baseline: y + 8, size: 10, font: 'ocr', math: false });
    const page: PageInfo = { number: 2, width: 842, height: 1190, body: { y0: 0, y1: 1190 }, columns: [{ x0: 44, x1: 410 }, { x0: 439, x1: 784 }], columnsTop: 71, section: null, spans: [], shapes: [{ page: 2, kind: 'rect', visible: true, bbox: [56, 46, 98, 62] }], furniture: [], ocr: true };
    const heading = sp('Phần A', 60, 49), beside = sp('15 Giá trị của 10 + 7 · 4 bằng', 441, 47), above = sp('Sở Giáo dục', 400, 30), first = sp('1 Một hình', 55, 80);
    splitFurniture(page, [heading, beside, above, first], generic);
    expect(page.spans).toEqual([heading, beside, first]);
    expect(page.furniture).toEqual([above]);
    expect(page.columnsTop).toBe(47);
  });

  it('takes margin text for furniture by what it is: a page number alone on its line, a pattern, a line naming its page', () => {
    const sp = (text: string, y: number) => ({ page: 1, text, bbox: [50, y, 300, y + 10] as [number, number, number, number], baseline: y + 8, size: 10, font: 'F', math: false });
    expect(isMarginFurniture(sp('- 4 -', 780), [])).toBe(true);
    expect(isMarginFurniture(sp('© 2024 Board', 780), [/©/u])).toBe(true);
    expect(isMarginFurniture(sp('Câu 12. Cho hàm số', 20), [])).toBe(false);
    // A subscript beside a formula is no page number.
    const two = sp('2', 22), formula = { ...sp('H C O', 20), bbox: [20, 18, 48, 30] as [number, number, number, number] };
    expect(isMarginFurniture(two, [], [two, formula])).toBe(false);
    expect(isMarginFurniture(two, [], [two])).toBe(true);
    expect(namesOwnPage('Math 1271 - Quiz VI - Page 2 of 2', 2, 2)).toBe(true);
    expect(namesOwnPage('Trang 3/6 - Mã đề thi 101', 3, 6)).toBe(true);
    expect(namesOwnPage('第2页 共6页', 2, 6)).toBe(true);
    expect(namesOwnPage('Страница 1 из 2', 1, 2)).toBe(true);
    expect(namesOwnPage('1／1', 1, 1)).toBe(true);
    expect(namesOwnPage('Câu 2 và 2', 2, 6)).toBe(false);
  });

  it('sets aside the running head, page number and copyright line of the sample', async () => {
    const doc = await analyse(path.join(ROOT, 'fixtures/samples/2026-sample-math-dif.pdf'), 'text-layer');
    const body = doc.pages.flatMap(p => p.spans.map(s => s.text)).join(' ');
    const furniture = doc.pages.flatMap(p => p.furniture.map(s => s.text)).join(' ');
    expect(body).not.toMatch(/저작권|문제지|홀수형/);
    expect(furniture).toMatch(/저작권/);
    expect(doc.pages.map(p => p.section)).toEqual(['common', 'common', 'common', 'calculus']);
  });
});

describe('runs pdf.js joins across two lines', () => {
  type Box = [number, number, number, number];
  const glyph = (text: string, x: number, w: number, baseline: number, size = 10.5) => ({ text, bbox: [x, baseline - size * 0.85, x + w, baseline + size * 0.2] as Box, baseline, size, font: 'Deva-Bold' });
  const run = (text: string, x: number, w: number, baseline: number, size = 10.5) => ({ ...glyph(text, x, w, baseline, size), font: 'Deva-Bold' });

  it('cuts a heading\'s run that took the next line\'s first word, and sets the word where it was painted', () => {
    // Seed 20261208, paper 0015: the heading `… प्रश्न` and the next line's `प्रश्न 1`; pdf.js gives
    // `नप्रश्` at the heading's end, 6 points wide, and the next line starts at `न 1`.
    const glyphs = [glyph('प्र', 101, 6, 56), glyph('श्', 107, 5, 56), glyph('न', 112, 5, 56), glyph('प्र', 45, 6, 84), glyph('श्', 51, 5, 84), glyph('न', 56, 5, 84), glyph('1', 64, 6, 84)];
    const runs = [run('प्रश्', 101, 11, 56), run('नप्रश्', 112, 6, 56), run('न 1', 56, 14, 84)];
    const out = splitAcrossLines(runs, glyphs);
    expect(out.map(r => [r.text, Math.round(r.bbox[0]), r.baseline])).toEqual([['प्रश्', 101, 56], ['न', 112, 56], ['प्रश्', 45, 84], ['न 1', 56, 84]]);
  });

  it('leaves a run whose glyphs all stand under it, a superscript off its baseline, and a run pdf.js gives no width', () => {
    const glyphs = [glyph('A', 100, 6, 100), glyph('B', 106, 6, 100), glyph('2', 113, 4, 96, 7), glyph('C', 60, 6, 130)];
    expect(splitAcrossLines([run('AB', 100, 12, 100), run('C', 60, 6, 130)], glyphs).map(r => r.text)).toEqual(['AB', 'C']);
    // `AB²` measured without its raised `2`: the `2` stands on its own line, not the next.
    expect(splitAcrossLines([run('AB2', 100, 12, 100), run('C', 60, 6, 130)], glyphs).map(r => r.text)).toEqual(['AB2', 'C']);
    // `ABC` with no width (a figure's label): nothing says which of its glyphs stand elsewhere.
    expect(splitAcrossLines([run('ABC', 100, 0, 100)], glyphs).map(r => r.text)).toEqual(['ABC']);
  });
});

describe('page furniture over the whole paper', () => {
  type Box = [number, number, number, number];
  /** A run of text at x, its baseline at y (10 pt unless said). */
  const run = (page: number, text: string, x: number, y: number, size = 10, font = 'F') => ({ page, text, bbox: [x, y - size * 0.8, x + text.length * size * 0.5, y + size * 0.2] as Box, baseline: y, size, font, math: false });
  const paper = (n: number, spans: (p: number) => ReturnType<typeof run>[]): FurniturePage[] => Array.from({ length: n }, (_, i) => ({ width: 600, height: 800, spans: spans(i + 1) }));
  const setAside = (pages: FurniturePage[]) => { const found = paperFurniture(pages); return pages.map(p => p.spans.filter(s => found.has(s)).map(s => s.text)); };
  const body = (p: number) => [run(p, 'Body text of the page that goes on for a while', 60, 300), run(p, 'and more of it further down the page', 60, 500)];

  it('sets aside what is printed at the same place on several pages, mirrored on facing pages too', () => {
    const pages = paper(4, p => [...body(p), run(p, 'Unauthorized copying is illegal.', p % 2 ? 40 : 448, 745, 7), run(p, '®', 60, 16, 8)]);
    expect(setAside(pages)).toEqual(Array(4).fill(['Unauthorized copying is illegal.', '®']));
  });

  it('sets aside numbers of one shape that follow the pages (at any offset, alone) or change on every page (a code)', () => {
    const pages = paper(4, p => [...body(p), run(p, String(331 + p), p % 2 ? 30 : 550, 765, 8), run(p, 'Leaving Certificate 2018', 57, 806), run(p, String(p), 296, 806, 12),
      run(p, ['1530310429', '0398310420', '7671310421', '9777310420'][p - 1], 462, 780, 10, 'Courier')]);
    expect(setAside(pages).map(t => t.sort())).toEqual([1, 2, 3, 4].map(p => [String(p), String(331 + p), ['1530310429', '0398310420', '7671310421', '9777310420'][p - 1], 'Leaving Certificate 2018'].sort()));
  });

  it('keeps question headings atop the pages: numbers that rise with the page, marks repeated beside them, a number beside its text', () => {
    // `QUESTION 3` on page 1, `QUESTION 4` on page 2 …: the number moves on as the page does, but
    // further in than the outer margin and with words, it is a question; `(25 marks)` repeats at
    // the same place but shares its line with the question's number.
    const pages = paper(4, p => [...body(p), run(p, `QUESTION ${p + 2}`, 57, 78), run(p, 'Question', 57, 68), run(p, `${p + 5}`, 110, 68), run(p, '(25 marks)', 486, 68),
      run(p, `${p + 1}`, 71, 90, 12), run(p, 'Consider the following dataset.', 99, 90, 12)]);
    expect(setAside(pages)).toEqual(Array(4).fill([]));
    // An options row at the foot of a column on two pages is no footer.
    expect(setAside(paper(3, p => [...body(p), ...(p < 3 ? [run(p, '① 1 ② 2 ③ 3 ④ 4', 60, 700)] : [])]))).toEqual([[], [], []]);
    // A subject to a page, each opening with `ข้อ 01` at one place under its own heading (seed
    // 20261208, paper 0109): the label repeats, but what stands above it does not; no running head.
    expect(setAside(paper(3, p => [run(p, ['คณิตศาสตร์', 'ฟิสิกส์', 'เคมี'][p - 1], 60, 70, 10.5), run(p, 'ข้อ 01', 60, 85, 10.5), ...body(p)]))).toEqual([[], [], []]);
    // …where a running head stands above it, repeated as it is, it is the head's second line.
    expect(setAside(paper(3, p => [run(p, 'Riverside High School', 60, 70, 10.5), run(p, 'Algebra 2 — Unit test', 60, 85, 10.5), ...body(p)]))).toEqual(Array(3).fill(['Riverside High School', 'Algebra 2 — Unit test']));
    // A row of option labels alone (`1.` `2.` `3.`, the options pictures) under each page's first
    // question, at one place on three pages (seed 20261209, paper 0004): its question stands above it.
    expect(setAside(paper(3, p => [run(p, `${p + 26} log2 32 の値を求めよ。`, 60, 60, 10.5), run(p, '1.', 75, 77, 10.5), run(p, '2.', 170, 77, 10.5), run(p, '3.', 265, 77, 10.5), ...body(p)]))).toEqual([[], [], []]);
    // A question's label atop two pages of three, its numbering restarting under each subject
    // (seed 20261210, paper 0247: `Άσκηση 02` atop pages 2 and 3), set in the body's size and run on
    // with its stem as the body's lines are: the body's first line. A running head on two pages of
    // three, set smaller, stands apart as before.
    const restart = (p: number) => [...(p > 1 ? [run(p, 'Άσκηση 02', 60, 40, 10), run(p, 'Ένα κουτί περιέχει 2 κόκκινες και 3 μπλε μπάλες.', 60, 52, 10)] : []), ...body(p)];
    expect(setAside(paper(3, restart))).toEqual([[], [], []]);
    expect(setAside(paper(3, p => [...(p > 1 ? [run(p, 'Algebra 2 — Unit test', 60, 30, 8)] : []), ...restart(p)]))).toEqual([[], ['Algebra 2 — Unit test'], ['Algebra 2 — Unit test']]);
  });

  it('reads a browser\'s header and footer on a paper of one page, and a word processor\'s by its footer', () => {
    const browser = paper(1, p => [run(p, '12/2/26, 1:03 AM', 28, 23, 8), run(p, 'Algebra quiz 3', 260, 23, 8), run(p, 'Algebra Quiz 3: Linear Equations', 150, 42, 15),
      ...body(p), run(p, 'file:///home/kim/Documents/quiz-3.html', 28, 775, 8), run(p, '1/1', 560, 775, 8)]);
    expect(setAside(browser)).toEqual([['12/2/26, 1:03 AM', 'Algebra quiz 3', 'file:///home/kim/Documents/quiz-3.html', '1/1']]);
    const word = paper(1, p => [run(p, 'Riverside High School', 45, 22, 8.5), run(p, 'Algebra test', 470, 22, 8.5), run(p, 'Riverside High School', 45, 60), run(p, 'Algebra test', 200, 80, 15),
      ...body(p), run(p, 'Page 1 of 1', 280, 780, 8.5)]);
    expect(setAside(word)).toEqual([['Riverside High School', 'Algebra test', 'Page 1 of 1']]);
    // Without a footer there is nothing to say the top line is a header: it stays.
    expect(setAside(paper(1, p => [run(p, 'Riverside High School', 45, 22, 8.5), ...body(p)]))).toEqual([[]]);
  });

  it('takes a heading whose sentence holds the page\'s two numbers for no line naming its page', () => {
    // Page 3 of 3, printed from a browser: `Từ câu 3 đến câu 3` under the header reads like `3 … 3`.
    const pages = paper(3, p => [run(p, '2/22/24, 12:55 PM', 18, 23, 8), run(p, 'Đề thi thử Toán lớp 12', 290, 23, 8), ...body(p),
      ...(p === 3 ? [run(p, 'Hóa học Từ câu 1 đến câu 2, mỗi câu 4 điểm. Từ câu 3 đến câu 3, mỗi câu 2 điểm.', 53, 69, 11)] : []),
      run(p, 'file:///home/kim/Downloads/quiz-2.html', 18, 775, 8), run(p, `${p}/3`, 564, 775, 8)]);
    expect(setAside(pages)[2]).toEqual(['2/22/24, 12:55 PM', 'Đề thi thử Toán lớp 12', 'file:///home/kim/Downloads/quiz-2.html', '3/3']);
    // The head's own line naming its page, and a short piece naming it under another line, still do.
    expect(setAside(paper(2, p => [run(p, 'Algebra test', 45, 22, 8.5), run(p, `Trang ${p}/2`, 450, 40, 8.5), ...body(p)]))).toEqual([['Algebra test', 'Trang 1/2'], ['Algebra test', 'Trang 2/2']]);
  });

  it('tells a date and time stamp and an address from text that holds one', () => {
    for (const t of ['12/2/26, 1:03 AM', '02.12.26, 01:03', '2026-12-02 01:03', '2/12/2026 13:03', '12 February 2026', 'Feb 12, 2026', '13:03']) expect(isStamp(t), t).toBe(true);
    for (const t of ['Afternoon, 2:00 to 4:30', 'Friday, 8 June', '3/4 of 12', 'Question 12/2026', '']) expect(isStamp(t), t).toBe(false);
    for (const t of ['file:///tmp/quiz-1.html', 'http://127.0.0.1:8080/quiz.html', 'https://example.org/a/b']) expect(isAddress(t), t).toBe(true);
    for (const t of ['See https://example.org', 'collegeboard.org']) expect(isAddress(t), t).toBe(false);
  });
});

describe('a one-page paper printed from a browser (fixtures/browser, fixtures/make-browser-print.ts)', () => {
  for (const stem of ['en-quiz', 'de-test']) {
    it(`${stem}: reads as printed without the header and footer, none of which is in a stem`, async () => {
      const [printed, plain] = await Promise.all(['printed', 'plain'].map(v => analyse(path.join(ROOT, 'fixtures', 'browser', `${stem}-${v}.pdf`), 'compose')));
      const read = (d: typeof printed) => d.questions.map(q => ({ number: q.number, stem: q.stem, options: q.options.map(o => o.text) }));
      expect(read(plain).length).toBeGreaterThanOrEqual(5);
      expect(read(printed)).toEqual(read(plain));
      const furniture = printed.pages[0].furniture.map(s => s.text).join(' ');
      expect(furniture).toMatch(/\d{1,2}\/\d{1,2}\/\d{2}, \d{1,2}:\d{2}/);
      expect(furniture).toMatch(/le:\/\/\/|http:\/\//);
      expect(furniture).toContain('1/1');
      expect(plain.pages[0].furniture).toEqual([]);
      const stems = printed.questions.map(q => `${q.stem} ${q.options.map(o => o.text).join(' ')}`).join('\n');
      for (const s of printed.pages[0].furniture) expect(stems).not.toContain(s.text.trim());
    }, 60_000);
  }
});

describe('grading tables', () => {
  it('are told by their rows 1…n with marks and a total, in any language, and a table of data is not one', () => {
    expect(isGradeTable([['Problem', 'Points', 'Score'], ['1', '7'], ['2', '6'], ['3', '7'], ['Total:', '20']])).toBe(true);
    expect(isGradeTable([['Pregunta', 'Puntos', 'Nota'], ['1', '10'], ['2', '10'], ['Total', '20']])).toBe(true);
    // Data rows numbered from 1 but with no total, or a sequence that skips: a question's own table.
    expect(isGradeTable([['n', 'f(n)'], ['1', '3'], ['2', '5'], ['3', '7']])).toBe(false);
    expect(isGradeTable([['x', 'y'], ['1', '2'], ['3', '4'], ['sum', '6']])).toBe(false);
  });
});

describe.skipIf(!haveShared())('text-layer on real papers', () => {
  it('keeps a font table that agrees with the reference on every code point', () => {
    const ref = JSON.parse(fs.readFileSync(path.join(SHARED, 'fixtures/reference/hwp_pua_map.json'), 'utf8')).map as Record<string, { char: string }>;
    const ours = kcsat.fontMaps.get('HyhwpEQ')!;
    for (const [cp, v] of Object.entries(ref)) expect(ours.get(parseInt(cp.slice(2), 16)), cp).toBe(v.char);
  });

  it('decodes every equation glyph of a booklet and leaves no furniture in the body', async () => {
    const doc = await analyse(path.join(KCSAT, '202311-h3-math-pro.pdf'), 'text-layer');
    expect(doc.messages.list.filter(m => m.rule === 'text-layer/unknown-glyph')).toEqual([]);
    const spans = doc.pages.flatMap(p => p.spans);
    expect(spans.filter(s => s.math).length).toBeGreaterThan(500);
    expect(spans.some(s => /[\ue000-\uf8ff]/u.test(s.text))).toBe(false);
    const body = spans.map(s => s.text).join(' ');
    expect(body).not.toMatch(/저작권|대학수학능력시험 문제지/);
    for (const p of doc.pages) expect(p.spans.some(s => /^\s*\d+\s*\/\s*\d+\s*$/.test(s.text) && s.bbox[1] > p.body.y1), `page ${p.number}`).toBe(false);
  });

  it('trusts the elective heading of a page, not the notice that announces the next one (set apart as furniture)', async () => {
    const doc = await analyse(path.join(KCSAT, '202311-h3-math-dif.pdf'), 'text-layer');
    expect(doc.pages[7].furniture.map(s => s.text).join('')).toMatch(/확률과 통계/);
    expect(doc.pages[7].spans.map(s => s.text).join('')).not.toMatch(/확인 사항|확률과 통계/);
    expect(doc.pages.map(p => p.section)).toEqual([...Array(8).fill('common'), ...Array(4).fill('calculus')]);
  });

  it('reads overprinted text once and sets the closing notice of each section apart (202111: drawn twice)', async () => {
    const doc = await analyse(path.join(KCSAT, '202111-h3-math-dif.pdf'), 'text-layer');
    expect(doc.counters.overprinted).toBeGreaterThan(10);
    const notices = doc.messages.list.filter(m => m.rule === 'text-layer/closing-notice');
    expect(notices.map(m => m.page)).toEqual([8, 12]);
    for (const n of [8, 12]) {
      const page = doc.pages[n - 1];
      expect(page.spans.map(s => s.text).join(' ')).not.toMatch(/확인 사항|답안지/);
      expect(page.furniture.filter(s => s.text === '확인 사항')).toHaveLength(1);
    }
    // Questions in the last column are not notices: page 8's right column still holds question 22.
    expect(doc.pages[7].spans.some(s => s.bbox[0] > 430 && /구하시오/.test(s.text))).toBe(true);
  });

  it('leaves out text with no visible glyph (gaokao: a stray 的 scaled up inside a tiny clip)', async () => {
    const doc = await analyse(path.join(SHARED, 'fixtures/papers/gaokao/2023_hunan__2023年高考湖南卷化学真题（原卷版）.pdf'), 'text-layer');
    const hidden = doc.messages.list.filter(m => m.rule === 'text-layer/hidden-text');
    expect(hidden.length).toBeGreaterThan(0);
    expect(doc.pages.flatMap(p => p.spans).filter(s => s.text.trim() === '的' && s.size > 30)).toEqual([]);
  });

  it('keeps the first line of a page set higher than the fixed margin; running heads still set apart', async () => {
    const doc = await analyse(path.join(SHARED, 'fixtures/papers/vn-thpt/thpt2018_toan_101.pdf'), 'text-layer');
    const kept = doc.messages.list.filter(m => m.rule === 'text-layer/margin-text').map(m => m.page);
    expect(kept).toEqual(expect.arrayContaining([2, 3, 4]));
    for (const p of doc.pages.slice(1, 4)) {
      const top = Math.min(...p.spans.map(s => s.bbox[1]));
      expect(top, `page ${p.number}`).toBeLessThan(p.height * 0.06);
      expect(p.body.y0).toBeLessThanOrEqual(top);
      expect(p.furniture.map(s => s.text).join(' ')).toMatch(/Trang|Mã đề/i);
    }
  });

  it('fills the year from the running heads where the cover names none (ENEM)', async () => {
    const doc = await analyse(path.join(SHARED, 'fixtures/papers/enem/enem2022_d1_cd1_azul.pdf'), 'text-layer');
    expect(doc.exam.year).toBe(2022);
    expect(doc.messages.list.some(m => m.rule === 'text-layer/header-metadata')).toBe(true);
  });
});

describe('text as the reader sees it', () => {
  const HINDI = ['निम्नलिखित में से कौन सी संख्या अभाज्य है?', 'एक वर्ग की भुजा 6 सेमी है। उसका क्षेत्रफल ज्ञात कीजिए।',
    'प्रकाश की चाल सबसे अधिक किस माध्यम में होती है?', 'किसी त्रिभुज के तीनों कोणों का योग कितना होता है?'];

  it('tells a legacy 8-bit font by what its text is, and no real language, formula or chemistry for one', () => {
    const legacy = legacyEvidence(HINDI.map(legacyCodes).join(' '));
    expect(legacy.odd / legacy.words).toBeGreaterThan(0.7);
    expect(isLegacy(legacy)).toBe(true);
    const real = [
      'Which of the following numbers is prime? The side of a square is 6 cm. Find its area. Don\'t use a calculator; write your answers in the booklet provided, showing all working.',
      '¿Cuál es el área de un triángulo de base 6 cm y altura 4 cm? Lea cada pregunta con atención y marque una sola alternativa en la hoja de respuestas.',
      'Tập nghiệm của phương trình là gì? Hình vuông có cạnh năm thì chu vi bằng bao nhiêu? Số nào sau đây là số nguyên tố trong các số đã cho?',
      "L'eau bout à cent degrés; aujourd'hui l'élève doit démontrer que la somme de deux nombres pairs est paire, dell'area del triangolo rettangolo.",
      'Dissolve NaCl and KMnO4 in water; the HClO and CaCO3 samples (25 g/mol) react with Ca(OH)2 at 300 K, f(x)=2x+1 and ln5 and sqrt(x), https://example.org/x.',
    ];
    for (const text of real) {
      const e = legacyEvidence(text);
      expect(e.odd / e.words, text).toBeLessThan(0.15);
      expect(holdsLegacyText(e), text).toBe(false);
    }
    // One question in the legacy font beside its English is enough for a text alone.
    expect(holdsLegacyText(legacyEvidence(`${legacyCodes(HINDI[0])} Which of the following numbers is prime?`))).toBe(true);
  });

  it('marks the runs of a legacy font and warns once, leaving the Latin numbers and labels alone (fixtures/legacy)', async () => {
    const doc = await analyse(path.join(ROOT, 'fixtures', 'legacy', 'hi-en-bilingual.pdf'), 'text-layer');
    const spans = doc.pages.flatMap(p => p.spans);
    const marked = spans.filter(s => s.legacy);
    expect(marked.map(s => s.text).join(' ')).toContain('fuEufyf[kr');
    expect(new Set(marked.map(s => s.font)).size).toBe(1);
    // The English and the numbers and option labels are another font, unmarked.
    expect(spans.filter(s => !s.legacy).map(s => s.text).join(' ')).toMatch(/Which of the following numbers is prime\?/);
    expect(spans.filter(s => /^\(?[A-D]\)|^\d+\.$/.test(s.text.trim())).every(s => !s.legacy)).toBe(true);
    const warnings = doc.messages.list.filter(m => m.rule === 'text-layer/legacy-font');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ severity: 'warning', page: 1 });
    expect(warnings[0].message).toMatch(/not readable as printed/);
  });

  it('reads CJK radical code points as the ideographs printed: the table from the UCD, NFKC agreeing on the Kangxi block', () => {
    const table = radicalTable(ROOT);
    expect(table.size).toBeGreaterThan(300);
    for (const [radical, ideograph] of table) if (radical.codePointAt(0)! >= 0x2f00) expect(radical.normalize('NFKC')).toBe(ideograph);
    expect(unifyRadicals('⼤于⽐较，⻆⺟', table)).toEqual({ text: '大于比较，角母', replaced: 4 });
    // ⺀ (U+2E80) has no ideograph: left for the lint.
    expect(unifyRadicals('⺀', table)).toEqual({ text: '⺀', replaced: 0 });
  });

  it('leaves no radical code point in a Chinese paper Chromium printed with them (fixtures/educator/zh-di-ti)', async () => {
    const file = path.join(ROOT, 'fixtures', 'educator', 'zh-di-ti.pdf');
    const pdf = await openPdf(new Uint8Array(fs.readFileSync(file)));
    const page = await pdf.getPage(1);
    // pdf.js names the radicals the glyphs share; Chromium wrote the ideographs as each run's
    // ActualText, which the runs are read as. (A writer that gives none, Word: the table above.)
    const glyphs = (await page.getTextContent()).items.map(i => ('str' in i ? i.str : '')).join('');
    const raw = (await pageSpans(page)).map(r => r.text).join('');
    await pdf.destroy();
    expect(glyphs).toMatch(RADICAL);
    expect(raw).not.toMatch(RADICAL);
    const doc = await analyse(file, 'text-layer');
    const text = doc.pages.flatMap(p => p.spans).map(s => s.text).join('');
    expect(text).not.toMatch(RADICAL);
    expect(text).toContain('最大的是');
  });
});

describe.skipIf(!haveShared())('legacy fonts on real papers', () => {
  it('takes no font of the real papers for a legacy one (chemistry, formulas, units, English, Spanish, Portuguese)', async () => {
    const papers = path.join(SHARED, 'fixtures', 'papers');
    const files = ['gaokao/2016_other__2016年高考理综化学全国Ⅰ卷试题及答案.pdf', 'gaokao/2020_jiangsu__2020江苏高考化学试题及答案.pdf', 'paes/M1-2024-1.pdf', 'jee/jeeadv2023_p1.pdf', 'ap/ap22-frq-calculus-ab-answer.pdf', 'enem/enem2022_d1_cd1_azul.pdf', 'sat/sat-practice-test-10-math.pdf'];
    for (const f of files) {
      const pdf = await openPdf(new Uint8Array(fs.readFileSync(path.join(papers, f))));
      const runs = [];
      for (let n = 1; n <= pdf.numPages; n++) runs.push(...await pageSpans(await pdf.getPage(n)));
      await pdf.destroy();
      expect([...legacyFonts(runs).keys()], f).toEqual([]);
    }
  }, 120_000);
});

describe('text a writer spelled for its glyphs', () => {
  it('reads the ActualText of marked-content sequences in the order they open, over an inline image\'s data', () => {
    const content = 'BT /Span <</ActualText <FEFF0E2A0E350E48>>> BDC (x\\)) Tj EMC /P <</MCID 3>> BDC [(y)] TJ EMC /Tx BMC EMC '
      + '/Span <</ActualText (fi)>> BDC BI /W 1 /H 1 /BPC 8 /CS /G ID \x00\xffBDC EI EMC /Span /Props1 BDC EMC ET';
    expect(markedSequences(content)).toEqual(['สี่', null, null, 'fi', null]);
  });

  it('finds a page\'s content in the file by its page tree, compressed or not, and says nothing where there is no ActualText', () => {
    const content = zlib.deflateSync(Buffer.from('BT /Span <</ActualText <FEFF0644064A>>> BDC (x) Tj EMC ET', 'latin1'));
    const pdf = (contents: Buffer, filter: string) => Buffer.concat([
      Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>\nendobj\n'
        + `3 0 obj\n<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>\nendobj\n4 0 obj\n<< ${filter}/Length ${contents.length} >>\nstream\n`, 'latin1'),
      contents, Buffer.from('\nendstream\nendobj\n5 0 obj\n<< /Type /Page /Parent 2 0 R /Contents [] >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1')]);
    expect(pageActualText(new Uint8Array(pdf(content, '/Filter /FlateDecode ')), 1)).toEqual(['لي']);
    expect(pageActualText(new Uint8Array(pdf(Buffer.from('BT /Span <</ActualText (a)>> BDC (x) Tj EMC ET', 'latin1'), '')), 1)).toEqual(['a']);
    expect(pageActualText(new Uint8Array(pdf(content, '/Filter /FlateDecode ')), 2)).toBeNull();
    expect(pageActualText(new Uint8Array(pdf(Buffer.from('BT (x) Tj ET', 'latin1'), '')), 1)).toBeNull();
  });

  it('reads Arabic presentation forms as the letters they shape', () => {
    expect(unshapeArabic('اﺣﺴﺐ ﻻ')).toEqual({ text: 'احسب لا', replaced: 4 });
    expect(unshapeArabic('احسب')).toEqual({ text: 'احسب', replaced: 0 });
  });

  it.skipIf(!haveChromium())('reads what Chromium prints in Thai, Devanagari and Arabic as written, and letters it slants for a font with no italics', async () => {
    // Tone marks and vowel signs drawn as glyph variants with no character (pdf.js: `สี\0`, `ग ण त`),
    // a ligature a right-to-left run reverses (`إىل`), presentation forms, and `<i>f</i>` in a Korean
    // font with no italic face, which Chromium slants with a sheared matrix (fuzzer seed 20261204).
    const html = `<!doctype html><html><head><meta charset="utf-8"><style>@page { size: A4; margin: 20mm } body { font-size: 12pt }</style></head><body>
      <p style="font-family: 'Noto Serif Thai'">รูปสี่เหลี่ยมผืนผ้ามีพื้นที่กี่ตารางเซนติเมตร</p>
      <p style="font-family: 'Noto Serif Devanagari'">गणित — अर्धवार्षिक परीक्षा</p>
      <p dir="rtl" style="font-family: 'Noto Sans Arabic'">الأسئلة من 1 إلى 3 لكل منها 5 درجات.</p>
      <p style="font-family: 'NanumGothic'">함수 <i>f</i>(<i>x</i>) = 3<i>x</i> + 3에 대하여</p></body></html>`;
    const { browser, page } = await printingPage();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actual-'));
    try {
      const file = path.join(dir, 'scripts.pdf');
      fs.writeFileSync(file, await printHtml(page, html));
      const doc = await analyse(file, 'layout');
      const lines = doc.lines.map(l => lineText(l.spans).replace(/\s+/gu, ''));
      expect(lines).toContain('รูปสี่เหลี่ยมผืนผ้ามีพื้นที่กี่ตารางเซนติเมตร');
      expect(lines).toContain('गणित—अर्धवार्षिकपरीक्षा');
      expect(lines).toContain('الأسئلةمن1إلى3لكلمنها5درجات.');
      expect(lines.some(l => l.startsWith('함수f(x)=3x+3에'))).toBe(true);
      expect(doc.pages.flatMap(p => p.spans).map(s => s.text).join('')).not.toMatch(/[\uFB50-\uFDFF\uFE70-\uFEFC\u0000]/u);
    } finally {
      await browser.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bold a writer painted, not named', () => {
  /** A one-page PDF in Helvetica whose content stream is `content` (pdf.js rebuilds the missing cross-reference table). */
  const helveticaPdf = (content: string) => Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n'
    + '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>\nendobj\n'
    + '4 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n'
    + `5 0 obj\n<< /Length ${content.length} >>\nstream\n${content}\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`, 'latin1');

  it('reads glyphs filled and stroked (render mode 2, a word processor\'s bold for a font with none) as bold, and only those', async () => {
    const pdf = await openPdf(new Uint8Array(helveticaPdf('BT /F1 12 Tf 72 760 Td 2 Tr 0.4 w (Physics) Tj 0 Tr 0 -20 Td (1. What is 50% of 340?) Tj 1 Tr 0 -20 Td (Outlined) Tj ET')));
    const page = await pdf.getPage(1);
    const graphics = await pageGraphics(page, 1);
    const runs = markStroked(await pageSpans(page), graphics.stroked);
    await pdf.destroy();
    expect(runs.map(r => [r.text, isBold(r)])).toEqual([['Physics', true], ['1. What is 50% of 340?', false], ['Outlined', false]]);
    // A run partly stroked is not bold throughout: its own font says what the rest is.
    expect(markStroked<{ text: string; bbox: [number, number, number, number]; bold?: boolean }>([{ text: 'ab', bbox: [0, 0, 20, 10] }], [{ text: 'a', bbox: [0, 0, 10, 10] }])[0].bold).toBeUndefined();
  });

  it.skipIf(!haveChromium())('reads bold that Chromium makes for a font with no bold face (a Type 3 copy of the font), and a subject heading so set starts its questions again', async () => {
    // WenQuanYi Micro Hei has no bold face: Chromium prints <b> in it as a Type 3 font of the same
    // name, its glyphs thickened (fuzzer seed 20261204, its Chinese papers' subject headings). DejaVu
    // Sans has one: its name says so.
    const q = (n: number, stem: string, opts: string[]) => `<p>No. ${n} ${stem} [3]</p><p style="margin-left: 14pt">${opts.map((o, k) => `${'ＡＢＣＤ'[k]}． ${o}`).join('　')}</p>`;
    const html = `<!doctype html><html><head><meta charset="utf-8"><style>@page { size: A4; margin: 20mm } body { font: 11pt 'WenQuanYi Micro Hei' }</style></head><body>
      <p><b>数学</b></p>${q(1, '340 的 50% 是', ['170', '168', '171', '180'])}${q(2, '5³ 的值是', ['125', '115', '122', '130'])}
      <p><b>物理</b></p>${q(1, '等差数列中，a₁ = 6，公差为 3，则 a₁₀ 等于', ['35', '33', '36', '40'])}${q(2, 'log₂ 512 的值为', ['8', '11', '9', '14'])}
      <p style="font-family: 'DejaVu Sans'"><b>Bold</b> and regular</p></body></html>`;
    const { browser, page } = await printingPage();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bold-'));
    try {
      const file = path.join(dir, 'subjects.pdf');
      fs.writeFileSync(file, await printHtml(page, html));
      const spans = (await analyse(file, 'text-layer')).pages.flatMap(p => p.spans);
      const heading = spans.find(s => s.text.trim() === '数学')!;
      expect(heading.bold).toBe(true);
      expect(heading.font).not.toMatch(/bold/i);
      expect(spans.filter(s => /的值/.test(s.text)).every(s => !isBold(s))).toBe(true);
      const dejavu = spans.find(s => s.text.trim() === 'Bold')!;
      expect([isBold(dejavu), dejavu.bold]).toEqual([true, undefined]);
      const doc = await analyse(file, 'segment');
      expect(doc.questions.map(x => `${x.section}:${x.number}`)).toEqual(['数学:1', '数学:2', '物理:1', '物理:2']);
      expect(doc.questions.every(x => x.options.length === 4)).toBe(true);
    } finally {
      await browser.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
