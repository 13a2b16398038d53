// Text in a page's top and bottom margins where no rule marks the body (one-column papers, a
// teacher's quiz printed from a browser). A fixed margin would drop whatever a page sets higher
// or lower than usual (the first line of page 2 when page 1 opens with a title block), so margin
// text is furniture only for what it is: repeated on other pages (a running head, a footer with
// its page number), a bare page number, or a furniture pattern of the template.
import type { Span } from '../document.ts';
import { centerY } from '../document.ts';

/** Where a line counts as the page's top or bottom margin: this share of the page's height. */
export const MARGIN_SHARE = 0.06;

/** A margin text's identity across pages: digits (page numbers, dates) and spacing do not count. */
export const marginKey = (text: string) => text.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();

/** A lone page number, `- 3 -`, `3/12`, `(3)`. */
const PAGE_NUMBER = /^[\s\-–—(\[]*\d{1,4}(?:\s*\/\s*\d{1,4})?[\s\-–—)\]]*$/;

/** Keys of the margin texts that appear on two pages or more. */
export function repeatedMarginTexts(pages: { height: number; spans: Span[] }[]): Set<string> {
  const seen = new Map<string, number>();
  for (const p of pages) {
    const keys = new Set(p.spans.filter(s => inMargin(s, p.height)).map(s => marginKey(s.text)).filter(Boolean));
    for (const k of keys) seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  return new Set([...seen].filter(([, n]) => n >= 2).map(([k]) => k));
}

export function inMargin(s: Span, pageHeight: number): boolean {
  const cy = centerY(s.bbox);
  return cy < pageHeight * MARGIN_SHARE || cy > pageHeight * (1 - MARGIN_SHARE);
}

/** Whether a margin span is furniture by what it is (not merely by where it is). */
export function isMarginFurniture(s: Span, repeated: ReadonlySet<string>, patterns: readonly RegExp[]): boolean {
  return repeated.has(marginKey(s.text)) || PAGE_NUMBER.test(s.text) || patterns.some(re => re.test(s.text));
}
