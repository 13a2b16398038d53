// Where a page's body lies between its running head and footer: read from the page's drawn rules.
// Shared by the text layer (furniture), OCR (a scan's columns) and layout, below all three.
import { centerX, centerY, height, width, type Shape } from '../document.ts';

/**
 * The band between running head and footer. On booklets with a column rule it is the rule's
 * extent, cut further by any full-width rule near the top or bottom (a section's first page draws
 * its heading block over the column rule); without one, a margin of the page's height.
 */
export function findBody(page: { width: number; height: number }, shapes: Shape[], columnRule = true): { y0: number; y1: number; ruleX: number | null } {
  const drawn = shapes.filter(s => s.visible && s.kind !== 'image');
  // A one-column layout has no column rule: a long vertical line there is a graph's grid.
  const rules = !columnRule ? [] : drawn.filter(s => width(s.bbox) <= 3 && height(s.bbox) >= page.height * 0.45
    && centerX(s.bbox) > page.width * 0.3 && centerX(s.bbox) < page.width * 0.7);
  let y0 = page.height * 0.06, y1 = page.height * 0.95, ruleX: number | null = null;
  if (rules.length) {
    const r = rules.sort((a, b) => height(b.bbox) - height(a.bbox))[0];
    y0 = r.bbox[1] - 4; y1 = r.bbox[3] + 4; ruleX = centerX(r.bbox);
  }
  // Only a booklet with a column rule draws a heading block across it; on a one-column page a
  // full-width rule is a table's or a divider's, inside the body.
  for (const s of rules.length ? drawn : []) {
    if (height(s.bbox) > 3 || width(s.bbox) < page.width * 0.6) continue;
    const y = centerY(s.bbox);
    if (y < page.height * 0.25) y0 = Math.max(y0, y + 1);
    else if (y > page.height * 0.8) y1 = Math.min(y1, y - 1);
  }
  return { y0, y1, ruleX };
}
