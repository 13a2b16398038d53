// Bracketed marks at the end of a line (`[3점]`, `[4]`): tesseract reads them inside a line of
// Hangul and formulas as `BI`, `a)` or `|4점]`. The last word of each line is found in the pixels;
// where it opens and closes with a bracket (an upright stroke nearly its full height at each end)
// it is read again on its own, and the brackets are known from their shape.
import { cellPng, type Gray } from '../keys/grid.ts';
import type { OcrPool } from '../providers/ocr.ts';

const INK = 160;

export type Box = [number, number, number, number];

/** Ink box of the rightmost word of a band: the last run of inked columns before a gap of `gap` blank columns. */
export function lastWord(g: Gray, band: Box, gap: number): Box | null {
  const [x0, y0, x1, y1] = band;
  const inked = (x: number) => { for (let y = y0; y < y1; y++) if (g.data[y * g.width + x] < INK) return true; return false; };
  let right = x1 - 1;
  while (right >= x0 && !inked(right)) right--;
  if (right < x0) return null;
  let left = right, blank = 0;
  for (let x = right; x >= x0; x--) {
    if (inked(x)) { left = x; blank = 0; } else if (++blank >= gap) break;
  }
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

/** Whether a word's ink is a bracketed group: brackets at both ends, wider than tall and not too wide. */
export function isBracketed(g: Gray, box: Box): boolean {
  const w = box[2] - box[0], h = box[3] - box[1];
  return h >= 8 && w >= h * 1.2 && w <= h * 5 && uprightAt(g, box, 'left') && uprightAt(g, box, 'right');
}

/**
 * The band's last word, where it is bracketed, read on its own: `[` and `]` from the shape, what is
 * between from OCR. Null where the last word is no bracketed group or reads as no number.
 */
export async function bracketedMark(g: Gray, band: Box, pool: OcrPool, gap: number): Promise<{ box: Box; text: string } | null> {
  const box = lastWord(g, band, gap);
  if (!box || !isBracketed(g, box)) return null;
  const read = (await pool.recognize(await cellPng(g, box, 1, 10), { mode: 'line' })).text.replace(/\s+/g, '');
  // The brackets themselves may come back as `|`, `1`, `l` or not at all: the inside is what follows
  // a first character that is no digit (or a `1` before another digit) and ends before the last.
  const inner = read.startsWith('[') ? /^\[([0-9]{1,2}[^0-9\]|)]{0,2})/.exec(read) : /^[^0-9]?(?:1(?=[0-9]))?([0-9]{1,2}[^0-9\]|)]{0,2})/.exec(read);
  if (!inner) return null;
  return { box, text: `[${inner[1]}]` };
}
