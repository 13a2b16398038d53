// Runs of ink along one axis of a grey picture: where bands of text and the pieces of a line are.
import type { Gray } from './gray.ts';

/** Darker than this counts as ink. */
export const INK = 160;

export type Box = [number, number, number, number];

/**
 * Runs [from, to) along one axis of a box of the image that hold ink: rows ('y', bands of text) or
 * columns ('x', pieces of a line), split where at least `gap` blank rows or columns part them.
 */
export function inkRuns(g: Gray, box: Box, gap: number, axis: 'x' | 'y'): [number, number][] {
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

/** Runs [start, end) of at least `min` consecutive indices below n that pass a test. */
export function passingRuns(n: number, pass: (i: number) => boolean, min: number): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= n; i++) {
    if (i < n && pass(i)) { if (start < 0) start = i; }
    else if (start >= 0) { if (i - start >= min) out.push([start, i]); start = -1; }
  }
  return out;
}
