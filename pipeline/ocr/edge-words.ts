// Words found in the pixels at either end of a line: the ink of the first or last word, whether it
// is a bracketed group, and a bracketed mark at the end read again on its own (question numbers at
// the margin are ocr/numbers-again.ts's).
// Bracketed marks at the end of a line (`[3점]`, `[4]`): tesseract reads them inside a line of
// Hangul and formulas as `BI`, `a)` or `|4점]`. The last word of each line is found in the pixels;
// where it opens and closes with a bracket (an upright stroke nearly its full height at each end)
// it is read again on its own, and the brackets are known from their shape.
import { cellPng } from '../keys/grid.ts';
import type { Gray } from '../pixels/gray.ts';
import { INK, type Box } from '../pixels/runs.ts';
import type { OcrPool } from '../providers/ocr.ts';

/**
 * Ink box of the first (left) or last (right) word of a band: the run of inked columns at that end,
 * up to a gap of `gap` blank columns.
 */
export function edgeWord(g: Gray, band: Box, gap: number, side: 'left' | 'right'): Box | null {
  const [x0, y0, x1, y1] = band;
  const inked = (x: number) => { for (let y = y0; y < y1; y++) if (g.data[y * g.width + x] < INK) return true; return false; };
  const step = side === 'left' ? 1 : -1;
  let start = side === 'left' ? x0 : x1 - 1;
  while (start >= x0 && start < x1 && !inked(start)) start += step;
  if (start < x0 || start >= x1) return null;
  let end = start, blank = 0;
  for (let x = start; x >= x0 && x < x1; x += step) {
    if (inked(x)) { end = x; blank = 0; } else if (++blank >= gap) break;
  }
  const left = Math.min(start, end), right = Math.max(start, end);
  let top = y1, bottom = y0;
  for (let y = y0; y < y1; y++) for (let x = left; x <= right; x++) if (g.data[y * g.width + x] < INK) { top = Math.min(top, y); bottom = Math.max(bottom, y); break; }
  return [left, top, right + 1, bottom + 1];
}

/** An upright stroke at the box's left (or right) edge covering most of its height. */
function uprightAt(g: Gray, box: Box, side: 'left' | 'right'): boolean {
  const [x0, y0, x1, y1] = box;
  const h = y1 - y0, reach = Math.max(2, Math.round(h * 0.15));
  let best = 0;
  for (let i = 0; i < reach; i++) {
    const x = side === 'left' ? x0 + i : x1 - 1 - i;
    let run = 0, longest = 0;
    for (let y = y0; y < y1; y++) { if (g.data[y * g.width + x] < INK) longest = Math.max(longest, ++run); else run = 0; }
    best = Math.max(best, longest);
  }
  return best >= h * 0.85;
}

/**
 * Whether a word's ink is a bracketed group: brackets at both ends, `narrowest` times as wide as
 * tall or wider and not too wide, their bars reaching the group's corners (a bold `01` at a line's
 * end has upright sides too, but a `0` leaves its corners paper).
 */
export function isBracketed(g: Gray, box: Box, narrowest = 1.2): boolean {
  const w = box[2] - box[0], h = box[3] - box[1];
  return h >= 8 && w >= h * narrowest && w <= h * 5 && uprightAt(g, box, 'left') && uprightAt(g, box, 'right') && barsAt(g, box, 'left') && barsAt(g, box, 'right');
}

/** A bracket's corner square, as a share of the group's height: its bar and stem meet there. */
const BRACKET_CORNER = 0.1;

/** Ink in the top and the bottom corner of a box's side: where a square bracket's bars meet its stem. */
function barsAt(g: Gray, box: Box, side: 'left' | 'right'): boolean {
  const [x0, y0, x1, y1] = box;
  const c = Math.max(2, Math.round((y1 - y0) * BRACKET_CORNER));
  const xs = side === 'left' ? [x0, x0 + c] : [x1 - c, x1];
  const inked = (ya: number, yb: number) => { for (let y = ya; y < yb; y++) for (let x = xs[0]; x < xs[1]; x++) if (g.data[y * g.width + x] < INK) return true; return false; };
  return inked(y0, y0 + c) && inked(y1 - c, y1);
}

/**
 * A bracketed group narrower than this many times its height holds one digit: each bracket takes a
 * third of its height or so and a digit half (`[3]` stands 1.2 times as wide as tall, `[12]` 1.7).
 */
const ONE_DIGIT_WIDE = 1.45;

/**
 * The band's last word, where it is bracketed, read on its own: `[` and `]` from the shape, what is
 * between from OCR. Null where the last word is no bracketed group or reads as no number.
 */
export async function bracketedMark(g: Gray, band: Box, pool: OcrPool, gap: number): Promise<{ box: Box; text: string } | null> {
  const box = edgeWord(g, band, gap, 'right');
  if (!box || !isBracketed(g, box)) return null;
  const read = (await pool.recognize(await cellPng(g, box, 1, 10), { mode: 'line' })).text.replace(/\s+/g, '');
  const text = markRead(read, box);
  return text === null ? null : { box, text };
}

/**
 * A bracketed group's mark from what the recogniser read of it alone (`read`, spaces taken out) and
 * its ink box: `[` and `]` known from the shape, what is between from the reading. Null where that
 * reads as no number.
 */
export function markRead(read: string, box: Box): string | null {
  // The brackets themselves may come back as `|`, `1`, `l` or not at all: the inside is what follows
  // a first character that is no digit (or a `1` before another digit) and ends before the last:
  // a number, with its decimals where it has them (`[2,75]`, `[1.5]`), and its unit (`[4점]`), which
  // is no bracket (a right-to-left line's closing bracket may come back facing the other way, `[4.5[]`).
  const inner = read.startsWith('[') ? /^\[([0-9]{1,2}(?:[.,][0-9]{1,2})?[^0-9\]|)[(]{0,2})/.exec(read) : /^[^0-9]?(?:1(?=[0-9]))?([0-9]{1,2}(?:[.,][0-9]{1,2})?[^0-9\]|)[(]{0,2})/.exec(read);
  if (!inner) return null;
  // A group too narrow for two digits read as two, one a `1`: a bracket read as a `1` (`[1]` read `[11]`, `[5]` read `[51]`).
  const two = /^(\d)(\d)$/.exec(inner[1]);
  if (two && (two[1] === '1' || two[2] === '1') && box[2] - box[0] < (box[3] - box[1]) * ONE_DIGIT_WIDE) return `[${two[1] === '1' ? two[2] : two[1]}]`;
  return `[${inner[1]}]`;
}
