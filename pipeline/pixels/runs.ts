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

/**
 * A row of a box moved off the lines it cuts through, one way (-1 up, 1 down), looked at in upright
 * strips `strip` wide (a page askew runs its lines together across its width, and one line in one
 * strip may end under the next one's top in another): to the top (or foot) of every run of ink it
 * cuts (runs parted by `gap` blank rows), until it cuts none. A run taller than `most` (no line of
 * text) that reaches more than `most` past the row leaves it where it was.
 */
export function offInk(g: Gray, box: Box, y: number, way: -1 | 1, { gap, most, strip }: { gap: number; most: number; strip: number }): number {
  const [x0, top, x1, bottom] = box;
  let at = y;
  for (let round = 0; round < OFF_INK_ROUNDS; round++) {
    const ends: number[] = [];
    for (let x = x0; x < x1; x += strip) {
      const from = Math.max(top, at - 2 * most), to = Math.min(bottom, at + 2 * most);
      const run = inkRuns(g, [x, from, Math.min(x1, x + strip), to], gap, 'y').find(([a, b]) => a < at && b > at);
      if (!run) continue;
      // A run taller than a line is a picture: one reaching past the row by no more than a line is
      // the body's (a figure whose top the row cut: the row moves past it as past a line); one
      // reaching further out, or out of the rows looked at, is no line to move off.
      const past = way < 0 ? at - run[0] : run[1] - at;
      if ((run[1] - run[0] > most && past > most) || run[0] === from || run[1] === to) return y;
      ends.push(way < 0 ? run[0] : run[1]);
    }
    if (!ends.length) return at;
    at = way < 0 ? Math.min(...ends) : Math.max(...ends);
  }
  return y;
}
/** Lines a row is moved past at most (offInk): a row among lines run together (a page askew) stays. */
const OFF_INK_ROUNDS = 4;
