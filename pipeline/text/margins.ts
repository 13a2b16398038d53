// Text in a page's top and bottom margins where no rule marks the body (one-column papers, a
// teacher's quiz printed from a browser). A fixed margin would drop whatever a page sets higher
// or lower than usual (the first line of page 2 when page 1 opens with a title block), so margin
// text is furniture only for what it is: repeated on other pages (a running head, a footer with
// its page number), a bare page number, or a furniture pattern of the template.
import type { Span } from '../document.ts';
import { centerY } from '../document.ts';

/** Where a line counts as the page's top or bottom margin: this share of the page's height. */
export const MARGIN_SHARE = 0.06;

/**
 * A margin text's identity across pages: its page number (printed as the PDF's page, or one off
 * where the cover is unnumbered) and the page count do not count, nor spacing. Other numbers do:
 * `Câu 11:` atop one page and `Câu 23:` atop the next are questions, not a running head.
 */
export const marginKey = (text: string, page = 0, pages = 0) =>
  text.replace(/\d+/g, d => (Math.abs(Number(d) - page) <= 1 || Number(d) === pages ? '#' : d)).replace(/\s+/g, ' ').trim();

/** A lone page number, `- 3 -`, `3/12`, `(3)`. */
const PAGE_NUMBER = /^[\s\-–—(\[]*\d{1,4}(?:\s*\/\s*\d{1,4})?[\s\-–—)\]]*$/;

/** Keys of the margin texts that appear on two pages or more. */
export function repeatedMarginTexts(pages: { height: number; spans: Span[] }[]): Set<string> {
  const seen = new Map<string, number>();
  for (const [i, p] of pages.entries()) {
    const keys = new Set(p.spans.filter(s => inMargin(s, p.height)).map(s => marginKey(s.text, i + 1, pages.length)).filter(Boolean));
    for (const k of keys) seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  return new Set([...seen].filter(([, n]) => n >= 2).map(([k]) => k));
}

export function inMargin(s: Span, pageHeight: number): boolean {
  const cy = centerY(s.bbox);
  return cy < pageHeight * MARGIN_SHARE || cy > pageHeight * (1 - MARGIN_SHARE);
}

/**
 * Whether a margin span is furniture by what it is (not merely by where it is). A lone number is a
 * page number only with nothing else on its line (`lineMates`: the page's other spans beside it),
 * not a subscript of a formula set high on the page.
 */
export function isMarginFurniture(s: Span, repeated: ReadonlySet<string>, patterns: readonly RegExp[], page = 0, pages = 0, lineMates: Span[] = []): boolean {
  const furniture = repeated.has(marginKey(s.text, page, pages)) || patterns.some(re => re.test(s.text));
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

/** The band at the top of a page where running heads sit (share of its height). */
export const HEAD_BAND = 0.12;
const PUA = /[\uE000-\uF8FF]/gu;

/**
 * The page's lines in its head band: spans on one baseline, left to right. (Footers sit in the
 * fixed margin; the foot of a column is where option rows repeat from page to page.)
 */
export function edgeLines(spans: Span[], pageHeight: number): Span[][] {
  const edge = spans.filter(s => centerY(s.bbox) < pageHeight * HEAD_BAND)
    .sort((a, b) => a.baseline - b.baseline || a.bbox[0] - b.bbox[0]);
  const lines: Span[][] = [];
  for (const s of edge) {
    const last = lines[lines.length - 1];
    if (last && Math.abs(last[0].baseline - s.baseline) <= 2) last.push(s);
    else lines.push([s]);
  }
  return lines.map(l => l.sort((a, b) => a.bbox[0] - b.bbox[0]));
}

/**
 * A head line's identity: where it sits and what it says to the letter, numbers included (a
 * question's first line, `Câu 11:` at the top of one page and `Câu 23:` of the next, is not a
 * running head), less undecoded symbols.
 */
export const lineKey = (line: Span[]) => `${Math.round(line[0].baseline / 4)}|${line.map(s => s.text).join(' ').replace(PUA, '').replace(/\s+/g, ' ').trim()}`;

/**
 * Keys of the head and foot lines printed at the same place on several pages (three, or two in
 * a paper of four pages or fewer): a running head such as PAES's `FORMA 113 – 2025`, which sits
 * inside the fixed margin's body band and comes in pieces no single-run pattern matches.
 */
export function repeatedHeadLines(pages: { height: number; spans: Span[] }[]): Set<string> {
  const seen = new Map<string, number>();
  for (const p of pages) for (const k of new Set(edgeLines(p.spans, p.height).map(lineKey))) seen.set(k, (seen.get(k) ?? 0) + 1);
  const need = pages.length <= 4 ? 2 : 3;
  // A line of numbers and option marks (`① # ② #`) is no running head: it must hold a word.
  return new Set([...seen].filter(([k, n]) => n >= need && /\p{L}{3,}/u.test(k.split('|')[1])).map(([k]) => k));
}

/**
 * A line that names its own page among the paper's (`Page 2 of 2`, `Trang 2/6`, `2 / 12`): a page's
 * head or foot in any language, told by the two numbers rather than the words between them.
 */
export function namesOwnPage(text: string, page: number, pages: number): boolean {
  if (!page || !pages) return false;
  for (const m of text.matchAll(/(\d{1,4})\s*(?:\/|\p{L}{1,4}\.?)\s*(\d{1,4})/gu)) {
    if (Number(m[1]) === page && Number(m[2]) === pages) return true;
  }
  return false;
}
