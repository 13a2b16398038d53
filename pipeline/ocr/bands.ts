// Where the text of a column is, before OCR: bands of rows with ink, split at blank rows. Each band
// goes to the recogniser on its own, so a line is never dropped for sitting beside a tall formula or
// below a wide gap (tesseract's own layout analysis over a whole column loses such lines).
import type { Gray } from '../keys/grid.ts';

/** Darker than this counts as ink. */
const INK = 160;

/**
 * Bands [y0, y1) of a box of the image that hold ink, split where at least `gap` blank rows
 * separate them; bands shorter than `minHeight` rows (specks, rule ends) are left out.
 */
export function inkBands(g: Gray, box: [number, number, number, number], gap: number, minHeight: number): [number, number][] {
  const [x0, y0, x1, y1] = box;
  const bands: [number, number][] = [];
  let start = -1, last = -1;
  for (let y = y0; y < y1; y++) {
    let ink = false;
    for (let x = x0, row = y * g.width; x < x1; x++) if (g.data[row + x] < INK) { ink = true; break; }
    if (!ink) continue;
    if (start < 0) start = y;
    else if (y - last > gap) { bands.push([start, last + 1]); start = y; }
    last = y;
  }
  if (start >= 0) bands.push([start, last + 1]);
  return bands.filter(([a, b]) => b - a >= minHeight);
}

/** Spans [x0, x1) of a box of the image that hold ink, split where at least `gap` blank columns separate them. */
export function inkSpans(g: Gray, box: [number, number, number, number], gap: number): [number, number][] {
  const [x0, y0, x1, y1] = box;
  const spans: [number, number][] = [];
  let start = -1, last = -1;
  for (let x = x0; x < x1; x++) {
    let ink = false;
    for (let y = y0; y < y1; y++) if (g.data[y * g.width + x] < INK) { ink = true; break; }
    if (!ink) continue;
    if (start < 0) start = x;
    else if (x - last > gap) { spans.push([start, last + 1]); start = x; }
    last = x;
  }
  if (start >= 0) spans.push([start, last + 1]);
  return spans;
}
