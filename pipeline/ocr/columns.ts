// Columns of an OCR page before there is any text: the ink of the page's body cut into pieces (each
// strip of a few points' height split at blank runs wider than a space), and those pieces given to
// the same column finder the text layer's spans go to (stages/layout.ts): a column rule where one is
// drawn (two for three columns), else the gutter no piece crosses. A scan without a printed rule
// is then read column by column, as its text layer would be, not in bands across both columns.
// A first page often opens with a title and an instructions box set across the columns: the
// columns may start below such a head, which is then read as one block across the page.
import type { BBox, Column, Shape } from '../document.ts';
import { findColumns, HEAD_COLUMNS_ALIKE, type ColumnInput } from '../text/columns.ts';
import type { Gray } from '../pixels/gray.ts';
import { inkRuns } from '../pixels/runs.ts';

/** Height (points) of the strips the body is cut into: about a line of text, so pieces are word-sized. */
const STRIP = 4;
/** Blank width (points) that parts two pieces of a strip: wider than a space, narrower than a gutter. */
const PIECE_GAP = 5;
/** Pieces narrower than this (points) are specks of the scan, no text. */
const MIN_PIECE = 1;
/** Blank height (points) across the page under which the columns may start. */
const HEAD_GAP = 3;
/** A head set across the columns ends within this share of the body's height. */
const HEAD_SHARE = 0.4;
/** Share of the body's pieces of ink the columns under a head hold at least. */
const MIN_SHARE = 0.5;

export interface InkColumns {
  /** Where (points) the columns start: the body above it is one block across the page. */
  top: number;
  columns: Column[];
}

/**
 * The page's columns, in points, from its ink between body.y0 and body.y1 and its rules. `tables`
 * (points), painted out of `g`, are one piece each strip they cross: the blanks between their
 * cells line up down the table like a gutter, and no column runs through a table.
 */
export function findColumnsFromInk(g: Gray, size: { width: number; height: number }, body: { y0: number; y1: number }, shapes: Shape[], scale: number, tables: BBox[] = []): InkColumns {
  const px = (v: number) => Math.max(0, Math.round(v * scale));
  // Pieces of ink stand for runs of text: on the strip's foot, as tall as it, with no text to weigh.
  const pieces: ColumnInput['spans'][number][] = [];
  const [y0, y1] = [px(body.y0), Math.min(g.height, px(body.y1))];
  for (let y = y0; y < y1; y += px(STRIP)) {
    const bottom = Math.min(y1, y + px(STRIP));
    for (const [a, b] of inkRuns(g, [0, y, g.width, bottom], px(PIECE_GAP), 'x')) {
      if (b - a >= px(MIN_PIECE)) pieces.push({ bbox: [a / scale, y / scale, b / scale, bottom / scale], baseline: bottom / scale, size: (bottom - y) / scale, text: '' });
    }
    for (const t of tables) if (t[1] < bottom / scale && t[3] > y / scale) pieces.push({ bbox: [t[0], y / scale, t[2], bottom / scale], baseline: bottom / scale, size: (bottom - y) / scale, text: '' });
  }
  const below = (top: number) => {
    const under = pieces.filter(p => p.bbox[1] >= top);
    const columns = findColumns({ width: size.width, height: size.height, shapes, spans: under });
    // Pieces that reach across a gutter: a line of the head cut in two where the columns start too high.
    const across = under.filter(p => columns.some((c, i) => i > 0 && p.bbox[0] < columns[i - 1].x1 && p.bbox[2] > c.x0)).length;
    // Columns share the width about evenly (findColumnsUnderHead's test): under a head cut too low,
    // a gap in the few lines of a short last column (a page set in three whose third is empty) parts
    // that column in two; from a head cut too high, a name line's far end widens the last column.
    const widths = columns.map(c => c.x1 - c.x0);
    const alike = columns.length > 1 && Math.min(...widths) >= Math.max(...widths) * HEAD_COLUMNS_ALIKE;
    return { top, columns, across, alike, share: under.length / pieces.length };
  };
  // Two columns or more alike in width before others; then more columns, or as many with fewer pieces across them.
  const better = (a: ReturnType<typeof below>, b: ReturnType<typeof below>) => a.alike !== b.alike ? a.alike
    : a.columns.length > b.columns.length || (a.columns.length === b.columns.length && a.columns.length > 1 && a.across < b.across);
  // The columns from the top of the body, or from a blank row of the head under which they are
  // alike in width where those above are not, or more, or as many with fewer pieces across them;
  // the columns hold most of the body's ink (a row of pictures at the foot of a page set in one
  // column is none).
  let best = below(body.y0);
  const limit = body.y0 + (body.y1 - body.y0) * HEAD_SHARE;
  for (const [, end] of inkRuns(g, [0, y0, g.width, y1], px(HEAD_GAP), 'y').slice(0, -1)) {
    const at = below(end / scale);
    if (at.top > limit || at.share < MIN_SHARE) break;
    if (better(at, best)) best = at;
  }
  // Columns are flows of lines: where no two hold more than one line each, the gaps are a single
  // line's (a key's pairs set wide apart across an otherwise empty page, its title above the
  // first), and the page is one column.
  if (best.columns.length < 2) return best;
  const columns = joinedShort(pieces, best.columns, best.top);
  if (columns.length < 2 || columns.filter(c => linesIn(pieces, c, best.top) > 1).length < 2) {
    // One column from the top of the body: no head is set across columns there are not.
    return { top: body.y0, columns: [{ x0: Math.min(...pieces.map(p => p.bbox[0])), x1: Math.max(...pieces.map(p => p.bbox[2])) }] };
  }
  return { top: best.top, columns };
}

/**
 * A column of text wraps its lines at its width: one none of whose lines reaches across
 * `LINE_REACH` of it holds the far ends of lines set wide, not text of its own (the marks at the
 * right of a one-column page whose options stand in a 2×2 grid, with the grid's right half, each
 * row of it short of where the marks stand). Each such column joins its nearer neighbour that has
 * a line across it, as found before any joining (a third column holding only a speck of the scan
 * joins the second, which stays apart from the first: 20261214 0024); where none has, the page is
 * one column. (A column without ink has no line across it either.)
 */
function joinedShort(pieces: readonly { bbox: BBox }[], columns: Column[], top: number): Column[] {
  const text = columns.map(c => reachesAcross(pieces, c, top));
  if (text.every(Boolean)) return columns;
  if (!text.some(Boolean)) return [{ x0: columns[0].x0, x1: columns[columns.length - 1].x1 }];
  // Each column's owner: itself where it has text, else the nearer column with text (by the blank between them).
  const owner = columns.map((c, k) => {
    if (text[k]) return k;
    const before = text.lastIndexOf(true, k), after = text.indexOf(true, k);
    if (before < 0) return after;
    if (after < 0) return before;
    return c.x0 - columns[before].x1 <= columns[after].x0 - c.x1 ? before : after;
  });
  return columns.flatMap((c, k) => {
    if (owner[k] !== k) return [];
    const mine = columns.filter((_, i) => owner[i] === k);
    return [{ x0: Math.min(...mine.map(m => m.x0)), x1: Math.max(...mine.map(m => m.x1)) }];
  });
}

/**
 * A line of a column of text reaches across at least this share of the column's ink (its first ink
 * to its last, one strip of it): of its ink, not of the space up to the next gutter, which on a page
 * set in three columns whose third is empty takes in that third (20261214 0024).
 */
const LINE_REACH = 0.5;

/** Whether one strip of the column's ink below `top` reaches across `LINE_REACH` of the column's ink. */
function reachesAcross(pieces: readonly { bbox: BBox }[], column: Column, top: number): boolean {
  const strips = new Map<number, [number, number]>();
  for (const p of pieces) {
    if (p.bbox[1] < top || p.bbox[0] < column.x0 - 1 || p.bbox[2] > column.x1 + 1) continue;
    const e = strips.get(p.bbox[1]);
    strips.set(p.bbox[1], e ? [Math.min(e[0], p.bbox[0]), Math.max(e[1], p.bbox[2])] : [p.bbox[0], p.bbox[2]]);
  }
  const rows = [...strips.values()];
  const width = Math.max(...rows.map(r => r[1])) - Math.min(...rows.map(r => r[0]));
  return rows.some(([a, b]) => b - a >= width * LINE_REACH);
}

/** How many lines of ink a column holds below `top`: runs of strips, one under the next, with a piece inside it. */
function linesIn(pieces: readonly { bbox: BBox }[], column: Column, top: number): number {
  const strips = [...new Set(pieces.filter(p => p.bbox[1] >= top && p.bbox[0] >= column.x0 - 1 && p.bbox[2] <= column.x1 + 1).map(p => p.bbox[1]))].sort((a, b) => a - b);
  // Strips are STRIP points apart: a larger step is a blank strip between two lines.
  return strips.filter((y, i) => i === 0 || y - strips[i - 1] > STRIP * 1.5).length;
}
