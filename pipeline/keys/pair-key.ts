// Keys printed as pairs of an item number and its answer, read from text lines by their structure,
// in any script and with no word list: a table of `number | answer` rows (`22  A`, `23  47`), runs
// of pairs on a line (`1.D  2.A  3.①`, `1 A 11 C 21 B`), or a row of numbers over a row of answers
// (`№ 1 2 3 …` / `✓ A 3 б …`, matched by position). The lines between blocks of pairs are their
// headings (a section's name, the key's title, a header row); the caller says which section a
// heading names. Used for key PDFs with a text layer, keys appended to a paper (its tail), and key
// pages read by OCR.

import { numberRun } from './number-run.ts';
import { answerToken, itemNumber, type KeyToken } from './pair-tokens.ts';
import { decodedPairs } from './ocr-pairs.ts';
import { readingGaps, SPACE_GAP } from '../text/direction.ts';

export { answerToken, itemNumber, type KeyToken };

/** A line of a key; `ocr`: read by OCR, whose misreadings (a pair's mark lost) are then read through (ocr-pairs.ts). */
export interface KeyTextLine { page: number; tokens: KeyToken[]; ocr?: boolean }

type KeySpan = { text: string; bbox: [number, number, number, number]; size: number; font?: string };

/** A line of spans as a key's line: OCR's where every span is OCR's (its fonts are named `ocr…`). */
export function keyLineOf(page: number, spans: readonly KeySpan[]): KeyTextLine {
  return { page, tokens: tokensOfSpans(spans), ocr: spans.length > 0 && spans.every(x => x.font?.startsWith('ocr')) };
}

export interface PairEntry {
  number: number;
  /** The answer as printed, a circled option as its digit. */
  answer: string;
  /** Printed as a circled option (①–⑳). */
  circled: boolean;
  /** What OCR also read the same glyph as: an option letter where the answer was read as a digit (`б` and `6`). */
  alternative?: string;
  /** Which block of pairs it came from (a block per section table or run of pairs). */
  block: number;
}

export interface PairBlock {
  /** The lines above the block since the previous one, nearest first (a section's heading, a header row, the title). */
  headings: string[];
  entries: PairEntry[];
}

/** A row of numbers with one misread is told as a key's only this long: a short line of numbers is as likely a question's. */
const MISREAD_ROW = 5;

/**
 * A line's text split into words, each placed across the span it came from by its share of the
 * characters: at spaces, and between runs apart as a reader spaces them (SPACE_GAP); runs closer
 * are one word (a producer that sets each glyph as a run of its own: `1` `.` `2` is `1.2`).
 */
export function tokensOfSpans(spans: readonly KeySpan[]): KeyToken[] {
  const out: KeyToken[] = [];
  const gaps = readingGaps(spans);
  spans.forEach((s, k) => {
    const chars = [...s.text];
    const w = (s.bbox[2] - s.bbox[0]) / Math.max(1, chars.length);
    let glue = k > 0 && out.length > 0 && gaps[k] <= Math.min(s.size, spans[k - 1].size) * SPACE_GAP && !/\s$/u.test(spans[k - 1].text) && !/^\s/u.test(s.text);
    let i = 0;
    for (const piece of s.text.split(/(\s+)/u)) {
      const n = [...piece].length;
      if (piece.trim()) {
        const x1 = s.bbox[0] + (i + n) * w;
        if (glue) Object.assign(out[out.length - 1], { text: out[out.length - 1].text + piece, x1: Math.max(out[out.length - 1].x1, x1) });
        else out.push({ text: piece, x0: s.bbox[0] + i * w, x1 });
      }
      glue = false;
      i += n;
    }
  });
  return out;
}

/** Tokens of plain text with no positions. */
export function tokensOfText(text: string): KeyToken[] {
  return text.split(/\s+/u).filter(Boolean).map(t => ({ text: t, x0: NaN, x1: NaN }));
}

/** A token that glues a number to its answer (`1.D`, `12)47`, `3.①`): the two halves. */
function unglue(token: KeyToken): KeyToken[] {
  const m = /^(\d{1,3}[.．:：、)）])(\S+)$/u.exec(token.text);
  if (!m || !answerToken(m[2])) return [token];
  const cut = token.x0 + ((token.x1 - token.x0) * [...m[1]].length) / [...token.text].length;
  return [{ text: m[1], x0: token.x0, x1: cut }, { text: m[2], x0: cut, x1: token.x1 }];
}

/**
 * A run of pairs set in a right-to-left paragraph: the bidi algorithm puts its first number, and
 * the mark after it, at the line's far end (`D 2.C … 8.A.1` for `1.D 2.C … 8.A`). Where a line
 * opens on an answer and ends on such a number, the number is put back before that answer (that it
 * rises into the next pair is checked with the rest).
 */
function firstNumberBack(tokens: KeyToken[]): KeyToken[] {
  if (tokens.length < 3 || itemNumber(tokens[0].text) !== null || !answerToken(tokens[0].text)) return tokens;
  const last = tokens[tokens.length - 1];
  const m = /^(.*?)([.．:：、)）(（])(\d{1,3})$/u.exec(last.text);
  if (!m) return tokens;
  const moved = { text: `${m[3]}${m[2].replace(/[(（]/u, ')')}`, x0: NaN, x1: NaN };
  return [moved, ...tokens.slice(0, -1), ...(m[1] ? [{ ...last, text: m[1] }] : [])];
}

/** The line read as pairs `n a n a …` (numbers rising), or null; as it stands first, then with a first number bidi moved put back, then, on a line OCR read, as it may have misread it (ocr-pairs.ts). */
function pairsOn(tokens: KeyToken[], ocr = false): { number: number; answer: string; circled: boolean }[] | null {
  const back = firstNumberBack(tokens);
  return pairsOf(tokens) ?? (back !== tokens ? pairsOf(back) : null) ?? (ocr ? decodedPairs(tokens) : null);
}

function pairsOf(tokens: KeyToken[]): { number: number; answer: string; circled: boolean }[] | null {
  const t = tokens.flatMap(unglue);
  if (t.length < 2 || t.length % 2) return null;
  const out: { number: number; answer: string; circled: boolean }[] = [];
  for (let i = 0; i < t.length; i += 2) {
    const n = itemNumber(t[i].text), a = answerToken(t[i + 1].text);
    if (n === null || !a || (out.length && n <= out[out.length - 1].number)) return null;
    out.push({ number: n, ...a });
  }
  // A row of numbers alone, every one above the one before (`3 4 5 6`, `2 3 5 9`), is a header of
  // item numbers, not pairs of a number and a value.
  if (out.length >= 2 && rising(t)) return null;
  return out;
}

/** Tokens that are all item numbers, each above the one before. */
function rising(tokens: KeyToken[]): boolean {
  return tokens.every((x, i) => itemNumber(x.text) !== null && (i === 0 || itemNumber(x.text)! > itemNumber(tokens[i - 1].text)!));
}

/**
 * A row of item numbers after an optional label (`№ 1 2 3`): the numbered tokens, or null. The
 * numbers rise, by one or by more: a key answers the questions it has answers for, and a form that
 * keeps a longer form's numbers (2, 3, 5, 9 …) or a question answered in words leaves a number out.
 */
function numberRow(tokens: KeyToken[]): KeyToken[] | null {
  const first = tokens.findIndex(x => itemNumber(x.text) !== null);
  if (first < 0 || first > 2) return null;
  const nums = tokens.slice(first);
  if (nums.length >= 2 && rising(nums)) return nums;
  const mended = strayGlyphOut(nums);
  if (mended) return mended;
  // A row OCR read with a digit wrong (`1 2 8 4 5 …`): where most of a long row's numbers agree on
  // a run rising by one, the run gives every cell its number.
  const run = nums.length >= MISREAD_ROW ? numberRun(nums.map(x => itemNumber(x.text))) : null;
  if (!run || run.some((n, i) => n === null || (i > 0 && n !== run[i - 1]! + 1))) return null;
  return nums.map((x, i) => ({ ...x, text: String(run[i]) }));
}

/**
 * A long row of item numbers OCR read with a stray glyph in one cell (`34 355 40`: a ruling or a
 * speck read as a digit beside `35`): the cell that breaks the rise, where leaving out one of its
 * characters gives the one number that stands between its neighbours, is that number. A row of
 * numbers that do not rise by one (a selection's 2 3 5 8 …) has no run to overrule it.
 */
function strayGlyphOut(nums: KeyToken[]): KeyToken[] | null {
  if (nums.length < MISREAD_ROW || !nums.every(x => /^\d+[.．:：、)）]?$/u.test(x.text))) return null;
  const out = [...nums];
  let mended = 0;
  for (let i = 0; i < out.length; i++) {
    const lo = i > 0 ? itemNumber(out[i - 1].text)! : 0;
    const hi = i + 1 < out.length ? itemNumber(out[i + 1].text)! : Infinity;
    const n = itemNumber(out[i].text)!;
    if (n > lo && n < hi) continue;
    const digits = [...out[i].text.replace(/\D/gu, '')];
    const fits = new Set(digits.map((_, k) => Number([...digits.slice(0, k), ...digits.slice(k + 1)].join(''))).filter(m => m > lo && m < hi));
    if (fits.size !== 1 || ++mended > 1) return null;
    out[i] = { ...out[i], text: String([...fits][0]) };
  }
  return mended && rising(out) ? out : null;
}

/** The answers under a row of numbers, each matched to a number by position (by order where positions are unknown). */
function answersUnder(numbers: KeyToken[], tokens: KeyToken[]): ({ answer: string; circled: boolean } | null)[] | null {
  // A label before the answers (`✓`, `Đáp án`) is what is left of the row once its answers are taken from the right.
  const answers: { token: KeyToken; a: { answer: string; circled: boolean } }[] = [];
  for (let i = tokens.length - 1; i >= 0 && answers.length < numbers.length; i--) {
    const a = answerToken(tokens[i].text);
    if (!a) break;
    answers.unshift({ token: tokens[i], a });
  }
  if (!answers.length) return null;
  const placed = Number.isFinite(numbers[0].x0) && Number.isFinite(answers[0].token.x0);
  if (!placed) return answers.length === numbers.length ? answers.map(x => x.a) : null;
  // By position: each answer under the number whose centre is nearest, within half the spacing of the numbers.
  const under = columnOfNumbers(numbers);
  const out: ({ answer: string; circled: boolean } | null)[] = numbers.map(() => null);
  for (const x of answers) {
    const k = under(x.token);
    if (k === null || out[k]) return null;
    out[k] = x.a;
  }
  return out.filter(Boolean).length * 2 >= numbers.length ? out : null;
}

const centre = (k: KeyToken) => (k.x0 + k.x1) / 2;

/** Which number of a placed row a token stands under: the one whose centre is nearest, within half the spacing of the numbers; null past that. */
function columnOfNumbers(numbers: KeyToken[]): (x: KeyToken) => number | null {
  const step = numbers.length > 1 ? Math.abs(centre(numbers[numbers.length - 1]) - centre(numbers[0])) / (numbers.length - 1) : Infinity;
  return x => {
    let best = -1, dist = Infinity;
    numbers.forEach((n, i) => { const d = Math.abs(centre(n) - centre(x)); if (d < dist) { dist = d; best = i; } });
    return best >= 0 && dist <= step / 2 ? best : null;
  };
}

/**
 * The answers' row under a long row of numbers, as OCR read it in the page's language: some cells
 * garbled past reading (`\ E 6 120 B E ^ B Cc …`, `(ES`, `©`, two cells run into one). Each token
 * stands under the number nearest it; a cell holding no answer or more than one token is unread
 * (null), and the key's band is read again cell by cell (stages/answers.ts). A row label before
 * the first number (`✓`, read as `v`) stands outside the numbers' columns; any other token there,
 * or fewer than half the cells read, and the line is no answers' row.
 */
function garbledUnder(numbers: KeyToken[], tokens: KeyToken[]): ({ answer: string; circled: boolean } | null)[] | null {
  if (numbers.length < MISREAD_ROW || !Number.isFinite(numbers[0].x0)) return null;
  const under = columnOfNumbers(numbers);
  const left = Math.min(...numbers.map(centre)), right = Math.max(...numbers.map(centre));
  const cells: KeyToken[][] = numbers.map(() => []);
  let outside = 0;
  for (const x of tokens) {
    const k = under(x);
    if (k !== null) { cells[k].push(x); continue; }
    // Past either end of the numbers by more than half a cell: the row's label, once.
    if ((centre(x) < left || centre(x) > right) && ++outside <= 1) continue;
    return null;
  }
  const out = cells.map(c => (c.length === 1 ? answerToken(c[0].text) : null));
  return out.filter(Boolean).length * 2 >= numbers.length ? out : null;
}

/**
 * A row of item numbers and the answers under it on the next line. A table set right to left (an
 * Arabic paper's) runs its numbers from the right, its row labels (`№`, `✓`) at the right end: the
 * lines are read from the right where they do not read from the left. Each row is tried both ways:
 * a row of numbers alone takes the paper's direction, a row of answers its letters' (on a paper
 * that prints each question in English too, the numbers may read from the left, the Arabic
 * answers from the right); answers whose places are known stand under their numbers by place.
 */
function numbersOver(line: KeyTextLine, next?: KeyTextLine): { numbers: KeyToken[] | null; under: ({ answer: string; circled: boolean } | null)[] | null } {
  const orders = (t: KeyToken[]) => [t, [...t].reverse()];
  for (const tokens of orders(line.tokens)) {
    const numbers = numberRow(tokens);
    if (!numbers) continue;
    if (!next || next.page !== line.page) return { numbers, under: null };
    const [same, other] = tokens === line.tokens ? orders(next.tokens) : orders(next.tokens).reverse();
    // (Only where the answers' places are known: a row without them is matched by order.)
    const placed = next.tokens.every(x => Number.isFinite(x.x0));
    const under = answersUnder(numbers, same) ?? (placed ? answersUnder(numbers, other) : null);
    return { numbers, under: under ?? (placed && next.ocr ? garbledUnder(numbers, next.tokens) : null) };
  }
  return { numbers: null, under: null };
}

/** A line of text as a key's line (no positions). */
export const textLine = (text: string, page = 1, ocr = false): KeyTextLine => ({ page, tokens: tokensOfText(text), ocr });

/**
 * Blocks of pairs as a key is read top to bottom: a heading (any line that is not pairs) closes
 * the block before it and is kept for the next; a number that does not rise starts a new block.
 */
export class PairBlocks {
  readonly blocks: PairBlock[] = [];
  private headings: string[] = [];
  private current: PairBlock | null = null;

  heading(text: string): void {
    if (!text.trim()) return;
    this.current = null;
    this.headings.push(text.trim());
  }

  /** The number of the last entry of the block being read, if one is. */
  lastNumber(): number | null {
    return this.current?.entries[this.current.entries.length - 1]?.number ?? null;
  }

  add(number: number, a: { answer: string; circled: boolean; alternative?: string }): void {
    const last = this.current?.entries[this.current.entries.length - 1];
    // The row just read, again (a table row split by a page break is printed at the foot of one
    // page and the head of the next): the same entry, not a new block.
    if (last && number === last.number && a.answer === last.answer) return;
    if (!this.current || (last && number <= last.number)) {
      this.current = { headings: [...this.headings].reverse(), entries: [] };
      this.blocks.push(this.current);
      this.headings = [];
    }
    this.current.entries.push({ number, answer: a.answer, circled: a.circled, ...(a.alternative ? { alternative: a.alternative } : {}), block: this.blocks.length - 1 });
  }
}

/**
 * Whether a line is a row of a key — pairs, or a row of numbers with the answers under it on the
 * next line — and how many answers it gives; null where it is neither.
 */
export function keyRow(line: KeyTextLine, next?: KeyTextLine): { kind: 'pairs' | 'numbers-over-answers'; entries: number } | null {
  const { numbers, under } = numbersOver(line, next);
  if (numbers && under) return { kind: 'numbers-over-answers', entries: under.filter(Boolean).length };
  const pairs = pairsOn(line.tokens, line.ocr);
  return pairs ? { kind: 'pairs', entries: pairs.length } : null;
}

/**
 * The blocks of pairs in the lines, in order. A block ends at a line that is not pairs (its
 * heading, or the key's end) or where the numbers start over; every block keeps the lines above it.
 */
export function readPairKey(lines: KeyTextLine[]): PairBlock[] {
  const out = new PairBlocks();
  // Whether the line before was read as pairs: in a table of number | answer rows, `10 20` is item
  // 10 answered 20 where its number goes on from the row above or the row below goes on from it,
  // not a row of numbers over the next line.
  // …or where it stands in the columns of the row above (a key that leaves out the questions it has
  // no value for: `2  5` then `4  7`, a worked question 3 between them).
  let inPairs = false;
  let above: KeyToken[] | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const next = lines[i + 1];
    const pairs = pairsOn(line.tokens, line.ocr);
    const last = out.lastNumber();
    const below = pairs && next && next.page === line.page ? pairsOn(next.tokens, next.ocr) : null;
    const followsRow = inPairs && last !== null && pairs !== null && (pairs[0].number === last + 1 || (pairs[0].number > last && above !== null && sameColumns(above, line.tokens)));
    const goesOn = pairs !== null && (followsRow || (below !== null && below[0].number === pairs[pairs.length - 1].number + 1) || opensTable(lines, i));
    above = pairs ? line.tokens : null;
    const { numbers, under } = goesOn ? { numbers: null, under: null } : numbersOver(line, next);
    inPairs = false;
    if (numbers && under) {
      // A row label before the numbers (`№`) is part of the table, not a heading.
      under.forEach((a, k) => { if (a) out.add(itemNumber(numbers[k].text)!, a); });
      i++;
      continue;
    }
    if (pairs) { for (const p of pairs) out.add(p.number, p); inPairs = true; continue; }
    out.heading(line.tokens.map(t => t.text).join(' '));
  }
  return out.blocks;
}

/** Rows of pairs, in the columns of the first, that make a table of `number | answer` rows. */
const TABLE_ROWS = 3;

/**
 * Whether the line opens a table of pairs: it and the lines under it are pairs standing in the
 * same columns, their numbers rising from row to row (`2  20`, `4  C`, `5  D` …: a key that leaves
 * out question 3), at least TABLE_ROWS of them. A row of numbers over a row of answers has no
 * such rows under it: its answers' row is no pair.
 */
function opensTable(lines: KeyTextLine[], i: number): boolean {
  let rows = 0, last = 0;
  for (let k = i; k < lines.length && lines[k].page === lines[i].page; k++) {
    const pairs = pairsOn(lines[k].tokens, lines[k].ocr);
    if (!pairs || pairs[0].number <= last || !sameColumns(lines[i].tokens, lines[k].tokens)) break;
    last = pairs[pairs.length - 1].number;
    if (++rows >= TABLE_ROWS) return true;
  }
  return false;
}

/** Two rows of a table: as many tokens, each standing in the column of the one above it (positions known). */
function sameColumns(a: KeyToken[], b: KeyToken[]): boolean {
  if (a.length !== b.length) return false;
  const centre = (k: KeyToken) => (k.x0 + k.x1) / 2;
  return a.every((x, k) => Number.isFinite(x.x0) && Number.isFinite(b[k].x0) && Math.abs(centre(x) - centre(b[k])) <= Math.max(x.x1 - x.x0, b[k].x1 - b[k].x0));
}

/** Entries in all blocks. */
export const pairCount = (blocks: PairBlock[]) => blocks.reduce((n, b) => n + b.entries.length, 0);
