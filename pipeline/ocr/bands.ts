// Where the text of a column is, before OCR: bands of rows with ink, split at blank rows. Each band
// goes to the recogniser on its own, so a line is never dropped for sitting beside a tall formula or
// below a wide gap (tesseract's own layout analysis over a whole column loses such lines).
import type { Gray } from '../keys/grid.ts';

/** Darker than this counts as ink. */
const INK = 160;

/**
 * Runs [from, to) along one axis of a box of the image that hold ink: rows ('y', bands of text) or
 * columns ('x', pieces of a line), split where at least `gap` blank rows or columns part them.
 */
export function inkRuns(g: Gray, box: [number, number, number, number], gap: number, axis: 'x' | 'y'): [number, number][] {
  const [x0, y0, x1, y1] = box;
  const [from, to, across0, across1] = axis === 'y' ? [y0, y1, x0, x1] : [x0, x1, y0, y1];
  const at = axis === 'y' ? (i: number, j: number) => g.data[i * g.width + j] : (i: number, j: number) => g.data[j * g.width + i];
  const runs: [number, number][] = [];
  let start = -1, last = -1;
  for (let i = from; i < to; i++) {
    let ink = false;
    for (let j = across0; j < across1; j++) if (at(i, j) < INK) { ink = true; break; }
    if (!ink) continue;
    if (start < 0) start = i;
    else if (i - last > gap) { runs.push([start, last + 1]); start = i; }
    last = i;
  }
  if (start >= 0) runs.push([start, last + 1]);
  return runs;
}
