// Ruled tables of a scanned page read cell by cell, as a born-digital page gives them: a span per
// cell's words at its place, and the rules as lines. Read in bands with the rest of the page, a
// table's rules come out as `[` and `|` and its cells' words run together (`[i [2 [347s` for a key's
// row of item numbers); and the gaps its cells leave between their words line up down the table
// like gutters, so a table across the page was cut into columns.
import type { BBox, Shape } from '../document.ts';
import { ruledGrid } from '../pixels/cells.ts';
import type { Gray } from '../pixels/gray.ts';
import type { Box } from '../pixels/runs.ts';

/** A table holds text where at least this share of its cells hold ink (a graph's grid holds none)… */
const INKED = 0.5;
/** …and no cell of it is taller than this (points): the rules of a page (head, foot, column rules) close regions too. */
const CELL_MAX = 160;
/** A rule's pixels are painted white this many pixels beyond it (its grey fringe, a scan's blur). */
const RULE_FRINGE = 2;
/** A table's rules are looked for this many pixels past its cells (its outer rules, tilted). */
const RULE_REACH = 12;
/** A cell is read this many pixels in from its sides. */
const CELL_INSET = 1;

export interface PageTables {
  /** The page with its tables' rules painted out: their cells' text stays, to be read cell by cell. */
  read: Gray;
  /** The page with its tables painted out whole: bands and columns are found without them. */
  cleared: Gray;
  /** Each table's box (pixels): no gutter runs through one. */
  boxes: Box[];
  /** Every cell that holds ink, inside its rules (pixels). */
  cells: Box[];
  /** The tables' rules as lines (points), as a born-digital page draws them: each cell's four sides. */
  shapes: Shape[];
}

/** The tables of text on a page picture. */
export function pageTables(g: Gray, scale: number, page: number): PageTables {
  const { tables, rules } = ruledGrid(g, CELL_MAX * scale);
  const text = tables.filter(t => t.cells.filter(c => c.ink).length >= t.cells.length * INKED && t.cells.every(c => c.box[3] - c.box[1] <= CELL_MAX * scale));
  if (!text.length) return { read: g, cleared: g, boxes: [], cells: [], shapes: [] };
  const read = new Uint8Array(g.data);
  const cleared = new Uint8Array(g.data);
  const { width: w, height: h } = g;
  for (const t of text) {
    // The rules round the table reach past its cells' box (a tilted scan's outer rules): what is
    // painted is the box, and every rule pixel of the table within RULE_REACH of it.
    const [x0, y0, x1, y1] = [Math.max(0, t.box[0] - RULE_REACH), Math.max(0, t.box[1] - RULE_REACH), Math.min(w, t.box[2] + RULE_REACH), Math.min(h, t.box[3] + RULE_REACH)];
    for (let y = y0; y < y1; y++) {
      if (y >= t.box[1] && y < t.box[3]) cleared.fill(255, y * w + t.box[0], y * w + t.box[2]);
      for (let x = x0; x < x1; x++) {
        if (!rules[y * w + x]) continue;
        for (let dy = -RULE_FRINGE; dy <= RULE_FRINGE; dy++) {
          const yy = y + dy;
          if (yy < 0 || yy >= h) continue;
          const [a, b] = [yy * w + Math.max(0, x - RULE_FRINGE), yy * w + Math.min(w, x + RULE_FRINGE + 1)];
          read.fill(255, a, b);
          cleared.fill(255, a, b);
        }
      }
    }
  }
  const cells = text.flatMap(t => t.cells.filter(c => c.ink).map(c => [c.box[0] + CELL_INSET, c.box[1] + CELL_INSET, c.box[2] - CELL_INSET, c.box[3] - CELL_INSET] as Box));
  const pt = (v: number) => v / scale;
  const shapes: Shape[] = text.flatMap(t => t.cells.flatMap(({ box: [x0, y0, x1, y1] }) => {
    const sides: BBox[] = [[x0, y0, x1, y0 + 1], [x0, y1 - 1, x1, y1], [x0, y0, x0 + 1, y1], [x1 - 1, y0, x1, y1]].map(b => b.map(pt) as BBox);
    return sides.map(bbox => ({ page, kind: 'line' as const, visible: true, bbox }));
  }));
  return { read: { width: w, height: h, data: read }, cleared: { width: w, height: h, data: cleared }, boxes: text.map(t => t.box), cells, shapes };
}
