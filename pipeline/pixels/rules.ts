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
/** Rules are painted out this many pixels beyond their dark core (antialiasing)… */
const PAINT_MARGIN = 2;
/**
 * …or this many points, where more: a scan's rule is blurred and its fringe, lighter than the core
 * but ink to the bands (runs.ts INK), reaches past two pixels at 300 dpi, and OCR reads it as `|`
 * at the head of every line beside it.
 */
const PAINT_MARGIN_PT = 1.2;

/** Long dark rules of a page image as line shapes in points (`scale` pixels a point). */
export function rulesFromImage(g: Gray, scale: number, page: number): Shape[] {
  const dark = (x: number, y: number) => g.data[y * g.width + x] < INK;
  const shapes: Shape[] = [];
  for (let y = 0; y < g.height; y += 1) {
    for (const [a, b] of passingRuns(g.width, x => dark(x, y), g.width * ACROSS)) shapes.push({ page, kind: 'line', visible: true, bbox: [a / scale, y / scale, b / scale, (y + 1) / scale] });
  }
  // Down a column of pixels and its two neighbours: a rule a hair off upright across the page's height
  // (a sheet fed a little askew, a rule printed not quite upright) steps from one column of pixels to
  // the next along its length.
  for (let x = Math.floor(g.width * MIDDLE); x < g.width * (1 - MIDDLE); x += 1) {
    for (const [a, b] of passingRuns(g.height, y => dark(x, y) || dark(x - 1, y) || dark(x + 1, y), g.height * DOWN)) shapes.push({ page, kind: 'line', visible: true, bbox: [(x - 1) / scale, a / scale, (x + 2) / scale, b / scale] });
  }
  return shapes;
}

/**
 * A rule's pixel rows or columns joined into one box: a rule a scan shows a hair off square (a sheet
 * fed a little askew, a rule printed not quite upright) is found as runs in neighbouring pixel columns, each
 * covering part of its length, and painted over the whole length of all of them.
 */
function joinedRules(rules: Shape[], scale: number): [number, number, number, number][] {
  const boxes = rules.map(r => r.bbox.map(v => Math.round(v * scale)) as [number, number, number, number]);
  const near = (a: number[], b: number[]) => a[0] <= b[2] + PAINT_MARGIN && b[0] <= a[2] + PAINT_MARGIN && a[1] <= b[3] + PAINT_MARGIN && b[1] <= a[3] + PAINT_MARGIN;
  const upright = (b: number[]) => b[3] - b[1] > b[2] - b[0];
  const out: [number, number, number, number][] = [];
  for (const b of boxes) {
    const into = out.find(o => upright(o) === upright(b) && near(o, b));
    if (into) { into[0] = Math.min(into[0], b[0]); into[1] = Math.min(into[1], b[1]); into[2] = Math.max(into[2], b[2]); into[3] = Math.max(into[3], b[3]); } else out.push([...b]);
  }
  return out;
}

/** The picture with the given rules painted white (a copy): they would join the bands of text they run beside. */
export function withoutRules(g: Gray, rules: Shape[], scale: number): Gray {
  const data = new Uint8Array(g.data);
  const m = Math.max(PAINT_MARGIN, Math.round(PAINT_MARGIN_PT * scale));
  for (const [x0, y0, x1, y1] of joinedRules(rules, scale)) {
    for (let y = Math.max(0, y0 - m); y < Math.min(g.height, y1 + m); y++) data.fill(255, y * g.width + Math.max(0, x0 - m), y * g.width + Math.min(g.width, x1 + m));
  }
  return { width: g.width, height: g.height, data };
}
