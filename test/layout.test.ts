// layout: columns from the column rule, lines that keep stacked formula parts together, lines that read right to left.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../pipeline/config.ts';
import type { PageInfo, Span } from '../pipeline/document.ts';
import { buildLines, columnOf, findColumns, layoutStage } from '../pipeline/stages/layout.ts';
import { findColumnsUnderHead, withoutMarksMargins } from '../pipeline/text/columns.ts';
import { pageReadsRtl } from '../pipeline/text/direction.ts';
import { newDocument } from '../pipeline/paper.ts';
import type { StageContext } from '../pipeline/stage.ts';
import { lineText, rawText } from '../pipeline/text/line-text.ts';
import { printHtml, printingPage } from '../fixtures/chromium.ts';
import { analyse, templates } from './analyse.ts';
import { haveShared, KCSAT } from './helpers.ts';

const span = (text: string, x: number, baseline: number, size: number, math = false): Span =>
  ({ page: 1, text, bbox: [x, baseline - size * 0.85, x + size * text.length * 0.6, baseline + size * 0.2], baseline, size, font: math ? 'HyhwpEQ' : 'Body', math });

describe('layout', () => {
  it('reads the head OCR found above a scan\'s columns as whole lines, first, whatever gutter its words\' spaces fall on', () => {
    const doc = newDocument('scan.pdf', new Uint8Array());
    doc.template = templates.find(t => t.infer)!;
    const spans = [
      span('Τεστ Άλγεβρας / Mathematics', 150, 80, 16), span('— End of Term Test', 420, 80, 16),
      span('(1) Πόσο είναι', 50, 130, 11), span('(5) Στο τρίγωνο', 310, 130, 11),
    ];
    const columns = [{ x0: 45, x1: 285 }, { x0: 309, x1: 550 }];
    doc.pages = [{ number: 1, width: 595, height: 842, body: { y0: 50, y1: 800 }, columns, columnsTop: 110, section: null, spans, shapes: [], furniture: [], ocr: true }];
    layoutStage().run(doc, {} as StageContext);
    expect(doc.lines.map(l => [l.column, rawText(l.spans)])).toEqual([[0, 'Τεστ Άλγεβρας / Mathematics — End of Term Test'], [0, '(1) Πόσο είναι'], [1, '(5) Στο τρίγωνο']]);
    // Without the columns' start the title's halves are read in their columns, the right half as the right column's heading.
    doc.pages[0].columnsTop = undefined;
    layoutStage().run(doc, {} as StageContext);
    expect(doc.lines.map(l => [l.column, rawText(l.spans)])).toContainEqual([1, '— End of Term Test']);
  });

  it('keeps a fraction, and an exponent that rises above its line, on the line they belong to', () => {
    const lines = buildLines([
      span('3.', 88, 247, 13), span('―', 100, 249.7, 11, true), span('3', 101, 239, 11, true), span('2', 101, 253.6, 11, true), span('인', 110, 246.4, 11.5),
      span('2', 150, 281, 7.5, true), span('1.', 88, 297, 13), span('의 값은', 160, 296, 11.5),
      span('다음', 99, 330, 11.5),
    ], 1, 0);
    expect(lines.map(l => l.spans.map(s => s.text).join('|'))).toEqual(['3.|―|3|2|인', '1.|2|의 값은', '다음']);
  });

  it('keeps option lines apart whose powers line up like fractions (PAES `C) 12⁸` over `D) 12 ⋅ 11⁷`)', () => {
    // Measured on M1-2022-1 page 46: the exponent 7 of D's line is no baseline of that line.
    const at = (text: string, x0: number, x1: number, baseline: number, size: number): Span => ({ ...span(text, x0, baseline, size), bbox: [x0, baseline - size * 0.85, x1, baseline + size * 0.2] });
    const lines = buildLines([
      at('C)', 120.5, 133.3, 323.5, 12), at('12', 146.3, 158.3, 323.8, 12.1), at('8', 160.1, 164.7, 318.2, 9.3),
      at('D)', 120.5, 133.3, 346, 12), at('12', 146.3, 158.3, 346.4, 12.1), at('⋅', 162.6, 165.6, 346.4, 12.1), at('11', 168.1, 180.1, 346.4, 12.1), at('7', 180.5, 185.1, 341, 9.3),
    ], 1, 0);
    expect(lines.map(l => l.spans.map(s => s.text).join('|'))).toEqual(['C)|12|8', 'D)|12|⋅|11|7']);
  });

  it('keeps a question line apart from the option line under its number, whatever empty runs or browser-size scripts it holds', () => {
    // Measured on a generated Thai paper: `ข้อ 2 (0–1) …` over `1. 41`; the Thai font sets empty (NUL)
    // runs of no width lower than the text, and `a₁` takes the browser's `smaller` (5/6) size.
    const at = (text: string, x0: number, x1: number, baseline: number, size = 11): Span => ({ ...span(text, x0, baseline, size), bbox: [x0, baseline - size * 0.85, x1, baseline + size * 0.2] });
    const question = [at('ข้อ', 45.4, 59, 165.7), at('2', 61.8, 67.3, 165.7), at('(0–1)', 70.1, 93.2, 165.7), at('รูปสี', 96.1, 115.6, 165.7), at('a', 118, 123, 165.7)];
    const option = [at('1', 59.5, 65, 185.2), at('.', 65, 68, 185.2), at('41', 70.8, 81.8, 185.2)];
    const empty = at('\u0000', 112.9, 112.9, 168.9);
    const script = at('1', 123, 127.6, 168.6, 9.2);
    for (const extra of [[empty], [script], [empty, script]]) {
      const lines = buildLines([...question, ...extra, ...option], 1, 0);
      expect(lines.map(l => rawText(l.spans).replace(/\u0000/g, '')), extra.map(s => s.size).join()).toEqual([expect.stringMatching(/^ข้อ ?2/), '1. 41']);
    }
  });

  it('finds two columns on a short last page whose closing notice crosses the gutter below both', () => {
    // A section's last page: the left column holds two short questions, the right three; under both,
    // a centred `STOP` and a full-width line. Measured on a real booklet: the left column reached
    // under half of the text block once the notice was counted in it.
    const spans: Span[] = [];
    // A line of running text as three runs, broken at different places on every line.
    const line = (x0: number, x1: number, baseline: number, i: number) => {
      const cuts = [x0, x0 + 30 + (i * 37) % 70, x0 + 120 + (i * 53) % 60, x1];
      for (let k = 0; k < 3; k++) spans.push({ ...span('text', cuts[k], baseline, 10.5), bbox: [cuts[k], baseline - 9, cuts[k + 1] - 3, baseline + 2] });
    };
    for (let i = 0; i < 12; i++) line(64, 286, 116 + i * 12, i);
    for (let i = 0; i < 18; i++) line(342, 551, 116 + i * 12, i);
    spans.push(span('STOP', 278, 640, 24), span('If you finish before time is called, you may check your work on this section only.', 62, 665, 10));
    spans.push(span('Do not turn to any other section.', 206, 685, 10));
    const page: PageInfo = { number: 8, width: 594, height: 783, body: { y0: 47, y1: 744 }, columns: [], section: null, spans, shapes: [], furniture: [] };
    const columns = findColumns(page);
    expect(columns).toHaveLength(2);
    expect(columns[0].x1).toBeLessThanOrEqual(286);
    expect(columns[1].x0).toBeGreaterThanOrEqual(342);
  });

  // Runs of running text, broken at different places on every line (a text layer's runs).
  const runsOf = (spans: Span[], x0: number, x1: number, baseline: number, i: number) => {
    const cuts = [x0, x0 + (x1 - x0) * (0.2 + ((i * 37) % 20) / 100), x0 + (x1 - x0) * (0.55 + ((i * 53) % 20) / 100), x1];
    for (let k = 0; k < 3; k++) spans.push({ ...span('text', cuts[k], baseline, 10.5), bbox: [cuts[k], baseline - 9, cuts[k + 1] - 3, baseline + 2] });
  };
  // A title across both columns, in many runs (as Thai and Vietnamese titles come).
  const title = (spans: Span[]) => {
    for (let x = 200; x < 400; x += 25) spans.push({ ...span('ti', x, 60, 12), bbox: [x, 50, x + 24, 62] });
    for (let x = 230; x < 370; x += 20) spans.push({ ...span('ti', x, 80, 12), bbox: [x, 70, x + 19, 82] });
  };

  it('finds the gutter of two columns of short lines where a few of the left column\'s lines run up to it', () => {
    // The left column's questions are short but every eighth line wraps at the column's edge (296); the
    // right column starts at 312. Counting a few crossings, the whole middle is one band and its centre
    // falls on the wrapped lines: the gutter is the emptiest band, crossed by the title alone.
    const spans: Span[] = [];
    for (let x = 200; x < 400; x += 25) spans.push({ ...span('ti', x, 60, 12), bbox: [x, 50, x + 24, 62] });
    for (let i = 0; i < 24; i++) runsOf(spans, 45, i % 8 === 2 ? 296 : 150 + (i * 29) % 60, 120 + i * 24, i);
    for (let i = 0; i < 24; i++) runsOf(spans, 312, 400 + (i * 41) % 150, 128 + i * 24, i);
    const page: PageInfo = { number: 1, width: 595, height: 842, body: { y0: 40, y1: 800 }, columns: [], section: null, spans, shapes: [], furniture: [] };
    const columns = findColumns(page);
    expect(columns).toHaveLength(2);
    expect(columnOf(columns, 290)).toBe(0);
    expect(columnOf(columns, 315)).toBe(1);
  });

  it('keeps a column\'s marks, set right at its edge on its questions\' lines, in that column when the next column stands further on', () => {
    // Fuzzer seed 20261209, paper 0003 page 2: `[7] 方程 … 的解是` ending by x 183, its `[2.25 分]`
    // right-aligned at 252–292, the next column from 320. The band between text and marks is wider
    // than the gutter, and over the whole right side the marks are too few rows to tell.
    const spans: Span[] = [];
    for (let i = 0; i < 26; i++) {
      const y = 80 + i * 26;
      spans.push({ ...span(i % 5 === 0 ? `[${7 + i / 5}] 方程 8x + 19 = 27 的解是` : '① 41 ② 45 ③ 47', 45, y, 10.5), bbox: [45, y - 9, i % 5 === 0 ? 183 : 150, y + 2] });
      if (i % 5 === 0) spans.push({ ...span('[2.25 分]', 252, y, 10.5), bbox: [252, y - 9, 292, y + 2] });
      spans.push({ ...span('计算 20 + 7 × 4 的结果是', 320, y + 4, 10.5), bbox: [320, y - 5, 320 + 150 + (i * 37) % 97, y + 6] });
    }
    const page: PageInfo = { number: 2, width: 595, height: 842, body: { y0: 40, y1: 800 }, columns: [], section: null, spans, shapes: [], furniture: [] };
    const columns = findColumns(page);
    expect(columns).toHaveLength(2);
    expect(columnOf(columns, 290)).toBe(0);
    expect(columnOf(columns, 321)).toBe(1);
  });

  it('parts two columns where the page draws its divider in pieces, not at a wider band inside the first column', () => {
    // Fuzzer seed 20261209, paper 0274: Japanese beside English, a divider beside each question's
    // block at x 317.6; the first column's options stop at 238, its marks `[5]` stand at 280–295:
    // the band between them is wider than the gutter, and bare marks name no unit.
    const spans: Span[] = [];
    const shapes: PageInfo['shapes'] = [];
    for (let q = 0; q < 4; q++) {
      const top = 80 + q * 170;
      for (let i = 0; i < 6; i++) {
        const y = top + i * 22;
        spans.push({ ...span(i === 0 ? `${5 + q}. log2 128 の値を求めよ。` : 'Ａ．5 Ｂ．7 Ｃ．9', i === 0 ? 45 : 60, y, 10), bbox: [i === 0 ? 45 : 60, y - 9, i === 0 ? 210 : 238, y + 2] });
        if (i === 0) spans.push({ ...span(`[${q + 1}]`, 280, y, 10), bbox: [280, y - 9, 295, y + 2] });
        // (The English set in its own type, its rows on baselines of their own.)
        spans.push({ ...span(i === 0 ? `${5 + q}. Evaluate log2 128.` : 'A. 5 B. 7 C. 9', 330, y + 7, 10), bbox: [330, y - 2, i === 0 ? 470 + q * 10 : 430, y + 9] });
      }
      shapes.push({ page: 1, kind: 'line', visible: true, bbox: [317.3, top - 12, 317.9, top + 120] });
    }
    const page: PageInfo = { number: 3, width: 595, height: 842, body: { y0: 40, y1: 800 }, columns: [], section: null, spans, shapes, furniture: [] };
    const columns = findColumns(page);
    expect(columns).toHaveLength(2);
    expect(columnOf(columns, 294)).toBe(0);
    expect(columnOf(columns, 331)).toBe(1);
  });

  it('finds a right column that stops short beside the left one (the paper ends early), not a caption beside a figure', () => {
    const page = (right: Span[], left: Span[]): PageInfo => {
      const spans = [...left, ...right];
      // The title runs on across the gutter (a page with none there would part at it untested).
      for (let x = 300; x < 480; x += 25) spans.push({ ...span('ti', x, 60, 12), bbox: [x, 50, x + 24, 62] });
      return { number: 1, width: 842, height: 1190, body: { y0: 40, y1: 1150 }, columns: [], section: null, spans, shapes: [], furniture: [] };
    };
    const lines = (x0: number, x1: number, from: number, n: number, step: number) => {
      const out: Span[] = [];
      for (let i = 0; i < n; i++) runsOf(out, x0, x1 - (i * 31) % 80, from + i * step, i);
      return out;
    };
    // Five lines at the top of the right column, beside the left column's lines.
    expect(findColumns(page(lines(435, 790, 230, 5, 17), lines(45, 350, 120, 40, 24)))).toHaveLength(2);
    // The same five lines beside a figure: its axis labels are all the left side holds over their heights.
    const labels: Span[] = [];
    for (let i = 0; i < 6; i++) labels.push({ ...span(String(i), 150, 240 + i * 15, 9), bbox: [150, 232 + i * 15, 156, 242 + i * 15] });
    expect(findColumns(page(lines(435, 790, 230, 5, 17), [...labels, ...lines(45, 350, 500, 25, 24)]))).toHaveLength(1);
  });

  it('reads a head centred over two columns first, a school\'s name falling in the first column and a name and time row parted by the gutter among it', () => {
    // A Vietnamese paper (fuzzer seed 20261204, paper 0041): the school's name, centred, crosses the
    // gutter with its middle a hair left of it; the title crosses it; `Name: ____` and `Time: 45 min`
    // share a row, the time at the page's far edge. Both columns open with a full line on one baseline.
    const doc = newDocument('head.pdf', new Uint8Array());
    doc.template = templates.find(t => t.infer)!;
    const columns = [{ x0: 45, x1: 283 }, { x0: 312, x1: 550 }];
    const at = (text: string, x0: number, x1: number, y: number, size = 10): Span => ({ ...span(text, x0, y, size), bbox: [x0, y - size * 0.85, x1, y + size * 0.2] });
    const spans = [at('Trường THPT Nguyễn Du', 246, 351, 57, 8.5), at('Đề thi thử Toán lớp 12', 216, 383, 79, 14.5), at('Họ và tên: ________________________', 45, 190, 100, 9), at('Thời gian làm bài: 45 phút', 440, 550, 100, 9)];
    for (const [c, col] of columns.entries()) for (let r = 0; r < 12; r++) spans.push(at(`c${c}r${r} text of a question here`, col.x0, r % 3 === 0 ? col.x1 : col.x1 - 40, 130 + r * 16));
    doc.pages = [{ number: 1, width: 595, height: 842, body: { y0: 40, y1: 800 }, columns, section: null, spans, shapes: [], furniture: [] }];
    layoutStage().run(doc, {} as StageContext);
    expect(doc.pages[0].columns).toHaveLength(2);
    expect(doc.lines.slice(0, 4).map(l => rawText(l.spans))).toEqual(['Trường THPT Nguyễn Du', 'Đề thi thử Toán lớp 12', 'Họ và tên: ________________________ Thời gian làm bài: 45 phút', 'c0r0 text of a question here']);
    expect(doc.lines.find(l => rawText(l.spans) === 'c1r0 text of a question here')?.column).toBe(1);
    // Columns whose first lines open a little in (a boxed number, fuzzer paper 0025), on one baseline
    // and centred together, are no head.
    const boxed = spans.map(s => (s.text === 'c1r0 text of a question here' ? at(s.text, 317, 550, s.baseline) : s.text === 'c0r0 text of a question here' ? at(s.text, 50, 283, s.baseline) : s));
    const again = newDocument('head.pdf', new Uint8Array());
    again.template = doc.template;
    again.pages = [{ number: 1, width: 595, height: 842, body: { y0: 40, y1: 800 }, columns, section: null, spans: boxed, shapes: [], furniture: [] }];
    layoutStage().run(again, {} as StageContext);
    expect(again.lines.find(l => rawText(l.spans) === 'c1r0 text of a question here')?.column).toBe(1);
    expect(again.lines.find(l => rawText(l.spans) === 'c0r0 text of a question here')?.column).toBe(0);
    // Nor is the first line of a column with a mark floated to the next column's first line's end, a
    // little above that line's baseline (fuzzer paper 0059: `[5]` beside question 1).
    const floated = [...spans.map(s => (s.text === 'c1r0 text of a question here' ? at(s.text, 312, 510, 134) : s)), at('[5]', 534, 550, 130)];
    const third = newDocument('head.pdf', new Uint8Array());
    third.template = doc.template;
    third.pages = [{ number: 1, width: 595, height: 842, body: { y0: 40, y1: 800 }, columns, section: null, spans: floated, shapes: [], furniture: [] }];
    layoutStage().run(third, {} as StageContext);
    expect(third.lines.find(l => rawText(l.spans) === 'c0r0 text of a question here')?.column).toBe(0);
    // The time set a glyph a run (fuzzer seed 20261209, paper 0178: Arabic `الزمن: ٤٥ دقيقة`, its
    // `:` and `٤٥` runs of no letter) is the head's still, read together, not a column's last line.
    const glyphs = (text: string, x0: number, y: number) => [...text].map((c, k) => at(c, x0 + k * 5, x0 + k * 5 + 5, y, 9));
    const split = [...spans.filter(s => !s.text.startsWith('Thời gian')), ...glyphs('Time: 45 min', 490, 100)];
    const fourth = newDocument('head.pdf', new Uint8Array());
    fourth.template = doc.template;
    fourth.pages = [{ number: 1, width: 595, height: 842, body: { y0: 40, y1: 800 }, columns, section: null, spans: split, shapes: [], furniture: [] }];
    layoutStage().run(fourth, {} as StageContext);
    expect(fourth.lines.slice(0, 3).map(l => rawText(l.spans).replace(/\s+/g, ''))).toEqual(['TrườngTHPTNguyễnDu', 'ĐềthithửToánlớp12', 'Họvàtên:________________________Time:45min']);
    // …but a floated mark with its unit, a glyph a run, is a mark still (seed 20261207, paper 0068: `[3 درجات]`).
    const unit = [...spans.map(s => (s.text === 'c1r0 text of a question here' ? at(s.text, 312, 510, 134) : s)), ...glyphs('[3 marks]', 505, 130)];
    const fifth = newDocument('head.pdf', new Uint8Array());
    fifth.template = doc.template;
    fifth.pages = [{ number: 1, width: 595, height: 842, body: { y0: 40, y1: 800 }, columns, section: null, spans: unit, shapes: [], furniture: [] }];
    layoutStage().run(fifth, {} as StageContext);
    expect(fifth.lines.find(l => rawText(l.spans) === 'c0r0 text of a question here')?.column).toBe(0);
  });

  it('reads a title centred over three columns first, and a column that starts higher than the first as it stands', () => {
    // An Arabic paper in three columns (fuzzer seed 20261204, paper 0078 and 0028): the school and the
    // title are centred over the page and fall in the middle column, which reads after the right one.
    const doc = newDocument('three.pdf', new Uint8Array());
    doc.template = templates.find(t => t.infer)!;
    const columns = [{ x0: 34, x1: 279 }, { x0: 303, x1: 543 }, { x0: 573, x1: 808 }];
    const spans = [span('School', 400, 57, 10), span('Mathematics Test', 380, 79, 16)];
    for (const [c, col] of columns.entries()) for (let r = 0; r < 12; r++) spans.push({ ...span(`c${c}r${r} text of a question here`, col.x0, 130 + r * 16, 10), bbox: [col.x0, 121.5 + r * 16, col.x1 - (r % 3) * 20, 132 + r * 16] });
    doc.pages = [{ number: 1, width: 842, height: 1191, body: { y0: 40, y1: 1150 }, columns, section: null, spans, shapes: [], furniture: [] }];
    layoutStage().run(doc, {} as StageContext);
    expect(doc.lines.slice(0, 3).map(l => rawText(l.spans))).toEqual(['School', 'Mathematics Test', 'c0r0 text of a question here']);
    // A line set to one side above the first column's first line is its own column's (fuzzer paper 0009:
    // a boxed heading moves the left column's start 8 pt below the right column's first line).
    const side = [span('c1 first', 320, 100, 10), ...spans.slice(2)];
    doc.pages = [{ number: 1, width: 842, height: 1191, body: { y0: 40, y1: 1150 }, columns, section: null, spans: side, shapes: [], furniture: [] }];
    layoutStage().run(doc, {} as StageContext);
    expect(doc.lines[0].column).toBe(0);
    expect(doc.lines.find(l => rawText(l.spans) === 'c1 first')?.column).toBe(1);
  });

  it('reads marks floated a little off their lines\' baselines as the lines\' ends, not as a column', () => {
    // A one-column Thai paper (fuzzer paper 0039): `[2]` floated right sits 2 pt above its line's baseline.
    const spans: Span[] = [];
    for (let q = 0; q < 10; q++) {
      const y = 60 + q * 52;
      spans.push({ ...span(`Problem ${q + 1}. question text that stops short`, 45, y, 10.5), bbox: [45, y - 9, q === 3 ? 272 : 260, y + 2] });
      // One line runs on past the others' ends, a word apart (`จงหา a10`): the far side is not marks alone.
      if (q === 3) spans.push({ ...span('จงหา a10', 304, y, 10.5), bbox: [304, y - 9, 327, y + 2] });
      spans.push({ ...span('(a) 1 (b) 2 (c) 3', 60, y + 18, 10.5), bbox: [60, y + 9, 200, y + 20] });
      spans.push({ ...span(`[${q % 4 + 1}]`, 538, y - 2, 10.5), bbox: [538, y - 11, 550, y] });
    }
    const page: PageInfo = { number: 1, width: 595, height: 842, body: { y0: 40, y1: 800 }, columns: [], section: null, spans, shapes: [], furniture: [] };
    expect(findColumns(page)).toHaveLength(1);
    expect(findColumnsUnderHead(page).columns).toHaveLength(1);
  });

  it('reads options in a grid and marks in a margin as one column: they stand on their rows\' baselines', () => {
    // `1) stem … [2]` with `(A) 6 | (B) 14` under it: the band between the grid's columns is crossed
    // by only the title and the longer stems, but the right side's rows are the left side's rows.
    const spans: Span[] = [];
    title(spans);
    for (let q = 0; q < 8; q++) {
      const y = 120 + q * 80;
      runsOf(spans, 45, q % 3 === 0 ? 420 : 250, y, q);
      spans.push({ ...span('[2]', 520, y, 10.5), bbox: [520, y - 9, 540, y + 2] });
      for (const [k, dy] of [[0, 20], [1, 40]] as const) {
        spans.push({ ...span(`(${'AC'[k]}) 6`, 60, y + dy, 10.5), bbox: [60, y + dy - 9, 90, y + dy + 2] });
        spans.push({ ...span(`(${'BD'[k]}) 14`, 380, y + dy, 10.5), bbox: [380, y + dy - 9, 412, y + dy + 2] });
      }
    }
    const page: PageInfo = { number: 1, width: 595, height: 842, body: { y0: 40, y1: 800 }, columns: [], section: null, spans, shapes: [], furniture: [] };
    expect(findColumns(page)).toHaveLength(1);
  });

  it('reads marks with their unit in a margin as the lines they end, though some stand 2 pt off the baselines', () => {
    // A Hindi paper (fuzzer seed 20261206, paper 0045): `[2 अंक]` floated to the right of short lines,
    // the marks of a question's parts 2 pt off the lines whose Devanagari and Latin runs differ; the
    // page's first line (a question's, no title above it) runs on past the band to its mark.
    const spans: Span[] = [];
    for (let q = 0; q < 10; q++) {
      const y = 120 + q * 60;
      if (q === 0) for (let x = 45; x < 500; x += 24) spans.push({ ...span('शब्द', x, y, 10.5), bbox: [x, y - 9, x + 20, y + 2] });
      else runsOf(spans, 45, 300, y, q);
      const at = y + (q % 2 ? 2 : 0);
      spans.push({ ...span(`[${q % 4 + 1}`, 518, at, 10.5), bbox: [518, at - 9, 528, at + 2] }, { ...span('अंक]', 530, at, 10.5), bbox: [530, at - 9, 550, at + 2] });
    }
    const page: PageInfo = { number: 1, width: 595, height: 842, body: { y0: 40, y1: 800 }, columns: [], section: null, spans, shapes: [], furniture: [] };
    expect(findColumns(page)).toHaveLength(1);
  });

  it('finds three columns under a head, where the band between the first and the rest parts one column from two', () => {
    // An A3 Portuguese paper (fuzzer seed 20261206, paper 0030): a title and a box of instructions across the page.
    const spans: Span[] = [];
    for (let x = 150; x < 700; x += 60) spans.push({ ...span('título', x, 66, 13.8), bbox: [x, 55, x + 58, 68] });
    for (let r = 0; r < 4; r++) spans.push({ ...span('Assinale apenas uma alternativa e transcreva as respostas.', 63, 125 + r * 13, 8.7), bbox: [63, 117 + r * 13, 330, 127 + r * 13] });
    for (const [x0, x1] of [[34, 278], [298, 536], [563, 808]]) for (let i = 0; i < 30; i++) runsOf(spans, x0, x1, 200 + i * 30, i);
    const page: PageInfo = { number: 1, width: 842, height: 1190, body: { y0: 40, y1: 1150 }, columns: [], section: null, spans, shapes: [], furniture: [] };
    expect(findColumnsUnderHead(page).columns.map(c => [Math.round(c.x0), Math.round(c.x1)])).toEqual([[34, 275], [298, 533], [563, 805]]);
  });

  it('takes a column rule with no text beside it for no parting of the text above it', () => {
    // A key's page after two columns of questions (0048): the rule runs down an empty grid under the key's row.
    const spans: Span[] = [span('مفتاح', 520, 60, 12)];
    for (let k = 0; k < 14; k++) spans.push({ ...span(`${k + 1}.C`, 172 + k * 28, 90, 10), bbox: [172 + k * 28, 81, 172 + k * 28 + 20, 92] });
    const shapes = [{ page: 1, kind: 'line' as const, bbox: [303, 106, 304, 751] as [number, number, number, number], visible: true }];
    const page: PageInfo = { number: 1, width: 612, height: 792, body: { y0: 40, y1: 760 }, columns: [], section: null, spans, shapes, furniture: [] };
    expect(findColumns(page)).toHaveLength(1);
  });

  it('finds two columns under a head set across them in few long runs, a translation beside its text among them', () => {
    // A Greek paper with its English beside it (fuzzer paper 0167, Chromium's long runs): a title and a
    // box of instructions cross the gutter more often than a search over the whole page allows, and
    // the English, shorter, stands on the Greek's baselines: rows of sentences, not the cells of a grid.
    const at = (text: string, x0: number, x1: number, y: number): Span => ({ ...span(text, x0, y, 10), bbox: [x0, y - 8.5, x1, y + 2] });
    const spans: Span[] = [at('Επαναληπτικό διαγώνισμα Μαθηματικών / Mathematics — End', 49, 413, 60), at('of Term Test', 259, 336, 80),
      at('Δεν επιτρέπεται η χρήση αριθμομηχανής στο διαγώνισμα.', 74, 359, 140), at('Οι μονάδες κάθε θέματος αναγράφονται δίπλα του.', 74, 316, 154), at('Καλή επιτυχία σε όλους!', 74, 250, 168)];
    for (let b = 0; b < 3; b++) {
      const y = 240 + b * 170;
      spans.push(at(`Δραστηριότητα ${b + 1}`, 45, 120, y), at(`Task ${b + 1}`, 321, 349, y));
      for (let r = 1; r <= 8; r++) spans.push(at('Ένα κουτί περιέχει κόκκινες και μπλε μπάλες', 45, 300, y + r * 14));
      for (let r = 1; r <= 4; r++) spans.push(at('A bag holds red balls and blue balls.', 321, 480, y + r * 14));
    }
    const page: PageInfo = { number: 1, width: 595, height: 842, body: { y0: 40, y1: 800 }, columns: [], section: null, spans, shapes: [], furniture: [] };
    expect(findColumns(page)).toHaveLength(1);
    const found = findColumnsUnderHead(page);
    expect(found.columns.map(c => [Math.round(c.x0), Math.round(c.x1)])).toEqual([[45, 300], [321, 480]]);
    // The head ends below the runs that cross the gutter most (the title's two lines), above the columns.
    expect(found.top).toBeGreaterThan(80);
    expect(found.top).toBeLessThan(240 - 8.5);
    // Laid out, the head is read first and whole, then the Greek column, then the English.
    const doc = newDocument('greek.pdf', new Uint8Array());
    doc.template = templates.find(t => t.infer)!;
    doc.pages = [{ ...page, spans }];
    layoutStage().run(doc, {} as StageContext);
    expect(doc.lines.slice(0, 6).map(l => [l.column, rawText(l.spans).split(' ')[0]])).toEqual([
      [0, 'Επαναληπτικό'], [0, 'of'], [0, 'Δεν'], [0, 'Οι'], [0, 'Καλή'], [0, 'Δραστηριότητα'],
    ]);
    expect(doc.lines.filter(l => l.column === 1)).toHaveLength(15);
  });

  it('finds two columns where a translation beside its text repeats its rows\' labels (short questions with their options, block by block), and one where a row of graphs repeats its axes\' letters', () => {
    // A Thai paper with its English beside it (fuzzer seed 20261216, paper 0049, its second page):
    // each question's block starts level on both sides and its options stand on the same baselines,
    // rows too short to be prose; the English side is no grid's far cells, for it opens its rows
    // with the Thai side's labels (`Ａ．` | `Ａ．`), where a grid goes on with the alphabet.
    const at = (text: string, x0: number, x1: number, y: number): Span => ({ ...span(text, x0, y, 11), bbox: [x0, y - 9, x1, y + 2] });
    const spans: Span[] = [];
    for (let b = 0; b < 3; b++) {
      const y = 80 + b * 110;
      spans.push(at(`ข้อ ${b + 4}`, 45, 70, y), at(`Question ${b + 4}`, 321, 395, y));
      spans.push(at('จงหาค่าของ 43 (2 คะแนน)', 45, 150, y + 18), at('Calculate the value of 43. (2 marks)', 321, 480, y + 18));
      for (let r = 0; r < 2; r++) spans.push(at(`${'ＡＢ'[r]}． ${64 + r}`, 59, 100, y + 36 + r * 16), at(`${'ＡＢ'[r]}． ${64 + r}`, 335, 376, y + 36 + r * 16));
    }
    const page: PageInfo = { number: 1, width: 595, height: 842, body: { y0: 40, y1: 800 }, columns: [], section: null, spans, shapes: [], furniture: [] };
    expect(findColumns(page).map(c => [Math.round(c.x0), Math.round(c.x1)])).toEqual([[45, 150], [321, 480]]);
    // A row of graphs repeats its axes' letters (`y` | `y`), no label: options in a grid, one column
    // (a HSC paper's question 10, its four graphs read as options).
    const graphs: Span[] = [];
    for (let b = 0; b < 3; b++) {
      const y = 80 + b * 110;
      graphs.push(at('Which graph shows the function whose derivative is positive everywhere?', 45, 290, y));
      for (const [x, label] of [[60, '(A)'], [330, '(B)']] as const) graphs.push(at(label, x, x + 18, y + 20), at('y', x + 30, x + 36, y + 20), at('x', x + 90, x + 96, y + 60), at('O', x + 28, x + 36, y + 60));
    }
    expect(findColumns({ ...page, spans: graphs })).toHaveLength(1);
  });

  it('parts three columns at two column rules a scan leans, though each rule\'s box is as wide as its lean', () => {
    // A Portuguese scan in three columns (fuzzer seed 20261216, paper 0010): its rules lean 16 pt over
    // 936 pt, and their ink, cut into pieces down the page as a scan's text is, stands in each gutter.
    const spans: Span[] = [];
    const piece = (x0: number, x1: number, y: number): Span => ({ ...span('', x0, y, 4), bbox: [x0, y - 4, x1, y] });
    for (let y = 200; y < 1130; y += 4) {
      const lean = (y - 198) / 936 * 15;
      spans.push(piece(282 + lean, 283.5 + lean, y), piece(543 + lean, 544.5 + lean, y));
    }
    for (const [x0, x1] of [[33, 276], [300, 538], [562, 808]]) for (let y = 210; y < 1120; y += 14) spans.push(piece(x0, x1 - (y % 28 ? 40 : 0), y));
    const shapes = [[282, 198, 298, 1134], [543, 198, 559, 1134]].map(b => ({ page: 1, kind: 'line' as const, bbox: b as [number, number, number, number], visible: true }));
    const page: PageInfo = { number: 1, width: 842, height: 1191, body: { y0: 60, y1: 1140 }, columns: [], section: null, spans, shapes, furniture: [] };
    expect(findColumns(page)).toHaveLength(3);
    // A box as wide drawn as a rectangle is no rule: only a line leans.
    expect(findColumns({ ...page, shapes: shapes.map(s => ({ ...s, kind: 'rect' as const })) })).toHaveLength(1);
  });

  it('finds the two columns a page set in three fills, its last empty, under a head as wide as the three', () => {
    // A short Chinese paper on A3 in three columns (fuzzer seed 20261204, paper 0053): the title, the
    // name line and a box of instructions span the page; the questions fill two columns of a third of
    // the page each. Under the head the columns share the width of the text below it, not the head's.
    const at = (text: string, x0: number, x1: number, y: number): Span => ({ ...span(text, x0, y, 9.5), bbox: [x0, y - 8, x1, y + 2] });
    const spans: Span[] = [at('九年级数学模拟考试', 360, 480, 60), at('姓名： ________________________', 34, 150, 90), at('考试时间：60分钟', 740, 808, 90),
      at('注意事项', 43, 80, 125), at('1. 本试卷共14题。', 52, 140, 139), at('6. 选择题每小题选出答案后，用铅笔把答题卡上对应题目的答案标号涂黑。', 52, 340, 153)];
    for (const [x, first] of [[34, 1], [299, 10]] as const) {
      for (let q = 0; q < 5; q++) {
        const y = 230 + q * 90;
        spans.push(at(`第${first + q}题`, x, x + 30, y), at('一个长方形的长为 17 cm，宽为 4 cm，它的面积是多少', x, x + 235, y + 18));
        for (const [k, dy] of [[0, 36], [1, 52]] as const) spans.push(at(`(${'AC'[k]}) 6${k}`, x + 14, x + 40, y + dy), at(`(${'BD'[k]}) 7${k}`, x + 130, x + 156, y + dy));
      }
    }
    const page: PageInfo = { number: 1, width: 842, height: 1191, body: { y0: 40, y1: 1150 }, columns: [], section: null, spans, shapes: [], furniture: [] };
    const found = findColumnsUnderHead(page);
    expect(found.columns.map(c => [Math.round(c.x0), Math.round(c.x1)])).toEqual([[34, 269], [299, 534]]);
    expect(found.top).toBeGreaterThan(153);
  });

  it('reads short questions with options in a 2×2 grid as one column where the gap between the halves is clear of any run', () => {
    // A school test: a title set right of the middle and a name field left of it, questions too short
    // to reach the grid's right half, so a band down the page that no run crosses (between the field
    // and the title) parts `(A) 22` from `(B) 24` on every row.
    const at = (text: string, x0: number, x1: number, y: number): Span => ({ ...span(text, x0, y, 11), bbox: [x0, y - 9, x1, y + 2] });
    const spans: Span[] = [at('2학년 기말고사 수학 영역', 210, 385, 80), at('이름: ________________________', 45, 190, 100), at('시험 시간: 50분', 480, 550, 100), at('1 영역 — 수학', 50, 120, 140)];
    for (let q = 0; q < 6; q++) {
      const y = 170 + q * 95;
      spans.push(at(`0${q + 1}. 5 + 8 × 2의 값은?`, 45, 150, y));
      for (const [k, dy] of [[0, 20], [1, 38]] as const) spans.push(at(`(${'AC'[k]}) 2${k}`, 60, 85, y + dy), at(`(${'BD'[k]}) 2${k + 4}`, 305, 330, y + dy));
      spans.push(at('(E) 31', 60, 85, y + 56));
    }
    const page: PageInfo = { number: 1, width: 595, height: 842, body: { y0: 60, y1: 800 }, columns: [], section: null, spans, shapes: [], furniture: [] };
    expect(findColumns(page)).toHaveLength(1);
  });

  it('reads a page of three questions with 2×2 grids of options as one column, though their stems run across the grid\'s band in many runs', () => {
    // Seed 20261210, paper 0175 (Hindi, page 2): each stem set in a run a syllable, running across
    // the band between the grid's halves on the first and last questions, the right half's options
    // under the last stem. Counted in runs, the sides' outermost 5% left out every row below that
    // stem, so it passed for a line under both sides; counted in rows, it stands between them.
    const at = (text: string, x0: number, x1: number, y: number): Span => ({ ...span(text, x0, y, 12), bbox: [x0, y - 10, x1, y + 2] });
    const stem = (y: number, long: boolean) => {
      const out = [at('Q9.', 45, 65, y)];
      for (let x = 68; x < (long ? 425 : 209); x += 14) out.push(at('सेमी', x, x + 12, y));
      return long ? [...out, at('[4]', 535, 550, y)] : out;
    };
    const spans: Span[] = [];
    for (const [k, y] of [60, 135, 215].entries()) {
      spans.push(...stem(y, k !== 1));
      spans.push(at('(1) 33', 60, 91, y + 21), at('(2) 36', 305, 336, y + 21), at('(3) 35', 60, 91, y + 41), at('(4) 43', 305, 336, y + 41));
    }
    const page: PageInfo = { number: 2, width: 595, height: 842, body: { y0: 40, y1: 800 }, columns: [], section: null, spans, shapes: [], furniture: [] };
    expect(findColumns(page)).toHaveLength(1);
  });

  it('reads a page of one question, its stem run across the page over a 2×2 grid of options, as one column', () => {
    // Seed 20261218, paper 0002 (page 3): the stem's words, a space apart, cross the band between the
    // grid's halves; taken for a title over two columns, the stem was cut in two at the band.
    const at = (text: string, x0: number, x1: number, y: number): Span => ({ ...span(text, x0, y, 12), bbox: [x0, y - 10, x1, y + 2] });
    const words = ['Q.8', '그림과', '같이', '삼각형', 'ABC에서', '∠A', '=', '30°,', '∠B', '=', '20°일', '때,', '∠C의', '크기는?', '[1점]'];
    const spans: Span[] = [];
    for (let k = 0, x = 45; k < words.length; x += words[k].length * 8 + 3.4, k++) spans.push(at(words[k], x, x + words[k].length * 8, 52));
    spans.push(at('(ㄱ)', 59, 79, 163), at('132', 83, 105, 163), at('(ㄴ)', 305, 325, 163), at('130', 328, 350, 163));
    spans.push(at('(ㄷ)', 59, 79, 184), at('135', 83, 105, 184), at('(ㄹ)', 305, 325, 184), at('260', 328, 350, 184));
    const page: PageInfo = { number: 3, width: 595, height: 842, body: { y0: 40, y1: 800 }, columns: [], section: null, spans, shapes: [], furniture: [] };
    expect(findColumns(page)).toHaveLength(1);
  });

  it('reads a question with a 2×2 grid of graph options as one column (the right graphs\' labels are no column)', () => {
    // The question's line runs across, the graphs' axis labels (`y`, `O x`) stand in a narrow band at the right.
    const at = (text: string, x0: number, x1: number, y: number): Span => ({ ...span(text, x0, y, 12), bbox: [x0, y - 10, x1, y + 2] });
    const spans: Span[] = [at('Section I', 71, 124, 80), at('Use the answer sheet for Questions 1–10.', 71, 350, 163), at('1', 71, 77, 201),
      at('Which of the following could be the graph of', 99, 319, 201), at('y', 324, 329, 201), at('= −2x', 332, 361, 201), at('+', 364, 371, 201), at('2?', 374, 385, 201)];
    for (const y of [230, 387]) spans.push(at('A.', 100, 112, y), at('y', 165, 171, y), at('B.', 316, 327, y), at('y', 381, 387, y));
    for (const y of [298, 455]) spans.push(at('O', 163, 171, y), at('x', 223, 228, y), at('O', 379, 387, y), at('x', 439, 444, y));
    const page: PageInfo = { number: 2, width: 595, height: 842, body: { y0: 50, y1: 800 }, columns: [], section: null, spans, shapes: [], furniture: [] };
    expect(findColumns(page)).toHaveLength(1);
  });

  it('reads a page as one column where a line\'s words run on across the gap between text and marks', () => {
    // Parts with marks right-aligned far below their text: the gap between text and marks is no gutter
    // where a part's line reaches past it with its last words (`… at` `x = 1.`).
    const at = (text: string, x0: number, x1: number, y: number): Span => ({ ...span(text, x0, y, 12), bbox: [x0, y - 10, x1, y + 2] });
    const spans: Span[] = [at('QUESTION 3', 58, 131, 78)];
    for (let i = 0; i < 12; i++) spans.push(at('running text of a part', 93, 240 + (i * 17) % 90, 110 + i * 14));
    spans.push(at('(6)', 522, 537, 375), at('(4)', 522, 537, 545));
    spans.push(at('(c)', 58, 72, 585), at('Find the equation of the tangent to h(x) = 3x² – 4x', 93, 357, 585), at('at', 360, 370, 585), at('x', 374, 380, 585), at('= 1.', 383, 403, 585));
    spans.push(at('(5)', 522, 537, 697), at('[15]', 516, 537, 711));
    const page: PageInfo = { number: 6, width: 595, height: 842, body: { y0: 50, y1: 800 }, columns: [], section: null, spans, shapes: [], furniture: [] };
    expect(findColumns(page)).toHaveLength(1);
  });

  it('finds two columns on the sample pages', async () => {
    const doc = await analyse(path.join(ROOT, 'fixtures/samples/2026-sample-math-dif.pdf'), 'layout');
    for (const p of doc.pages) {
      expect(p.columns).toHaveLength(2);
      expect(p.columns[0].x1).toBeLessThan(p.columns[1].x0);
    }
    const first = doc.lines.filter(l => l.page === 1);
    expect(first.findIndex(l => l.column === 1)).toBeGreaterThan(first.findIndex(l => l.column === 0));
  });
});

describe.skipIf(!haveShared())('layout on real papers', () => {
  it('splits KICE pages at the column rule and reads left column first', async () => {
    const doc = await analyse(path.join(KCSAT, '202211-h3-math-pro.pdf'), 'layout');
    for (const p of doc.pages) {
      expect(p.columns).toHaveLength(2);
      expect(p.columns[0].x1).toBeLessThan(421);
      expect(p.columns[1].x0).toBeGreaterThan(421);
    }
    const lines = doc.lines;
    for (let i = 1; i < lines.length; i++) {
      const a = lines[i - 1], b = lines[i];
      expect(a.page * 10 + a.column <= b.page * 10 + b.column).toBe(true);
    }
  });
});

describe('layout of lines that read right to left', () => {
  // Glyphs as a browser paints an RTL line: one span each, left to right on the page (`␣` a space).
  const painted = (visual: string[], baseline: number, right = 500): Span[] => {
    const out: Span[] = [];
    let x = right - visual.reduce((w, t) => w + (t === '␣' ? 3 : 6 * [...t].length), 0);
    for (const t of visual) {
      const w = t === '␣' ? 3 : 6 * [...t].length;
      if (t !== '␣') out.push({ ...span(t, x, baseline, 12), bbox: [x, baseline - 10, x + w, baseline + 2.4] });
      x += w;
    }
    return out;
  };

  it('reads a right-to-left line from the right, its numbers and Latin words left to right, its brackets as printed', () => {
    // `Q2. ما قيمة 4 × 7 + 25؟ (4 درجات)` as painted (measured on a fuzzer paper, Chromium).
    const visual = ['(', 'ت', 'ا', 'ج', 'ر', 'د', '␣', '4', ')', '␣', '؟', '25', '␣', '+', '␣', '7', '␣', '×', '␣', '4', '␣', 'ة', 'م', 'ي', 'ق', '␣', 'ا', 'م', '␣', '.', 'Q', '2'];
    const [line] = buildLines(painted(visual, 100), 1, 0);
    expect(line.rtl).toBe(true);
    expect(rawText(line.spans)).toBe('Q2. ما قيمة 4 × 7 + 25؟ (4 درجات)');
    expect(lineText(line.spans)).toBe('Q2. ما قيمة 4 × 7 + 25؟ (4 درجات)');
    // `… الزاوية C. (5`: a number after a Latin letter and a bracket is no part of its run.
    const [wrap] = buildLines(painted(['5', ')', '␣', '.', 'C', '␣', 'ة', 'ي', 'و', 'ا', 'ز'], 100), 1, 0);
    expect(rawText(wrap.spans)).toBe('زاوية C. (5');
  });

  it('reads a bracket that closes a Latin run\'s bracket with the run, a stop painted on a number apart from it, and a Latin line\'s stop at its end', () => {
    // `Ex. 1 (0–2) احسب 8x + 14 = 94.` as Chromium paints it in an Arabic paragraph (fuzzer paper 0188):
    // the `)` at the right end closes `(0–2`, the `.8` at the left end is the sentence's stop and 8x's 8.
    const [line] = buildLines(painted(['.8', 'x', '␣', '+', '␣', '14', '␣', '=', '␣', '94', '␣', 'ب', 'س', 'ح', 'ا', '␣', 'Ex', '. 1', '␣', '(', '0', '–', '2', ')'], 100), 1, 0, true);
    expect(line.rtl).toBe(true);
    expect(rawText(line.spans)).toBe('Ex. 1 (0–2) احسب 8x + 14 = 94.');
    // The English beside it, a line of its own in the same paragraph: its stop painted at the left.
    const [english] = buildLines(painted(['.Solve', '␣', 'for', '␣', 'x'], 120), 1, 0, true);
    expect(rawText(english.spans)).toBe('Solve for x.');
    // On a page that reads left to right the same line is left as printed.
    expect(rawText(buildLines(painted(['.Solve', '␣', 'for', '␣', 'x'], 120), 1, 0)[0].spans)).toBe('.Solve for x');
  });

  it('keeps a line with no right-to-left letter as it was, and takes a line of numbers alone the way its page reads', () => {
    const ltr = [span('A', 100, 100, 12), span('B', 140, 100, 12)];
    expect(buildLines(ltr, 1, 0)[0].spans).toEqual(ltr);
    expect(buildLines(ltr, 1, 0)[0].rtl).toBeUndefined();
    // An option `(1) 43` on a right-to-left page.
    const [option] = buildLines(painted(['43', '␣', '(', '1', ')'], 100), 1, 0, true);
    expect(rawText(option.spans)).toBe('(1) 43');
    // A row of such options in cells (fuzzer seed 20261204, paper 0078): each read as that one is, the row from the right.
    const row = [span('216', 612, 100, 9.5), span('(', 632, 100, 9.5), span('4', 635, 100, 9.5), span(')', 641, 100, 9.5),
      span('199', 663, 100, 9.5), span('(', 683, 100, 9.5), span('1', 686, 100, 9.5), span(')', 692, 100, 9.5)];
    expect(rawText(buildLines(row, 1, 0, true)[0].spans)).toBe('(1) 199 (4) 216');
    // …and an option whose label is a letter (`(A) 51`, painted `51 (A)`: fuzzer seed 20261207, paper
    // 0178): a label's letter is no word, the line reads the page's way. A Latin word does not.
    const [lettered] = buildLines(painted(['51', '␣', '(', 'A', ')'], 100), 1, 0, true);
    expect(rawText(lettered.spans)).toBe('(A) 51');
    expect(rawText(buildLines(painted(['51', '␣', 'cm'], 100), 1, 0, true)[0].spans)).toBe('51 cm');
    // Labels `a)` … `d)` under pictures in a row, each painted `(a` (its bracket takes the page's
    // direction and stands mirrored at its left: fuzzer seed 20261208, paper 0158).
    const labels = [span('(', 322, 100, 11), span('d', 325, 100, 11), span('(', 390, 100, 11), span('c', 394, 100, 11), span('(', 459, 100, 11), span('b', 462, 100, 11), span('(', 527, 100, 11), span('a', 531, 100, 11)];
    expect(rawText(buildLines(labels, 1, 0, true)[0].spans)).toBe('a) b) c) d)');
  });

  it('closes the gaps OCR sets between Han or kana characters, and keeps a text layer\'s spaces as printed', () => {
    // OCR's words of `一、选择题（每小题2分）` on a scan (seed 20261208, paper 0123): set apart by a third of an em.
    const ocr = (text: string, x: number) => ({ ...span(text, x, 100, 10.5), font: 'ocr' });
    expect(rawText([ocr('一、选', 60), ocr('择题〈每小', 80), ocr('题2分)', 115)])).toBe('一、选择题〈每小题2分)');
    // A cell's gap (an em and more) stays a space; so does a printed space between two words.
    expect(rawText([ocr('姓名', 60), ocr('班级', 110)])).toBe('姓名 班级');
    expect(rawText([span('数学', 60, 100, 10.5), span('問1', 85, 100, 10.5)])).toBe('数学 問1');
  });

  it('reads a Latin line set out in cells on a right-to-left page from the right, each cell left to right', () => {
    // Options in a row as an RTL page sets them (measured on a fuzzer paper): `A) 50` at the right.
    const cells = [span('C)', 416, 100, 11), span('54', 432, 100, 11), span('B)', 463, 100, 11), span('52', 479, 100, 11), span('A)', 509, 100, 11), span('50', 525, 100, 11)];
    const [row] = buildLines(cells, 1, 0, true);
    expect(rawText(row.spans)).toBe('A) 50 B) 52 C) 54');
    expect(row.rtl).toBe(true);
    // The same line on a page that reads left to right, and a Latin line with no cells on a right-to-left page, stay as they are.
    expect(rawText(buildLines(cells, 1, 0)[0].spans)).toBe('C) 54 B) 52 A) 50');
    const words = [span('x', 100, 100, 11), span('=', 108, 100, 11), span('2', 116, 100, 11)];
    expect(buildLines(words, 1, 0, true)[0].spans).toEqual(words);
  });

  it('reads numbers and signs painted as one span on a right-to-left page in the order they are read', () => {
    // A row of options `1. 16  2. 13 …` comes out of an Arabic paper's text layer as `16 .1` … (fuzzer seed 20261206, 0038).
    const row = painted(['19 .4', '␣', '17 .3', '␣', '13 .2', '␣', '16 .1'], 100);
    expect(rawText(buildLines(row, 1, 0, true)[0].spans)).toBe('1. 16 2. 13 3. 17 4. 19');
    // A key's pairs as one span (0348): `1.3 2.81 … 7.2`, painted from the right.
    expect(rawText(buildLines(painted(['7.2 6.1 5.3 4.3 3.2 2.81 1.3'], 100), 1, 0, true)[0].spans)).toBe('1.3 2.81 3.2 4.3 5.3 6.1 7.2');
    // A formula isolated left to right stays as printed.
    expect(rawText(buildLines(painted(['6 × 3 + 29', '␣', 'ب', 'س', 'ح', 'ا'], 100), 1, 0, true)[0].spans)).toBe('احسب 6 × 3 + 29');
    // A label `Ex. 1` painted as `Ex` and `. 1` at the line's right end (0318).
    expect(rawText(buildLines(painted(['.', '7', '␣', 'ن', 'ك', 'ت', 'ل', '␣', 'Ex', '. 1'], 100), 1, 0, true)[0].spans)).toBe('Ex. 1 لتكن 7.');
  });

  it('reads numbers a space apart on a right-to-left line as runs of their own, and a picture\'s label with its stop after it', () => {
    // A key's row of answers in cells (0118): letters, then values, from the right; no span stands for the spaces.
    const cells = painted(['3', '␣', '␣', '5', '␣', '␣', '31', '␣', '␣', '88', '␣', '␣', 'ج', '␣', '␣', 'أ'], 100);
    expect(rawText(buildLines(cells, 1, 0, true)[0].spans)).toBe('أ ج 88 31 5 3');
    // Labels under option pictures, `Ａ．` painted `．Ａ` (0138), in cells read from the right.
    const labels = [span('．Ｂ', 300, 100, 12), span('．Ａ', 400, 100, 12)];
    expect(rawText(buildLines(labels, 1, 0, true)[0].spans)).toBe('Ａ． Ｂ．');
  });

  it('takes a paper for right to left where a fair share of its letters are, though it prints English beside its Arabic', () => {
    expect(pageReadsRtl([span('مرحبا', 300, 100, 12), span('Hello world', 100, 100, 12)])).toBe(true);
    expect(pageReadsRtl([span('مرحبا', 300, 100, 12), span('Hello wonderful world', 100, 100, 12)])).toBe(false);
    expect(pageReadsRtl([span('Hello', 100, 100, 12)])).toBe(false);
  });

  it('reads a right-to-left paper\'s questions in order: numbers, options and marks at the lines\' right-hand starts, the right column first', async () => {
    const q = (n: number, a: number, b: number) => `<div class="q"><p>السؤال ${n}: ما قيمة ${a} + ${b}؟ (${n % 3 + 1} درجات)</p>
      <p>(أ) ${a + b}</p><p>(ب) ${a + b + 1}</p><p>(ج) ${a + b + 2}</p><p>(د) ${a + b + 3}</p></div>`;
    const html = `<!doctype html><html lang="ar" dir="rtl"><head><meta charset="utf-8"><style>@page { size: A4; margin: 20mm }
      body { font: 12pt 'Noto Naskh Arabic', 'DejaVu Sans', serif; columns: 2; column-gap: 12mm } p { margin: 0 0 4pt } .q { break-inside: avoid; margin-bottom: 14pt }</style></head>
      <body><h1>اختبار الرياضيات</h1>${Array.from({ length: 12 }, (_, i) => q(i + 1, 3 * i + 2, i + 5)).join('')}</body></html>`;
    const { browser, page } = await printingPage();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rtl-'));
    try {
      const file = path.join(dir, 'rtl-paper.pdf');
      fs.writeFileSync(file, await printHtml(page, html));
      const doc = await analyse(file, 'segment');
      expect(doc.questions.map(x => x.number)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      expect(doc.questions.map(x => x.points)).toEqual(Array.from({ length: 12 }, (_, i) => (i + 1) % 3 + 1));
      expect(doc.questions[0].options.map(o => `${o.label} ${o.text}`)).toEqual(['أ 7', 'ب 8', 'ج 9', 'د 10']);
    } finally {
      await browser.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('columns a scan\'s ink gives, judged by their words', () => {
  it('joins a column of marks to the questions it scores (`[2 คะแนน]` at the rows\' ends), and keeps a column of text', () => {
    const ink = [{ x0: 40, x1: 300 }, { x0: 320, x1: 380 }];
    const questions = [0, 1, 2, 3].map(k => span(`ข้อ ${k + 1} จงหาค่าของ ${k + 4} × 3`, 40, 100 + k * 40, 11));
    // OCR parts a unit's letters where they stand apart (`[2 ค ะแนน]`).
    const marks = ['[2 คะแนน]', '[3 ค ะแนน]', '(1 mark)', '[4 คะแนน]'].map((t, k) => span(t, 320, 100 + k * 40, 9));
    expect(withoutMarksMargins(ink, [...questions, ...marks], false).map(c => [c.x0, c.x1])).toEqual([[40, 380]]);
    // A narrow column of text beside them stays a column.
    const text = ['ข้อ 5 จงหา', 'ค่าของ x', 'เมื่อ 2x = 8', 'ข้อ 6 จงหา'].map((t, k) => span(t, 320, 100 + k * 40, 9));
    expect(withoutMarksMargins(ink, [...questions, ...text], false).map(c => [c.x0, c.x1])).toEqual([[40, 300], [320, 380]]);
    // Marks that stand on no row of the questions' (a column of its own further down) stay apart.
    const below = marks.map(s => ({ ...s, bbox: [s.bbox[0], s.bbox[1] + 400, s.bbox[2], s.bbox[3] + 400] as Span['bbox'], baseline: s.baseline + 400 }));
    expect(withoutMarksMargins(ink, [...questions, ...below], false)).toHaveLength(2);
  });

  it('joins marks floated to the top of their lines (`[3]` a few points above `No. 4 …`), as OCR boxes them', () => {
    // Measured on seed 20261210's scan 0004: `[3]` 367–377.5 beside `No. 4 方程式…` 373.4–383.3.
    const ink = [{ x0: 40, x1: 420 }, { x0: 520, x1: 560 }];
    const box = (text: string, x0: number, y0: number, x1: number, y1: number): Span => ({ page: 1, text, bbox: [x0, y0, x1, y1], baseline: y1, size: y1 - y0, font: 'ocr', math: false });
    const questions = [0, 1, 2, 3].map(k => box(`No. ${k + 3} 方程式 ${k + 4}x + 4 = 28 を解け。`, 46, 373.4 + k * 80, 300, 383.3 + k * 80));
    const raised = ['[3]', '[4]', '[5]', '[1]'].map((t, k) => box(t, 532, 367 + k * 80, 545, 377.5 + k * 80));
    expect(withoutMarksMargins(ink, [...questions, ...raised], false).map(c => [c.x0, c.x1])).toEqual([[40, 560]]);
    // Marks a whole line above the questions' rows stand on none of them.
    const above = raised.map(s => ({ ...s, bbox: [s.bbox[0], s.bbox[1] - 14, s.bbox[2], s.bbox[3] - 14] as Span['bbox'], baseline: s.baseline - 14 }));
    expect(withoutMarksMargins(ink, [...questions, ...above], false)).toHaveLength(2);
  });
});

describe('lines', () => {
  it('puts a mark set a little above a line on that line, whichever of the two OCR met first', () => {
    // `[3]` (367–377.5) opens a line before `No.` (375.4–383.3) arrives and overlaps it too little;
    // the line's tall words then overlap it as a line must.
    const box = (text: string, x0: number, y0: number, x1: number, y1: number): Span => ({ page: 1, text, bbox: [x0, y0, x1, y1], baseline: y1, size: y1 - y0, font: 'ocr', math: false });
    const lines = buildLines([box('[3]', 534.5, 367, 545.5, 377.5), box('No.', 47.8, 375.4, 64.3, 383.3), box('4', 67.9, 374.9, 73.7, 383), box('方程式', 77.3, 373.4, 107.3, 383.3)], 1, 0);
    expect(lines.map(l => rawText(l.spans))).toEqual(['No. 4 方程式 [3]']);
    // A mark alone whose foot only meets the head of a tall line (an exponent raised it: `[2]` 134.2–144.5 beside `No. 15 3³` 142.3–154.1).
    const tall = buildLines([box('[2]', 529, 134.2, 540.2, 144.5), box('No.', 44.2, 145.9, 60.5, 154.1), box('15', 64.8, 145.7, 74.4, 153.6), box('3³', 78, 142.3, 87.4, 153.4)], 1, 0);
    expect(tall.map(l => rawText(l.spans))).toEqual(['No. 15 3³ [2]']);
    // Rows stacked over one another (a fraction's, a formula's) stay apart however they overlap, and so do lines that only touch.
    const stacked = buildLines([box('x + 1', 100, 100, 130, 110), box('2', 110, 107, 118, 117), box('Next line of text', 40, 116.5, 200, 126)], 1, 0);
    expect(stacked.map(l => rawText(l.spans))).toEqual(['x + 1', '2', 'Next line of text']);
  });
});
