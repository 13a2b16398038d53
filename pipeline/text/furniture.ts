// Page furniture told by the whole paper, not by one page: what a running head or footer is made
// of. Text printed at the same place on several pages (or mirrored on facing pages); text of one
// shape whose numbers follow the pages (`Page 3 of 22`, `– 3 –`, `332`); digit codes of one font
// at one place that change on every page (barcodes); and, on any page, the outermost head or foot
// line that a browser or a word processor prints: the page named among the paper's (`1/1`), the
// document's address (`file://…`, `https://…`), a date and time stamp. Only the page's head and
// foot bands are looked at, and a number beside body text is never furniture (a question's number
// atop each page is not a page number).
import type { Span } from '../document.ts';
import { namesOwnPage } from './margins.ts';

/** Where heads and footers are looked for: this share of the page's height at the top and at the bottom. */
export const EDGE_BAND = 0.12;
/** The page's outer margin (share of its height): what repeats there on two pages is furniture. */
export const OUTER_BAND = 0.06;
/** Runs on one baseline further apart than this many ems are separate pieces (the left, centre and right of a header). */
export const PIECE_GAP_EM = 2;
/** Runs whose baselines differ by no more than this (points) share a line. */
const LINE_TOLERANCE = 2;
/** The same place on two pages: distance from the page's edge within this (points, or half the type size)… */
export const PLACE_DY = 4;
/** …and left edge, right edge or centre, or its mirror on a facing page, within this share of the page's width. */
export const PLACE_DX = 0.05;
/** A code (a barcode's digits, a script number) has at least this many digits. */
export const CODE_DIGITS = 5;
/** Pages that must print a piece, at the same place, for it to be furniture outside the outer margin. */
export const BAND_PAGES = 3;
/** Runs further apart than this many ems are words apart (a space between); closer, one word. */
const WORD_SPACE = 0.15;
/** Sizes within this many points are one size (a code's digits on every page). */
const SAME_SIZE_PT = 0.5;
/** A lone number in the outer margin of at most this many digits is the page's number. */
const PAGE_NUMBER_DIGITS = 4;
/** A piece of a head or foot naming its page (`Mathematics Higher Level Paper 2 — Page 3 of 12`) holds at most this many words. */
const PAGE_NAME_WORDS = 10;
/** A header's or footer's pair stands apart from the body by at least this many ems. */
const PAIR_GAP = 1.5;
/** A line closer than this many ems to the body's next line runs on with it, as the body's own lines do. */
const BODY_LEADING_EM = 1;

/**
 * A page as the rules see it. An OCR page (`ocr`) takes no part in the rules across pages (its
 * text is not exact enough to compare); on a page whose column rule bounds its body (`ruled`),
 * only what lies outside that band is looked at, except a line that names its page.
 */
export interface FurniturePage { width: number; height: number; spans: Span[]; ocr?: boolean; ruled?: { y0: number; y1: number } }

interface Piece { page: number; spans: Span[]; text: string; x0: number; x1: number; fromEdge: number; top: boolean; size: number; font: string; outer: boolean; line: Span[] }

const PUA = /[\uE000-\uF8FF]/gu;
const norm = (t: string) => t.replace(PUA, '').replace(/\s+/g, ' ').trim();
const shapeOf = (t: string) => t.replace(/\d+/g, '#');
const digitRuns = (t: string) => (t.match(/\d+/g) ?? []).map(Number);
const words = (t: string) => (t.match(/[\p{L}\p{N}]+/gu) ?? []).length;
const hasWord = (t: string) => (t.match(/\p{L}/gu) ?? []).length >= 3;
/** Digits and the signs around a page number or a code only (`– 3 –`, `(3)`, `3/12`, `0398310420`). */
const NUMBERS_ONLY = /^[\s\-‐‑‒–—―−(\[)\]/／∕⁄.·]*\d[\d\s\-‐‑‒–—―−(\[)\]/／∕⁄.·]*$/u;

/** A run of text as printed: runs that touch are joined with no space (`fi` `le:///` as `file:///`). */
export function joinRuns(spans: readonly Span[]): string {
  let text = '';
  spans.forEach((s, i) => {
    const prev = spans[i - 1];
    const gap = prev ? s.bbox[0] - prev.bbox[2] : 0;
    text += (prev && gap > Math.max(s.size, prev.size) * WORD_SPACE ? ' ' : '') + s.text.trim();
  });
  return norm(text);
}

/** A page's lines (runs on one baseline, left to right) whose middle lies in its head or foot band. */
export function bandLines(page: FurniturePage, band = EDGE_BAND): Span[][] {
  const inBand = page.spans.filter(s => {
    const cy = (s.bbox[1] + s.bbox[3]) / 2;
    return s.text.trim() && (cy < page.height * band || cy > page.height * (1 - band));
  }).sort((a, b) => a.baseline - b.baseline || a.bbox[0] - b.bbox[0]);
  const lines: Span[][] = [];
  for (const s of inBand) {
    const last = lines[lines.length - 1];
    if (last && Math.abs(last[0].baseline - s.baseline) <= LINE_TOLERANCE) last.push(s);
    else lines.push([s]);
  }
  return lines.map(l => l.sort((a, b) => a.bbox[0] - b.bbox[0]));
}

/** A line cut where its runs stand apart (a header's left, centre and right). */
export function piecesOf(line: Span[]): Span[][] {
  const out: Span[][] = [];
  for (const s of line) {
    const cur = out[out.length - 1];
    const prev = cur?.[cur.length - 1];
    if (prev && s.bbox[0] - prev.bbox[2] <= Math.max(s.size, prev.size) * PIECE_GAP_EM) cur.push(s);
    else out.push([s]);
  }
  return out;
}

/** The spans of a page that the rules may set aside: on a ruled page, those outside its body band. */
function free(page: FurniturePage): FurniturePage {
  const r = page.ruled;
  if (!r) return page;
  return { ...page, spans: page.spans.filter(s => { const cy = (s.bbox[1] + s.bbox[3]) / 2; return cy < r.y0 || cy > r.y1; }) };
}

function piecesOfPage(page: FurniturePage, index: number): Piece[] {
  if (page.ocr) return [];
  return bandLines(free(page)).flatMap(line => piecesOf(line).map(spans => {
    const top = spans[0].baseline < page.height / 2;
    const cy = (spans[0].bbox[1] + spans[0].bbox[3]) / 2;
    return {
      page: index, spans, text: joinRuns(spans), x0: Math.min(...spans.map(s => s.bbox[0])), x1: Math.max(...spans.map(s => s.bbox[2])),
      fromEdge: top ? spans[0].baseline : page.height - spans[0].baseline, top,
      size: Math.max(...spans.map(s => s.size)), font: spans[0].font,
      outer: cy < page.height * OUTER_BAND || cy > page.height * (1 - OUTER_BAND), line,
    };
  }));
}

/** Whether two pieces sit at the same place of their pages: as far from the same edge, aligned or mirrored. */
function samePlace(a: Piece, b: Piece, pages: readonly FurniturePage[]): boolean {
  if (a.top !== b.top || Math.abs(a.fromEdge - b.fromEdge) > Math.max(PLACE_DY, a.size / 2)) return false;
  const wa = pages[a.page].width, wb = pages[b.page].width;
  const dx = PLACE_DX * Math.max(wa, wb);
  const ca = (a.x0 + a.x1) / 2, cb = (b.x0 + b.x1) / 2;
  const near = (u: number, v: number) => Math.abs(u - v) <= dx;
  return near(a.x0, b.x0) || near(a.x1, b.x1) || near(ca, cb) || near(a.x0, wb - b.x1) || near(ca, wb - cb);
}

/** Whether `b` is `a` with its page number moved on as the page is (every other number the same). */
function pageNumbered(a: Piece, b: Piece): boolean {
  const da = digitRuns(a.text), db = digitRuns(b.text);
  let moved = 0;
  for (let i = 0; i < da.length; i++) {
    if (da[i] === db[i]) continue;
    if (db[i] - da[i] !== b.page - a.page) return false;
    moved++;
  }
  return moved > 0;
}

/** The size most of a page's text is set in (by the length of text): its body's. */
function bodySize(page: FurniturePage): number | null {
  const weight = new Map<number, number>();
  for (const s of page.spans) {
    const k = Math.round(s.size * 10) / 10;
    weight.set(k, (weight.get(k) ?? 0) + s.text.trim().length);
  }
  return [...weight].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/**
 * Whether a piece reads as the first (or last) line of its page's body: set in the body's size
 * (bold or not) and as close to the body's next line as the body's lines are to each other. A question's label that
 * a paper restarting its numbering prints atop two pages (`Άσκηση 02` under two subjects) is this;
 * a running head is set apart, or in a size of its own.
 */
function runsOnWithBody(p: Piece, page: FurniturePage): boolean {
  const size = bodySize(page);
  if (size === null || p.spans.some(s => Math.abs(s.size - size) >= SAME_SIZE_PT)) return false;
  const y0 = Math.min(...p.spans.map(s => s.bbox[1])), y1 = Math.max(...p.spans.map(s => s.bbox[3]));
  const rest = page.spans.filter(o => !p.line.includes(o) && o.text.trim());
  const gap = p.top
    ? Math.min(...rest.filter(o => o.bbox[1] >= y1 - LINE_TOLERANCE).map(o => o.bbox[1] - y1))
    : Math.min(...rest.filter(o => o.bbox[3] <= y0 + LINE_TOLERANCE).map(o => y0 - o.bbox[3]));
  return gap < p.size * BODY_LEADING_EM;
}

/** Whether a set of page indices holds two that follow each other. */
const consecutive = (pages: Set<number>) => [...pages].some(p => pages.has(p + 1));

/**
 * Whether enough pages print a piece at the same place: two where it sits in the outer margin or
 * on two pages that follow each other (a running head), three otherwise; a piece with no word
 * (`®`, a row of numbers) three pages at least, half the paper's where none follow each other.
 */
function enough(p: Piece, on: Set<number>, pageCount: number): boolean {
  const n = on.size;
  if (n < 2) return false;
  const need = hasWord(p.text) ? (p.outer ? 2 : BAND_PAGES) : BAND_PAGES;
  if (n < need) return false;
  return p.outer || consecutive(on) || n * 2 >= pageCount;
}

const DATE = [
  /\d{4}[-./]\d{1,2}[-./]\d{1,2}(?:T\d{1,2}:\d{2}(?::\d{2})?)?/gu,
  /\d{1,2}[-./]\d{1,2}[-./]\d{2,4}/gu,
  /\d{1,2}\.?\s+\p{L}{3,10}\.?,?\s+\d{4}/gu,
  /\p{L}{3,10}\.?\s+\d{1,2},?\s+\d{4}/gu,
];
const TIME = /\d{1,2}:\d{2}(?::\d{2})?(?:\s*(?:[AaPp]\.?\s?[Mm]\.?|h))?/gu;
const URL = /^(?:(?:file|https?|ftp):\/\/\S+|www\.\S+\.\S+)$/iu;

/** A date and time as a browser or word processor stamps it (`12/2/26, 1:03 AM`, `2026-02-12 13:03`, `12 February 2026`): nothing else in it. */
export function isStamp(text: string): boolean {
  let rest = norm(text), found = false;
  for (const re of [...DATE, TIME]) rest = rest.replace(re, () => { found = true; return ' '; });
  return found && !/[\p{L}\p{N}]/u.test(rest);
}

/** A document's address as a browser prints it in the footer (`file:///home/…/quiz.html`, `https://…`). */
export const isAddress = (text: string) => URL.test(norm(text).replace(/\s+/g, ''));

/**
 * The runs of a paper's pages that are furniture by the paper as a whole (see the file's head),
 * each with the reason it was set aside. Pages are given in order, all of them. `patterns` (the
 * template's furniture) vouch for a page number's line mates (`© 2022 …   – 4 –`).
 */
export function paperFurniture(pages: readonly FurniturePage[], patterns: readonly RegExp[] = []): Map<Span, string> {
  const found = new Map<Span, string>();
  const pieces = pages.map(piecesOfPage);
  const all = pieces.flat();
  const byShape = new Map<string, Piece[]>();
  for (const p of all) byShape.set(shapeOf(p.text), [...(byShape.get(shapeOf(p.text)) ?? []), p]);
  const mark = (p: Piece, why: string) => p.spans.forEach(s => { if (!found.has(s)) found.set(s, why); });
  const whyOf = new Map<Piece, { why: string; byPaper: boolean }>();
  for (const p of all) {
    if (!p.text) continue;
    const there = (byShape.get(shapeOf(p.text)) ?? []).filter(q => q.page !== p.page && samePlace(p, q, pages));
    const same = new Set([p.page, ...there.filter(q => q.text === p.text).map(q => q.page)]);
    // A number that moves on with the page: alone (`332`, `– 3 –`), or in words only in the outer
    // margin (`Page 3`): further in, `QUESTION 3` atop page 6 and `QUESTION 4` atop page 7 are questions.
    const numbered = new Set([p.page, ...(NUMBERS_ONLY.test(p.text) || p.outer ? there.filter(q => q.text !== p.text && pageNumbered(p, q)).map(q => q.page) : [])]);
    // A code: digits only, one font and size, a new value on every page (a barcode's digits).
    const code = NUMBERS_ONLY.test(p.text) && p.text.replace(/\D/g, '').length >= CODE_DIGITS
      ? new Set([p.page, ...there.filter(q => q.text !== p.text && q.font === p.font && Math.abs(q.size - p.size) < SAME_SIZE_PT).map(q => q.page)]) : new Set<number>();
    // Printed on two pages only, of a paper with more, a piece that runs on with the body as its
    // first line is the body's (the least a running head can be repeated is the weakest evidence).
    const weak = same.size === 2 && pages.length > 2 && runsOnWithBody(p, pages[p.page]);
    const why = enough(p, same, pages.length) && !weak ? 'repeated' : enough(p, numbered, pages.length) ? 'page-number' : code.size >= BAND_PAGES && consecutive(code) ? 'code' : null;
    // A lone number in the outer margin is the page's number, whatever it says (`– 3 –`, `(3)`).
    const lone = p.outer && NUMBERS_ONLY.test(p.text) && p.text.replace(/\D/g, '').length <= PAGE_NUMBER_DIGITS;
    if (why || lone) whyOf.set(p, { why: why ?? 'page-number', byPaper: !!why });
  }
  // In the outer margin a piece is furniture alone; further in, only a line that is furniture
  // whole (`Question 3 … (25 marks)` atop each page repeats its marks, not its number).
  const onLine = new Map<Span[], Piece[]>();
  for (const p of all) onLine.set(p.line, [...(onLine.get(p.line) ?? []), p]);
  // Further in than the outer margin, a running head or foot stands outermost: nothing but what
  // repeats as it does lies between it and the page's edge. A question's label repeated at one
  // place under a heading that differs on each page (`ข้อ 01` under each subject's heading, a
  // subject to a page) is the body's.
  const outermost = (p: Piece) => all.every(q => q.page !== p.page || q.top !== p.top || q.fromEdge >= p.fromEdge - LINE_TOLERANCE || q.outer || whyOf.get(q)?.byPaper);
  const numbersOnly: { p: Piece; why: string; byPaper: boolean }[] = [];
  for (const p of all) {
    const w = whyOf.get(p);
    if (!w) continue;
    // Numbers alone are furniture only with no body text beside them (decided below); further in
    // than the outer margin, only outermost too (a row of option labels `1. 2. 3.` under the first
    // question of several pages, its pictures no text, is the question's).
    if (NUMBERS_ONLY.test(p.text)) { if (p.outer || !w.byPaper || outermost(p)) numbersOnly.push({ p, ...w }); }
    else if (p.outer || (onLine.get(p.line)!.every(q => whyOf.get(q)?.byPaper) && outermost(p))) mark(p, w.why);
  }
  for (const [i, page] of pages.entries()) {
    for (const line of bandLines(page)) {
      const parts = piecesOf(line).map(spans => ({ spans, text: joinRuns(spans) }));
      // A line that names its own page (`Page 2 of 22`, `1/1`) is furniture, all of it; named by a
      // short piece (a heading's sentence that happens to hold the two numbers, `Từ câu 3 đến câu 3`
      // on page 3 of 3, names nothing).
      const names = (x: { text: string }) => namesOwnPage(x.text, i + 1, pages.length) && words(x.text) <= PAGE_NAME_WORDS;
      if (parts.some(names)) parts.forEach(x => x.spans.forEach(s => { if (!found.has(s)) found.set(s, 'page-name'); }));
    }
    // The outermost line at each edge (under what is furniture already) holding an address or a
    // date stamp as a piece of its own: a browser's or word processor's header or footer, all of it.
    const lines = bandLines(free(page));
    const edges = [lines.filter(l => l[0].baseline < page.height / 2), lines.filter(l => l[0].baseline >= page.height / 2).reverse()];
    const outermost = edges.map(e => e.find(l => !l.every(s => found.has(s))));
    const printed = edges.map(e => e.some(l => l.some(s => found.get(s) === 'page-name')));
    outermost.forEach((line, k) => {
      if (!line || !piecesOf(line).map(joinRuns).some(t => isAddress(t) || isStamp(t))) return;
      line.forEach(s => { if (!found.has(s)) found.set(s, 'stamp'); });
      printed[k] = true;
    });
    // Where one edge holds such a line, the page was printed with a header and footer: the other
    // edge's outermost line is its pair when it lies in the outer margin, apart from the body
    // (`School · Title` over a footer `Page 1 of 1`, on a paper of one page where nothing repeats).
    outermost.forEach((line, k) => {
      if (!line || printed[k] || !printed[1 - k] || line.every(s => found.has(s))) return;
      const size = Math.max(...line.map(s => s.size));
      const cy = (line[0].bbox[1] + line[0].bbox[3]) / 2;
      if (cy > page.height * OUTER_BAND && cy < page.height * (1 - OUTER_BAND)) return;
      const rest = free(page).spans.filter(s => !line.includes(s) && !found.has(s) && s.text.trim());
      const gap = k === 0
        ? Math.min(...rest.filter(s => s.baseline > line[0].baseline).map(s => s.bbox[1])) - Math.max(...line.map(s => s.bbox[3]))
        : Math.min(...line.map(s => s.bbox[1])) - Math.max(...rest.filter(s => s.baseline < line[0].baseline).map(s => s.bbox[3]));
      if (gap >= size * PAIR_GAP) line.forEach(s => { if (!found.has(s)) found.set(s, 'header-pair'); });
    });
  }
  // Page numbers and codes: only with nothing but furniture (or numbers the other pages vouch for
  // too, the section digit in both top corners) beside them on their line: a row of a table's
  // figures set in the margin stays.
  const candidate = new Set(numbersOnly.filter(x => x.byPaper).flatMap(x => x.p.spans));
  for (const { p, why } of numbersOnly) {
    const page = pages[p.page];
    const [y0, y1] = [Math.min(...p.spans.map(s => s.bbox[1])), Math.max(...p.spans.map(s => s.bbox[3]))];
    const beside = page.spans.some(o => !p.spans.includes(o) && !candidate.has(o) && !found.has(o) && o.text.trim() && o.bbox[1] < y1 && y0 < o.bbox[3] && !patterns.some(re => re.test(o.text)));
    if (!beside) mark(p, why);
  }
  return found;
}
