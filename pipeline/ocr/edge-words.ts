// Words found in the pixels at either end of a line and read again on their own: a question number
// at the margin (digits only), a bracketed mark at the end.
// Bracketed marks at the end of a line (`[3점]`, `[4]`): tesseract reads them inside a line of
// Hangul and formulas as `BI`, `a)` or `|4점]`. The last word of each line is found in the pixels;
// where it opens and closes with a bracket (an upright stroke nearly its full height at each end)
// it is read again on its own, and the brackets are known from their shape.
import { cellPng } from '../keys/grid.ts';
import type { Gray } from '../pixels/gray.ts';
import { INK, type Box } from '../pixels/runs.ts';
import type { OcrPool, OcrWord } from '../providers/ocr.ts';

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
  const box = edgeWord(g, band, gap, 'right');
  if (!box || !isBracketed(g, box)) return null;
  const read = (await pool.recognize(await cellPng(g, box, 1, 10), { mode: 'line' })).text.replace(/\s+/g, '');
  // The brackets themselves may come back as `|`, `1`, `l` or not at all: the inside is what follows
  // a first character that is no digit (or a `1` before another digit) and ends before the last:
  // a number, with its decimals where it has them (`[2,75]`, `[1.5]`), and its unit (`[4점]`).
  const inner = read.startsWith('[') ? /^\[([0-9]{1,2}(?:[.,][0-9]{1,2})?[^0-9\]|)]{0,2})/.exec(read) : /^[^0-9]?(?:1(?=[0-9]))?([0-9]{1,2}(?:[.,][0-9]{1,2})?[^0-9\]|)]{0,2})/.exec(read);
  if (!inner) return null;
  return { box, text: `[${inner[1]}]` };
}

/**
 * The question number at a band's margin, read again where OCR's reading in context is not to be
 * trusted: `first` is the band's first word as OCR read it, `margin` how far in (pixels) a number
 * may start, `digits` a reader of Latin digits where `pool` reads another script too. Null where
 * the band's reading stands as it is.
 */
export async function numberAtMargin(g: Gray, band: Box, first: OcrWord | undefined, gap: number, margin: number, pool: OcrPool, digits?: OcrPool): Promise<{ box: Box; text: string } | null> {
  const inked = edgeWord(g, band, gap, 'left');
  // Digits read by another script's model are read again by the Latin one, the stop kept as read,
  // from the ink's edge: a 1 it dropped (`17.` read `7.`) stands left of its word, a digit's width
  // off, or comes back as a stroke of the script's own (`॥7.`, `|7.`).
  const inContext = first ? /^(\d{1,2})(\.?)$/.exec(first.text.trim()) : null;
  const digitsRead = first ? /^[^\p{L}\p{N}\s]{0,2}(\d{1,2})(\.?)$/u.exec(first.text.trim()) : null;
  if (first && digitsRead && digits && digits !== pool && inked && inked[0] <= margin && first.bbox[0] - inked[2] <= first.bbox[3] - first.bbox[1]) {
    const box: Box = [Math.min(inked[0], first.bbox[0]), Math.min(inked[1], first.bbox[1]), first.bbox[2], Math.max(inked[3], first.bbox[3])];
    const again = await digitsAlone(g, box, digits);
    // (Never fewer digits than read in context: a wide `１１．` may come back alone as `1`.)
    const kept = again !== null && String(again).length >= digitsRead[1].length;
    return kept && (again !== Number(digitsRead[1]) || !inContext) ? { box, text: `${again}${digitsRead[2]}` } : null;
  }
  // A question number stands at the column's very edge (text under it is indented); a word OCR
  // read as Hangul or Han is none. A number read in context, with its dot or bare (`17 (0–5)`, a
  // bold number set without one), is left as read: read again alone it would be given a dot.
  // OCR's first word tells only where it covers the band's first ink: in a band made tall by a
  // stacked fraction (`24. 쌍곡선 x²/a² − y²/b² = 1`) it may read nothing at all of the number.
  if (first && (inContext || /[\p{Script=Hangul}\p{Script=Han}]/u.test(first.text)) && first.bbox[0] <= (inked?.[2] ?? Infinity)) return null;
  // Else the first word of ink at the margin, read alone as a question number with digits only
  // (`23.` that OCR in context read as `.`, `8.` as `&`); none where there is no ink at the edge.
  if (!inked || inked[0] > margin || inked[2] - inked[0] > (inked[3] - inked[1]) * 3) return null;
  const number = await digitsAlone(g, inked, pool);
  return number === null ? null : { box: inked, text: `${number}.` };
}

/** A question number's box read alone with digits only: its number, or null where it reads as none. */
async function digitsAlone(g: Gray, box: Box, pool: OcrPool): Promise<number | null> {
  const png = await cellPng(g, box, 1, 10);
  // A lone `8.` may come back empty in one mode and whole in another.
  for (const mode of ['line', 'word'] as const) {
    const m = /^(\d{1,2})\.?$/.exec((await pool.recognize(png, { mode, whitelist: '0123456789.' })).text.replace(/\s+/g, ''));
    if (m) return Number(m[1]);
  }
  return null;
}
