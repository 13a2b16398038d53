// Boxes drawn on a page: a rectangle, or four strokes meeting at their ends (how KICE and most
// word processors draw a framed block). Found from the page's vector shapes alone.
import type { BBox, Shape } from '../document.ts';
import { height, width } from '../document.ts';

/** Strokes closer than this (points) meet. */
const MEET = 2;
/** A box smaller than this on either side is a glyph or a tick, not a frame around text. */
const MIN_SIDE = 12;

/** Every frame on the page, each once (a frame drawn twice is one frame). */
export function framesOf(shapes: Shape[]): BBox[] {
  const drawn = shapes.filter(s => s.visible && s.kind !== 'image');
  const out: BBox[] = [];
  const add = (b: BBox) => {
    if (width(b) < MIN_SIDE || height(b) < MIN_SIDE) return;
    if (!out.some(o => o.every((v, i) => Math.abs(v - b[i]) <= MEET))) out.push(b);
  };
  for (const s of drawn) if (s.kind === 'rect' && width(s.bbox) > 3 && height(s.bbox) > 3) add(s.bbox);
  const near = (a: number, b: number) => Math.abs(a - b) <= MEET;
  const horizontal = drawn.filter(s => height(s.bbox) <= 1.5 && width(s.bbox) >= MIN_SIDE);
  const vertical = drawn.filter(s => width(s.bbox) <= 1.5 && height(s.bbox) >= MIN_SIDE);
  // Sides by their x, so a graph's grid of hundreds of strokes is not searched stroke by stroke.
  const byX = new Map<number, Shape[]>();
  for (const v of vertical) { const k = Math.round(v.bbox[0]); byX.set(k, [...(byX.get(k) ?? []), v]); }
  const sidesAt = (x: number) => [-2, -1, 0, 1, 2].flatMap(d => byX.get(Math.round(x) + d) ?? []);
  for (const top of horizontal) {
    for (const bottom of horizontal) {
      if (bottom.bbox[1] <= top.bbox[1] + MIN_SIDE || !near(top.bbox[0], bottom.bbox[0]) || !near(top.bbox[2], bottom.bbox[2])) continue;
      const side = (x: number) => sidesAt(x).some(v => near(v.bbox[0], x) && near(v.bbox[1], top.bbox[1]) && near(v.bbox[3], bottom.bbox[3]));
      if (side(top.bbox[0]) && side(top.bbox[2])) add([top.bbox[0], top.bbox[1], top.bbox[2], bottom.bbox[3]]);
    }
  }
  return out;
}
