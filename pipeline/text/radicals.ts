// Radical signs drawn as paths: Word's and MathType's equations often print √ not as a glyph but
// as a drawn stroke (a tick, a long rise, the bar over the radicand) beside the radicand's text. The
// text layer then holds `1` over `6` where the page shows 1/√6. A drawn radical is given back to the
// text as a √ before its radicand, where the formula builders read it like a printed one.
import type { Shape, Span } from '../document.ts';

/**
 * `√` spans for the drawn radicals of a page: a path no more than twice as tall as the text-font
 * span it covers, that span in its right part, nothing of the text in its left part (the tick).
 */
export function drawnRadicals(spans: readonly Span[], shapes: readonly Shape[]): Span[] {
  const out: Span[] = [];
  for (const sh of shapes) {
    if (sh.kind !== 'path' || !sh.visible) continue;
    const [x0, y0, x1, y1] = sh.bbox;
    const h = y1 - y0;
    const inside = spans.filter(s => !s.math && s.bbox[0] >= x0 && s.bbox[2] <= x1 + s.size * 0.2 && s.bbox[1] >= y0 - s.size * 0.3 && s.bbox[3] <= y1 + s.size * 0.3);
    if (!inside.length) continue;
    const radicand = inside.reduce((a, b) => (a.bbox[0] <= b.bbox[0] ? a : b));
    const tick = radicand.bbox[0] - x0;
    // The radicand's own height, give or take; the tick at least a third of that wide, and empty.
    if (h > radicand.size * 2 || h < radicand.size * 0.6 || tick < h * 0.3 || tick > h * 1.2) continue;
    if (spans.some(s => s.bbox[2] > x0 + 0.5 && s.bbox[0] < radicand.bbox[0] - 0.5 && s.bbox[3] > y0 && s.bbox[1] < y1)) continue;
    if (out.some(r => Math.abs(r.bbox[0] - x0) < 1 && Math.abs(r.baseline - radicand.baseline) < 1)) continue;
    out.push({ ...radicand, text: '√', bbox: [x0, radicand.bbox[1], radicand.bbox[0], radicand.bbox[3]] });
  }
  return out;
}
