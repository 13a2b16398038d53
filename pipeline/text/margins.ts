// Text in a page's top and bottom margins where no rule marks the body (one-column papers, a
// teacher's quiz printed from a browser). A fixed margin would drop whatever a page sets higher
// or lower than usual (the first line of page 2 when page 1 opens with a title block), so margin
// text is furniture only for what it is: a running head or footer the whole paper shows
// (text/furniture.ts), a bare page number, a line naming its page, or a template pattern.
import type { Span } from '../document.ts';

/** A lone page number, `- 3 -`, `3/12`, `(3)`. */
const PAGE_NUMBER = /^[\s\-‒–—―−(\[]*\d{1,4}(?:\s*[/／∕⁄]\s*\d{1,4})?[\s\-‒–—―−)\]]*$/u;

/**
 * Whether a margin span is furniture by what it is (not merely by where it is): a pattern of the
 * template, or a lone number with nothing else on its line (`lineMates`: the page's other spans
 * beside it, less what is furniture already) — a page number, not a subscript of a formula set
 * high on the page. What repeats across pages is found over the whole paper (text/furniture.ts).
 */
export function isMarginFurniture(s: Span, patterns: readonly RegExp[], lineMates: Span[] = []): boolean {
  const furniture = patterns.some(re => re.test(s.text));
  if (/\p{L}/u.test(s.text)) return furniture;
  return aloneOnLine(s, lineMates) && (furniture || PAGE_NUMBER.test(s.text));
}

/**
 * Numbers and signs with nothing else on their line (a page number), as opposed to a formula's
 * subscript or a table's figure set high on the page, which have words or symbols beside them.
 */
export function aloneOnLine(s: Span, lineMates: Span[]): boolean {
  if (/\p{L}/u.test(s.text)) return true;
  return !lineMates.some(o => o !== s && o.bbox[1] < s.bbox[3] && s.bbox[1] < o.bbox[3] && !PAGE_NUMBER.test(o.text));
}

/**
 * A line that names its own page among the paper's (`Page 2 of 2`, `Trang 2/6`, `2 / 12`,
 * `第2页 共6页`): a page's head or foot in any language, told by the two numbers rather than the
 * words between them.
 */
export function namesOwnPage(text: string, page: number, pages: number): boolean {
  if (!page || !pages) return false;
  // The words between are one or two (`of`, `из`, `页 共`, `von`), or a slash (`/`, `／`).
  for (const m of text.matchAll(/(\d{1,4})\s*(?:[/／∕⁄]|\p{L}[\p{L}\p{M}]{0,5}\.?(?:\s+\p{L}[\p{L}\p{M}]{0,5}\.?)?)\s*(\d{1,4})/gu)) {
    if (Number(m[1]) === page && Number(m[2]) === pages) return true;
  }
  return false;
}
