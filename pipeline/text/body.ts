// Where a page's body lies between its running head and footer: read from the page's drawn rules.
// Shared by the text layer (furniture), OCR (a scan's columns) and layout, below all three.
import { centerX, centerY, height, width, type Shape } from '../document.ts';

/** A rule is a line at most this many points thick. */
const RULE_THICKNESS = 3;
/** A column rule reaches down at least this share of the page… */
const COLUMN_RULE_LENGTH = 0.45;
/**
 * …and a line found in a scan's pixels may lean by this share of its length (pixels/rules.ts finds
 * them so: a sheet fed a degree or two askew), its box as wide as its lean.
 */
const RULE_LEAN = 0.04;
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
 * A drawn line down at least COLUMN_RULE_LENGTH of the page, as a column rule is: a rule's thickness
 * across, or a line's lean where it leans (a scan's column rule, 16 pt across its box over 936 pt of
 * height on a sheet scanned askew: taken for no rule, its three columns were read as one).
 */
export function uprightRule(s: Shape, pageHeight: number): boolean {
  if (!s.visible || s.kind === 'image' || height(s.bbox) < pageHeight * COLUMN_RULE_LENGTH) return false;
  return width(s.bbox) <= RULE_THICKNESS + (s.kind === 'line' ? height(s.bbox) * RULE_LEAN : 0);
}

/**
 * The band between running head and footer. On booklets with a column rule it is the rule's
 * extent, cut further by any full-width rule near the top or bottom (a section's first page draws
 * its heading block over the column rule); without one, a margin of the page's height.
 */
export function findBody(page: { width: number; height: number }, shapes: Shape[], columnRule = true): { y0: number; y1: number; ruleX: number | null } {
  const drawn = shapes.filter(s => s.visible && s.kind !== 'image');
  // A one-column layout has no column rule: a long vertical line there is a graph's grid. A rule
  // that leans (a scan's) parts columns (columnRuleX) but bounds no body: a sheet's head (its title,
  // its instructions stating the count) and a boxed heading in its margin stay the body's.
  const rules = !columnRule ? [] : middleRules(page, drawn).filter(s => width(s.bbox) <= RULE_THICKNESS);
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

/** Column rules in the page's middle band, leaning or not. */
function middleRules(page: { width: number; height: number }, shapes: Shape[]): Shape[] {
  return shapes.filter(s => uprightRule(s, page.height) && centerX(s.bbox) > page.width * COLUMN_RULE_MIDDLE && centerX(s.bbox) < page.width * (1 - COLUMN_RULE_MIDDLE));
}

/** Where the page's column rule runs (the tallest in its middle band, leaning or not), or null. */
export function columnRuleX(page: { width: number; height: number }, shapes: Shape[]): number | null {
  const r = middleRules(page, shapes).sort((a, b) => height(b.bbox) - height(a.bbox))[0];
  return r ? centerX(r.bbox) : null;
}
