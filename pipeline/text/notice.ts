// The boxed notice that closes a section (KICE: `※ 확인 사항 … 이어서, 「선택과목(기하)」 문제가
// 제시되오니 …`): told apart by where it is, not by its words — a frame across the last column of
// the section's last page, with nothing of the body below it. It is the paper talking to the
// candidate, not part of the last question.
import type { BBox, PageInfo, Span } from '../document.ts';
import { centerX, centerY, height, width } from '../document.ts';
import { framesOf } from './boxes.ts';

/** A frame narrower than this share of its column's text is a box inside a question (a 보기, a table cell). */
const FULL_COLUMN = 0.8;
/** A frame taller than this share of the body frames the page, not a notice. */
const MAX_BODY_SHARE = 0.4;

/**
 * The frame of the page's closing notice, or null. Call only for the last page of a section
 * (or of the paper): a frame that ends another page's column belongs to a question going on.
 * `split` is the x of the column rule or gap, where the page has two columns.
 */
export function closingNotice(page: Pick<PageInfo, 'shapes' | 'spans' | 'body'>, split: number | null): BBox | null {
  const spans = page.spans;
  if (!spans.length) return null;
  // The column that ends the page: the right one where there are two.
  const inLast = (x: number) => split === null || x >= split;
  const column = spans.filter(s => inLast(centerX(s.bbox)));
  if (!column.length) return null;
  const x0 = Math.min(...column.map(s => s.bbox[0])), x1 = Math.max(...column.map(s => s.bbox[2]));
  const bodyHeight = page.body.y1 - page.body.y0;
  const frames = framesOf(page.shapes)
    .filter(f => inLast(centerX(f)) && width(f) >= (x1 - x0) * FULL_COLUMN && height(f) <= bodyHeight * MAX_BODY_SHARE)
    .sort((a, b) => b[3] - a[3]);
  const last = frames[0];
  if (!last) return null;
  const inside = (s: Span) => centerX(s.bbox) >= last[0] && centerX(s.bbox) <= last[2] && centerY(s.bbox) >= last[1] && centerY(s.bbox) <= last[3];
  if (!column.some(inside)) return null;
  if (column.some(s => centerY(s.bbox) > last[3])) return null;
  return last;
}

/** Move the spans inside `frame` from the page's body to its furniture. */
export function setApart(page: Pick<PageInfo, 'spans' | 'furniture'>, frame: BBox): Span[] {
  const inside = (s: Span) => centerX(s.bbox) >= frame[0] && centerX(s.bbox) <= frame[2] && centerY(s.bbox) >= frame[1] && centerY(s.bbox) <= frame[3];
  const moved = page.spans.filter(inside);
  page.spans = page.spans.filter(s => !inside(s));
  page.furniture.push(...moved);
  return moved;
}
