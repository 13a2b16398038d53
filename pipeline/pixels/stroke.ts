// How thick the strokes of some ink are: a bold word's strokes are half as thick again as the
// body's. A page read from its pixels has no font names, so this is how it tells a bold heading
// or a bold question number (ocr/page-ocr.ts).
import type { Gray } from './gray.ts';
import type { Box } from './runs.ts';

/** A pixel darker than this grey is ink. */
const INK = 128;
/** Fewer ink pixels than this say nothing of a stroke (a dot, a comma). */
const MIN_INK = 40;

/**
 * The mean stroke width (pixels) of the ink in a box: twice its ink over its edge pixels (ink with
 * a blank pixel beside it), as a stroke `w` wide and `l` long holds `w·l` ink on `2·l` edge. Null
 * where the box holds too little ink to tell.
 */
export function strokeWidth(g: Gray, box: Box): number | null {
  const [x0, y0, x1, y1] = [Math.max(0, box[0]), Math.max(0, box[1]), Math.min(g.width, box[2]), Math.min(g.height, box[3])].map(Math.round);
  const ink = (x: number, y: number) => x >= x0 && x < x1 && y >= y0 && y < y1 && g.data[y * g.width + x] < INK;
  let area = 0, edge = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (!ink(x, y)) continue;
      area++;
      if (!ink(x - 1, y) || !ink(x + 1, y) || !ink(x, y - 1) || !ink(x, y + 1)) edge++;
    }
  }
  return area >= MIN_INK && edge ? (2 * area) / edge : null;
}
