// Where a page's columns are: from its column rule where it draws one, else from gutters in its text
// (or, on a page read by OCR, in its ink): below the stages, as layout and OCR both find columns.
import type { Column, PageInfo, Span } from '../document.ts';
import { centerX, centerY, height } from '../document.ts';
import { columnRuleX, findBody, uprightRule } from './body.ts';
import { LINE_OVERLAP } from './lines.ts';

/** A gutter is at least this wide (points)… */
const GUTTER_MIN = 10;
/** …with at most this share of the page's runs crossing it (a full-width heading, a footer, a stray caption). */
const GUTTER_CROSSING = 0.04;
/** A column holds at least this share of the page's text width (a 2×2 grid of options is no pair of columns). */
const COLUMN_MIN_SHARE = 0.22;

/** What the column finder reads of a run of text: its box (a span, or a piece of ink on an OCR page). */
type Boxed = Pick<Span, 'bbox'>;
/** What the gutter search reads of a run: its box, baseline, size and text (an OCR page's piece of ink has no text). */
type Run = Pick<Span, 'bbox' | 'baseline' | 'size' | 'text'>;
/** What the column finder reads of a page: its size, its drawn rules and its runs of text. */
/** `rtl`: the paper reads right to left, so a margin of marks at its lines' ends stands at the left. */
export type ColumnInput = Pick<PageInfo, 'width' | 'height' | 'shapes'> & { spans: readonly Run[]; rtl?: boolean };

/**
 * How a gutter is looked for: `clear`, a band no run crosses; `tolerant`, the widest band at most a
 * few runs cross (a heading or footer set across both columns), parted at its middle; `emptiest`,
 * where neither finds one, the emptiest bands first, each side a flow of its own (see `separates`).
 */
type GutterMode = 'clear' | 'tolerant' | 'emptiest';

/**
 * The widest gutter in [lo, hi) of a text block, with runs enough on both sides that reach down the
 * block (see `GutterMode`). Null where there is none.
 */
function gutter(spans: readonly Run[], lo: number, hi: number, mode: GutterMode, rtl: boolean, dividers: readonly number[] = []): number | null {
  const x0 = Math.floor(lo), x1 = Math.ceil(hi);
  const cover = new Int32Array(Math.max(0, x1 - x0) + 1);
  // The emptiest search counts a row's runs that stand closer than a gutter once (`stretches`).
  const pieces: [number, number][] = mode === 'emptiest' ? stretches(spans) : spans.map(s => [s.bbox[0], s.bbox[2]]);
  for (const [a, b] of pieces) for (let x = Math.max(x0, Math.floor(a)); x < Math.min(x1, Math.ceil(b)); x++) cover[x - x0]++;
  const allow = mode === 'clear' ? 0 : Math.max(1, Math.floor(spans.length * GUTTER_CROSSING));
  // The emptiest bands first (crossed by no run, then by one, …): at the loosest level the middle of
  // a page of short lines (a title and a few long lines crossing it) is one wide band whose middle
  // need not be where the columns part.
  for (let level = mode === 'emptiest' ? 1 : allow; level <= allow; level++) {
    // Every band wide enough, widest first: the first that separates two columns is the gutter.
    const runs: { width: number; at: number }[] = [];
    for (let x = x0, run = 0; x <= x1; x++) {
      if (x < x1 && cover[x - x0] <= level) { run++; continue; }
      if (run >= GUTTER_MIN) runs.push({ width: run, at: x - run / 2 });
      run = 0;
    }
    // A band the page draws a divider down (dividerPieces) before any other: the page says where its columns part.
    const drawn = (r: { width: number; at: number }) => (dividers.some(x => Math.abs(x - r.at) <= r.width / 2) ? 1 : 0);
    for (const { at } of runs.sort((a, b) => drawn(b) - drawn(a) || b.width - a.width)) if (separates(spans, at, mode, rtl)) return at;
  }
  return null;
}

/** A gutter by the first mode that finds one, and whether it took the emptiest search. */
function firstGutter(spans: readonly Run[], lo: number, hi: number, rtl: boolean, dividers: readonly number[] = []): { at: number; emptiest: boolean } | null {
  for (const mode of ['clear', 'tolerant', 'emptiest'] as const) {
    const at = gutter(spans, lo, hi, mode, rtl, dividers);
    if (at !== null) return { at, emptiest: mode === 'emptiest' };
  }
  return null;
}

/** A divider's pieces are lines at most this many points thick… */
const DIVIDER_THICKNESS = 3;
/** …at one x within this many points… */
const DIVIDER_ALIGN = 1;
/** …two at least, together as long as this share of the page's height (a column rule drawn whole is findBody's). */
const DIVIDER_PIECES = 2;
const DIVIDER_LENGTH = 0.45;

/**
 * Where the page draws a divider down its middle in pieces (one beside each question's block, a
 * language to a side): the x of each such stack of upright lines.
 */
function dividerPieces(page: ColumnInput): number[] {
  const upright = page.shapes.filter(s => s.visible && s.kind !== 'image' && s.bbox[2] - s.bbox[0] <= DIVIDER_THICKNESS && s.bbox[3] - s.bbox[1] > DIVIDER_THICKNESS);
  const stacks: { x: number; length: number; pieces: number }[] = [];
  for (const s of upright) {
    const x = centerX(s.bbox);
    const stack = stacks.find(k => Math.abs(k.x - x) <= DIVIDER_ALIGN);
    if (stack) { stack.length += s.bbox[3] - s.bbox[1]; stack.pieces++; } else stacks.push({ x, length: s.bbox[3] - s.bbox[1], pieces: 1 });
  }
  return stacks.filter(k => k.pieces >= DIVIDER_PIECES && k.length >= page.height * DIVIDER_LENGTH).map(k => k.x);
}

/** Runs by row: those whose baselines stand within 2 pt of the row's first. */
function rowsOf(runs: readonly Run[]): Run[][] {
  const byRow = new Map<number, Run[]>();
  for (const s of runs) {
    const key = [...byRow.keys()].find(y => Math.abs(y - s.baseline) <= 2) ?? s.baseline;
    byRow.set(key, [...(byRow.get(key) ?? []), s]);
  }
  return [...byRow.values()];
}

/**
 * The stretches of text on each row ([x0, x1]): runs of a row closer than a gutter is wide are one,
 * so a title set in many runs (Thai, whose marks the text layer gives apart) crosses a band once.
 */
function stretches(spans: readonly Run[]): [number, number][] {
  const out: [number, number][] = [];
  for (const row of rowsOf(spans)) {
    const sorted = [...row].sort((a, b) => a.bbox[0] - b.bbox[0]);
    let [a, b] = [sorted[0].bbox[0], sorted[0].bbox[2]];
    for (const s of sorted.slice(1)) {
      if (s.bbox[0] - b < GUTTER_MIN) { b = Math.max(b, s.bbox[2]); continue; }
      out.push([a, b]);
      [a, b] = [s.bbox[0], s.bbox[2]];
    }
    out.push([a, b]);
  }
  return out;
}

/** At least this share of one side's rows sharing a baseline with a row of the other make the two one flow. */
const PAIRED_ROWS = 0.75;
/** A mark in a margin stands on its line where it is within this share of the type size of the line's baseline. */
const PAIRED_BASELINE = 0.25;
/** …and one side carries less than this share of the other's text (the width its runs cover). */
const CELL_TEXT = 0.7;

/**
 * Whether the text on one side of a band continues the rows of the other: options set in a grid
 * (`(A) 6` | `(B) 14`) and marks in a margin (`1) …` | `[1]`) stand on the baselines of the rows
 * they belong to. Counted over the heights both sides share (a title above or a notice below is
 * no row of either).
 */
function oneFlow(left: readonly Run[], right: readonly Run[], across: readonly number[] = []): boolean {
  const l = baselines(left), r = baselines(right);
  if (!l.length || !r.length) return false;
  const from = Math.max(l[0], r[0]) - 2, to = Math.min(l[l.length - 1], r[r.length - 1]) + 2;
  const shared = r.filter(y => y >= from && y <= to);
  if (!shared.length) return false;
  // A margin of marks pairs within a quarter of the type size: a mark floated to a line's end may sit
  // 2 pt off its baseline, its unit word too (`[2 अंक]` beside a line whose Devanagari and Latin runs
  // stand on baselines 4 pt apart). Text beside text pairs only on one baseline. Whether the far side
  // is text is told without the lines that run across the band (`across`: a Thai line the text layer
  // gives in many runs, its last words past the band, is no side's sentences).
  const sizes = [...left, ...right].map(s => s.size).sort((a, b) => a - b);
  const own = right.filter(s => !across.some(y => Math.abs(centerY(s.bbox) - y) < s.size * 0.5));
  const near = worded(own) && !marksMargin(own) ? 1.5 : Math.max(1.5, sizes[Math.floor(sizes.length / 2)] * PAIRED_BASELINE);
  if (shared.filter(y => l.some(z => Math.abs(z - y) <= near)).length < shared.length * PAIRED_ROWS) return false;
  // Two columns set on one baseline grid, or a text beside its translation, pair their rows too, but
  // each side carries as much text as the other; the far cells of a row carry much less than its start.
  // Measured in width, not characters: Korean beside its English translation holds a third of the letters.
  const text = (side: readonly Run[]) => side.filter(s => s.baseline >= from && s.baseline <= to).reduce((n, s) => n + (s.text.trim() ? s.bbox[2] - s.bbox[0] : 0), 0);
  const [a, b] = [text(left), text(right)];
  if (Math.min(a, b) >= Math.max(a, b) * CELL_TEXT) return false;
  // A translation set beside its text is shorter, and still a flow of sentences: rows of words, where
  // the far cells of a row hold a label and a value (`(B) 14`) and a margin a mark (`[2]`). Where
  // its rows are short (a page of short questions with their options), it repeats the labels of
  // the rows it stands beside.
  return !prose(right, from, to) && !echoes(left, right);
}

/** A side that repeats the other's row labels on at least this many rows is a text of its own beside it. */
const ECHO_ROWS = 2;

/**
 * Whether rows of both sides on one baseline open with the same label (`Ａ．` | `Ａ．`, `1.1.` |
 * `1.1.`, ECHO_ROWS of them): a text set beside its translation, block by block. The far cells of a
 * grid of options go on with the alphabet (`(A) 6` | `(B) 14`), and a margin of marks opens with
 * none of the row's labels.
 */
function echoes(left: readonly Run[], right: readonly Run[]): boolean {
  const opening = (row: readonly Run[]) => {
    const first = [...row].sort((a, b) => a.bbox[0] - b.bbox[0])[0];
    const token = first.text.trim().split(/\s+/u)[0] ?? '';
    // A label: a few characters closed by a label's stop, not a value alone (`7` | `7` in a
    // table's two columns) nor a letter alone (`y` | `y`, the axes of a row of graphs).
    return [...token].length <= LABEL_CHARS && /[\p{L}\p{N}][.．)）:：]$/u.test(token) ? token : null;
  };
  const far = rowsOf(right).map(row => ({ y: row[0].baseline, label: opening(row) }));
  let echoed = 0;
  for (const row of rowsOf(left)) {
    const label = opening(row);
    if (label && far.some(f => f.label === label && Math.abs(f.y - row[0].baseline) <= 2)) echoed++;
  }
  return echoed >= ECHO_ROWS;
}

/** A row's label is at most this many characters (`Ａ．`, `(iv)`, `12.3.`). */
const LABEL_CHARS = 5;

/**
 * A row's text from its near edge (the right where the paper reads right to left), a space between
 * two runs only where they stand apart (`[4 đi` `ể` `m]` are one word's runs).
 */
function rowText(row: readonly Run[], rtl: boolean): string {
  const sorted = [...row].sort((a, b) => (rtl ? b.bbox[2] - a.bbox[2] : a.bbox[0] - b.bbox[0]));
  const apart = (a: Run, b: Run) => Math.max(b.bbox[0] - a.bbox[2], a.bbox[0] - b.bbox[2]) > Math.min(a.size, b.size) * 0.15;
  return sorted.map((s, k) => (k && apart(sorted[k - 1], s) ? ' ' : '') + s.text).join('').replace(/\s+/gu, ' ').trim();
}

/**
 * A mark as a margin of marks prints it: a number in brackets with up to `words` words of its unit
 * after it (`[2 अंक]`, `(3 marks)`, `[4]`); `mirrored`: its brackets facing either way too (a
 * right-to-left line paints them so).
 */
const markShape = (words: string, mirrored: boolean) => {
  const [open, close] = mirrored ? ['[[(（【\\]]', '[\\])）】[(]'] : ['[[(（【]', '[\\])）】]'];
  return `${open}\\s*\\d{1,3}(?:[.,]\\d{1,2})?\\s*(?:[\\p{L}\\p{M}]+\\.?\\s*)${words}${close}`;
};
const MARK = markShape('{0,2}', true);
/** A row of a margin of marks: a mark at its end, or at its start (marks at the left of a right-to-left paper's lines); the line's last words before it where the band cuts through them. */
const MARK_ROW = new RegExp(`^${MARK}(?:\\s|$)|(?:^|\\s)${MARK}$`, 'u');
/** …most rows of the side are such rows. */
const MARK_ROWS_SHARE = 0.75;

/** Whether MARK_ROWS_SHARE of a side's rows pass `test` on their text. */
function mostRows(side: readonly Run[], test: (text: string) => boolean): boolean {
  const rows = rowsOf(side);
  return rows.filter(r => test(rowText(r, false))).length >= rows.length * MARK_ROWS_SHARE;
}

/** Whether a side is a margin of marks, their units' words in them or not (see MARK_ROW). */
const marksMargin = (side: readonly Run[]) => mostRows(side, text => MARK_ROW.test(text));

/** A row a mark ends (`[2 คะแนน]`, the line's last words before it where a band cut through them). */
const MARK_ENDS = new RegExp(`(?:^|\\s)${MARK}$`, 'u');

/**
 * Whether an OCR page's column is a margin of marks: most of its rows end with a mark (MARK_ENDS; a
 * row a bare `(5)` opens is a question's). OCR parts a unit's word where its letters stand apart
 * (`[4 ค ะ แนน]`): within brackets, words are read run together.
 */
function marksColumn(side: readonly Run[]): boolean {
  const squeezed = (text: string) => text.replace(/[[(（【][^\])）】]*[\])）】]/gu, m => m.replace(/(?<=\p{L}|\p{M})\s+(?=\p{L}|\p{M})/gu, ''));
  return mostRows(side, text => MARK_ENDS.test(squeezed(text)));
}

/**
 * A mark with its unit at the head of a row (`[4 điểm]`, `(2 marks)`): a bare `(1)` or `[1]` is a
 * label or a question's number, which a column's rows open with.
 */
const MARK_OPENS = new RegExp(`^${markShape('{1,2}', false)}(?:\\s|$)`, 'u');
/** …at the head of this share of a side's rows at least: a question's first rows (the rows of its options open with labels). */
const MARKS_OPEN_SHARE = 0.3;

/** Whether a fair share of a side's rows open with a mark and its unit, read from the side's near edge (MARK_OPENS, MARKS_OPEN_SHARE). */
function marksOpen(side: readonly Run[], rtl: boolean): boolean {
  const rows = rowsOf(side);
  const opens = rows.filter(r => MARK_OPENS.test(rowText(r, rtl)));
  return rows.length >= PROSE_ROWS && opens.length >= rows.length * MARKS_OPEN_SHARE;
}

/**
 * Whether the far side's strip nearest the band (its runs up to the next gap as wide as a gutter) is
 * the near side's margin of marks: narrower than a column, marks in most of its rows, each on a row
 * of the near side (`[7] 方程 … 的解是` … `[2.25 分]` set right, the next column's text further on).
 * With the whole far side in view, its column's rows outnumber the marks (marksOpen does not see
 * them); the strip alone is told. `far` lies right of the band, or left of it on a right-to-left page.
 */
function marksStrip(far: readonly Run[], near: readonly Run[], all: readonly Run[], rtl: boolean): boolean {
  // Runs in order from the band outwards; the strip grows while the next run starts within a gutter of it.
  const out = [...far].sort((a, b) => (rtl ? b.bbox[2] - a.bbox[2] : a.bbox[0] - b.bbox[0]));
  const edge = (s: Run) => (rtl ? -s.bbox[0] : s.bbox[2]);
  const start = (s: Run) => (rtl ? -s.bbox[2] : s.bbox[0]);
  let reach = edge(out[0]), k = 1;
  for (; k < out.length && start(out[k]) - reach < GUTTER_MIN; k++) reach = Math.max(reach, edge(out[k]));
  if (k === out.length) return false;
  const strip = out.slice(0, k);
  const width = Math.max(...all.map(s => s.bbox[2])) - Math.min(...all.map(s => s.bbox[0]));
  if (reach - start(out[0]) >= width * COLUMN_MIN_SHARE || !marksMargin(strip)) return false;
  const rows = baselines(near);
  return strip.every(s => rows.some(y => Math.abs(y - s.baseline) <= Math.max(1.5, s.size * PAIRED_BASELINE)));
}

/** A side is prose where at least this many of its rows… */
const PROSE_ROWS = 3;
/** …and this share of them hold at least PROSE_WORDS words. */
const PROSE_SHARE = 0.6;
const PROSE_WORDS = 4;

/** Whether a side's rows within [from, to] are rows of sentences (text; an OCR page's ink has none). */
function prose(side: readonly Run[], from: number, to: number): boolean {
  const rows = rowsOf(side.filter(s => s.baseline >= from && s.baseline <= to));
  const worded = rows.filter(r => r.map(s => s.text).join(' ').split(/\s+/u).filter(w => /\p{L}{2}/u.test(w)).length >= PROSE_WORDS).length;
  return worded >= PROSE_ROWS && worded >= rows.length * PROSE_SHARE;
}

/** The baselines of a side's rows, top to bottom (runs within 2pt of each other are one row). */
function baselines(side: readonly Run[]): number[] {
  const ys = side.map(s => s.baseline).sort((a, b) => a - b);
  return ys.filter((y, i) => i === 0 || y - ys[i - 1] > 2);
}

/** A short column holds at least this many lines… */
const SHORT_COLUMN_LINES = 4;
/** …beside text that covers at least this share of the other side's width. */
const BESIDE_COVER = 0.5;

/**
 * Whether a short side stands beside text: over its heights the other side's runs cover most of
 * its width, as lines do, where a figure's axis labels leave it mostly bare. Rows that run across
 * the band (`across`: a title in runs on both sides of it) are no side's.
 */
function besideText(short: readonly Run[], other: readonly Run[], across: number[]): boolean {
  const own = short.filter(s => !across.some(y => Math.abs(centerY(s.bbox) - y) < s.size * 0.5));
  // Lines, not baselines: a Thai or Devanagari mark the text layer gives apart sits off its line's baseline.
  let lines = 0;
  for (let k = 0, end = -Infinity, spans = [...own].sort((a, b) => a.bbox[1] - b.bbox[1]); k < spans.length; k++) {
    if (spans[k].bbox[1] >= end - height(spans[k].bbox) * 0.5) lines++;
    end = Math.max(end, spans[k].bbox[3]);
  }
  if (lines < SHORT_COLUMN_LINES) return false;
  const top = Math.min(...own.map(s => s.bbox[1])), bottom = Math.max(...own.map(s => s.bbox[3]));
  const facing = other.filter(s => centerY(s.bbox) >= top && centerY(s.bbox) <= bottom).map(s => [s.bbox[0], s.bbox[2]] as const).sort((a, b) => a[0] - b[0]);
  const x0 = Math.min(...other.map(s => s.bbox[0])), width = Math.max(...other.map(s => s.bbox[2])) - x0;
  let covered = 0;
  for (let k = 0, at = -Infinity; k < facing.length; k++) {
    const [a, b] = facing[k];
    covered += Math.max(0, b - Math.max(a, at));
    at = Math.max(at, b);
  }
  return covered >= width * BESIDE_COVER;
}

/** Whether a vertical band at x parts the runs into two columns (see `gutter`). */
function separates(spans: readonly Run[], bestAt: number, mode: GutterMode, rtl: boolean): boolean {
  const left = spans.filter(s => s.bbox[2] <= bestAt), right = spans.filter(s => s.bbox[0] >= bestAt);
  if (left.length <= 3 || right.length <= 3) return false;
  // The marks that end a column's rows stand before the gutter: a band with them at the head of
  // the far side's rows (`[4 điểm]  (1) What is …`) parts a column from its own marks.
  if (marksOpen(rtl ? left : right, rtl)) return false;
  if (rtl ? marksStrip(left, right, spans, true) : marksStrip(right, left, spans, false)) return false;
  // Each side is as wide as a column is: a graph's axis labels beside the text (the right half of a
  // 2×2 grid of options, a figure set right of its question) are no column.
  const across = (side: readonly Boxed[]) => Math.max(...side.map(s => s.bbox[2])) - Math.min(...side.map(s => s.bbox[0]));
  const block = across(spans);
  if (across(left) < block * COLUMN_MIN_SHARE || across(right) < block * COLUMN_MIN_SHARE) return false;
  // A band some runs cross parts columns that share the width about evenly: one beside a side half
  // its width is a gap in one column's short lines (Korean questions beside their English twins).
  if (mode !== 'clear' && Math.min(across(left), across(right)) < Math.max(across(left), across(right)) * HEAD_COLUMNS_ALIKE) return false;
  // Whatever the band, a side that only continues the other's rows is no column (the right half of a
  // grid of options under short questions leaves a clear band, a title beside it).
  // (The far side is the left on a paper read right to left: its marks end its lines there.)
  const crossing = bridged(left, right);
  if (rtl ? oneFlow(right, left, crossing) : oneFlow(left, right, crossing)) return false;
  if (mode !== 'clear') {
    // Both sides run down the block: columns, not a caption beside a figure… The block is that of
    // the two sides: what crosses the gutter above or below them (a title, a closing `STOP` notice
    // under a short last page) does not make either side look short.
    const sides = [...left, ...right];
    const top = Math.min(...sides.map(s => s.bbox[1])), height = Math.max(...sides.map(s => s.bbox[3])) - top;
    const reach = (side: readonly Run[]) => (Math.max(...side.map(s => s.bbox[3])) - Math.min(...side.map(s => s.bbox[1]))) / (height || 1);
    const short = [left, right].filter(side => reach(side) < 0.5);
    if (mode === 'tolerant' && short.length) return false;
    if (mode === 'emptiest') {
      // …each side a flow of its own, not the far cells of the other's rows, nor a margin of marks…
      if (!worded(left) || !worded(right)) return false;
      // …and a side that stops short is a column only where it stands beside lines of text (a page
      // whose last column ends early), never beside a figure's labels (a caption set right of a figure).
      if (short.length === 2 || (short.length === 1 && !besideText(short[0], short[0] === left ? right : left, bridged(left, right)))) return false;
    }
    // …and what crosses the gutter stands above or below them (a title, a footer, a closing notice), never
    // between lines of both sides: a line across the middle of the text makes it one column with a gap in it.
    // (The sides' extents leave out their few outermost rows: a page number, a footer line. Rows,
    // not runs: a line set in many runs, as Devanagari's often is, is one line all the same.)
    const extent = (side: readonly Run[]) => {
      const ys = rowsOf(side).map(row => centerY(row[0].bbox)).sort((a, b) => a - b);
      return [ys[Math.floor(ys.length * 0.05)], ys[Math.ceil(ys.length * 0.95) - 1]];
    };
    const [l0, l1] = extent(left), [r0, r1] = extent(right);
    const from = Math.max(l0, r0), to = Math.min(l1, r1);
    if (spans.some(s => s.bbox[0] < bestAt && s.bbox[2] > bestAt && centerY(s.bbox) > from && centerY(s.bbox) < to)) return false;
    // A line whose words stand closer than a gutter on either side of it runs across it (`… tangent
    // to h(x) at` | `x = 1.`): it may only stand above both sides or below both, as a title does.
    const across = bridged(left, right);
    for (const y of across) {
      const others = [...left, ...right].filter(s => s.bbox[1] > y || s.bbox[3] < y).map(s => centerY(s.bbox));
      if (others.some(o => o < y) && others.some(o => o > y)) return false;
    }
    // …and beside such a line each side holds rows enough of its own to be a column: a question's
    // stem run across the page over its 2×2 grid of options is one column with a gap in its grid.
    // (A line runs across where its words stand closer than a gutter on both sides of the band, or
    // one crosses it. Told on a page of text runs only: a scan's pieces of ink hold no words, and
    // pieces of one line stand closer than a gutter at many bands the search weighs.)
    if (spans.every(s => s.text)) {
      const lines = [...across, ...spans.filter(s => s.bbox[0] < bestAt && s.bbox[2] > bestAt).map(s => centerY(s.bbox))];
      const ownRows = (side: readonly Run[]) => rowsOf(side.filter(s => !lines.some(y => s.bbox[1] <= y && s.bbox[3] >= y))).length;
      if (lines.length && Math.min(ownRows(left), ownRows(right)) < TITLED_SIDE_ROWS) return false;
    }
  }
  return true;
}

/** Under or over a line that runs across a band (a title), each side of a gutter holds at least this many rows of its own. */
const TITLED_SIDE_ROWS = 3;

/** A side of text, not a margin of marks: at least this share of its characters are letters. */
const WORDED_SHARE = 0.25;
/** Whether a side holds words (`28. Giá trị của …`), where a margin of marks holds `(6)`, `[15]` and a page number. */
function worded(side: readonly Run[]): boolean {
  const count = (re: RegExp) => side.reduce((n, s) => n + (s.text.match(re) ?? []).length, 0);
  return count(/[\p{L}\p{M}]/gu) >= count(/\S/gu) * WORDED_SHARE;
}

/** The heights at which a run left of a gutter and a run right of it sit on one line closer than a gutter is wide. */
function bridged(left: readonly Boxed[], right: readonly Boxed[]): number[] {
  const out: number[] = [];
  for (const a of left) {
    const end = a.bbox[2];
    for (const b of right) {
      if (b.bbox[0] - end >= GUTTER_MIN) continue;
      const shared = Math.min(a.bbox[3], b.bbox[3]) - Math.max(a.bbox[1], b.bbox[1]);
      if (shared >= Math.min(height(a.bbox), height(b.bbox)) / 2) out.push(centerY(a.bbox));
    }
  }
  return out;
}

/**
 * Columns from the column rule where there is one, else from gutters: the widest empty one near the
 * middle (or, where a heading or footer crosses it, one that only a few runs cross), and within
 * each side another where the page is set in three.
 */
export function findColumns(page: ColumnInput): Column[] {
  const spans = page.spans;
  if (!spans.length) return [{ x0: 0, x1: page.width }];
  // A column rule parts columns where text runs along it: one under a key set across the top of an
  // empty two-column grid (the page after the questions) parts nothing (as text-layer's body says).
  const body = findBody(page, page.shapes);
  // (A scan's rule leans with the sheet: it parts columns all the same, bounding no body.)
  const drawnAt = body.ruleX ?? columnRuleX(page, page.shapes);
  const rule = drawnAt !== null && spans.some(s => centerY(s.bbox) >= body.y0 && centerY(s.bbox) <= body.y1) ? drawnAt : null;
  const textX0 = Math.min(...spans.map(s => s.bbox[0])), textX1 = Math.max(...spans.map(s => s.bbox[2]));
  let splits: number[] = [];
  let emptiest = false;
  if (rule !== null) {
    // Three columns are drawn with two rules: every tall vertical rule a fair share of the text apart.
    const wide = (textX1 - textX0) * COLUMN_MIN_SHARE;
    const others = page.shapes.filter(s => uprightRule(s, page.height))
      .map(s => centerX(s.bbox)).filter(x => x > textX0 + wide && x < textX1 - wide && Math.abs(x - rule) >= wide);
    splits = [rule, ...(others.length ? [others[0]] : [])].sort((a, b) => a - b);
  }
  else {
    const rtl = !!page.rtl;
    const mid = firstGutter(spans, page.width * 0.3, page.width * 0.7, rtl, dividerPieces(page));
    if (mid !== null) splits = [mid.at];
    if (mid?.emptiest) emptiest = true;
    // Three columns: a second gutter within the wider side, each column a fair share of the width.
    const wide = (textX1 - textX0) * COLUMN_MIN_SHARE;
    const side = (keep: (s: Run) => boolean, lo: number, hi: number) => firstGutter(spans.filter(keep), lo, hi, rtl);
    const third = splits.length ? [side(s => s.bbox[2] <= splits[0] || centerX(s.bbox) < splits[0], textX0 + wide, splits[0] - wide), side(s => s.bbox[0] >= splits[0] || centerX(s.bbox) >= splits[0], splits[0] + wide, textX1 - wide)] : [];
    for (const x of third) if (x !== null) {
      splits.push(x.at);
      if (x.emptiest) emptiest = true;
    }
    splits.sort((a, b) => a - b);
    if (splits.length > 2) splits = splits.slice(0, 2);
  }
  if (!splits.length) return [{ x0: textX0, x1: textX1 }];
  const bounds = [0, ...splits, page.width];
  // Where the emptiest search parted the columns, the head the page sets across them (a title that
  // crosses a gutter, the rest of its runs on either side) ends at the lowest run above the text's
  // middle that crosses one.
  const middle = spans.map(s => centerY(s.bbox)).sort((a, b) => a - b)[Math.floor(spans.length / 2)];
  const crossing = emptiest ? spans.filter(s => centerY(s.bbox) < middle && splits.some(x => s.bbox[0] < x && s.bbox[2] > x)) : [];
  const head = crossing.length ? Math.max(...crossing.map(s => s.bbox[3])) : -Infinity;
  return bounds.slice(1).map((right, i) => {
    const left = bounds[i];
    // A column's edges are those of the runs set inside it below the head (a heading across the gutter,
    // and a title's runs on one side of it, say nothing of them).
    const within = spans.filter(x => x.bbox[0] >= left - 1 && x.bbox[2] <= right + 1);
    const below = within.filter(x => x.bbox[1] >= head - 1);
    const inside = below.length ? below : within;
    const side = inside.length ? inside : spans.filter(x => centerX(x.bbox) >= left && centerX(x.bbox) < right);
    const col = side.length ? { x0: Math.min(...side.map(s => s.bbox[0])), x1: Math.max(...side.map(s => s.bbox[2])) } : { x0: left, x1: right };
    return { x0: Math.max(col.x0, left), x1: Math.min(col.x1, right) };
  });
}

/** A head set across the columns holds less than this share of the page's runs… */
const HEAD_SHARE = 0.4;
/** …and the columns under it are alike: the narrower at least this share of the wider. */
export const HEAD_COLUMNS_ALIKE = 0.6;

/**
 * Columns under a head set across them (a title, a name line and a box of instructions over two
 * columns of questions), and where the head ends: on a page of few, long runs the head's alone cross
 * the gutter more often than the search for a gutter allows. Each row from the top is tried as the
 * head's last; the columns are those of the runs below it, parted by a band no run there crosses.
 * The whole page as one column where no head parts it so.
 */
export function findColumnsUnderHead(page: ColumnInput): { columns: Column[]; top?: number } {
  // (A column rule parts the page's columns already: findColumns then finds two or more.)
  const columns = findColumns(page);
  if (columns.length > 1) return { columns };
  const rows = [...new Set(page.spans.map(s => s.bbox[1]))].sort((a, b) => a - b);
  for (const top of rows) {
    const below = page.spans.filter(s => s.bbox[1] >= top - 1);
    if (below.length < page.spans.length * (1 - HEAD_SHARE)) break;
    if (below.length === page.spans.length) continue;
    const at = gutter(below, page.width * 0.3, page.width * 0.7, 'clear', !!page.rtl);
    if (at === null) continue;
    // Columns under a head share the width of the text under it about evenly (a page of one column
    // whose options stand left of a band is no pair of columns). The text's, not the head's: a page
    // set in three columns whose last is empty (a short paper) fills two thirds of the head's width.
    // Measured over the columns found, not the two sides of the band: in three, it parts one from two.
    const parted = findColumns({ ...page, spans: below });
    const widths = parted.map(c => c.x1 - c.x0);
    if (Math.min(...widths) < Math.max(...widths) * HEAD_COLUMNS_ALIKE) continue;
    // Columns run down the page: each holds rows enough (a key's one row of cells is no two columns).
    const rowsIn = (c: Column) => baselines(below.filter(s => s.bbox[0] >= c.x0 - 1 && s.bbox[2] <= c.x1 + 1)).length;
    if (parted.length > 1 && parted.every(c => rowsIn(c) >= SHORT_COLUMN_LINES)) return { columns: parted, top: top - 1 };
  }
  return { columns };
}

/**
 * The columns of a page read by OCR, found from its ink before there was text (ocr/columns.ts), with
 * a column that is its neighbour's margin of marks joined to it: its rows end in marks (`[1 คะแนน]`,
 * `(2 marks)`: marksColumn), each on a row of the neighbour's (the marks set right, or left on a page
 * read right to left, of the questions they score). Ink cannot tell such a margin from a narrow
 * column; its words can (as the text layer's gutters are judged, marksMargin).
 */
export function withoutMarksMargins(columns: Column[], spans: readonly Run[], rtl: boolean): Column[] {
  const out = [...columns];
  for (let i = out.length - 1; i > 0; i--) {
    const of = (c: number) => spans.filter(s => columnOf(out, centerX(s.bbox)) === c);
    const [near, far] = rtl ? [of(i), of(i - 1)] : [of(i - 1), of(i)];
    if (!far.length || !near.length || !marksColumn(far)) continue;
    // On a row of the neighbour: overlapping one of the neighbour's words as a word must to join a
    // line (text/lines.ts LINE_OVERLAP). OCR reads the two columns' bands apart and puts a row's
    // baselines a few points apart, and a mark floated right may stand a little above its line
    // (`[3]` beside `No. 4 …`, its box's foot at the line's middle).
    const onRow = (s: Run, n: Run) => Math.min(s.bbox[3], n.bbox[3]) - Math.max(s.bbox[1], n.bbox[1]) >= Math.min(s.bbox[3] - s.bbox[1], n.bbox[3] - n.bbox[1]) * LINE_OVERLAP;
    if (!far.every(s => near.some(n => onRow(s, n)))) continue;
    const [a, b] = [out[i - 1], out[i]];
    out.splice(i - 1, 2, { ...a, x1: b.x1, ...(a.lean ? { lean: { ...a.lean, x1: b.lean?.x1 ?? a.lean.x1 + (b.x1 - a.x1) } } : {}) });
  }
  return out;
}

/** The whole text block as one column (papers set in one column whose lines leave gaps, like options side by side). */
export function oneColumn(page: Pick<PageInfo, 'width'> & { spans: readonly Boxed[] }): Column[] {
  const spans = page.spans;
  return spans.length ? [{ x0: Math.min(...spans.map(s => s.bbox[0])), x1: Math.max(...spans.map(s => s.bbox[2])) }] : [{ x0: 0, x1: page.width }];
}

export function columnOf(columns: Column[], x: number): number {
  for (let i = columns.length - 1; i > 0; i--) if (x >= (columns[i - 1].x1 + columns[i].x0) / 2) return i;
  return 0;
}
