// A page's OCR words by the column each stands in (by its middle): option labels are read as runs
// and rows within one column, never across the gutter.
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
