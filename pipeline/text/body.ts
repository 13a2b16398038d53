// Where a page's body lies between its running head and footer: read from the page's drawn rules.
// Shared by the text layer (furniture), OCR (a scan's columns) and layout, below all three.
import { centerX, centerY, height, width, type Shape } from '../document.ts';

/** A rule is a line at most this many points thick. */
const RULE_THICKNESS = 3;
/** A column rule reaches down at least this share of the page… */
const COLUMN_RULE_LENGTH = 0.45;
/** …and stands in its middle band (this share of the width from either side). */
const COLUMN_RULE_MIDDLE = 0.3;
/** Without a column rule, the body starts and ends at these shares of the page's height. */
const HEAD_BAND = 0.06;
const FOOT_BAND = 0.95;
/** The column rule's ends, widened by this many points: the lines at its ends are the body's. */
const RULE_END_SLACK = 4;
/** A rule across at least this share of the page's width is a heading block's or a footer's… */
const FULL_WIDTH = 0.6;
/** …where it lies in the top this share of the page (the body starts under it) or below this share (it ends over it). */
const TOP_SHARE = 0.25;
const BOTTOM_SHARE = 0.8;

/**
 * The band between running head and footer. On booklets with a column rule it is the rule's
 * extent, cut further by any full-width rule near the top or bottom (a section's first page draws
 * its heading block over the column rule); without one, a margin of the page's height.
 */
export function findBody(page: { width: number; height: number }, shapes: Shape[], columnRule = true): { y0: number; y1: number; ruleX: number | null } {
  const drawn = shapes.filter(s => s.visible && s.kind !== 'image');
  // A one-column layout has no column rule: a long vertical line there is a graph's grid.
  const rules = !columnRule ? [] : drawn.filter(s => width(s.bbox) <= RULE_THICKNESS && height(s.bbox) >= page.height * COLUMN_RULE_LENGTH
    && centerX(s.bbox) > page.width * COLUMN_RULE_MIDDLE && centerX(s.bbox) < page.width * (1 - COLUMN_RULE_MIDDLE));
  let y0 = page.height * HEAD_BAND, y1 = page.height * FOOT_BAND, ruleX: number | null = null;
  if (rules.length) {
    const r = rules.sort((a, b) => height(b.bbox) - height(a.bbox))[0];
    y0 = r.bbox[1] - RULE_END_SLACK; y1 = r.bbox[3] + RULE_END_SLACK; ruleX = centerX(r.bbox);
  }
  // Only a booklet with a column rule draws a heading block across it; on a one-column page a
  // full-width rule is a table's or a divider's, inside the body.
  for (const s of rules.length ? drawn : []) {
    if (height(s.bbox) > RULE_THICKNESS || width(s.bbox) < page.width * FULL_WIDTH) continue;
    const y = centerY(s.bbox);
    if (y < page.height * TOP_SHARE) y0 = Math.max(y0, y + 1);
    else if (y > page.height * BOTTOM_SHARE) y1 = Math.min(y1, y - 1);
  }
  return { y0, y1, ruleX };
}
