// Formulas set in the text font, as LaTeX/Word papers print them: italic letters, a math symbol
// font for operators and sized brackets, and stacked fractions (numerator and denominator on their
// own baselines, the bar a drawn rule the text layer does not carry). A stack is two groups of
// spans overlapping in x, one above and one below the line; the formula is the run of math
// material around math-font spans and stacks. Its glyphs go to the same geometric builder as the
// equation-font formulas, with a rule glyph put where the fraction bar is.
import type { Span } from '../document.ts';
import { RULE, toGlyphs, type Glyph } from './glyphs.ts';
import { formulaLatex } from './latex.ts';
import { words } from './words.ts';

/**
 * Fonts that hold math symbols (Cambridge's NewMathSymb/NewMathExtn, Cambria Math; TeX's symbol,
 * extension and AMS fonts, where a quiz typeset with LaTeX sets →, −, ≤ and big operators).
 */
const MATH_FONT = /math|^Symbol$|^MT Extra$|(?:^|\+)(?:CMSY|CMEX|MSBM|MSAM|LMSY|LMEX)\d/i;
/** Italic fonts; TeX's math italic (CMMI) sets the variables of formulas. */
const ITALIC = /italic|oblique|(?:^|\+)(?:CMMI|LMMI)\d/i;
/** An italic variable or point name: x, k, A, AB, ABC (a stop after it is the sentence's). */
const VARIABLE = /^(?:[a-zα-ω]|[A-Z]{1,3})[.,;:]?$/u;
const CJK = /[\u2e80-\u9fff\uac00-\ud7af\uff00-\uffef]/u;
/** Upright material a formula goes on through: numbers, brackets, operators, function names. */
const FUNCTIONS = ['sin', 'cos', 'tan', 'sec', 'cosec', 'csc', 'cot', 'ln', 'log', 'lim', 'exp'];
const UPRIGHT_MATH = new RegExp(`^(?:[0-9().,+−=<>|]+|${FUNCTIONS.join('|')}|e|d|f|g|h|dy|dx)$`);
/** Function names set upright right before a bracket or script (fg(x), gf⁻¹). */
const COMPOSED = /^[fgh]{1,3}$/;
const BULLET = /^[•·]$/;
/** An ion's charge: 2+, 3−, +, −. */
const CHARGE = /^(?:[0-9]*[+\-−]|[+\-−][0-9]*)$/;
/** A formula a Word equation prints with a space inside (`√5 𝑎`) is one token; prose is not. */
const FORMULA_CHAR = /[√∛∜\u{1D400}-\u{1D7FF}]/u;
const compact = (t: string) => (FORMULA_CHAR.test(t) ? t.replace(/\s+/g, '') : t);
/**
 * What a side of a stack may start from: a short token, no word of text (two lines of prose that
 * overlap, where a tall bracket pulled them into one line, are not a fraction).
 */
/** Words of three letters or more in any script (not math italics): a function's name, or prose. */
const WORDS = /(?:(?![\u{1D400}-\u{1D7FF}])[\p{L}\p{M}]){3,}/gu;
const noProse = (t: string) => (t.match(WORDS) ?? []).every(w => FUNCTIONS.includes(w));
/**
 * A letter of a script formulas do not name things in (an ideograph, a Hangul syllable, a Thai or
 * Devanagari cluster): a formula's letters are Latin or Greek (math alphanumerics are Common). A
 * short run of such letters is a word or a question's lead (`2번`, `第3题`, `問5`, `ข้อ`), never a
 * fraction's numerator over the line below.
 */
const TEXT_LETTER = /(?![\p{Script=Latin}\p{Script=Greek}\p{Script=Common}\p{Script=Inherited}])[\p{L}\p{M}]/u;
const token = (s: Span) => {
  const t = compact(s.text.trim());
  return /^\S{1,12}$/u.test(t) && !/[\u2e80-\u9fff\uac00-\ud7af\uff00-\uffef]/u.test(t) && !TEXT_LETTER.test(t) && noProse(t);
};
const seed = (s: Span) => {
  const t = compact(s.text.trim());
  return /^\S{1,8}$/u.test(t) && /[^()[\]{}|,.;:]/u.test(t) && !TEXT_LETTER.test(t) && noProse(t);
};

export interface Stack { upper: Span[]; lower: Span[]; x0: number; x1: number; axis: number; size: number }

const overlapX = (a: Span, b: Span) => Math.min(a.bbox[2], b.bbox[2]) - Math.max(a.bbox[0], b.bbox[0]);
const width = (s: Span) => s.bbox[2] - s.bbox[0];

/**
 * Stacked fractions of a line: a span above and a span below overlapping in x by most of the
 * narrower, their baselines one to two of their sizes apart, each side widened by the spans that
 * touch it on its own baseline.
 */
export function stacks(spans: Span[]): Stack[] {
  const out: Stack[] = [];
  const used = new Set<Span>();
  const sorted = [...spans].sort((a, b) => a.bbox[0] - b.bbox[0]);
  for (const a of sorted) {
    if (used.has(a) || !seed(a)) continue;
    const b = sorted.find(t => t !== a && !used.has(t) && seed(t) && t.baseline > a.baseline
      && t.baseline - a.baseline >= Math.max(a.size, t.size) * 0.9 && t.baseline - a.baseline <= Math.max(a.size, t.size) * 2
      && Math.abs(a.size - t.size) <= Math.max(a.size, t.size) * 0.25
      && overlapX(a, t) >= Math.min(width(a), width(t)) * 0.5);
    if (!b) continue;
    // A charge over a subscript (SO₃²⁻) is the scripts of the larger symbol just before them.
    const axis = (a.baseline + b.baseline) / 2;
    const grow = (seed: Span) => {
      const side = [seed];
      for (let changed = true; changed;) {
        changed = false;
        for (const t of sorted) {
          if (side.includes(t) || used.has(t) || t === a || t === b || !token(t)) continue;
          // Its own baseline at its size, or a script of it (d²y: the ² raised, smaller).
          const level = Math.abs(t.baseline - seed.baseline) <= seed.size * 0.2 && Math.abs(t.size - seed.size) <= seed.size * 0.25;
          // A script follows its base: one to the left of the side needs a base of the side's level
          // just before it (the `x` of `eˣ − 1`); the `x→0` under a `lim` before a fraction is the limit's.
          const hasBase = () => sorted.some(u => u !== t && u.bbox[2] <= t.bbox[0] + seed.size * 0.1 && t.bbox[0] - u.bbox[2] < seed.size * 0.35
            && Math.abs(u.baseline - seed.baseline) <= seed.size * 0.2 && Math.abs(u.size - seed.size) <= seed.size * 0.25);
          const script = t.size < seed.size * 0.8 && Math.abs(t.baseline - seed.baseline) <= seed.size * 0.6 && (t.bbox[0] >= Math.min(...side.map(s => s.bbox[0])) || hasBase());
          // …or the base the seed is a script of (5⁻² under a fraction bar, the seed its −).
          // The base stands wholly on its side of the bar.
          const clear = seed === a ? t.bbox[3] <= axis + t.size * 0.1 : t.bbox[1] >= axis - t.size * 0.1;
          const base = seed.size < t.size * 0.8 && Math.abs(t.baseline - seed.baseline) <= t.size * 0.6 && clear;
          if (!level && !script && !base) continue;
          const x0 = Math.min(...side.map(s => s.bbox[0])), x1 = Math.max(...side.map(s => s.bbox[2]));
          if (t.bbox[0] - x1 < seed.size * 0.35 && x0 - t.bbox[2] < seed.size * 0.35) { side.push(t); changed = true; }
        }
      }
      return side;
    };
    const upper = grow(a), lower = grow(b);
    // A charge over a subscript (SO₃²⁻) is two scripts of one symbol, not a fraction.
    const text = (side: Span[]) => [...side].sort((p, q) => p.bbox[0] - q.bbox[0]).map(s => s.text.trim()).join('');
    if (CHARGE.test(text(upper)) && /^[0-9a-z]{1,2}$/.test(text(lower))) continue;
    // A stack is as wide as its wider side; the narrower side must sit within it.
    const ux0 = Math.min(...upper.map(s => s.bbox[0])), ux1 = Math.max(...upper.map(s => s.bbox[2]));
    const lx0 = Math.min(...lower.map(s => s.bbox[0])), lx1 = Math.max(...lower.map(s => s.bbox[2]));
    const x0 = Math.min(ux0, lx0), x1 = Math.max(ux1, lx1);
    const size = Math.max(a.size, b.size);
    [...upper, ...lower].forEach(s => used.add(s));
    out.push({ upper, lower, x0, x1, axis: (a.baseline + b.baseline) / 2 - size * 0.15, size });
  }
  return out;
}

/** The fraction bar of a stack as the builder's rule glyph (its axis is baseline − 0.3 size). */
function ruleGlyph(s: Stack): Glyph {
  // Given a nominal size of 1, the fraction's own baseline is its axis: a fraction on the line is
  // not taken for a subscript, one raised beside a base still is a superscript.
  return { ch: RULE, bbox: [s.x0, s.axis - 0.3, s.x1, s.axis + 0.3], baseline: s.axis + 0.3, size: 1 };
}

/** Whether a line has formulas set in the text font: a math-font span or a stacked fraction. */
export function hasInlineMath(spans: Span[]): boolean {
  // Italic letters are variables only in a line of Latin text: Word sets chemical symbols in
  // italic too (Fe, NO, I in gaokao papers), between Chinese words.
  const latin = !spans.some(s => CJK.test(s.text));
  return spans.some(s => !s.math && MATH_FONT.test(s.font) && !BULLET.test(s.text.trim()))
    || (latin && spans.some(s => !s.math && ITALIC.test(s.font) && VARIABLE.test(s.text.trim())))
    || stacks(spans.filter(s => !s.math)).length > 0;
}

export type Segment = { text: Span[] } | { formula: Span[]; stacks: Stack[]; line: { baseline: number; size: number } };

/**
 * A line (x order) cut into text and formula segments. Formula material: math-font spans, stack
 * members, italic letters, small raised or lowered spans; upright numbers, brackets and function
 * names go with it where they touch it.
 */
export function segments(line: Span[]): Segment[] {
  // Words apart: a number or a function name at the edge of a text run can go with the formula.
  const spans = line.map(contextual).flatMap(s => (s.math ? [s] : words(s)));
  const found = stacks(spans);
  const inStack = new Map<Span, Stack>();
  for (const st of found) for (const s of [...st.upper, ...st.lower]) inStack.set(s, st);
  // Line's main size and baseline: the most text on one baseline.
  const weight = new Map<number, number>();
  for (const s of spans) if (!inStack.has(s)) weight.set(Math.round(s.baseline), (weight.get(Math.round(s.baseline)) ?? 0) + s.text.length);
  const main = [...weight.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? spans[0]?.baseline ?? 0;
  const mainSize = Math.max(...spans.filter(s => Math.abs(s.baseline - main) < 1).map(s => s.size), 0) || spans[0]?.size || 10;
  // Stacks and off-line spans come in x order after the spans they sit over.
  const order = [...spans].sort((a, b) => a.bbox[0] - b.bbox[0]);
  const core = (s: Span) => {
    const t = s.text.trim();
    if (!t || s.math) return false;
    if (inStack.has(s)) return true;
    if (MATH_FONT.test(s.font)) return !BULLET.test(t);
    if (ITALIC.test(s.font) && (/^[A-Za-zα-ωΑ-Ω]{1,2}[.,;:]?$/.test(t) || VARIABLE.test(t))) return true;
    // A script: small and off the line.
    return s.size < mainSize * 0.8 && Math.abs(s.baseline - main) > mainSize * 0.12 && /^[0-9A-Za-z+\-−]{1,4}$/.test(t);
  };
  // The line's prose font: the one that sets its words. Letters in another font that touch the
  // formula are the formula's (MathType's x in Times beside Arial prose).
  const prose = new Map<string, number>();
  for (const s of order) for (const w of s.text.match(/\p{L}{3,}/gu) ?? []) if (!FUNCTIONS.includes(w)) prose.set(s.font, (prose.get(s.font) ?? 0) + w.length);
  const proseFont = [...prose.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const isMath = order.map(core);
  const touches = (a: Span, b: Span) => b.bbox[0] - a.bbox[2] < Math.max(a.size, b.size) * 0.45;
  for (let changed = true; changed;) {
    changed = false;
    for (let i = 0; i < order.length; i++) {
      const t = order[i].text.trim();
      if (isMath[i] || order[i].math) continue;
      const upright = UPRIGHT_MATH.test(t) || (order[i].font !== proseFont && /^[0-9]*[A-Za-z]{1,2}[0-9]*$/.test(t));
      const left = upright && i > 0 && isMath[i - 1] && touches(order[i - 1], order[i]);
      // A stop before a formula ends what stands before it (the `.` of an option label `A.`); it never opens the formula.
      const right = upright && !/^[.,;:]+$/.test(t) && i + 1 < order.length && isMath[i + 1] && touches(order[i], order[i + 1]);
      const glued = COMPOSED.test(t) && i + 1 < order.length && isMath[i + 1] && order[i + 1].bbox[0] - order[i].bbox[2] < order[i].size * 0.1;
      if (left || right || glued) { isMath[i] = true; changed = true; }
    }
  }
  // A comma outside brackets, followed by a space, separates formulas of a list (k, 6k and k + 6).
  let depth = 0;
  for (let i = 0; i < order.length; i++) {
    if (!isMath[i]) { depth = 0; continue; }
    const t = order[i].text.trim();
    depth = Math.max(0, depth + (t.match(/[([{]/g) ?? []).length - (t.match(/[)\]}]/g) ?? []).length);
    if (depth === 0 && t === ',' && i + 1 < order.length && order[i + 1].bbox[0] - order[i].bbox[2] > order[i].size * 0.15) isMath[i] = false;
  }
  const out: Segment[] = [];
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j < order.length && isMath[j] === isMath[i]) j++;
    const run = order.slice(i, j);
    if (isMath[i]) {
      // Punctuation that closes the sentence is not the formula's.
      const last = run[run.length - 1];
      const text = last.text.trim();
      const tail = /[.,;:]+$/.exec(text);
      const mine = (r: Span[]) => found.filter(st => [...st.upper, ...st.lower].some(s => r.includes(s)));
      if (tail && !inStack.has(last) && (text.length > tail[0].length || run.length > 1)) {
        const cut = last.bbox[2] - (last.bbox[2] - last.bbox[0]) * (tail[0].length / text.length);
        const head = text.length > tail[0].length ? [{ ...last, text: text.slice(0, -tail[0].length), bbox: [last.bbox[0], last.bbox[1], cut, last.bbox[3]] as Span['bbox'] }] : [];
        const body = [...run.slice(0, -1), ...head];
        out.push({ formula: body, stacks: mine(body), line: { baseline: main, size: mainSize } }, { text: [{ ...last, text: tail[0], bbox: [cut, last.bbox[1], last.bbox[2], last.bbox[3]] }] });
      } else out.push({ formula: run, stacks: mine(run), line: { baseline: main, size: mainSize } });
    } else out.push({ text: run });
    i = j;
  }
  return out;
}

/**
 * Symbols a font reports under another symbol's code point, told apart by what stands before them:
 * Cambridge's NewMathSymb reports ℝ (its code 62) as '>', which after ∈ can only be ℝ.
 */
function contextual(s: Span): Span {
  return MATH_FONT.test(s.font) && /∈\s*>/.test(s.text) ? { ...s, text: s.text.replace(/∈(\s*)>/g, '∈$1ℝ') } : s;
}

/** LaTeX of one formula segment. */
export function inlineLatex(seg: { formula: Span[]; stacks: Stack[]; line?: { baseline: number; size: number } }): { latex: string; doubts: string[] } {
  const glyphs = seg.formula.flatMap(s => {
    // A trailing stop inside a span that also holds math ("4,") is kept: it is a separator in a point.
    return toGlyphs(s);
  });
  glyphs.push(...seg.stacks.map(ruleGlyph));
  return formulaLatex(glyphs, seg.line);
}

/**
 * The baselines a line sets its text on: those of its spans outside the fractions, less scripts
 * (an exponent's raised baseline is not the line's: `12·11⁷` under `12⁸` is no fraction).
 */
function ownBaselines(line: Span[], members: Set<Span>): number[] {
  // Runs that print nothing (a control code, no width: a Thai font's empty marks set lower) say
  // nothing of where the line's text sits.
  const rest = line.filter(s => !members.has(s) && s.bbox[2] > s.bbox[0] && /[^\p{Cc}\p{Cf}\s]/u.test(s.text));
  const size = Math.max(0, ...rest.map(s => s.size));
  // A browser's `<sub>`/`<sup>` is set `smaller` (5/6 of the text): a script, not the line's text.
  return rest.filter(s => s.size >= size * 0.9).map(s => s.baseline);
}

/**
 * Whether a line is only the denominators of fractions whose numerators stand in the line above,
 * raised off that line's own baseline (a table's next row shares its baseline with the cells
 * above it, and is not taken).
 */
export function denominatorLine(above: Span[], below: Span[]): boolean {
  const text = above.filter(s => !s.math);
  if (!text.length || !below.length || below.some(s => s.math)) return false;
  const found = stacks([...text, ...below]);
  const members = new Set(found.flatMap(st => [...st.upper, ...st.lower]));
  const lower = new Set(found.flatMap(st => st.lower));
  // The line's own baselines: those of its spans that are no part of a fraction (nor scripts).
  const refs = ownBaselines(text, members);
  return below.every(s => lower.has(s)) && found.every(st => refs.some(r =>
    st.upper.every(s => r - s.baseline >= s.size * 0.25) && st.lower.every(s => s.baseline - r >= s.size * 0.25)));
}

/**
 * Whether a line is only the numerators of fractions whose denominators are the line two below,
 * with the labels or prose they sit in between (Word sets `A.  4/455 .` as three lines: the
 * numerators raised above the labels, the denominators below).
 */
export function numeratorLine(above: Span[], middle: Span[], below: Span[]): boolean {
  if (!above.length || above.some(s => s.math) || !denominatorLine([...above, ...middle], below)) return false;
  const uppers = new Set(stacks([...above, ...middle, ...below]).flatMap(st => st.upper));
  return above.every(s => uppers.has(s));
}

/**
 * Whether a line is only the numerators of fractions whose denominators already hang in the line
 * below, under that line's own baseline (Word's `A.  4/455 .` where the denominators touched the
 * labels' line and the raised numerators did not).
 */
export function numeratorsOver(above: Span[], below: Span[]): boolean {
  if (!above.length || above.some(s => s.math)) return false;
  const found = stacks([...above, ...below]);
  const uppers = new Set(found.flatMap(st => st.upper));
  if (!above.every(s => uppers.has(s))) return false;
  const mine = found.filter(st => st.upper.some(s => above.includes(s)));
  const members = new Set(mine.flatMap(st => [...st.upper, ...st.lower]));
  if (!mine.every(st => st.lower.every(s => below.includes(s)))) return false;
  const refs = ownBaselines(below, members);
  return refs.length > 0 && mine.every(st => refs.some(r =>
    st.upper.every(s => r - s.baseline >= s.size * 0.25) && st.lower.every(s => s.baseline - r >= s.size * 0.25)));
}
