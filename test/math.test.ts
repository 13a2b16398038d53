// math: LaTeX rebuilt from the glyph layer, one construct at a time, on real glyph runs of the
// 2024 CSAT booklets; and every formula typesets in KaTeX.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PaperDocument } from '../pipeline/document.ts';
import { formulas, katexError, mathStage } from '../pipeline/stages/math.ts';
import { formulaLatex } from '../pipeline/math/latex.ts';
import type { Glyph } from '../pipeline/math/glyphs.ts';
import { analyse, config, templates } from './analyse.ts';
import type { StageContext } from '../pipeline/stage.ts';
import type { Store } from '../pipeline/store/db.ts';
import { haveShared, KCSAT, SHARED } from './helpers.ts';
import { openPdf, pageGraphics, pageSpans } from '../pipeline/providers/pdf.ts';
import { decodeSpan } from '../pipeline/stages/text-layer.ts';

const g = (ch: string, x: number, baseline: number, size = 11, w = size * 0.5): Glyph => ({ ch, bbox: [x, baseline - size * 0.85, x + w, baseline + size * 0.2], baseline, size });

describe('math', () => {
  it('stacks a fraction around its rule and raises a small one into an exponent', () => {
    // 3^{2/3}: a small fraction raised after a full-size 3.
    expect(formulaLatex([g('3', 100, 300), g('―', 106, 293, 7.5, 6), g('2', 107, 289, 7.5), g('3', 107, 297, 7.5)]).latex).toBe('3^{\\frac{2}{3}}');
  });

  it('reads a raised dot set tight between digits as a decimal point, and one with room on both sides as a product', () => {
    expect(formulaLatex([g('1', 100, 300), g('·', 105.5, 300, 11, 2), g('9', 107.6, 300)]).latex).toBe('1.9');
    // PAES `7 ⋅ 25`: 2.6 and 2.8 pt of room at 13 pt.
    expect(formulaLatex([g('7', 129.3, 300, 13.1, 6.5), g('⋅', 138.4, 300, 13.1, 3.2), g('2', 144.4, 300, 13.1, 6.1), g('5', 150.5, 300, 13.1, 6.1)]).latex).toBe('7\\cdot25');
  });

  it('reports what it cannot rebuild with confidence', () => {
    const built = formulaLatex([g('x', 100, 300), g('―', 110, 280, 11, 10)]);
    expect(built.doubts).toEqual(['a rule with nothing under it']);
    expect(katexError(built.latex)).toBeNull();
  });

  it('replaces a formula KaTeX cannot parse by its text, with a diagnostic', async () => {
    const doc = { questions: [{ id: 'q', page: 1, stem: 'a $\\frac{1}{$ b', options: [{ label: '①', text: '$x^{2}$' }] }], messages: { warn: (...a: unknown[]) => warned.push(a) } } as unknown as PaperDocument;
    const warned: unknown[] = [];
    await mathStage().run(doc, {} as StageContext);
    expect(katexError(formulas(doc.questions[0].stem)[0])).toBeNull();
    expect(doc.questions[0].options[0].text).toBe('$x^{2}$');
    expect(warned).toHaveLength(1);
  });
});

describe.skipIf(!haveShared())('math on real glyph runs (2024 CSAT)', () => {
  const docs: Record<string, PaperDocument> = {};
  const ctx = { config, templates, store: undefined as unknown as Store, runKey: 'test' } as StageContext;
  beforeAll(async () => {
    for (const e of ['pro', 'dif', 'geo']) {
      docs[e] = await analyse(path.join(KCSAT, `202311-h3-math-${e}.pdf`));
      await mathStage().run(docs[e], ctx);
    }
  }, 120_000);
  const q = (e: string, n: number, section?: string) => docs[e].questions.find(x => x.number === n && (!section || x.section === section))!;
  const all = (e: string, n: number, section?: string) => { const x = q(e, n, section); return [...formulas(x.stem), ...x.options.flatMap(o => formulas(o.text))]; };

  it.each([
    ['radical with its index, fraction in an exponent', 'pro', 1, '\\sqrt[3]{24}\\times3^{\\frac{2}{3}}'],
    ['superscripts', 'pro', 2, 'f(x)=2x^{3}-5x^{2}+3'],
    ['limit with its bound under lim, fraction', 'pro', 2, '\\lim_{h\\to0}\\frac{f(2+h)-f(2)}{h}'],
    ['Greek letters and inequalities', 'pro', 3, '\\frac{3}{2}\\pi<\\theta<2\\pi'],
    ['function names', 'pro', 3, '\\sin(-\\theta)=\\frac{1}{3}'],
    ['radical inside a fraction', 'pro', 3, '-\\frac{\\sqrt{2}}{2}'],
    ['cases', 'pro', 4, 'f(x)= \\begin{cases} 3x-a & (x<2) \\\\ x^{2}+a & (x\\geq2) \\end{cases}'],
    ['subscripts in braces', 'pro', 6, '\\{a_{n}\\}'],
    ['integral with its bounds', 'pro', 8, '\\int_{-2}^{2}f(x)dx'],
    ['log with its base', 'pro', 9, 'P(\\log_{5}3)'],
    ['sum with its limits, fraction of subscripts', 'pro', 11, '\\sum_{k=1}^{5}\\frac{1}{a_{k}a_{k+1}}=\\frac{5}{96}'],
    ['decimal point between digits', 'pro', 27, 'P(|Z|\\leq1.96)=0.95'],
    ['primes from the text font inside a formula', 'dif', 25, "g'(x)"],
    ['nested exponent', 'dif', 28, 'f(x)=-4xe^{4x^{2}}'],
    ['vector arrow over one letter', 'geo', 25, '|\\vec{a}|=\\sqrt{11}'],
    ['arrow over two letters', 'geo', 30, '\\overrightarrow{AX}=\\overrightarrow{PB}+\\overrightarrow{QC}+\\overrightarrow{RA}'],
    ['overline of a segment', 'geo', 28, '\\overline{AB}=18'],
  ])('%s', (_name, e, n, latex) => {
    const section = n >= 23 ? ({ pro: 'prob-stat', dif: 'calculus', geo: 'geometry' } as Record<string, string>)[e] : 'common';
    expect(all(e, n, section)).toContain(latex);
    expect(katexError(latex)).toBeNull();
  });

  it('tall brackets set in pieces (⎡ ∣ ⎣)', async () => {
    const doc = await analyse(path.join(KCSAT, '202211-h3-math-dif.pdf'));
    expect(formulas(doc.questions.find(x => x.number === 9)!.stem)).toContain('[-\\frac{\\pi}{6},b]');
  }, 180_000);
});

describe.skipIf(!haveShared())("Cambridge's custom-encoded math fonts, decoded through glossary/fonts tables", () => {
  const cambridge = templates.find(t => t.id === 'cambridge-9709')!;
  const paper = (name: string) => path.join(SHARED, 'fixtures', 'papers', 'cambridge', name);
  /** The decoded text of a page's spans in one font (the code points pdf.js reports, through the table). */
  const decoded = async (file: string, page: number, font: string) => {
    const pdf = await openPdf(new Uint8Array(fs.readFileSync(file)));
    const p = await pdf.getPage(page);
    await pageGraphics(p, page);
    const spans = (await pageSpans(p)).filter(s => s.font.includes(font));
    await pdf.destroy();
    return spans.map(s => decodeSpan(s, cambridge).text);
  };

  it('NewMathExtn: sized brackets at control and ASCII code points become brackets', async () => {
    // 9709/12 June 2022 p4: (4x − 7)^½ with U+0000/U+0001, the point (4, 5/2) with U+0010/U+0011.
    const q3 = await decoded(paper('9709_s22_qp_12.pdf'), 4, 'NewMathExtn');
    expect(q3.join('')).toBe('()()');
    // p2: (2x + a/x)⁶ in the tallest size, at '@' and 'A'.
    expect((await decoded(paper('9709_s22_qp_12.pdf'), 2, 'NewMathExtn')).join('')).toBe('()()');
    // 9709/52 June 2022 p5: the stem-and-leaf key 1 | 35 | 3, its bars at U+001E.
    expect((await decoded(paper('9709_s22_qp_52.pdf'), 5, 'NewMathExtn')).join('')).toBe('||');
  }, 60_000);

  it('NewMathSymb: θ, °, ≡ and σ reported as 1, Å, U+008F and 3 are read as what is printed', async () => {
    // 9709/12 March 2023 p8: tan θ sin θ = 1 for 0° < θ < 360°.
    const p8 = (await decoded(paper('9709_m23_qp_12.pdf'), 8, 'NewMathSymb')).join(' ');
    expect(p8).toContain('θ');
    expect(p8).toContain('°');
    expect(p8).not.toMatch(/[1Å]/);
    // p9: tan θ / sin θ − sin θ / tan θ ≡ tan θ sin θ.
    expect((await decoded(paper('9709_m23_qp_12.pdf'), 9, 'NewMathSymb')).join(' ')).toContain('≡');
    // 9709/52 June 2022 p7: standard deviation σ kg.
    expect((await decoded(paper('9709_s22_qp_52.pdf'), 7, 'NewMathSymb')).join(' ')).toContain('σ');
  }, 60_000);

  it('stacked fractions and sized brackets of the text font come out as one formula', async () => {
    const doc = await analyse(paper('9709_s22_qp_12.pdf'));
    await mathStage().run(doc, {} as StageContext);
    const all = doc.questions.flatMap(q => formulas(q.stem));
    expect(all).toEqual(expect.arrayContaining([
      '\\frac{dy}{dx}=3(4x-7)^{\\frac{1}{2}}-4x^{-\\frac{1}{2}}',
      'f(x)=\\frac{2x+1}{2x-1}',
      'x\\in\\mathbb{R}',
      '\\frac{d^{2}y}{dx^{2}}',
    ]));
    expect(doc.questions.map(q => q.stem).join('\n')).not.toMatch(/[\u0000-\u0008\u000e-\u001f]/);
  }, 120_000);
});
