// layout: columns from the column rule, lines that keep stacked formula parts together.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../pipeline/config.ts';
import type { Span } from '../pipeline/document.ts';
import { buildLines } from '../pipeline/stages/layout.ts';
import { analyse } from './analyse.ts';
import { haveShared, KCSAT } from './helpers.ts';

const span = (text: string, x: number, baseline: number, size: number, math = false): Span =>
  ({ page: 1, text, bbox: [x, baseline - size * 0.85, x + size * text.length * 0.6, baseline + size * 0.2], baseline, size, font: math ? 'HyhwpEQ' : 'Body', math });

describe('layout', () => {
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
