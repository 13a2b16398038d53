// The cells of ruled tables in a picture, whatever their spans: a cell is a region the rules close
// all round, so a header cell spanning two rows or three columns (rowspan, colspan) is one cell,
// its text whole. Rules are dark runs long enough not to be a stroke of a letter (across), or dark
// runs joining two such rules (down: a cell's side is as tall as the cell, however short). Pure
// pixel work over a grey image.
import type { Gray } from '../pixels/gray.ts';
import { inkBox } from './grid.ts';

type Box = [number, number, number, number];

export interface RuledCell { box: Box; ink: Box | null }
export interface RuledTable { box: Box; cells: RuledCell[] }

/** Darker than this is ink (rules may be grey). */
const DARK = 190;
/** A rule across is at least this long (pixels), and this share of the picture's width: longer than a letter's stroke. */
const RULE_MIN = 30;
const RULE_SHARE = 0.018;
/** A rule down joins rules across at both ends, within this many pixels. */
const JOIN = 2;
/** A cell is at least this big (pixels) and fills this share of its box (the rest is a letter's hole or a sliver). */
const CELL_MIN = 10;
const CELL_FILL = 0.8;
/** Cells closer than this (pixels, across a rule) belong to one table. */
const NEIGHBOUR = 6;

export function ruledTables(g: Gray): RuledTable[] {
  const { width: w, height: h, data } = g;
  const dark = (k: number) => data[k] < DARK;
  const rule = new Uint8Array(w * h);
  const across = new Uint8Array(w * h);
  const minAcross = Math.max(RULE_MIN, Math.round(w * RULE_SHARE));
  for (let y = 0; y < h; y++) {
    let start = -1;
    for (let x = 0; x <= w; x++) {
      const d = x < w && dark(y * w + x);
      if (d && start < 0) start = x;
      if (!d && start >= 0) {
        if (x - start >= minAcross) for (let k = start; k < x; k++) across[y * w + k] = rule[y * w + k] = 1;
        start = -1;
      }
    }
  }
  const nearAcross = (x: number, y: number) => {
    for (let dy = -JOIN; dy <= JOIN; dy++) for (let dx = -JOIN; dx <= JOIN; dx++) {
      const xx = x + dx, yy = y + dy;
      if (xx >= 0 && yy >= 0 && xx < w && yy < h && across[yy * w + xx]) return true;
    }
    return false;
  };
  for (let x = 0; x < w; x++) {
    let start = -1;
    for (let y = 0; y <= h; y++) {
      const d = y < h && dark(y * w + x);
      if (d && start < 0) start = y;
      if (!d && start >= 0) {
        if (y - start >= CELL_MIN && nearAcross(x, start) && nearAcross(x, y - 1)) for (let k = start; k < y; k++) rule[k * w + x] = 1;
        start = -1;
      }
    }
  }
  // Regions the rules close: 4-connected runs of everything that is not a rule (a cell's text with it).
  const label = new Int32Array(w * h);
  const cells: RuledCell[] = [];
  const stack = new Int32Array(w * h);
  let next = 1;
  for (let i = 0; i < w * h; i++) {
    if (rule[i] || label[i]) continue;
    let top = 0, size = 0, touches = false;
    let x0 = w, y0 = h, x1 = -1, y1 = -1;
    stack[top++] = i;
    label[i] = next;
    while (top) {
      const k = stack[--top];
      const x = k % w, y = (k - x) / w;
      size++;
      if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) touches = true;
      if (x > 0 && !rule[k - 1] && !label[k - 1]) { label[k - 1] = next; stack[top++] = k - 1; }
      if (x < w - 1 && !rule[k + 1] && !label[k + 1]) { label[k + 1] = next; stack[top++] = k + 1; }
      if (y > 0 && !rule[k - w] && !label[k - w]) { label[k - w] = next; stack[top++] = k - w; }
      if (y < h - 1 && !rule[k + w] && !label[k + w]) { label[k + w] = next; stack[top++] = k + w; }
    }
    next++;
    const bw = x1 - x0 + 1, bh = y1 - y0 + 1;
    if (touches || bw < CELL_MIN || bh < CELL_MIN || size < bw * bh * CELL_FILL) continue;
    const box: Box = [x0, y0, x1 + 1, y1 + 1];
    cells.push({ box, ink: inkBox(g, x0 + 2, y0 + 2, x1 - 1, y1 - 1) });
  }
  // A frame round the whole page (or round a title and its tables) closes a region too: a region
  // with cells inside it is no cell.
  const inside = (a: Box, b: Box) => a !== b && a[0] <= b[0] && a[1] <= b[1] && a[2] >= b[2] && a[3] >= b[3];
  for (let i = cells.length - 1; i >= 0; i--) if (cells.some(o => inside(cells[i].box, o.box))) cells.splice(i, 1);
  // Tables: cells that neighbour each other across a rule, joined.
  const parent = cells.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const near = (a: Box, b: Box) => a[0] - NEIGHBOUR <= b[2] && b[0] - NEIGHBOUR <= a[2] && a[1] - NEIGHBOUR <= b[3] && b[1] - NEIGHBOUR <= a[3];
  for (let i = 0; i < cells.length; i++) for (let j = i + 1; j < cells.length; j++) if (near(cells[i].box, cells[j].box)) parent[find(i)] = find(j);
  const groups = new Map<number, RuledCell[]>();
  cells.forEach((c, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), c]));
  return [...groups.values()]
    .filter(cs => cs.length >= 2)
    .map(cs => ({ box: [Math.min(...cs.map(c => c.box[0])), Math.min(...cs.map(c => c.box[1])), Math.max(...cs.map(c => c.box[2])), Math.max(...cs.map(c => c.box[3]))] as Box, cells: cs.sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]) }))
    .sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]);
}
