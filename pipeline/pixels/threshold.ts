// The grey that parts ink from paper on one page. A scan's paper is speckled and its strokes blurred,
// and the recogniser reads some short bands of it badly in grey (fuzzer 0003's `1. 57` read `1.37`
// at confidence 31, `ToxX` in Chinese; cut to black and white at the page's level, `1.57` at 92).
// The recogniser's network reads grey better on the whole, so only bands it is unsure of are read
// again this way (ocr/page-ocr.ts).
import type { Gray } from './gray.ts';

/**
 * Otsu's level over the page's histogram: the grey that best parts its pixels into two classes
 * (most variance between them). Ink below it, paper at or above it.
 */
export function otsuLevel(g: Gray): number {
  const hist = new Float64Array(256);
  for (let i = 0; i < g.data.length; i++) hist[g.data[i]]++;
  const total = g.data.length;
  let sumAll = 0;
  for (let v = 0; v < 256; v++) sumAll += v * hist[v];
  let best = 0, level = 128, below = 0, sumBelow = 0;
  for (let v = 0; v < 255; v++) {
    below += hist[v];
    sumBelow += v * hist[v];
    const above = total - below;
    if (!below || !above) continue;
    const between = below * above * (sumBelow / below - (sumAll - sumBelow) / above) ** 2;
    if (between > best) { best = between; level = v + 1; }
  }
  return level;
}
