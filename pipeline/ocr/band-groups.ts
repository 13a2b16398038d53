// Bands of a column sent to the recogniser together. Every call costs a fixed part (the picture
// handed over and decoded, its layout found) however little it holds, and a page of a booklet has
// some sixty bands; so runs of plain lines of text go as one picture. A band at risk goes alone:
// one taller than a line of text (a formula with a fraction or a tall bracket, a figure's labels),
// where the recogniser's own line finding splits or merges lines, and a band after a wide gap.
import type { Box } from '../pixels/runs.ts';

export interface GroupOptions {
  /** Padding (pixels) each band's box carries above and below its ink. */
  pad: number;
  /** Widest blank (pixels) between two bands of one group. */
  maxGap: number;
  /** Most bands in one group. */
  maxBands: number;
  /** A band whose ink is taller than this many typical lines is at risk. */
  tall: number;
}

const inkHeight = (b: Box, pad: number) => Math.max(1, b[3] - b[1] - 2 * pad);

/**
 * The bands of one column (top to bottom) as groups of indexes, in order; `line` is the ink height
 * (pixels) of a typical line of text on the page.
 */
export function groupBands(bands: Box[], line: number, o: GroupOptions): number[][] {
  const plain = (b: Box) => inkHeight(b, o.pad) <= line * o.tall;
  const groups: number[][] = [];
  for (const [i, b] of bands.entries()) {
    const group = groups[groups.length - 1];
    const prev = group ? bands[group[group.length - 1]] : null;
    const gap = prev ? (b[1] + o.pad) - (prev[3] - o.pad) : Infinity;
    if (group && prev && plain(prev) && plain(b) && gap <= o.maxGap && group.length < o.maxBands) group.push(i);
    else groups.push([i]);
  }
  return groups;
}

/** Ink height (pixels) of a typical line: the median band's. */
export function typicalLine(bands: Box[], pad: number): number {
  const h = bands.map(b => inkHeight(b, pad)).sort((a, b) => a - b);
  return h[Math.floor(h.length / 2)] ?? 0;
}

/** Which band of a group a word belongs to: the one its box overlaps most in height (the nearest where none). */
export function bandOf(bands: Box[], word: Box, pad: number): number {
  let best = 0, bestScore = -Infinity;
  for (const [i, b] of bands.entries()) {
    const top = b[1] + pad, bottom = b[3] - pad;
    const overlap = Math.min(bottom, word[3]) - Math.max(top, word[1]);
    if (overlap > bestScore) { best = i; bestScore = overlap; }
  }
  return best;
}
