// Scripts in the text font: chemical formulas with charges and subscripts (gaokao chemistry, set in
// Word) and prescripts like ⁵C₄ (Cambridge), rebuilt from real runs of the papers in ../shared;
// powers and indices of papers typed in a browser (<sup>, <sub>), printed by Chromium in a serif,
// a sans and a CJK font.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PaperDocument, Span } from '../pipeline/document.ts';
import { prescriptOf, scriptOf, scriptPieces, words } from '../pipeline/math/scripts.ts';
import { openPdf, pageSpans } from '../pipeline/providers/pdf.ts';
import { formulas, katexError } from '../pipeline/stages/math.ts';
import { lineText } from '../pipeline/text/line-text.ts';
import { analyse } from './analyse.ts';
import { haveShared, SHARED, TEST_OUT } from './helpers.ts';
import { haveChromium, launch } from './review-browser.ts';

const PAPERS = path.join(SHARED, 'fixtures', 'papers');
const span = (text: string, x0: number, x1: number, baseline: number, size: number, font = 'f'): Span => ({ page: 1, text, bbox: [x0, baseline - size * 0.85, x1, baseline + size * 0.2], baseline, size, font, math: false });

describe('scripts', () => {
  it('tells a raised, a lowered and a settled small span from ordinary text', () => {
    const base = span('Cu', 100, 114, 300, 11.7);
    expect(scriptOf(span('2', 114.5, 118, 295, 6.8), base)).toBe('sup');
    expect(scriptOf(span('3', 114.5, 118, 303, 6.8), base)).toBe('sub');
    // Half size on the base's own baseline: a subscript as some typesetters leave it.
    expect(scriptOf(span('2', 114.5, 118, 300.4, 5.5), base)).toBe('sub');
    // Same size, or too far away, or OCR text: not a script.
    expect(scriptOf(span('2', 114.5, 120, 300, 11.7), base)).toBeNull();
    expect(scriptOf(span('2', 130, 134, 295, 6.8), base)).toBeNull();
    expect(scriptOf(span('2', 114.5, 118, 295, 6.8, 'ocr'), { ...base, font: 'ocr' })).toBeNull();
    expect(prescriptOf(span('5', 95, 99, 295, 7.2), span('C', 99.5, 107, 300, 11.4))).toBe('sup');
  });

  it('takes a browser\'s <sup> and <sub> (5/6 of the base, raised 0.40, lowered 0.26) for scripts, not a smaller word on the line', () => {
    const base = span('Simplify 3', 56.7, 119.7, 100.75, 12);
    expect(scriptOf(span('4', 119.7, 124.7, 96, 10), base)).toBe('sup');
    expect(scriptOf(span('2', 119.7, 124.7, 103.9, 10), base)).toBe('sub');
    // As large, but hardly off the baseline: a smaller word, not a script.
    expect(scriptOf(span('4', 119.7, 124.7, 99.5, 10), base)).toBeNull();
    expect(scriptOf(span('4', 119.7, 124.7, 96, 11), base)).toBeNull();
  });

  it('joins algebra through its operators and a function\'s operand, and leaves chemistry as it was', () => {
    const line = (...parts: [string, number, number][]) => {
      let x = 50;
      return parts.map(([text, size, rise]) => { const s = span(text, x, x + text.length * size * 0.5, 100 - rise, size); x = s.bbox[2]; return s; });
    };
    const tex = (spans: Span[]) => lineText(spans);
    expect(tex(line(['Simplify 3', 12, 0], ['4', 10, 4.75], ['· 3', 12, 0], ['2', 10, 4.75], ['.', 12, 0]))).toBe('Simplify $3^{4}\\cdot 3^{2}$.');
    expect(tex(line(['Find log', 12, 0], ['2', 10, -3.14], ['8.', 12, 0]))).toBe('Find $\\log_{2}8$.');
    expect(tex(line(['so x', 12, 0], ['2', 10, 4.75], ['+ y', 12, 0], ['2', 10, 4.75], ['= 25.', 12, 0]))).toBe('so $x^{2}+y^{2}=25$.');
    expect(tex(line(['then a', 12, 0], ['n', 10, -3.14], ['is 2', 12, 0], ['n', 10, 4.75]))).toBe('then $a_{n}$ is $2^{n}$');
    expect(tex(line(['about 10', 12, 0], ['−3', 10, 4.75], ['m', 12, 0]))).toBe('about $10^{-3}$ m');
    expect(tex(line(['y = −(x − 3)', 12, 0], ['2', 10, 4.75]))).toBe('y = − $(x-3)^{2}$');
    // An electron with its coefficient stays upright, and an ion's charge stops the join.
    expect(tex(line(['2H', 11.7, 0], ['2', 6.8, -2], ['O – 4e', 11.7, 0], ['−', 6.8, 4]))).toBe('$2\\mathrm{H}_{2}\\mathrm{O}$ – $4\\mathrm{e}^{-}$');
  });

  it('cuts a run with spaces left for scripts into words, and leaves text without scripts alone', () => {
    expect(words(span('Na CS', 72, 105.7, 690, 12.3)).map(s => s.text)).toEqual(['Na', 'CS']);
    expect(scriptPieces([span('plain words', 0, 60, 100, 10)])).toEqual([{ text: 'plain words' }]);
  });
});

describe.skipIf(!haveShared())('scripts on real runs', () => {
  const docs: Record<string, PaperDocument> = {};
  const gaokao = (stem: string) => path.join(PAPERS, 'gaokao', fs.readdirSync(path.join(PAPERS, 'gaokao')).find(f => f.startsWith(stem) && f.endsWith('.pdf'))!);
  beforeAll(async () => {
    docs.hubei = await analyse(gaokao('2022_hubei'));
    docs.y2016 = await analyse(gaokao('2016_other'));
  }, 120_000);
  const all = (d: string, n: number) => { const q = docs[d].questions.find(x => x.number === n)!; return [...formulas(q.stem), ...q.options.flatMap(o => formulas(o.text))]; };

  it.each([
    ['charges', 'hubei', 4, '\\mathrm{Cu}^{2+}'],
    ['subscript and charge on one symbol', 'hubei', 4, '\\mathrm{SO}_{3}^{2-}'],
    ['a charge of one', 'hubei', 4, '\\mathrm{NO}_{3}^{-}'],
    ['groups that touch make one formula; scripts between the words of a run', 'hubei', 8, '\\mathrm{Na}_{2}\\mathrm{CS}_{3}'],
    ['an element after a subscript goes on with the formula', 'hubei', 8, '\\mathrm{H}_{2}\\mathrm{S}'],
    ['a bracket and its subscript', 'hubei', 10, '\\mathrm{Be(OH)}_{2}'],
    ['a coefficient stays outside the upright symbols', 'hubei', 14, '8\\mathrm{CN}^{-}'],
    ['powers of ten in a quantity', 'hubei', 15, '10^{-4}'],
    ['units with a negative power', 'hubei', 15, '\\mathrm{L}^{-1}'],
    ['subscripts left on the baseline at half size', 'y2016', 11, '\\mathrm{Na}_{2}\\mathrm{SO}_{4}'],
    ['a dichromate ion', 'y2016', 27, '\\mathrm{Cr}_{2}\\mathrm{O}_{7}^{2-}'],
  ])('%s', (_name, d, n, latex) => {
    expect(all(d, n)).toContain(latex);
    expect(katexError(latex)).toBeNull();
  });

  it('reaction arrows carry their conditions over them (2020 Jiangsu, question 10)', async () => {
    const doc = await analyse(gaokao('2020_jiangsu'));
    const q = doc.questions.find(x => x.number === 10)!;
    const arrows = q.options.flatMap(o => formulas(o.text)).filter(f => f.startsWith('\\xrightarrow'));
    expect(arrows).toEqual(expect.arrayContaining(['\\xrightarrow{\\text{电解}}', '\\xrightarrow{\\text{石灰水}}', '\\xrightarrow{\\text{加热}}']));
    for (const f of arrows) expect(katexError(f)).toBeNull();
  }, 120_000);

  it('every formula of the gaokao papers parses in KaTeX', async () => {
    const bad: string[] = [];
    for (const d of Object.values(docs)) for (const q of d.questions) for (const t of [q.stem, ...q.options.map(o => o.text)]) for (const f of formulas(t)) if (katexError(f)) bad.push(f);
    expect(bad).toEqual([]);
    expect(Object.values(docs).flatMap(d => d.questions.flatMap(q => formulas(q.stem))).length).toBeGreaterThan(50);
  });

  it('combinations ⁿCᵣ and permutations ⁿPᵣ with their prescripts (Cambridge 9709 mark scheme)', async () => {
    const pdf = await openPdf(new Uint8Array(fs.readFileSync(path.join(PAPERS, 'cambridge', '9709_m21_ms_52.pdf'))));
    const lineOf = async (page: number, containing: string) => {
      const spans = (await pageSpans(await pdf.getPage(page))).map(r => ({ ...r, page, math: false }));
      const anchor = spans.find(s => s.text.includes(containing))!;
      return lineText(spans.filter(s => Math.abs(s.baseline - anchor.baseline) < anchor.size * 0.6).sort((a, b) => a.bbox[0] - b.bbox[0]));
    };
    const binomial = formulas(await lineOf(6, 'P(at least 1 three'));
    expect(binomial).toEqual(expect.arrayContaining(['{}^{5}\\mathrm{C}_{4}', '{}^{5}\\mathrm{C}_{3}', '(p)^{5}']));
    const arrangements = formulas(await lineOf(12, 'condone'));
    expect(arrangements).toEqual(expect.arrayContaining(['{}^{8}\\mathrm{C}_{2}', '{}^{8}\\mathrm{P}_{2}']));
    for (const f of [...binomial, ...arrangements]) expect(katexError(f)).toBeNull();
    await pdf.destroy();
  });
});

describe.skipIf(!haveChromium())('scripts of papers typed in a browser', () => {
  // Each line of a small paper as Chromium prints it, in three fonts, and what it must read as.
  const LINES: [string, string][] = [
    ['1. Simplify 3<sup>4</sup> · 3<sup>2</sup>.', '1. Simplify $3^{4}\\cdot 3^{2}$.'],
    ['2. Find log<sub>2</sub>8.', '2. Find $\\log_{2}8$.'],
    ['3. The circle x<sup>2</sup> + y<sup>2</sup> = 25 meets the axes.', '3. The circle $x^{2}+y^{2}=25$ meets the axes.'],
    ['4. The sequence a<sub>n</sub> doubles: a<sub>n+1</sub> = 2a<sub>n</sub>.', '4. The sequence $a_{n}$ doubles: $a_{n+1}=2a_{n}$.'],
    ['5. A mass of 10<sup>−3</sup> kg of H<sub>2</sub>O.', '5. A mass of $10^{-3}$ kg of $\\mathrm{H}_{2}\\mathrm{O}$.'],
    ['6. 计算 2<sup>10</sup> − 1 的值。', '6. 计算 $2^{10}-1$ 的值。'],
  ];
  const FONTS = { serif: "'Liberation Serif', serif", sans: "'DejaVu Sans', sans-serif", cjk: "'Noto Sans CJK SC', sans-serif" };
  const read: Record<string, string[]> = {};
  beforeAll(async () => {
    const dir = path.join(TEST_OUT, 'scripts');
    fs.mkdirSync(dir, { recursive: true });
    const browser = await launch();
    try {
      for (const [name, family] of Object.entries(FONTS)) {
        const page = await browser.newPage();
        await page.setContent(`<html><body style="font-family:${family};font-size:12pt;margin:2cm">${LINES.map(([html]) => `<p>${html}</p>`).join('')}</body></html>`);
        const file = path.join(dir, `browser-${name}.pdf`);
        await page.pdf({ path: file, format: 'A4' });
        await page.close();
        const doc = await analyse(file, 'layout');
        read[name] = doc.lines.map(l => lineText(l.spans));
      }
    } finally {
      await browser.close();
    }
  }, 120_000);

  it.each(Object.keys(FONTS))('reads every power and index as a formula (%s)', name => {
    expect(read[name]).toEqual(LINES.map(([, text]) => text));
    for (const f of read[name].flatMap(formulas)) expect(katexError(f)).toBeNull();
  });
});
