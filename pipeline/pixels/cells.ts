// The cells of ruled tables in a picture, whatever their spans: a cell is a region the rules close
// all round, so a header cell spanning two rows or three columns (rowspan, colspan) is one cell,
// its text whole. Rules are dark runs long enough not to be a stroke of a letter (across), or dark
// runs joining two such rules (down: a cell's side is as tall as the cell, however short; on a
// tilted scan, a stroke of dark pixels from one rule across to another). Pure pixel work over a
// grey image: answer-key pictures (keys/key-table.ts) and the tables of scanned pages (ocr/).
import type { Gray } from './gray.ts';
import { passingRuns } from './runs.ts';

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
/** Darker than this is a cell's ink (text, not the grey of a scan's paper). */
const INK_DARK = 170;
/** A cell holds ink where at least this many pixels of it are dark. */
const INK_MIN = 6;

/** The bounding box of the ink inside a rectangle, or null when it is (nearly) blank. */
export function inkBox(g: Gray, x0: number, y0: number, x1: number, y1: number): Box | null {
  let a = Infinity, b = Infinity, c = -1, d = -1, n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) {
    if (g.data[y * g.width + x] < INK_DARK) { n++; a = Math.min(a, x); b = Math.min(b, y); c = Math.max(c, x); d = Math.max(d, y); }
  }
  return n >= INK_MIN ? [a, b, c + 1, d + 1] : null;
}

export function ruledTables(g: Gray): RuledTable[] {
  return ruledGrid(g).tables;
}

/**
 * The ruled tables of a picture and the pixels of their rules (1 where a rule runs), so that a
 * caller can read a cell's text without the rules round it.
 */
export function ruledGrid(g: Gray, reach = Infinity): { tables: RuledTable[]; rules: Uint8Array } {
  const { width: w, height: h } = g;
  const minAcross = Math.max(RULE_MIN, Math.round(w * RULE_SHARE));
  const rules = new Uint8Array(w * h);
  const tables: RuledTable[] = [];
  // Cells are looked for only where rules across stand near each other: a page of text is a few
  // windows (a box, a formula's bars), not millions of pixels to flood.
  for (const [x0, y0, x1, y1] of ruleWindows(g, minAcross, reach)) {
    const ww = x1 - x0;
    const data = new Uint8Array(ww * (y1 - y0));
    for (let y = y0; y < y1; y++) data.set(g.data.subarray(y * w + x0, y * w + x1), (y - y0) * ww);
    const found = gridIn({ width: ww, height: y1 - y0, data }, minAcross);
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (found.rules[(y - y0) * ww + (x - x0)]) rules[y * w + x] = 1;
    const shift = (b: Box): Box => [b[0] + x0, b[1] + y0, b[2] + x0, b[3] + y0];
    tables.push(...found.tables.map(t => ({ box: shift(t.box), cells: t.cells.map(c => ({ box: shift(c.box), ink: c.ink && shift(c.ink) })) })));
  }
  return { tables: tables.sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]), rules };
}

/** Pixels a window reaches past the rules that open it. */
const WINDOW_PAD = 4;
/** Rows looked at for rules across when windows are found: every ROW_STEP-th. */
const ROW_STEP = 2;

/**
 * Boxes of the picture holding two rules across or more, each within `reach` pixels of another
 * it overlaps across: where a cell may be closed. Rows of dark runs at least `minAcross` long are
 * joined into rules (a tilted or thick rule is many rows), rules into windows.
 */
function ruleWindows(g: Gray, minAcross: number, reach: number): Box[] {
  const { width: w, height: h, data } = g;
  type Seg = { x0: number; x1: number; y0: number; y1: number };
  const segs: Seg[] = [];
  let open: Seg[] = [];
  // Every other row: a rule is two pixels thick at least at the resolutions read (half a point at 300 dpi).
  for (let y = 0; y < h; y += ROW_STEP) {
    const next: Seg[] = [];
    const row = y * w;
    for (const [start, x] of passingRuns(w, k => data[row + k] < DARK, minAcross)) {
      const joined = open.find(s => s.x0 < x && start < s.x1);
      if (joined) { joined.x0 = Math.min(joined.x0, start); joined.x1 = Math.max(joined.x1, x); joined.y1 = y + ROW_STEP; if (!next.includes(joined)) next.push(joined); }
      else { const s = { x0: start, x1: x, y0: y, y1: y + ROW_STEP }; segs.push(s); next.push(s); }
    }
    // A rule a row's noise breaks stays open one row more.
    open = [...next, ...open.filter(s => !next.includes(s) && s.y1 >= y)];
  }
  const parent = segs.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let i = 0; i < segs.length; i++) for (let j = i + 1; j < segs.length; j++) {
    const a = segs[i], b = segs[j];
    const gap = Math.max(a.y0, b.y0) - Math.min(a.y1, b.y1);
    if (a.x0 < b.x1 && b.x0 < a.x1 && gap <= reach) parent[find(i)] = find(j);
  }
  const groups = new Map<number, Seg[]>();
  segs.forEach((s, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), s]));
  return [...groups.values()].filter(ss => ss.length >= 2).map(ss => [
    Math.max(0, Math.min(...ss.map(s => s.x0)) - WINDOW_PAD), Math.max(0, Math.min(...ss.map(s => s.y0)) - WINDOW_PAD),
    Math.min(w, Math.max(...ss.map(s => s.x1)) + WINDOW_PAD), Math.min(h, Math.max(...ss.map(s => s.y1)) + WINDOW_PAD),
  ] as Box);
}

/** The cells and rules of one window of the picture (`minAcross`: the picture's own least rule length). */
function gridIn(g: Gray, minAcross: number): { tables: RuledTable[]; rules: Uint8Array } {
  const { width: w, height: h, data } = g;
  const dark = (k: number) => data[k] < DARK;
  const rule = new Uint8Array(w * h);
  const across = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (const [a, b] of passingRuns(w, x => dark(y * w + x), minAcross)) for (let k = a; k < b; k++) across[y * w + k] = rule[y * w + k] = 1;
  }
  const nearAcross = (x: number, y: number) => {
    for (let dy = -JOIN; dy <= JOIN; dy++) for (let dx = -JOIN; dx <= JOIN; dx++) {
      const xx = x + dx, yy = y + dy;
      if (xx >= 0 && yy >= 0 && xx < w && yy < h && across[yy * w + xx]) return true;
    }
    return false;
  };
  for (let x = 0; x < w; x++) {
    for (const [a, b] of passingRuns(h, y => dark(y * w + x), CELL_MIN)) if (nearAcross(x, a) && nearAcross(x, b - 1)) for (let k = a; k < b; k++) rule[k * w + x] = 1;
  }
  tiltedDown(g, dark, across, rule, nearAcross);
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
  const tables = [...groups.values()]
    .filter(cs => cs.length >= 2)
    .map(cs => ({ box: [Math.min(...cs.map(c => c.box[0])), Math.min(...cs.map(c => c.box[1])), Math.max(...cs.map(c => c.box[2])), Math.max(...cs.map(c => c.box[3]))] as Box, cells: cs.sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]) }))
    .sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]);
  return { tables, rules: rule };
}

/**
 * Rules down that a scan's tilt carries across columns of pixels, so that no one column's run
 * reaches from rule to rule: strokes of dark pixels (8-connected, rules across left out) at least
 * a cell tall that start and end at rules across, marked as rules. A letter inside a cell touches
 * no rule; one that touches a rule at one end only is left too.
 */
function tiltedDown(g: Gray, dark: (k: number) => boolean, across: Uint8Array, rule: Uint8Array, nearAcross: (x: number, y: number) => boolean): void {
  const { width: w, height: h } = g;
  const seen = new Uint8Array(w * h);
  const stack: number[] = [];
  const members: number[] = [];
  for (let i = 0; i < w * h; i++) {
    if (seen[i] || across[i] || !dark(i)) continue;
    seen[i] = 1;
    stack.push(i);
    members.length = 0;
    let top = h, bottom = -1;
    while (stack.length) {
      const k = stack.pop()!;
      members.push(k);
      const x = k % w, y = (k - x) / w;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const xx = x + dx, yy = y + dy;
        if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
        const n = yy * w + xx;
        if (!seen[n] && !across[n] && dark(n)) { seen[n] = 1; stack.push(n); }
      }
    }
    if (bottom - top + 1 < CELL_MIN) continue;
    let atTop = false, atBottom = false;
    for (const k of members) {
      const x = k % w, y = (k - x) / w;
      if (!atTop && y <= top + JOIN && nearAcross(x, y)) atTop = true;
      if (!atBottom && y >= bottom - JOIN && nearAcross(x, y)) atBottom = true;
      if (atTop && atBottom) break;
    }
    if (atTop && atBottom) for (const k of members) rule[k] = 1;
  }
}
