// The direction text is read in, decided from its characters (Unicode's strong letters: those of a
// right-to-left script — Hebrew, Arabic, Syriac, Thaana, N'Ko… — against all other letters), and a
// line's spans put in the order they are read in.
//
// A PDF paints glyphs where they stand: a line set right to left (a browser's, a word processor's
// `dir="rtl"`) comes out of the text layer as spans that, read by x, spell it backwards — its
// question number, option labels and marks at the end. The layout stage orders such a line from the
// right, the way the Unicode bidirectional algorithm reorders it, at span level: the right-to-left
// runs from the right, a run of Latin words or numbers inside it (`Q2`, `25`, `x = 2`) kept left to
// right; brackets painted mirrored in a right-to-left run read as the bracket they are (`(` at the
// right end is the `)` glyph). Every later reader then sees the line's logical start first; where
// it measures where a line starts (a column's edge, an indent), `lineStart`/`inset` say which edge.
import type { Column, Line, Span } from '../document.ts';

/** Letters of the scripts written right to left (Bidi_Class R or AL). */
const RTL_LETTER = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}\p{Script=Yezidi}\p{Script=Mende_Kikakui}]/u;
const LETTER = /\p{L}/u;
/** A number as one run reads it: digits (any script's) with the stops and commas inside it. */
const NUMBER = /^[\p{Nd}]+(?:[.,:/٫٬][\p{Nd}]+)*$/u;
/** Brackets and the like a right-to-left run paints mirrored (Bidi_Mirrored pairs). */
const MIRROR: Record<string, string> = { '(': ')', ')': '(', '[': ']', ']': '[', '{': '}', '}': '{', '<': '>', '>': '<', '«': '»', '»': '«', '‹': '›', '›': '‹', '（': '）', '）': '（', '【': '】', '】': '【', '≤': '≥', '≥': '≤' };

/** A lone letter set as a label, in brackets or before a stop (`(A)`, `B)`, `c.`): no word. */
const LABEL_LETTER = /(?<![\p{L}\p{N}])[(（]?\s*\p{L}\s*[)）.．](?![\p{L}\p{N}])/gu;

/** Strong letters of each direction in a text. */
export function strongLetters(text: string): { rtl: number; ltr: number } {
  let rtl = 0, ltr = 0;
  for (const c of text) {
    if (RTL_LETTER.test(c) && LETTER.test(c)) rtl++;
    else if (LETTER.test(c)) ltr++;
  }
  return { rtl, ltr };
}

/** Whether a text reads right to left: more strong right-to-left letters than others. Null where it has no letters. */
export function readsRtl(text: string): boolean | null {
  const { rtl, ltr } = strongLetters(text);
  return rtl + ltr ? rtl > ltr : null;
}

/** A span's bidirectional class at span level: a right-to-left or other letter run, a number, or neutral. */
type Kind = 'R' | 'L' | 'N' | 'O';
function kindOf(s: Span): Kind {
  const t = s.text.trim();
  const dir = readsRtl(t);
  if (dir !== null) return dir ? 'R' : 'L';
  return NUMBER.test(t) ? 'N' : 'O';
}

/**
 * Levels of spans in visual (x) order on a line of base direction `rtl` (UBA levels: even left to
 * right, odd right to left). A right-to-left line: its letters 1; Latin words and numbers 2; a
 * neutral 2 where Latin stands on both sides of it (a number with a Latin word left of it is Latin,
 * W7: `x = 2`), else 1 (`4 × 7`: numbers are runs of their own, N1; `C. (5`: a neutral between a
 * Latin word and a number takes the line's direction). A left-to-right line: a right-to-left word 1,
 * a neutral or number between two such words with them (a number 2: it still reads left to right).
 */
function levels(spans: Span[], kinds: Kind[], rtl: boolean): { lv: number[]; apart: (a: number, b: number) => boolean } {
  if (!rtl) {
    const out: number[] = kinds.map(k => (k === 'R' ? 1 : 0));
    const rtlAt = kinds.flatMap((k, i) => (k === 'R' ? [i] : []));
    for (let n = 1; n < rtlAt.length; n++) {
      const [a, b] = [rtlAt[n - 1], rtlAt[n]];
      if (kinds.slice(a + 1, b).includes('L')) continue;
      for (let k = a + 1; k < b; k++) out[k] = kinds[k] === 'N' ? 2 : 1;
    }
    return { lv: out, apart: () => false };
  }
  const out = kinds.map(k => (k === 'L' || k === 'N' ? 2 : 1));
  // Which spans are Latin: Latin words, and numbers with a Latin word left of them before any
  // right-to-left letter.
  const latin = kinds.map(k => k === 'L');
  for (let i = 1; i < kinds.length; i++) if (kinds[i] === 'N' && latinLeft(kinds, latin, i)) latin[i] = true;
  const tight = (a: Span, b: Span) => Math.abs(gapBetween(a, b)) < Math.min(a.size, b.size) * 0.15;
  for (let k = 0; k < kinds.length; k++) {
    if (kinds[k] !== 'O') continue;
    let l = k - 1, r = k + 1;
    while (l >= 0 && kinds[l] === 'O') l--;
    while (r < kinds.length && kinds[r] === 'O') r++;
    if (l >= 0 && r < kinds.length && latin[l] && latin[r]) out[k] = 2;
    // A stop or comma tight between two digits belongs to the number (`3.5` painted in three).
    else if (/^[.,:/٫٬]$/.test(spans[k].text.trim()) && kinds[k - 1] === 'N' && kinds[k + 1] === 'N' && tight(spans[k - 1], spans[k]) && tight(spans[k], spans[k + 1])) out[k] = 2;
  }
  pairBrackets(spans, out);
  // Two numbers a space apart with no Latin before them are runs of their own (N1: the space between
  // takes the line's direction), though no span stands for the space (a table's cells `88` `31`, a
  // list `1.3 2.81` painted as one span and parted at its spaces).
  const apart = (a: number, b: number) => {
    const [i, j] = a < b ? [a, b] : [b, a];
    return j === i + 1 && kinds[i] === 'N' && kinds[j] === 'N' && !latin[i] && !latin[j] && !tight(spans[i], spans[j]);
  };
  return { lv: out, apart };
}

const OPENS = '([{';
const CLOSES = ')]}';
/**
 * UBA's N0 at span level: a bracket at either end of a Latin run that pairs with one the run holds
 * unmatched is the run's (`Ex. 1 (0–2)` in an Arabic sentence: the `)` at the run's right end reads
 * with it, not as a mirrored bracket opening the sentence).
 */
function pairBrackets(spans: Span[], out: number[]): void {
  const bracket = (k: number) => spans[k].text.trim();
  for (let k = 0; k < spans.length; k++) {
    const t = bracket(k);
    if (out[k] !== 1 || t.length !== 1 || !(OPENS + CLOSES).includes(t)) continue;
    const family = Math.max(OPENS.indexOf(t), CLOSES.indexOf(t));
    for (const step of [-1, 1]) {
      // The Latin run beside it, read left to right; its unmatched brackets of this family.
      const run: string[] = [];
      for (let j = k + step; j >= 0 && j < spans.length && out[j] === 2; j += step) run.push(bracket(j));
      if (step < 0) run.reverse();
      let depth = 0, unmatchedClose = 0;
      for (const b of run.join('')) {
        if (b === OPENS[family]) depth++;
        else if (b === CLOSES[family]) depth ? depth-- : unmatchedClose++;
      }
      if ((step < 0 && depth > 0) || (step > 0 && unmatchedClose > 0)) { out[k] = 2; break; }
    }
  }
}

/** Whether the nearest span left of `i` past neutrals is Latin. */
function latinLeft(kinds: Kind[], latin: boolean[], i: number): boolean {
  let l = i - 1;
  while (l >= 0 && kinds[l] === 'O') l--;
  return l >= 0 && latin[l];
}

/** Reverse every maximal stretch of `order` whose levels are at least `level` (a stretch ends between two spans `apart`). */
function reverseAt(order: number[], lv: number[], level: number, apart: (a: number, b: number) => boolean = () => false): number[] {
  const out = [...order];
  for (let i = 0; i < out.length;) {
    if (lv[out[i]] < level) { i++; continue; }
    let j = i + 1;
    while (j < out.length && lv[out[j]] >= level && !apart(out[j - 1], out[j])) j++;
    out.splice(i, j - i, ...out.slice(i, j).reverse());
    i = j;
  }
  return out;
}

/** A span's text as read where it stands in a right-to-left run: a mirrored bracket is its pair. */
function mirrored(s: Span): Span {
  const t = s.text.trim();
  const pair = MIRROR[t];
  return pair ? { ...s, text: s.text.replace(t, pair) } : s;
}

/**
 * A line's spans (x order) in reading order, and whether the line reads right to left: by its
 * strong letters, else (numbers and signs alone, `(1) 43`) by `fallback` (its page's direction);
 * on a right-to-left page, any right-to-left letter makes it so.
 * A left-to-right line with no right-to-left letters comes back as it was.
 */
export function readingOrder(spans: Span[], fallback = false): { spans: Span[]; rtl: boolean } {
  const text = spans.map(s => s.text).join('');
  // On a right-to-left page, a line whose only letters are labels (`(A) 51`, painted `51 (A)`) is
  // one of numbers and signs: its label's letter says nothing of its direction.
  const letters = strongLetters(fallback ? text.replace(LABEL_LETTER, '') : text);
  // On a page that reads right to left, a line with right-to-left words in it is set in the page's
  // direction however much Latin it holds (`Question 2 لتكن f(x) = 2x + 5.`: a label and a formula
  // embedded in an Arabic sentence); only a line with none is a line of another language.
  const rtl = fallback && letters.rtl > 0 ? true : letters.rtl + letters.ltr ? letters.rtl > letters.ltr : fallback;
  if (rtl) spans = spans.flatMap(paintedWords);
  const kinds = spans.map(kindOf);
  // On a page set right to left, a line of Latin or numbers alone set out in cells (options in a row,
  // `A) 50` at the right, a table's row) is laid out from the right like the rest of the page: its
  // cells read right to left, a Latin one left to right. Its letters alone would read it from the left.
  // A cell of numbers and signs alone is set in the page's direction as one alone is (`(1) 199`,
  // painted `199 (1)`: the brackets between numbers take the paragraph's direction).
  if (fallback && !kinds.includes('R')) {
    const cells = cellsOf(spans);
    if (cells.length >= 2) return { spans: cells.reverse().flatMap(c => (c.some(s => kindOf(s) === 'L') ? paragraphEnd(c) : readingOrder(c, true).spans)), rtl: true };
  }
  if (!rtl && !kinds.includes('R')) return { spans: fallback ? paragraphEnd(spans) : spans, rtl };
  const { lv, apart } = levels(spans, kinds, rtl);
  // The reverse of UBA's L2 (visual → logical): the odd levels' stretches first, then the higher.
  let order = spans.map((_, i) => i);
  for (let level = 1; level <= 2; level++) order = reverseAt(order, lv, level, level === 2 ? apart : undefined);
  return { spans: order.map(i => (lv[i] % 2 === 1 && kinds[i] === 'O' ? mirrored(spans[i]) : spans[i])), rtl };
}

/**
 * A run painted as a stop and then a number (`.8` of `حل المعادلة 8x + 14 = 94.`, `.1` of `1. السؤال`,
 * `. 1` of a label `Ex. 1` painted as `Ex` and `. 1`):
 * on a right-to-left line the stop ends the sentence or follows the number, each read at its own
 * level, so they are two spans, the width shared by characters.
 */
function stopBeforeNumber(s: Span): Span[] {
  const m = STOP_NUMBER.exec(s.text);
  return m ? splitSpan(s, m[1].length) : [s];
}
const STOP_NUMBER = /^([.,:;!?؟،]+)\s*\p{Nd}+$/u;

/**
 * A run of numbers and signs painted as one span in a right-to-left paragraph (a row of options
 * `1. 16  2. 13` comes out of the text layer as `16 .1`, a key's `1.3 2.81` as `2.81 1.3`, its words
 * in painted order): where one of its words is a stop and a number, or all are numbers, it was
 * painted right to left, and is parted into its words (and each such word into stop and number), so
 * that each is read at its own level. A run of another kind (`6 × 3 + 29` isolated left to right)
 * stays whole.
 */
function paintedWords(s: Span): Span[] {
  const words = s.text.trim().split(/\s+/u);
  const letters = strongLetters(s.text);
  if (words.length < 2 || letters.ltr + letters.rtl > 0 || !(words.some(w => STOP_NUMBER.test(w)) || words.every(w => NUMBER.test(w)))) return stopBeforeNumber(s);
  const out: Span[] = [];
  let rest = s;
  for (const w of words) {
    const at = rest.text.indexOf(w);
    const [, from] = at > 0 ? splitSpan(rest, [...rest.text.slice(0, at)].length) : [null, rest];
    const [word, after] = splitSpan(from, [...w].length);
    out.push(...stopBeforeNumber(word));
    rest = after;
  }
  return out;
}

/**
 * A Latin line in a paragraph set right to left (a question's English beside its Arabic): the stop
 * that ends its sentence takes the paragraph's direction and is painted at the line's left
 * (`.Solve for x`, `?many books`); it is read at the end. So is a cell's of a row of such cells
 * (a picture's label `Ａ．` under it, painted `．Ａ`).
 */
function paragraphEnd(spans: Span[]): Span[] {
  // A label's closing bracket takes the paragraph's direction as a stop does, painted mirrored at
  // the run's left (`d)` comes out as `(` `d`): a run of a bracket and a label's letters alone.
  const text = spans.map(s => s.text).join('');
  const open = /^\s*([(（])[\p{L}\p{N}]{1,3}\s*$/u.exec(text);
  if (open) {
    const at = spans.findIndex(s => s.text.trim());
    const [lead, rest] = splitSpan(spans[at], [...spans[at].text].indexOf(open[1]) + 1);
    const bracket = { ...lead, text: MIRROR[open[1]] };
    return [...spans.slice(0, at), ...(rest.text ? [rest] : []), ...spans.slice(at + 1), bracket];
  }
  const m = /^([.?!:;,．。：]+)(?=\p{L}|$)/u.exec(spans[0]?.text ?? '');
  if (!m || !(m[1].length < spans[0].text.length ? true : /^\p{L}/u.test(spans[1]?.text ?? ''))) return spans;
  const [stop, rest] = splitSpan(spans[0], m[1].length);
  return [...(rest.text ? [rest] : []), ...spans.slice(1), stop];
}

/** Spans apart by more than this many times their size stand in cells of their own, not words of one run. */
const CELL_GAP = 1.2;

/** A line's spans (x order) in the cells they are set in: stretches apart by more than CELL_GAP. */
function cellsOf(spans: Span[]): Span[][] {
  const cells: Span[][] = [];
  spans.forEach((s, k) => {
    const prev = spans[k - 1];
    if (!prev || gapBetween(prev, s) > Math.min(prev.size, s.size) * CELL_GAP) cells.push([s]);
    else cells[cells.length - 1].push(s);
  });
  return cells;
}

/**
 * A page (a paper) is set right to left where at least this share of its strong letters are: one
 * that prints each question in English too holds as many Latin letters as Arabic or more (its
 * Arabic words are written with fewer letters), and is still laid out from the right.
 */
const RTL_SHARE = 0.3;

/**
 * Whether a page reads right to left: a fair share of its strong letters do (RTL_SHARE). A line of
 * numbers and signs alone takes this direction.
 */
export function pageReadsRtl(spans: Span[]): boolean {
  return pageDirection(spans) ?? false;
}

/** Whether a page reads right to left (as pageReadsRtl), or null where it has no letters to say (a key's page of numbers alone). */
export function pageDirection(spans: Span[]): boolean | null {
  let rtl = 0, ltr = 0;
  for (const s of spans) {
    const n = strongLetters(s.text);
    rtl += n.rtl;
    ltr += n.ltr;
  }
  return rtl + ltr ? rtl > 0 && rtl >= (rtl + ltr) * RTL_SHARE : null;
}

/**
 * The gap between two spans read one after the other, whichever way the line runs (negative where
 * they overlap): a reader puts a space where it is wide.
 */
export function gapBetween(prev: Span, next: Span): number {
  return Math.max(next.bbox[0] - prev.bbox[2], prev.bbox[0] - next.bbox[2]);
}

/** Two runs further apart than this share of their type size are two words: a reader puts a space between them. */
export const SPACE_GAP = 0.2;

/**
 * The gap before each span of spans in reading order (0 before the first). Where the order steps
 * leftwards after a left-to-right run (`Q2` then `.` in a right-to-left line), the gap is from the
 * run's left end: that is where what follows it stands. Spans in x order get their plain gaps.
 */
export function readingGaps(spans: readonly Pick<Span, 'bbox'>[]): number[] {
  const out = [0];
  let runLeft = spans[0]?.bbox[0] ?? 0;
  for (let k = 1; k < spans.length; k++) {
    const [prev, s] = [spans[k - 1], spans[k]];
    if (s.bbox[0] >= prev.bbox[0]) { out.push(s.bbox[0] - prev.bbox[2]); runLeft = Math.min(runLeft, s.bbox[0]); continue; }
    out.push(Math.min(runLeft, prev.bbox[0]) - s.bbox[2]);
    runLeft = s.bbox[0];
  }
  return out;
}

/** Where a line starts: its right end where it reads right to left. */
export function lineStart(line: Pick<Line, 'bbox' | 'rtl'>): number {
  return line.rtl ? line.bbox[2] : line.bbox[0];
}

/** Where a span starts on a line of that direction. */
export function spanStart(s: Span, rtl: boolean | undefined): number {
  return rtl ? s.bbox[2] : s.bbox[0];
}

/**
 * A column's edges at height y: x0 and x1, or on a page scanned askew, where its leaning edges pass
 * at that height (a line low on a page leaning clockwise starts left of one high on it, and is no
 * less at the edge).
 */
export function edgesAt(column: Pick<Column, 'x0' | 'x1' | 'lean'>, y: number | undefined): { x0: number; x1: number } {
  const lean = column.lean;
  if (!lean || y === undefined) return column;
  const shift = lean.tan * (y - lean.y);
  return { x0: lean.x0 - shift, x1: lean.x1 - shift };
}

/**
 * How far in from its column's starting edge `x` stands (the right edge for a right-to-left line),
 * at height `y` where the column leans (a page scanned askew).
 */
export function inset(x: number, column: Pick<Column, 'x0' | 'x1' | 'lean'>, rtl: boolean | undefined, y?: number): number {
  const { x0, x1 } = edgesAt(column, y);
  return rtl ? x1 - x : x - x0;
}

/** How far in from its column's starting edge a line starts (measured along the edge where the column leans). */
export function lineInset(line: Pick<Line, 'bbox' | 'rtl'>, column: Pick<Column, 'x0' | 'x1' | 'lean'>): number {
  return inset(lineStart(line), column, line.rtl, (line.bbox[1] + line.bbox[3]) / 2);
}

/** A line wraps where it ends less than this many ems (of its type) short of its column's far edge: the next word did not fit. */
const WRAP_EMS = 6;

/** Whether a line runs on to the next: it ends within WRAP_EMS of its column's far edge (the left one where it reads right to left). */
export function lineWraps(line: Pick<Line, 'bbox' | 'rtl'>, column: Pick<Column, 'x0' | 'x1'>, size: number): boolean {
  const end = line.rtl ? line.bbox[0] - column.x0 : column.x1 - line.bbox[2];
  return end <= WRAP_EMS * (size || 1);
}

/** Whether `a` starts no further in than `b` (`slack` points allowed) on lines of one direction. */
export function startsBefore(a: number, b: number, rtl: boolean | undefined, slack = 0): boolean {
  return rtl ? a >= b - slack : a <= b + slack;
}

/**
 * A span cut after its first `keep` characters (a lead run on into the text: `10．下列…`), its box
 * shared out by characters: the head at the left, or at the right where the span reads right to left.
 */
export function splitSpan(s: Span, keep: number): [Span, Span] {
  const chars = [...s.text];
  const w = ((s.bbox[2] - s.bbox[0]) * keep) / chars.length;
  const rtl = readsRtl(s.text) === true;
  const x = rtl ? s.bbox[2] - w : s.bbox[0] + w;
  const head: Span = { ...s, text: chars.slice(0, keep).join(''), bbox: rtl ? [x, s.bbox[1], s.bbox[2], s.bbox[3]] : [s.bbox[0], s.bbox[1], x, s.bbox[3]] };
  const tail: Span = { ...s, text: chars.slice(keep).join(''), bbox: rtl ? [s.bbox[0], s.bbox[1], x, s.bbox[3]] : [x, s.bbox[1], s.bbox[2], s.bbox[3]] };
  return [head, tail];
}
