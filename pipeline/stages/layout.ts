// layout: the columns of each page (text/columns.ts) and its lines in reading order (page, column,
// top to bottom; text/lines.ts).
import type { Column, Line, Span } from '../document.ts';
import { centerX, centerY } from '../document.ts';
import type { Stage } from '../stage.ts';
import { pageReadsRtl, readsRtl, strongLetters } from '../text/direction.ts';
import { columnOf, findColumnsUnderHead, oneColumn, withoutMarksMargins } from '../text/columns.ts';
import { buildLines } from '../text/lines.ts';

// What the layout tests read of the finders below.
export { columnOf, findColumns } from '../text/columns.ts';
export { buildLines } from '../text/lines.ts';

export function layoutStage(): Stage {
  return {
    name: 'layout',
    kind: 'processor',
    run(doc) {
      const all: Line[] = [];
      // Which way the paper reads is the paper's, not each page's: a page of an Arabic paper that
      // prints every question in English too holds as many Latin letters as Arabic.
      const rtl = pageReadsRtl(doc.pages.flatMap(p => p.spans));
      for (const page of doc.pages) {
        // A page read by OCR brings the columns its pixels show (ocr/columns.ts): its words, a line
        // cut where the scan is askew or a title set across the gutter, a table's cells read one by
        // one, say less of the gutter.
        if (doc.template.layout?.columns === 1) page.columns = oneColumn(page);
        else if (!page.ocr || !page.columns.length) {
          const found = findColumnsUnderHead({ ...page, rtl });
          page.columns = found.columns;
          if (found.top !== undefined) page.columnsTop = found.top;
        } else if (page.columns.length > 1) {
          page.columns = withoutMarksMargins(page.columns, page.spans.filter(s => centerY(s.bbox) >= (page.columnsTop ?? -Infinity)), rtl);
          if (page.columns.length < 2) delete page.columnsTop;
        }
        const byColumn = page.columns.map(() => [] as Span[]);
        // A paper that reads right to left reads its columns from the right.
        // A head OCR found set across the columns is read first, whole, with the first column's lines.
        const firstColumn = rtl ? page.columns.length - 1 : 0;
        const head = page.columnsTop !== undefined && page.columns.length > 1 ? page.columnsTop : -Infinity;
        // Rows centred over the columns above the first column's first line are the head too (under a
        // head found with the columns, the `Name: ____` … `Time:` row beneath the title); not on a
        // page OCR read, whose head OCR found whole.
        const centred = page.columns.length > 1 && (page.columnsTop === undefined || !page.ocr) ? headOf(page.spans, page.columns, firstColumn) : new Set<Span>();
        for (const s of page.spans) byColumn[centerY(s.bbox) < head || centred.has(s) ? firstColumn : columnOf(page.columns, centerX(s.bbox))].push(s);
        const order = byColumn.map((_, c) => c);
        if (rtl) order.reverse();
        // A column whose letters all run one way is set that way (a paper printed in two languages a
        // column each: its English column's rows of options read from the left on an Arabic paper).
        for (const c of order) all.push(...buildLines(byColumn[c], page.number, c, columnReadsRtl(byColumn[c], rtl)));
      }
      doc.lines = all;
    },
  };
}

/** A row is centred over the columns where its middle is this share of their width from theirs. */
const CENTRED = 0.05;
/**
 * A line opens at its column's edge where it starts within this share of the column's width of it:
 * a boxed number, an option or a part is indented a little; the time beside a name field is set at
 * the far edge.
 */
const EDGE_SHARE = 0.25;
/** A mark set apart on a line: a number in brackets (facing either way, as a right-to-left line paints them), its unit's words with it or none. */
const BRACKETED_MARK = /^[[(（【\])）】][^[\]()（）【】]*\d[^[\]()（）【】]*[[(（【\])）】]$/u;

/**
 * The spans of a page's head: rows wholly above the top of the column read first and centred over
 * the columns (a title centred over three columns falls in the middle one, and would be read after
 * the first column). A row set to one side above the columns stays in its column: the first line
 * of a column that starts higher than the others is no head.
 */
function headOf(spans: readonly Span[], columns: Column[], first: number): Set<Span> {
  const x0 = columns[0].x0, x1 = columns[columns.length - 1].x1;
  const rows = new Map<number, Span[]>();
  for (const s of spans) {
    const key = Math.round(s.baseline / 2);
    rows.set(key, [...(rows.get(key) ?? []), s]);
  }
  const centred = new Set<Span>(), heads = new Set<Span>();
  const gutters = columns.slice(1).map((c, i) => (columns[i].x1 + c.x0) / 2);
  const rtl = first !== 0;
  for (const row of rows.values()) {
    const mid = (Math.min(...row.map(s => s.bbox[0])) + Math.max(...row.map(s => s.bbox[2]))) / 2;
    if (Math.abs(mid - (x0 + x1) / 2) > (x1 - x0) * CENTRED) continue;
    row.forEach(s => centred.add(s));
    // A centred row is the head's, not the first line of each column, where it crosses a gutter (a
    // title) or what stands in a later column does not open a line there (`Name: ____` … `Time:
    // 45 min`, the time set at the page's far edge, not at its column's start).
    const crosses = row.some(s => gutters.some(g => s.bbox[0] < g && s.bbox[2] > g));
    // The row's runs in each later column read together (a text layer that sets Arabic a glyph a
    // run gives `:` and `٤٥` as runs of no letter), each piece by its own direction (an English
    // column beside Arabic opens its lines at its left); words, not a mark floated to the end of a
    // line a little above its baseline (`[5]`, `[3 درجات]` in brackets either way round).
    const later = new Map<number, Span[]>();
    for (const s of row) {
      const c = columnOf(columns, centerX(s.bbox));
      if (c !== first) later.set(c, [...(later.get(c) ?? []), s]);
    }
    const offEdge = later.size > 0 && [...later].every(([c, piece]) => {
      const text = piece.map(s => s.text).join('');
      const [a, b] = [Math.min(...piece.map(s => s.bbox[0])), Math.max(...piece.map(s => s.bbox[2]))];
      return /\p{L}/u.test(text) && !BRACKETED_MARK.test(text.replace(/\s+/gu, '')) && ((readsRtl(text) ?? rtl) ? columns[c].x1 - b : a - columns[c].x0) > (columns[c].x1 - columns[c].x0) * EDGE_SHARE;
    });
    if (crosses || offEdge) row.forEach(s => heads.add(s));
  }
  // The first column starts at its first line that is no such row: a school's name centred over
  // the gutter, its middle a hair left of it, is no line of the column.
  const tops = spans.filter(s => !heads.has(s) && columnOf(columns, centerX(s.bbox)) === first).map(s => s.bbox[1]);
  const head = new Set<Span>();
  if (!tops.length) return head;
  const top = Math.min(...tops);
  for (const s of centred) if (s.bbox[3] <= top) head.add(s);
  return head;
}

/** The direction a column's lines of no letters of their own (and its rows of cells) are set in: its letters' where they all run one way, else the paper's. */
function columnReadsRtl(spans: readonly Span[], paper: boolean): boolean {
  const { rtl, ltr } = strongLetters(spans.map(s => s.text).join(''));
  return rtl && !ltr ? true : ltr && !rtl ? false : paper;
}
