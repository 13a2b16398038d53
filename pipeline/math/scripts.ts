// Scripts set in the text font: chemical formulas and units in Word papers (Cu²⁺, SO₄²⁻, mol·L⁻¹,
// Na₂CO₃) and powers and indices in papers typed in a browser or a word processor (3⁴ · 3², log₂8,
// aₙ, 10⁻³) come as ordinary runs with small digits and signs raised or lowered beside them. A
// script is a span clearly smaller than the run before it, on a baseline clearly off that run's,
// touching it; the Latin token it hangs from and its scripts become one formula,
// `\mathrm{SO}_{4}^{2-}`, `3^{4}`. Neighbouring groups that touch join (Na₂SO₄ is one formula);
// algebra (numbers, single-letter variables, function names) goes on through the operators between
// its groups and takes a function's argument (`3^{4}\cdot 3^{2}`, `\log_{2}8`), chemistry does not.
import { readingGaps, SPACE_GAP } from '../text/direction.ts';
import type { Span } from '../document.ts';
import { hasInlineMath, inlineLatex, segments } from './inline.ts';
import { words } from './words.ts';

export { words };

/** A script is at most this share of its base's size… */
const SCRIPT_SIZE = 0.8;
/** …and its baseline at least this share of the base's size above or below. */
const SCRIPT_SHIFT = 0.12;
/**
 * A browser sets <sup> and <sub> at `font-size: smaller` (5/6 of the base, 10 pt on 12 pt): a
 * script up to this share of its base's size is one where it stands further off the baseline…
 */
const LARGE_SCRIPT_SIZE = 0.87;
/** …at least this share of the base's size (Chromium raises <sup> by 0.40 and lowers <sub> by 0.26). */
const LARGE_SCRIPT_SHIFT = 0.2;
/** A script left on the base's baseline is at most this share of its size. */
const SETTLED_SIZE = 0.65;
/** Gap (share of the base's size) under which a script or the next group still touches. */
const TOUCH = 0.35;
/** Gap (share of the base's size) under which a number set before a variable is its coefficient: no space between (48 m² is a quantity). */
const COEFFICIENT_GAP = 0.1;
/** What a script may hold: digits, signs, a letter or two (n, x, aq). */
/** A prescript (the n of ⁿCᵣ) ends at most this many ems past the left edge of the capital it goes with. */
const PRESCRIPT_REACH = 0.1;
/** An arrow's shaft runs into its head within this many ems, on its baseline within as much. */
const SHAFT_JOIN = 0.5;
/** What stands over or under a reaction arrow is at most this share of its size, within this many ems of its ends… */
const ARROW_NOTE_SIZE = 0.8;
const ARROW_NOTE_REACH = 0.3;
/** …and raised or lowered at least this many ems from its baseline. */
const ARROW_NOTE_RISE = 0.4;
/** Pieces of a tall bracket overlap their top piece by at least this share of the narrower. */
const BRACKET_OVERLAP = 0.5;
/** …between two characters of Han or kana, a gap of this many ems: where a line sets cells apart (`姓名    班级`). */
const UNSPACED_GAP = 1;
const UNSPACED_END = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303F\uFF01-\uFF0F\uFF1A-\uFF20]$/u;
const UNSPACED_START = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303F\uFF01-\uFF0F\uFF1A-\uFF20]/u;
const SCRIPT_TEXT = /^[0-9A-Za-z+\-−–()·.]{1,4}$/;
/** The Latin token a script hangs from, at the end of its run. */
const BASE_TAIL = /[A-Za-z0-9()\]]+$/;

/**
 * A piece of a text run: text, or a formula. `algebra`: the formula holds numbers, single-letter
 * variables and function names only (no chemistry), so it goes on through an operator to the next
 * such formula; `fn`: it ends in a function with its scripts (`\log_{2}`) and takes the operand after it.
 */
export type Piece = { text: string } | Formula;
type Formula = { latex: string; algebra?: boolean; fn?: boolean };
const isFormula = (p: Piece | undefined): p is Formula => !!p && 'latex' in p;
const isAlgebra = (p: Piece | undefined): p is Formula => isFormula(p) && !!p.algebra;

/** Function names set upright before their scripts and argument (log₂8, sin²x). */
const FUNCTION = /^(?:log|lg|ln|exp|sin|cos|tan|cot|sec|csc|arcsin|arccos|arctan|sinh|cosh|tanh|lim|max|min)$/;

interface Group { base: string; sub: string; sup: string; x1: number; pre?: { kind: 'sub' | 'sup'; text: string } }

function sign(s: string): string {
  return s.replace(/[−–]/g, '-').replace(/·/g, '\\cdot ');
}

/** An ion's charge as a superscript: a sign, after its digits (2+, 3−, −). An exponent −1 is not one. */
const CHARGE = /^[0-9]*[+\-−–]$/;
/** A bracketed group of algebra: (x − 3), (0.99), 310(1.01). */
const ALGEBRA_BRACKET = /^[0-9]*\([a-z0-9.,+\-−\s]*\)$/;
/** A base of algebra: a number, a variable with or without a coefficient (2x), a bracket of algebra, a function name. */
const ALGEBRA_BASE = /^(?:\(?[0-9]*[a-z]\)?|[0-9.,()]+|[a-z]+)$/;
const algebraGroup = (g: Group) => !g.pre && !CHARGE.test(g.sup) && (ALGEBRA_BRACKET.test(g.base)
  || (ALGEBRA_BASE.test(g.base) && (!/^[a-z]{2,}$/.test(g.base) || FUNCTION.test(g.base))));

function baseLatex(base: string, charged: boolean): string {
  // A lone small letter is a variable (x², n₁), with its coefficient too (2x²) unless it carries a
  // charge (the electron of 4e⁻ stays upright); a function name is its operator (\log); element
  // symbols, units and numbers stay upright, a coefficient (8CN⁻) before them.
  // `\mathrm` only around letters: a bracketed number ((888)²) or a bracket alone stays as it is.
  if (/^\(?[a-z]\)?$/.test(base) || !/[A-Za-z]/.test(base)) return base;
  if (!charged && /^\(?[0-9]+[a-z]\)?$/.test(base)) return base;
  if (FUNCTION.test(base)) return `\\${base}`;
  if (ALGEBRA_BRACKET.test(base)) return base.replace(/\s+/g, '').replace(/−/g, '-');
  const [, coefficient, rest] = /^([0-9]*)(.*)$/.exec(base)!;
  return `${coefficient}\\mathrm{${rest}}`;
}

function groupLatex(g: Group): string {
  // A prescript (⁵C₄, ₙCᵣ) hangs from an empty group before the base.
  const pre = g.pre ? `{}${g.pre.kind === 'sub' ? '_' : '^'}{${sign(g.pre.text)}}` : '';
  return `${pre}${baseLatex(g.base, CHARGE.test(g.sup))}${g.sub ? `_{${sign(g.sub)}}` : ''}${g.sup ? `^{${sign(g.sup)}}` : ''}`;
}

/**
 * Whether `s` is a script of `base`: smaller, off its baseline, touching it. Returns which, or null.
 */
export function scriptOf(s: Span, base: Span): 'sub' | 'sup' | null {
  if (s.math || base.math || s.font.startsWith('ocr') || base.font.startsWith('ocr')) return null;
  if (s.size > base.size * LARGE_SCRIPT_SIZE || !SCRIPT_TEXT.test(s.text.trim())) return null;
  if (s.bbox[0] - base.bbox[2] > base.size * TOUCH || s.bbox[0] < base.bbox[0]) return null;
  const shift = s.baseline - base.baseline;
  // The larger the script, the further off the baseline it must stand to be one.
  const off = s.size > base.size * SCRIPT_SIZE ? LARGE_SCRIPT_SHIFT : SCRIPT_SHIFT;
  // Some typesetters leave a subscript on the line, only half as large (CO₂ in 2016's papers).
  if (Math.abs(shift) < base.size * off) return s.size <= base.size * SETTLED_SIZE ? 'sub' : null;
  return shift < 0 ? 'sup' : 'sub';
}

/** Whether `s` is a script set before `base` (the n of ⁿCᵣ): smaller, off its baseline, touching it on the left. */
export function prescriptOf(s: Span, base: Span): 'sub' | 'sup' | null {
  if (!/^[A-Z]$/.test(base.text.trim()) || s.bbox[2] > base.bbox[0] + base.size * PRESCRIPT_REACH) return null;
  const mirrored: Span = { ...s, bbox: [base.bbox[2] + (base.bbox[0] - s.bbox[2]), s.bbox[1], base.bbox[2] + (base.bbox[0] - s.bbox[0]), s.bbox[3]] };
  return scriptOf(mirrored, base);
}

/**
 * A run of text-font spans (x order, one line) as text and formula pieces: formulas set in the
 * text font (math-font operators, stacked fractions) first, then scripted tokens in what is text.
 */
export function scriptPieces(line: Span[]): Piece[] {
  const arrows = reactionArrows(line);
  if (!arrows.length) return formulaPieces(line);
  // The line cut at its arrows: what stands between them is read on its own.
  const used = new Set(arrows.flatMap(a => [...a.spans, ...a.over, ...a.under]));
  const rest = line.filter(s => !used.has(s));
  const pieces: Piece[] = [];
  let x = -Infinity;
  for (const a of [...arrows, null]) {
    const end = a ? a.x0 : Infinity;
    const between = rest.filter(s => (s.bbox[0] + s.bbox[2]) / 2 >= x && (s.bbox[0] + s.bbox[2]) / 2 < end);
    if (between.length) pieces.push(...formulaPieces(between));
    if (a) { pieces.push({ latex: arrowLatex(a) }); x = a.x1; }
  }
  return pieces;
}

/** A reaction arrow of a line: its glyphs (a shaft drawn as ⎯ pieces and a head), what is set over and under it. */
interface Arrow { spans: Span[]; over: Span[]; under: Span[]; kind: '→' | '═' | '⇌'; x0: number; x1: number }

const ARROW_HEAD = /^[⎯─—]*[→⟶⇌⇄═]+$/u;
const ARROW_SHAFT = /^[⎯─]+$/u;

/**
 * Reaction arrows (→, ⇌, ═══ and shafts drawn in ⎯ pieces) with the conditions printed over and
 * under them in smaller type (电解, 催化剂, △): they become \xrightarrow, \xlongequal,
 * \xrightleftharpoons, the conditions their arguments.
 */
export function reactionArrows(line: Span[]): Arrow[] {
  const out: Arrow[] = [];
  const taken = new Set<Span>();
  const sorted = [...line].filter(s => !s.math).sort((a, b) => a.bbox[0] - b.bbox[0]);
  for (const head of sorted) {
    const t = head.text.trim();
    if (taken.has(head) || !ARROW_HEAD.test(t) || ARROW_SHAFT.test(t)) continue;
    // The shaft pieces that run into the head on its line.
    const spans = [head];
    for (let x0 = head.bbox[0]; ;) {
      const shaft = sorted.find(s => !spans.includes(s) && !taken.has(s) && ARROW_SHAFT.test(s.text.trim()) && Math.abs(s.bbox[2] - x0) < head.size * SHAFT_JOIN && Math.abs(s.baseline - head.baseline) < head.size * SHAFT_JOIN);
      if (!shaft) break;
      spans.push(shaft);
      x0 = shaft.bbox[0];
    }
    const x0 = Math.min(...spans.map(s => s.bbox[0])), x1 = Math.max(...spans.map(s => s.bbox[2]));
    const cx = (s: Span) => (s.bbox[0] + s.bbox[2]) / 2;
    const near = (s: Span) => !spans.includes(s) && !taken.has(s) && s.size <= head.size * ARROW_NOTE_SIZE && cx(s) >= x0 - head.size * ARROW_NOTE_REACH && cx(s) <= x1 + head.size * ARROW_NOTE_REACH;
    const over = sorted.filter(s => near(s) && s.baseline < head.baseline - head.size * ARROW_NOTE_RISE);
    const under = sorted.filter(s => near(s) && s.baseline > head.baseline + head.size * ARROW_NOTE_RISE);
    const kind = /═/.test(t) ? '═' : /[⇌⇄]/.test(t) ? '⇌' : '→';
    // A bare → between words with nothing over or under it is an arrow of the prose (A → B), left as text.
    if (!over.length && !under.length && kind === '→') continue;
    [...spans, ...over, ...under].forEach(s => taken.add(s));
    out.push({ spans, over, under, kind, x0, x1 });
  }
  return out.sort((a, b) => a.x0 - b.x0);
}

function conditionLatex(spans: Span[]): string {
  // A condition may hold formulas of its own (CO₂(g)): its pieces, the text ones as \text.
  const text = (t: string) => `\\text{${t.replace(/\\\$/g, '$').replace(/[\\{}$&#%_^~]/g, c => (c === '\\' ? '' : `\\${c}`))}}`;
  return formulaPieces([...spans].sort((a, b) => a.bbox[0] - b.bbox[0])).map(p => ('latex' in p ? p.latex : p.text ? text(p.text) : '')).join('');
}

function arrowLatex(a: Arrow): string {
  const over = conditionLatex(a.over), under = conditionLatex(a.under);
  if (a.kind === '⇌' && !over && !under) return '\\rightleftharpoons';
  const name = a.kind === '═' ? '\\xlongequal' : a.kind === '⇌' ? '\\xrightleftharpoons' : '\\xrightarrow';
  return `${name}${under ? `[${under}]` : ''}{${over}}`;
}

/** Text-font spans (no reaction arrow among them) as text and formula pieces. */
function formulaPieces(line: Span[]): Piece[] {
  const run = wholeBrackets(line);
  if (!hasInlineMath(run)) return tokenPieces(run);
  const pieces: Piece[] = [];
  for (const seg of segments(run)) {
    if ('text' in seg) pieces.push(...tokenPieces(seg.text));
    else {
      const { latex } = inlineLatex(seg);
      if (latex) pieces.push({ latex });
    }
  }
  return pieces;
}

/** Top pieces of tall brackets and braces (U+239B–U+23AD) and the bracket each stands for. */
const BRACKET_TOP: Record<string, string> = { '⎛': '(', '⎞': ')', '⎡': '[', '⎤': ']', '⎧': '{', '⎫': '}' };
const BRACKET_REST = /[⎜⎝⎟⎠⎢⎣⎥⎦⎨⎩⎪⎬⎭⎮]/gu;

/**
 * Tall brackets a word processor draws in pieces (⎛ ⎜ ⎝ stacked for one tall parenthesis), one
 * bracket each: the top piece stands for the bracket, the pieces under it are dropped. A span
 * left with nothing is dropped.
 */
export function wholeBrackets(run: Span[]): Span[] {
  if (!run.some(s => /[\u239B-\u23AD]/u.test(s.text))) return run;
  const pieceOnly = (s: Span) => /^[\u239B-\u23AD\s]+$/u.test(s.text);
  const merged = new Set<Span>();
  const out: Span[] = [];
  for (const s of run) {
    if (merged.has(s)) continue;
    let text = s.text.replace(BRACKET_REST, '').replace(/[⎛⎞⎡⎤⎧⎫]/gu, c => BRACKET_TOP[c]);
    let box = s.bbox, baseline = s.baseline;
    if (pieceOnly(s) && /[⎛⎞⎡⎤⎧⎫]/u.test(s.text)) {
      // The pieces drawn under this top piece, in its column: one bracket, as tall as all of them.
      const below = run.filter(t => t !== s && pieceOnly(t) && !/[⎛⎞⎡⎤⎧⎫]/u.test(t.text) && t.baseline > s.baseline
        && Math.min(t.bbox[2], s.bbox[2]) - Math.max(t.bbox[0], s.bbox[0]) >= Math.min(t.bbox[2] - t.bbox[0], s.bbox[2] - s.bbox[0]) * BRACKET_OVERLAP);
      below.forEach(t => merged.add(t));
      const all = [s, ...below];
      box = [Math.min(...all.map(t => t.bbox[0])), Math.min(...all.map(t => t.bbox[1])), Math.max(...all.map(t => t.bbox[2])), Math.max(...all.map(t => t.bbox[3]))];
      baseline = all.reduce((n, t) => n + t.baseline, 0) / all.length;
    }
    // A piece left alone (its top piece elsewhere) is part of a bracket already read.
    if (!text.trim()) continue;
    out.push(text === s.text ? s : { ...s, text, bbox: box, baseline });
  }
  return out;
}

/** Text-font spans as text, with scripted tokens (Cu²⁺, x²) as formulas. */
function tokenPieces(run: Span[]): Piece[] {
  // (A browser's larger scripts count where they are scripts of a span beside them.)
  const small = (s: Span) => run.some(t => t !== s && (s.size <= t.size * SCRIPT_SIZE || scriptOf(s, t) !== null));
  // Only where the run has scripts at all are its spans cut into words and put in x order again.
  const spans = run.some(small) ? run.flatMap(words).sort((a, b) => a.bbox[0] - b.bbox[0]) : run;
  const pieces: Piece[] = [];
  let text: Span[] = [];
  let groups: Group[] = [];
  const flushGroups = () => {
    if (groups.length) {
      const last = groups[groups.length - 1];
      const algebra = groups.every(algebraGroup);
      pieces.push({ latex: groups.map(groupLatex).join(''), ...(algebra ? { algebra, fn: FUNCTION.test(last.base) && !!(last.sub || last.sup) } : {}) });
    }
    groups = [];
  };
  const flushText = () => {
    // A printed dollar sign (R$ 5,00, $30000) is escaped: unescaped, it would open a formula.
    if (text.length) pieces.push({ text: plainText(text).replace(/(?<!\\)\$/g, '\\$') });
    text = [];
  };
  for (let i = 0; i < spans.length; i++) {
    let pre: Group['pre'];
    const preKind = i + 1 < spans.length ? prescriptOf(spans[i], spans[i + 1]) : null;
    if (preKind && i + 2 < spans.length && scriptOf(spans[i + 2], spans[i + 1])) {
      // ⁵C₄: the prescript goes with the letter after it, which must carry a script of its own.
      pre = { kind: preKind, text: spans[i].text.trim() };
      if (!groups.length || spans[i].bbox[0] - groups[groups.length - 1].x1 >= spans[i + 1].size * TOUCH) flushGroups();
      i++;
    }
    const s = spans[i];
    let j = i + 1;
    const subs: string[] = [], sups: string[] = [];
    for (let reach = s.bbox[2]; j < spans.length; j++) {
      // Scripts chain: each touches the base or the script before it (Cu, ², ⁺).
      const kind = scriptOf(spans[j], { ...s, bbox: [s.bbox[0], s.bbox[1], reach, s.bbox[3]] });
      if (!kind) break;
      reach = Math.max(reach, spans[j].bbox[2]);
      (kind === 'sub' ? subs : sups).push(spans[j].text.trim());
    }
    const tail = BASE_TAIL.exec(s.text);
    const prev = groups[groups.length - 1];
    const element = /^(?:[A-Z][a-z]?)+/.exec(s.text);
    if (j === i + 1 && prev && element && s.bbox[0] - prev.x1 < s.size * TOUCH) {
      // Element symbols touching a formula with no scripts of their own go on with it (H₂S, the S).
      const rest = s.text.slice(element[0].length);
      const cut = s.bbox[0] + ((s.bbox[2] - s.bbox[0]) * element[0].length) / [...s.text].length;
      groups.push({ base: element[0], sub: '', sup: '', x1: cut });
      if (rest) { flushGroups(); text.push({ ...s, text: rest, bbox: [cut, s.bbox[1], s.bbox[2], s.bbox[3]] }); }
      continue;
    }
    if (j === i + 1 || !tail) {
      // Not a base: plain text (a group before it ends unless this span is itself a touching base-less token).
      flushGroups();
      text.push(s);
      continue;
    }
    let head = s.text.slice(0, tail.index);
    const last = groups[groups.length - 1];
    const touches = last && !head && s.bbox[0] - last.x1 < s.size * TOUCH;
    if (!touches) flushGroups();
    let base = tail[0];
    if (/^[^(]*\)/.test(base) && !head && text.length) {
      // A bracket's scripts (Be(OH)₂): the bracketed group and the symbols before it are the base.
      // Algebra's brackets hold signs and decimals ((x − 3)², 310(1.01)ᵗ), a number before them its coefficient.
      const open = openBracket(plainText(text));
      if (open) {
        base = open.open + base;
        text = [];
        if (open.before) pieces.push({ text: open.before });
      }
    } else if (/^[^(]*\)/.test(base) && head) {
      // The bracket opened in the same run, before a space ((x − 3)² set as one run).
      const open = openBracket(head);
      if (open) {
        base = open.open + base;
        head = open.before ? `${open.before} ` : '';
      }
    }
    const before = text[text.length - 1];
    const coefficient = before && /^[a-z]$/.test(base) && !head && !touches && s.bbox[0] - before.bbox[2] < s.size * COEFFICIENT_GAP
      ? /(?:^|[\s(+\-−=·×])([0-9]+(?:[.,][0-9]+)?)$/u.exec(before.text) : null;
    if (coefficient) {
      // A number set just before a variable in another font (3 then italic x³) is its coefficient.
      const keep = before.text.slice(0, before.text.length - coefficient[1].length);
      const cut = before.bbox[0] + ((before.bbox[2] - before.bbox[0]) * [...keep].length) / [...before.text].length;
      text.pop();
      if (keep.trim()) text.push({ ...before, text: keep, bbox: [before.bbox[0], before.bbox[1], cut, before.bbox[3]] });
      base = coefficient[1] + base;
    }
    if (head) {
      // The run's text before its Latin tail stays text; its box is cut by characters.
      const cut = s.bbox[0] + ((s.bbox[2] - s.bbox[0]) * [...head].length) / [...s.text].length;
      text.push({ ...s, text: head, bbox: [s.bbox[0], s.bbox[1], cut, s.bbox[3]] });
    }
    flushText();
    groups.push({ pre, base, sub: subs.join(''), sup: sups.join(''), x1: Math.max(s.bbox[2], ...spans.slice(i + 1, j).map(t => t.bbox[2])) });
    i = j - 1;
  }
  flushGroups();
  flushText();
  return joinAlgebra(pieces);
}

/** Operators algebra goes on through, as LaTeX. */
const OPERATOR: Record<string, string> = { '+': '+', '−': '-', '-': '-', '–': '-', '=': '=', '·': '\\cdot ', '⋅': '\\cdot ', '×': '\\times ', '÷': '\\div ', '<': '<', '>': '>', '≤': '\\le ', '≥': '\\ge ', '≠': '\\ne ' };
const OPERATOR_ONLY = /^\s*([+−\-–=·⋅×÷<>≤≥≠])\s*$/u;
/** A function's operand right after it: a number, a single letter, a short bracketed group. */
const OPERAND = /^\s*(\d+(?:[.,]\d+)?|[A-Za-z](?![A-Za-z])|\([^()\s]{1,12}\))/;
/** An operator and a number after a formula (x² + y² `= 25`); a hyphen only with a space after it. */
const TRAILING = /^\s*([+−=·⋅×÷<>≤≥≠]|-(?=\s))\s*(\d+(?:[.,]\d+)?)(?=$|[\s,.;:?!)])/u;
/** A number and an operator before a formula (`5 +` x²). */
const LEADING = /(?:^|[\s=<>(])(\d+(?:[.,]\d+)?)\s*([+−=·⋅×÷<>≤≥≠])\s*$/u;

/**
 * Algebra pieces joined: a function takes its operand (`\log_{2}` and `8` → `\log_{2}8`), two
 * formulas with only an operator between them are one (`3^{4}`, `·`, `3^{2}` → `3^{4}\cdot 3^{2}`),
 * and a number with an operator on either side goes in (`x^{2}+y^{2}`, `= 25` → `x^{2}+y^{2}=25`).
 */
function joinAlgebra(input: Piece[]): Piece[] {
  const pieces = [...input];
  const out: Piece[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i];
    const prev = out[out.length - 1], next = pieces[i + 1];
    if (!('text' in p)) { out.push(p); continue; }
    const operand = isFormula(prev) && prev.fn ? OPERAND.exec(p.text) : null;
    const trailing = isAlgebra(prev) ? TRAILING.exec(p.text) : null;
    if (operand || trailing) {
      out[out.length - 1] = { latex: (prev as Formula).latex + (operand ? operand[1] : OPERATOR[trailing![1]] + trailing![2]), algebra: true };
      // What follows is read again (an operator to the next formula).
      const rest = p.text.slice((operand ?? trailing)![0].length).trim();
      if (rest) pieces[i--] = { text: rest };
      continue;
    }
    const op = OPERATOR_ONLY.exec(p.text);
    if (op && isAlgebra(prev) && isAlgebra(next)) {
      out[out.length - 1] = { latex: prev.latex + OPERATOR[op[1]] + next.latex, algebra: true, fn: next.fn };
      i++;
      continue;
    }
    const leading = isAlgebra(next) ? LEADING.exec(p.text) : null;
    if (leading) {
      const rest = p.text.slice(0, leading.index).trim();
      if (rest) out.push({ text: rest });
      pieces[i + 1] = { ...next as Formula, latex: leading[1] + OPERATOR[leading[2]] + (next as Formula).latex };
      continue;
    }
    out.push(p);
  }
  return out;
}

/**
 * Where a bracket closed by a script's base opens, at the end of `pending`: the bracketed symbols
 * (a chemical group `Ca(OH`, or algebra with signs and decimals `(x − 3`, `310(1.01`, a number
 * before it its coefficient), spaces dropped, and the text before it.
 */
function openBracket(pending: string): { open: string; before: string } | null {
  const open = /(?:[A-Z][a-z]?[0-9]*)*\(\s*[A-Za-z0-9 ]*$/.exec(pending) ?? /(?<![A-Za-z0-9.,])[0-9]*\([a-z0-9.,+\-−\s]*$/.exec(pending);
  return open ? { open: open[0].replace(/\s+/g, ''), before: pending.slice(0, open.index).trim() } : null;
}

/** Spans as text (in the order given: a right-to-left line's from the right), a space where the gap between two is wider than a fifth of the type size. */
export function plainText(spans: Span[]): string {
  let out = '';
  const gaps = readingGaps(spans);
  spans.forEach((s, k) => {
    // Read by OCR, between two characters of a script written without spaces (Han, kana), a gap is
    // a space only where it is a cell's (an em or more): OCR sets `每小 题`, `一 个 长方形` apart
    // where the print sets them close. (A text layer's gaps are as printed: `数学 問1` keeps its space.)
    const closed = k > 0 && s.font.startsWith('ocr') && spans[k - 1].font.startsWith('ocr') && UNSPACED_END.test(out) && UNSPACED_START.test(s.text);
    const gap = Math.min(s.size, spans[k - 1]?.size ?? s.size) * (closed ? UNSPACED_GAP : SPACE_GAP);
    if (k > 0 && gaps[k] > gap && !out.endsWith(' ')) out += ' ';
    out += s.text;
  });
  return out.replace(/\s+/g, ' ').trim();
}
