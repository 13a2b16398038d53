// Spaces the recogniser read past. Tesseract's LSTM joins a short label to what follows it where
// the space after a stop or a bracket is all that parts them: `1. 24` is read `1.24`, `(d) 9` as
// `(d)9`, and a row of options `1. 44  2. 46  3. 51  4. 53` as four decimals. The page's ink still
// shows the space: the blank after the stop is a word gap, twice or more a decimal point's.
import type { Gray } from '../pixels/gray.ts';
import type { OcrWord } from '../providers/ocr.ts';
import { passingRuns } from '../pixels/runs.ts';

/** Marks after which a space is often read past. */
const STOP = /^[.,:;)\]]$/;
/** What may follow such a space: a letter or digit of any script. */
const WORD_START = /^[\p{L}\p{N}]/u;
/**
 * Blank after a stop, as a share of the line's row height, from which it is a space. Measured on
 * Liberation Serif and Sans and DejaVu Sans at 22 and 30 px and on the fuzzer's scans at 200 dpi:
 * inside decimals, abbreviations, times and thousands (`3.14`, `e.g.`, `10:30`, `1,000`) 0.08–0.25
 * of the row; a space after a stop or a bracket 0.29–0.56.
 */
export const MISSED_SPACE = 0.28;
/** A label as a right-to-left line paints it, its stop first: `.1`, `.12`. */
const PAINTED_LABEL = /^[.)]\p{N}{1,2}$/u;
/** Ink pixels a column may hold and still be blank (a scan's specks). */
const SPECK = 1;

/** Blank column runs at least `min` wide strictly inside a word's box (ink on both sides): [x0, x1) in the page's pixels. */
function blanks(g: Gray, level: number, [x0, y0, x1, y1]: readonly number[], min: number): [number, number][] {
  const left = Math.max(0, Math.round(x0)), right = Math.min(g.width, Math.round(x1));
  const top = Math.max(0, Math.round(y0)), bottom = Math.min(g.height, Math.round(y1));
  const blank = (i: number) => {
    let ink = 0;
    for (let y = top; y < bottom && ink <= SPECK; y++) if (g.data[y * g.width + left + i] < level) ink++;
    return ink <= SPECK;
  };
  return passingRuns(right - left, blank, Math.ceil(min)).filter(([a, b]) => a > 0 && b < right - left).map(([a, b]) => [left + a, left + b]);
}

/** A stop's ink is at most this share of its row's height (a digit or a letter stands taller). */
const STOP_HEIGHT = 0.35;

/**
 * Whether the ink starting at column x (page pixels) of a word's box is a painted label's stop: a dot,
 * low and short, up to the next blank column, and the label's number right after it, closer than a
 * space (`1. 5` has its space after the stop, and is no painted `.5`).
 */
function stopAt(g: Gray, level: number, [, y0, x1, y1]: readonly number[], x: number, rowHeight: number): boolean {
  const top = Math.max(0, Math.round(y0)), bottom = Math.min(g.height, Math.round(y1)), right = Math.min(g.width, Math.round(x1));
  const inkAt = (c: number) => { for (let y = top; y < bottom; y++) if (g.data[y * g.width + c] < level) return true; return false; };
  let high = Infinity, low = -Infinity, c = Math.round(x);
  for (; c < right; c++) {
    let ink = false;
    for (let y = top; y < bottom; y++) if (g.data[y * g.width + c] < level) { ink = true; high = Math.min(high, y); low = Math.max(low, y); }
    if (!ink && low >= 0) break;
  }
  if (!(low >= high && low - high + 1 <= rowHeight * STOP_HEIGHT && low >= (top + bottom) / 2)) return false;
  const from = c;
  while (c < right && !inkAt(c)) c++;
  return c < right && c - from < rowHeight * MISSED_SPACE;
}

/**
 * A word cut where a stop is followed by a space the recogniser read past: the blank after the stop,
 * measured in the page's pixels (`level`: ink is darker), at least MISSED_SPACE of the row. The
 * recogniser's own character positions only say which blank is the stop's (they are rough, the first
 * word's most); each part keeps the word's height, confidence and line. A word with no such blank,
 * or whose characters do not spell it, is returned whole.
 */
export function partAtMissedSpaces(g: Gray, level: number, w: OcrWord, rtl = false): OcrWord[] {
  const { glyphs } = w;
  if (glyphs.length < 2 || !(w.rowHeight > 0) || glyphs.map(c => c.text).join('') !== w.text) return [w];
  // Not before a number that ends the word with its own stop: a block number `A.1.` set in a CJK
  // font, whose half-width stops stand in wide cells, is one label (and `1.2.` a part's number).
  const label = (i: number) => /^[\p{L}\p{N}]{1,2}[.)]$/u.test(glyphs.slice(i).map(c => c.text).join(''));
  // A right-to-left line paints a label's stop before its number (`1.` as `.1`, the option's value
  // left of it: `95 .1`): there the space read past stands before the stop, which opens a short label
  // ending the word. Told by the ink right of the blank: a stop's dot (`1.24` is cut after its stop).
  // Only on such a line: a left-to-right `[1.75` has its decimal's stop there.
  const painted = (i: number) => rtl && STOP.test(glyphs[i].text) && WORD_START.test(glyphs[i - 1].text) && PAINTED_LABEL.test(glyphs.slice(i).map(c => c.text).join(''));
  const places = glyphs.flatMap((c, i) => (i > 0 && ((STOP.test(glyphs[i - 1].text) && WORD_START.test(c.text) && !label(i)) || painted(i)) ? [i] : []));
  if (!places.length) return [w];
  const wide = blanks(g, level, w.bbox, MISSED_SPACE * w.rowHeight);
  const cuts: { at: number; gap: [number, number] }[] = [];
  for (const i of places) {
    // The blank between the stop's start and the next character's end, nearest where they meet.
    const from = glyphs[i - 1].x0, to = glyphs[i].x1, meet = (glyphs[i - 1].x1 + glyphs[i].x0) / 2;
    const after = cuts.length ? cuts[cuts.length - 1].gap[1] : -Infinity;
    const gap = wide.filter(([a, b]) => a >= Math.max(from, after) && b <= to && (!painted(i) || stopAt(g, level, w.bbox, b, w.rowHeight)))
      .sort((p, q) => Math.abs((p[0] + p[1]) / 2 - meet) - Math.abs((q[0] + q[1]) / 2 - meet))[0];
    if (gap) cuts.push({ at: i, gap });
  }
  if (!cuts.length) return [w];
  const parts: OcrWord[] = [];
  let start = 0, x0 = w.bbox[0];
  for (const { at, gap } of [...cuts, { at: glyphs.length, gap: [w.bbox[2], w.bbox[2]] as [number, number] }]) {
    const piece = glyphs.slice(start, at);
    parts.push({ ...w, text: piece.map(c => c.text).join(''), bbox: [x0, w.bbox[1], gap[0], w.bbox[3]], glyphs: piece });
    start = at;
    x0 = gap[1];
  }
  return parts;
}
