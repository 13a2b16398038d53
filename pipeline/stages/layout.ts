// layout: the columns of each page (text/columns.ts) and its lines in reading order (page, column,
// top to bottom; text/lines.ts).
import type { Line, Span } from '../document.ts';
import { centerX, centerY } from '../document.ts';
import type { Stage } from '../stage.ts';
import { pageReadsRtl } from '../text/direction.ts';
import { columnOf, findColumnsUnderHead, oneColumn } from '../text/columns.ts';
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
        }
        const byColumn = page.columns.map(() => [] as Span[]);
        // A paper that reads right to left reads its columns from the right.
        // A head OCR found set across the columns is read first, whole, with the first column's lines.
        const head = page.columnsTop !== undefined && page.columns.length > 1 ? page.columnsTop : -Infinity;
        const firstColumn = rtl ? page.columns.length - 1 : 0;
        for (const s of page.spans) byColumn[centerY(s.bbox) < head ? firstColumn : columnOf(page.columns, centerX(s.bbox))].push(s);
        const order = byColumn.map((_, c) => c);
        if (rtl) order.reverse();
        for (const c of order) all.push(...buildLines(byColumn[c], page.number, c, rtl));
      }
      doc.lines = all;
    },
  };
}
