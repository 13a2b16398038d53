// A page's OCR words by the column each stands in (by its middle), and a column's words by the row
// they stand on: option labels are read as runs and rows within one column, never across the gutter.
import { centerX, type Column } from '../document.ts';
import { columnOf } from '../text/columns.ts';
import type { RawSpan } from '../providers/pdf.ts';

/** The spans of each column, in the order given; one group where the page has no columns. */
export function spansByColumn(spans: RawSpan[], columns: Column[]): RawSpan[][] {
  const byColumn = new Map<number, RawSpan[]>();
  for (const s of spans) {
    const c = columns.length ? columnOf(columns, centerX(s.bbox)) : 0;
    (byColumn.get(c) ?? byColumn.set(c, []).get(c)!).push(s);
  }
  return [...byColumn.values()];
}

/** Baselines this share of the type size apart are one row. */
const SAME_ROW = 0.4;

/** The rows of the spans (baselines within SAME_ROW of the row's first), top to bottom, each left to right. */
export function spansInRows(spans: RawSpan[]): RawSpan[][] {
  const sorted = [...spans].sort((a, b) => a.baseline - b.baseline || a.bbox[0] - b.bbox[0]);
  const out: RawSpan[][] = [];
  for (const s of sorted) {
    const row = out[out.length - 1];
    if (row && Math.abs(s.baseline - row[0].baseline) <= SAME_ROW * Math.max(s.size, row[0].size)) row.push(s);
    else out.push([s]);
  }
  return out.map(r => r.sort((a, b) => a.bbox[0] - b.bbox[0]));
}
