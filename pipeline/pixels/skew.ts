// How far askew a scanned sheet was fed. A sheet fed a degree askew turns every line by that angle:
// a column's left edge then leans, moving 14 points sideways down a Letter page, as far as a question
// number may stand in from its column's edge, so the numbers at one end of every column read as set
// in. The page is not turned before it is read (the recogniser reads a turned picture differently line
// by line: turning it lost more than it gained on the fuzzer's scans), and its words are not moved:
// its columns say how they lean (Column.lean), and a line's start is measured along the edge
// (text/direction.ts `edgesAt`).
// The angle is the classic projection-profile estimate (as Leptonica's pixFindSkew and OCRopus do):
// the ink's rows are summed along lines of each trial slope, and the slope whose profile is sharpest
// (largest sum of squares: lines of text pile up in few rows, the gaps between them empty) is the page's.
import type { Gray } from './gray.ts';
import { INK } from './runs.ts';

/** The largest skew (degrees) looked for: a sheet fed further askew than this is a photograph, not a scan. */
const MAX_SKEW = 3;
/** The coarse step (degrees) of the search… */
const COARSE_STEP = 0.1;
/** …and the fine one around the best coarse angle. */
const FINE_STEP = 0.02;
/** A skew smaller than this (degrees) is left alone: down a page it moves a line's start less than 3 points. */
export const MIN_SKEW = 0.2;
/** Ink is sampled every this many pixels each way (the estimate needs rows of text, not every pixel). */
const SAMPLE = 2;
/** The profile's sharpness must beat the level page's by this share for an angle to count: noise and pictures give flat profiles at every angle. */
const MIN_GAIN = 0.02;

/** Ink pixels (sampled) of the picture, as x and y. */
function inkPoints(g: Gray): { xs: Int32Array; ys: Int32Array } {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < g.height; y += SAMPLE) {
    const row = y * g.width;
    for (let x = 0; x < g.width; x += SAMPLE) if (g.data[row + x] < INK) { xs.push(x); ys.push(y); }
  }
  return { xs: Int32Array.from(xs), ys: Int32Array.from(ys) };
}

/** The sum of squares of the ink's row profile along lines of slope tan(angle): sharp where lines of text run along them. */
function sharpness(points: { xs: Int32Array; ys: Int32Array }, height: number, width: number, degrees: number): number {
  const t = Math.tan((degrees * Math.PI) / 180);
  // Rows of the sampled grid (at a level slope the ink falls on every SAMPLEth pixel row only, and a
  // profile binned by the pixel would be sharpest at 0 for that alone), shifted by at most width·|t|.
  const pad = Math.ceil((width * Math.abs(t)) / SAMPLE) + 1;
  const rows = new Float64Array(Math.ceil(height / SAMPLE) + 2 * pad);
  const { xs, ys } = points;
  for (let i = 0; i < xs.length; i++) rows[Math.round((ys[i] - xs[i] * t) / SAMPLE) + pad]++;
  let sum = 0;
  for (let i = 0; i < rows.length; i++) sum += rows[i] * rows[i];
  return sum;
}

/**
 * The page's skew in degrees, clockwise as the picture shows it (a line of text falls to the right
 * for a positive angle), or 0 where the page is straight, within MIN_SKEW, or shows no lines to tell by.
 */
export function skewAngle(g: Gray): number {
  const points = inkPoints(g);
  if (points.xs.length < 100) return 0;
  const level = sharpness(points, g.height, g.width, 0);
  let best = 0, bestScore = level;
  for (let a = -MAX_SKEW; a <= MAX_SKEW + 1e-9; a += COARSE_STEP) {
    const s = sharpness(points, g.height, g.width, a);
    if (s > bestScore) { best = a; bestScore = s; }
  }
  const coarse = best;
  for (let a = coarse - COARSE_STEP; a <= coarse + COARSE_STEP + 1e-9; a += FINE_STEP) {
    const s = sharpness(points, g.height, g.width, a);
    if (s > bestScore) { best = a; bestScore = s; }
  }
  if (bestScore < level * (1 + MIN_GAIN) || Math.abs(best) < MIN_SKEW) return 0;
  return Math.round(best * 100) / 100;
}
