// Long dark rules of a page picture (column rule, head and foot rules): found so the body and the
// columns of a scan come out as for a born-digital page, and painted out so they join no text.
import type { Shape } from '../document.ts';
import type { Gray } from './gray.ts';
import { passingRuns } from './runs.ts';

/** A pixel darker than this grey is ink. */
const INK = 128;
/** A head or foot rule runs across at least this share of the page's width… */
const ACROSS = 0.6;
/** …a column rule down at least this share of its height, in its middle band (this share in from either side). */
const DOWN = 0.45;
const MIDDLE = 0.3;
/** Rules are painted out this many pixels beyond their ink (antialiasing). */
const PAINT_MARGIN = 2;

/** Long dark rules of a page image as line shapes in points (`scale` pixels a point). */
export function rulesFromImage(g: Gray, scale: number, page: number): Shape[] {
  const dark = (x: number, y: number) => g.data[y * g.width + x] < INK;
  const shapes: Shape[] = [];
  for (let y = 0; y < g.height; y += 1) {
    for (const [a, b] of passingRuns(g.width, x => dark(x, y), g.width * ACROSS)) shapes.push({ page, kind: 'line', visible: true, bbox: [a / scale, y / scale, b / scale, (y + 1) / scale] });
  }
  for (let x = Math.floor(g.width * MIDDLE); x < g.width * (1 - MIDDLE); x += 1) {
    for (const [a, b] of passingRuns(g.height, y => dark(x, y), g.height * DOWN)) shapes.push({ page, kind: 'line', visible: true, bbox: [x / scale, a / scale, (x + 1) / scale, b / scale] });
  }
  return shapes;
}

/** The picture with the given rules painted white (a copy): they would join the bands of text they run beside. */
export function withoutRules(g: Gray, rules: Shape[], scale: number): Gray {
  const data = new Uint8Array(g.data);
  for (const r of rules) {
    const [x0, y0, x1, y1] = r.bbox.map(v => Math.round(v * scale));
    for (let y = Math.max(0, y0 - PAINT_MARGIN); y < Math.min(g.height, y1 + PAINT_MARGIN); y++) data.fill(255, y * g.width + Math.max(0, x0 - PAINT_MARGIN), y * g.width + Math.min(g.width, x1 + PAINT_MARGIN));
  }
  return { width: g.width, height: g.height, data };
}
