// Ruled tables in a raster image (answer keys are published as pictures of a grid): the rows and
// columns from long dark rules, and the ink box of each cell. Pure pixel work over sharp's raw output.
import { sharp } from '../providers/lazy.ts';
import type { Gray } from '../pixels/gray.ts';

// Grey pixels and their loading live with the rest of the pixel work; named here too for the keys' readers.
export { loadGray, type Gray } from '../pixels/gray.ts';
export { inkBox } from '../pixels/cells.ts';
import { inkBox } from '../pixels/cells.ts';

export interface Cell {
  row: number;
  col: number;
  box: [number, number, number, number];
  /** Ink bounding box inside the cell, or null when the cell is blank. */
  ink: [number, number, number, number] | null;
}

export interface Table {
  box: [number, number, number, number];
  rows: number;
  cols: number;
  cells: Cell[];
}

const DARK = 170;
/** Rules may be drawn in grey: anything darker than this counts toward a rule. */
const RULE = 190;

/** Positions (centres) of runs of consecutive indices that pass a test. */
function runs(n: number, pass: (i: number) => boolean): number[][] {
  const out: number[][] = [];
  let cur: number[] = [];
  for (let i = 0; i < n; i++) {
    if (pass(i)) cur.push(i);
    else if (cur.length) { out.push(cur); cur = []; }
  }
  if (cur.length) out.push(cur);
  return out;
}

function longestDarkRun(g: Gray, fixed: number, horizontal: boolean, from: number, to: number): number {
  let best = 0, run = 0;
  for (let i = from; i < to; i++) {
    const v = horizontal ? g.data[fixed * g.width + i] : g.data[i * g.width + fixed];
    run = v < RULE ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

/** Every ruled table in the image: groups of long horizontal rules crossed by vertical ones. */
export function findTables(g: Gray): Table[] {
  const found = runs(g.height, y => longestDarkRun(g, y, true, 0, g.width) >= g.width * 0.3).map(r => [r[0], r[r.length - 1]]);
  // A double rule (two thin rules a few pixels apart) underlines a heading: it bounds no row.
  const double = new Set<number>();
  for (let i = 1; i < found.length; i++) if (found[i][0] - found[i - 1][1] <= 5) { double.add(i); double.add(i - 1); }
  const hLines = found.filter((_, i) => !double.has(i));
  // Rules closer than a few cells' height belong to one table.
  const tables: Table[] = [];
  let group: number[][] = [];
  const flush = () => {
    const rowsY = group;
    if (rowsY.length >= 2) {
      // Columns: rules that cross some row from top to bottom (merged cells interrupt a rule elsewhere).
      const xs: number[][] = [];
      for (let r = 0; r + 1 < rowsY.length; r++) {
        const top = rowsY[r][1] + 1, bottom = rowsY[r + 1][0];
        for (const v of runs(g.width, x => longestDarkRun(g, x, false, top, bottom) >= (bottom - top) * 0.85)) {
          if (!xs.some(o => Math.abs(o[0] - v[0]) <= 3)) xs.push([v[0], v[v.length - 1]]);
        }
      }
      const vLines = xs.sort((a, b) => a[0] - b[0]);
      if (vLines.length >= 2) {
        const cells: Cell[] = [];
        for (let r = 0; r + 1 < rowsY.length; r++) for (let c = 0; c + 1 < vLines.length; c++) {
          const box: Cell['box'] = [vLines[c][1] + 1, rowsY[r][1] + 1, vLines[c + 1][0], rowsY[r + 1][0]];
          const inset = 2;
          cells.push({ row: r, col: c, box, ink: inkBox(g, box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset) });
        }
        tables.push({ box: [vLines[0][0], rowsY[0][0], vLines[vLines.length - 1][1], rowsY[rowsY.length - 1][1]], rows: rowsY.length - 1, cols: vLines.length - 1, cells });
      }
    }
    group = [];
  };
  for (const l of hLines) {
    if (group.length && l[0] - group[group.length - 1][1] > 80) flush();
    group.push(l);
  }
  flush();
  return tables;
}

/**
 * Whether a cell's ink is a digit in a circle (①–⑤): a roughly square ink box with ink on all
 * four sides at its middle and ink again inside the ring. `footInk`: the grey under which the ring's
 * foot counts as ink (a small scanned ring's thin foot, under the digit's stroke, fades lighter than
 * the rest of it). The other three sides keep the dark bar: a lighter bar on every side takes a
 * parenthesis, a plus and a letter's bowl for a ring, whose crowd then sets the rings' size.
 */
export function isCircled(g: Gray, ink: NonNullable<Cell['ink']>, footInk = DARK): boolean {
  const [x0, y0, x1, y1] = ink;
  const w = x1 - x0, h = y1 - y0;
  if (w < 8 || h < 8 || w / h < 0.75 || w / h > 1.33) return false;
  const dark = (x: number, y: number) => g.data[y * g.width + x] < DARK;
  const band = (fx: (t: number) => [number, number], span: number, under = DARK) => {
    for (let t = 0; t < span; t++) { const [x, y] = fx(t); if (g.data[y * g.width + x] < under) return true; }
    return false;
  };
  const cx = Math.floor((x0 + x1) / 2), cy = Math.floor((y0 + y1) / 2), k = Math.max(2, Math.floor(w * 0.12));
  const left = band(t => [x0 + t, cy], k), right = band(t => [x1 - 1 - t, cy], k);
  const top = band(t => [cx, y0 + t], k), bottom = band(t => [cx, y1 - 1 - t], k, footInk);
  // Inside the ring, away from it: the digit.
  let inner = 0;
  for (let y = y0 + Math.floor(h * 0.28); y < y1 - Math.floor(h * 0.28); y++) for (let x = x0 + Math.floor(w * 0.28); x < x1 - Math.floor(w * 0.28); x++) if (dark(x, y)) inner++;
  return left && right && top && bottom && inner > 0;
}

/** Grey pixels as a black-on-white PNG, scaled with a white margin: what OCR reads one small thing from best. */
function smallPng(pixels: Uint8Array, w: number, h: number, scale: number, margin: number): Promise<Buffer> {
  return sharp(pixels, { raw: { width: w, height: h, channels: 1 } })
    .resize(Math.max(1, Math.round(w * scale)), Math.max(1, Math.round(h * scale)), { kernel: 'cubic' })
    .extend({ top: margin, bottom: margin, left: margin, right: margin, background: '#ffffff' })
    .threshold(160)
    .png()
    .toBuffer();
}

/**
 * Flood fill over a w×h grid (8-connected) from the seeds, through cells that pass and are still
 * 0 in `mark`, writing `value`. Returns how many cells were filled and their bounding box.
 */
export function floodFill(w: number, h: number, seeds: number[], pass: (k: number) => boolean, mark: Uint8Array | Int32Array, value = 1): { size: number; box: [number, number, number, number] } {
  const stack = seeds.filter(k => !mark[k] && pass(k));
  for (const k of stack) mark[k] = value;
  let size = 0, a = w, b = h, c = -1, d = -1;
  while (stack.length) {
    const j = stack.pop()!;
    const x = j % w, y = (j - x) / w;
    size++; a = Math.min(a, x); b = Math.min(b, y); c = Math.max(c, x); d = Math.max(d, y);
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const nx = x + dx, ny = y + dy, k = ny * w + nx;
      if (nx >= 0 && ny >= 0 && nx < w && ny < h && !mark[k] && pass(k)) { mark[k] = value; stack.push(k); }
    }
  }
  return { size, box: [a, b, c + 1, d + 1] };
}

/** A cell's ink as a PNG, scaled (to the glyph height OCR reads best) with a white margin, for recognising one small thing. */
export async function cellPng(g: Gray, box: [number, number, number, number], scale = 3, margin = 12): Promise<Buffer> {
  const [x0, y0, x1, y1] = box;
  const w = x1 - x0, h = y1 - y0;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) out.set(g.data.subarray((y0 + y) * g.width + x0, (y0 + y) * g.width + x1), y * w);
  return smallPng(out, w, h, scale, margin);
}

/**
 * The glyph inside a ring (the digit of ①–⑤) on its own: ink connected to the edge of the ink box
 * is the ring and is dropped; what is left is drawn black on white, scaled to `height` pixels.
 */
export async function innerGlyphPng(g: Gray, ink: [number, number, number, number], height = 50, margin = 20): Promise<Buffer | null> {
  const [x0, y0, x1, y1] = ink;
  const w = x1 - x0, h = y1 - y0;
  const px = (k: number) => g.data[(y0 + Math.floor(k / w)) * g.width + x0 + (k % w)];
  const dark = (k: number) => px(k) < RULE;
  // The ring: ink reaching the box's edge, followed through its faint anti-aliased pixels too so a thin arc stays whole.
  const ring = new Uint8Array(w * h);
  const edge: number[] = [];
  for (let x = 0; x < w; x++) edge.push(x, (h - 1) * w + x);
  for (let y = 0; y < h; y++) edge.push(y * w, y * w + w - 1);
  floodFill(w, h, edge.filter(dark), k => px(k) < 225, ring);
  // Of what is left, the digit is the largest connected piece (a stroke of ring broken by
  // anti-aliasing may survive the fill as a sliver).
  const label = new Int32Array(w * h);
  let best = 0, bestSize = 0, bestBox: [number, number, number, number] = [0, 0, 0, 0];
  for (let i = 0, next = 1; i < w * h; i++) {
    if (ring[i] || label[i] || !dark(i)) continue;
    const piece = floodFill(w, h, [i], k => !ring[k] && dark(k), label, next);
    if (piece.size > bestSize) { best = next; bestSize = piece.size; bestBox = piece.box; }
    next++;
  }
  // Printed small and scanned, the digit may touch its ring through grey pixels and go with it:
  // then the ring is taken as everything outside a disc a stroke inside the box, the digit as what is in it.
  if (!best || bestBox[3] - bestBox[1] < h * 0.35) return discGlyphPng(g, ink, height, margin);
  const [a, b, c, d] = bestBox;
  const gw = c - a, gh = d - b;
  const out = new Uint8Array(gw * gh).fill(255);
  for (let y = 0; y < gh; y++) for (let x = 0; x < gw; x++) if (label[(b + y) * w + a + x] === best) out[y * gw + x] = px((b + y) * w + a + x);
  return smallPng(out, gw, gh, height / gh, margin);
}

/** The ink inside a ring's disc (the ring's own stroke left out), as for innerGlyphPng. */
function discGlyphPng(g: Gray, ink: [number, number, number, number], height: number, margin: number): Promise<Buffer | null> {
  const [x0, y0, x1, y1] = ink;
  const w = x1 - x0, h = y1 - y0;
  const px = (x: number, y: number) => g.data[(y0 + y) * g.width + x0 + x];
  // The stroke: dark pixels from the left edge inward along the middle row.
  let stroke = 0;
  const mid = Math.floor(h / 2);
  while (stroke < w / 4 && px(stroke, mid) >= RULE) stroke++;
  let t = stroke;
  while (t < w / 4 && px(t, mid) < RULE) t++;
  const r = Math.min(w, h) / 2 - (t + 1.5), cx = w / 2, cy = h / 2;
  let a = w, b = h, c = -1, d = -1;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    if (px(x, y) < RULE && Math.hypot(x + 0.5 - cx, y + 0.5 - cy) < r) { a = Math.min(a, x); b = Math.min(b, y); c = Math.max(c, x); d = Math.max(d, y); }
  }
  if (c < 0 || d - b < h * 0.25) return Promise.resolve(null);
  const gw = c - a + 1, gh = d - b + 1;
  const out = new Uint8Array(gw * gh).fill(255);
  for (let y = 0; y < gh; y++) for (let x = 0; x < gw; x++) if (Math.hypot(a + x + 0.5 - cx, b + y + 0.5 - cy) < r) out[y * gw + x] = px(a + x, b + y);
  return smallPng(out, gw, gh, height / gh, margin);
}
