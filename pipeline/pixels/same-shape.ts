// Glyphs of the same shape: the cells of a key printed in one font that hold the same answer are
// the same picture, give or take a pixel at their edges and a scan's speckle. OCR may read a lone
// glyph one way in one cell and another way in the next (Arabic `ج` read `3` in one cell and `ج`
// in another); what they hold is one thing, and the cells can be read together. Letters that differ
// by a dot (`ج` and `ح`) or a short bar (`E` and `F`) are not one shape.
import type { Gray } from './gray.ts';
import { INK, type Box } from './runs.ts';

/** Two ink boxes of one glyph differ in width and in height by at most this many pixels. */
const SIZE_SLACK = 2;
/** Of two glyphs' ink, at most this share may lie farther than a pixel from the other's. */
const STRAY_SHARE = 0.04;
/** A patch of stray ink this many pixels big (a dot, the end of a bar) is a difference of shape, not noise. */
const STRAY_PATCH = 4;

interface Mask { w: number; h: number; ink: Uint8Array; near: Uint8Array; count: number }

/** The ink of a box, and where ink lies within a pixel of it (a 3 × 3 neighbourhood). */
function mask(g: Gray, [x0, y0, x1, y1]: Box): Mask {
  const w = x1 - x0, h = y1 - y0;
  const ink = new Uint8Array(w * h), near = new Uint8Array(w * h);
  let count = 0;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (g.data[(y0 + y) * g.width + x0 + x] < INK) { ink[y * w + x] = 1; count++; }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!ink[y * w + x]) continue;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const yy = y + dy, xx = x + dx;
        if (yy >= 0 && yy < h && xx >= 0 && xx < w) near[yy * w + xx] = 1;
      }
    }
  }
  return { w, h, ink, near, count };
}

/** Ink of `a` with no ink of `b` within a pixel, `b` laid at (dx, dy) on `a`: a map of `a`'s size. */
function stray(a: Mask, b: Mask, dx: number, dy: number): Uint8Array {
  const out = new Uint8Array(a.w * a.h);
  for (let y = 0; y < a.h; y++) {
    for (let x = 0; x < a.w; x++) {
      if (!a.ink[y * a.w + x]) continue;
      const bx = x - dx, by = y - dy;
      if (!(bx >= 0 && bx < b.w && by >= 0 && by < b.h && b.near[by * b.w + bx])) out[y * a.w + x] = 1;
    }
  }
  return out;
}

/** The size of the largest 8-connected patch of a map. */
function largestPatch(map: Uint8Array, w: number): number {
  const seen = new Uint8Array(map.length);
  let best = 0;
  for (let start = 0; start < map.length; start++) {
    if (!map[start] || seen[start]) continue;
    const stack = [start];
    seen[start] = 1;
    let size = 0;
    while (stack.length) {
      const k = stack.pop()!;
      size++;
      const x = k % w, y = (k - x) / w;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const xx = x + dx, yy = y + dy, j = yy * w + xx;
        if (xx >= 0 && xx < w && yy >= 0 && j < map.length && map[j] && !seen[j]) { seen[j] = 1; stack.push(j); }
      }
    }
    best = Math.max(best, size);
  }
  return best;
}

const countOf = (map: Uint8Array) => map.reduce((n, v) => n + v, 0);

/** Whether two glyphs are one shape: laid on each other at the best of a few offsets, no patch of either's ink strays. */
function oneShape(a: Mask, b: Mask): boolean {
  if (Math.abs(a.w - b.w) > SIZE_SLACK || Math.abs(a.h - b.h) > SIZE_SLACK || !a.count || !b.count) return false;
  const cx = Math.round((a.w - b.w) / 2), cy = Math.round((a.h - b.h) / 2);
  for (let oy = -1; oy <= 1; oy++) {
    for (let ox = -1; ox <= 1; ox++) {
      const ab = stray(a, b, cx + ox, cy + oy), ba = stray(b, a, -(cx + ox), -(cy + oy));
      if (countOf(ab) + countOf(ba) > STRAY_SHARE * (a.count + b.count)) continue;
      if (largestPatch(ab, a.w) < STRAY_PATCH && largestPatch(ba, b.w) < STRAY_PATCH) return true;
    }
  }
  return false;
}

/**
 * Boxes grouped by the shape of their ink: the group index of each box (equal indices, one shape).
 * Groups are the boxes linked by being one shape, directly or through others.
 */
export function shapeGroups(g: Gray, boxes: Box[]): number[] {
  const masks = boxes.map(b => mask(g, b));
  const group = boxes.map((_, i) => i);
  const root = (i: number): number => (group[i] === i ? i : (group[i] = root(group[i])));
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      if (root(i) !== root(j) && oneShape(masks[i], masks[j])) group[root(j)] = root(i);
    }
  }
  return boxes.map((_, i) => root(i));
}
