// Options printed as pictures (PAES graphs A)–D) in a 2×2 grid, tables as options): each option's
// cell on the page, from where its label is printed to the next label right of it and the next
// row of labels below, and what is drawn in the cell. A cell's drawing is that option's picture;
// text set inside the picture (axis titles, tick labels) is the picture's, not the option's text.
import type { BBox, Line, PageInfo, Question, Shape, Span } from '../document.ts';
import { centerX, centerY, contains, height, intersects, width } from '../document.ts';
import { lineText } from '../text/line-text.ts';

export interface OptionCell {
  index: number;
  page: number;
  column: number;
  /** The label as printed (`A)`): not part of the picture. */
  marker: Span;
  box: BBox;
}

/** The span that prints an option's label: its text starts with the label and nothing but a stop or a space follows. */
function isMarker(s: Span, label: string): boolean {
  const text = s.text.trimStart();
  if (!text.startsWith(label)) return false;
  const rest = text.slice(label.length);
  return /^\p{L}/u.test(label) ? rest === '' || /^[).．:、\s]/u.test(rest) : true;
}

/** The label span of every option, in order, among the question's lines from its options on; null when one is not found. */
export function optionMarkers(q: Question): { span: Span; line: Line }[] | null {
  const out: { span: Span; line: Line }[] = [];
  let li = Math.max(0, q.stemLines), after = -Infinity;
  for (const o of q.options) {
    let found: { span: Span; line: Line; x: number; li: number } | null = null;
    for (let k = li; k < q.lines.length && !found; k++) {
      const spans = [...q.lines[k].spans].sort((a, b) => a.bbox[0] - b.bbox[0]);
      const s = spans.find(x => (k > li || x.bbox[0] > after) && isMarker(x, o.label));
      if (s) found = { span: s, line: q.lines[k], x: s.bbox[0], li: k };
    }
    if (!found) return null;
    out.push({ span: found.span, line: found.line });
    li = found.li;
    after = found.x + 0.5;
  }
  return out;
}

/**
 * Each option's cell: from its label (a little above it, where a graph's axis starts) to the next
 * label right of it on the same row (else the column's right edge), and down to the next row of
 * labels (else `bottom`, where the question's band ends on that page).
 */
export function optionCells(q: Question, pages: readonly PageInfo[], bottom: (page: number, column: number) => number): OptionCell[] | null {
  const markers = optionMarkers(q);
  if (!markers) return null;
  const rowOf = (a: Span, b: Span) => a.page === b.page && Math.abs(a.bbox[1] - b.bbox[1]) < Math.max(a.size, b.size) * 0.6;
  return markers.map(({ span, line }, index) => {
    const page = pages[span.page - 1];
    const col = page.columns[line.column] ?? { x0: 0, x1: page.width };
    const right = markers.filter(m => rowOf(m.span, span) && m.span.bbox[0] > span.bbox[2]).map(m => m.span.bbox[0]);
    const below = markers.filter(m => m.span.page === span.page && m.line.column === line.column && m.span.bbox[1] > span.bbox[3] && !rowOf(m.span, span)).map(m => m.span.bbox[1]);
    const x1 = right.length ? Math.min(...right) - 1 : Math.max(col.x1, ...markers.filter(m => m.span.page === span.page).map(m => m.span.bbox[2]));
    const y1 = below.length ? Math.min(...below) - 1 : bottom(span.page, line.column);
    // …never above the question's text over it: a row of labels set just under the stem (pictures
    // below `Ａ． Ｂ． Ｃ．`) does not take the stem's last line into its pictures.
    const stem = q.lines.slice(0, Math.max(0, q.stemLines)).filter(l => l.page === span.page && l.column === line.column && l.bbox[3] <= span.bbox[1] + 1);
    const y0 = Math.max(span.bbox[1] - span.size * 1.5, ...stem.map(l => l.bbox[3]));
    return { index, page: span.page, column: line.column, marker: span, box: [span.bbox[0] - 2, y0, x1, y1] as BBox };
  });
}

/** The shapes and spans whose centre lies in a cell (the label's own span left out). */
export function inCell(cell: OptionCell, page: PageInfo): { shapes: Shape[]; spans: Span[] } {
  const inside = (b: BBox) => centerX(b) >= cell.box[0] && centerX(b) <= cell.box[2] && centerY(b) >= cell.box[1] && centerY(b) <= cell.box[3];
  return {
    shapes: page.shapes.filter(s => s.visible && inside(s.bbox) && !(width(s.bbox) <= 3 && height(s.bbox) >= page.height * 0.45)),
    spans: page.spans.filter(s => s !== cell.marker && inside(s.bbox)),
  };
}

/**
 * Spans set within a picture or next to it, and next to those in turn: tick labels sit by the
 * axes, an axis title by its tick labels.
 */
export function pictureSpans(picture: BBox, spans: readonly Span[]): Span[] {
  const taken = new Set<Span>();
  let box = picture, grew = true;
  while (grew) {
    grew = false;
    for (const s of spans) {
      if (taken.has(s) || !(contains(box, s.bbox, 2) || intersects(s.bbox, box, Math.max(8, s.size * 1.8)))) continue;
      taken.add(s);
      box = [Math.min(box[0], s.bbox[0]), Math.min(box[1], s.bbox[1]), Math.max(box[2], s.bbox[2]), Math.max(box[3], s.bbox[3])];
      grew = true;
    }
  }
  return spans.filter(s => taken.has(s));
}

/**
 * The option's text once its picture is set apart: the spans of the cell outside the picture,
 * line by line in the question's reading order, less the label itself.
 */
export function textOutside(q: Question, cell: OptionCell, rest: readonly Span[]): string {
  const keep = new Set(rest);
  const parts: string[] = [];
  for (const line of q.lines) {
    const spans = line.spans.filter(s => keep.has(s)).sort((a, b) => a.bbox[0] - b.bbox[0]);
    if (spans.length) parts.push(lineText(spans));
  }
  // The label's own span may carry the start of the text (`A) 12`).
  const own = cell.marker.text.trimStart().slice(q.options[cell.index].label.length).replace(/^[).．:、]\s*/u, '').trim();
  return [own, ...parts].filter(Boolean).join(' ').trim();
}

