// The numbered lead a line opens with, read without a list of words: an optional bracket, up to two
// short words in any script (`Question`, `QUESTÃO`, `Câu`, `Задача`, `第`, `Q`), an optional
// section label joined by a stop (`A.1`, `2.3`), the number, and what closes it (`.`, `)`, `:`,
// `题`, `번`) or nothing (a bare number, `1 Which of …`, or a number alone on its line). Which lead a
// paper uses for its questions is not decided here: every line gets its reading, and the decoder
// (decode.ts) learns from the whole paper which lead recurs with a rising number.
import type { Line, Span } from '../document.ts';
import { readingGaps, splitSpan } from '../text/direction.ts';
import { closeViramaSpaces } from '../text/script.ts';
import { escapeRegExp } from '../template.ts';

/** How far into a line the words before a number may run (`Pregunta`, `QUESTÃO`, `Exercice`). */
export const MAX_LEAD_WORDS = 14;
/** The longest number a lead carries (questions are numbered below 1000). */
const MAX_DIGITS = 3;

export interface Lead {
  /** The lead as printed, e.g. `Question 11`, `Q.1`, `A.1.`, `1．`, `第3题`. */
  text: string;
  /** The words before the number, lower-cased (`question`, `câu`, `第`), or ''. */
  word: string;
  /** A label before the number joined by a stop: a letter (`A` in `A.1.`) or a number (`2` in `2.3`). */
  major: string | null;
  number: number;
  /** What closes the number (`.`, `)`, `:`, `题`, `번`), '' for a bare number. */
  close: string;
  /** A bracket before the number or its words: `(1)`, `[1]`. */
  open: string;
  /** Printed with a leading zero (`01`). */
  padded: boolean;
  /** The style a paper's questions share: the words, the label's kind and the marks around the number, `question #`, `L.#.`, `(#)`, `#`. */
  style: string;
  /** The spans the lead takes (the anchor), the last one cut where the text goes on. */
  spans: Span[];
  /** Characters of the last span that belong to the lead (the rest is the line's text). */
  cut: number;
  /** The text after the lead on the line. */
  rest: string;
}

const OPEN = '[(（\\[【]';
const CLOSE = '(?:[.．、:：)）\\]】]|[题題번問]\\.?)';
/**
 * Up to two words, none with a digit; each word letters (any script) with an optional stop or dash.
 * A glyph the font maps to no character (U+0000, U+FFFD: a conjunct like Devanagari `र्य` with no
 * ToUnicode entry, `कार्य` read as `काय\u0000`) stands inside a word as the letter it prints.
 */
const WORDS = `(?:[\\p{L}\\p{M}№#\\u0000\\uFFFD]{1,${MAX_LEAD_WORDS}}[.．]?\\s{0,2}){0,2}?`;
const LEAD = new RegExp(
  `^\\s*(?<open>${OPEN})?\\s*(?<word>${WORDS})\\s*(?:(?<major>\\p{Lu}|\\d{1,2})[.．](?=\\d))?(?<num>\\d{1,${MAX_DIGITS}})(?![\\d,/]|[.．]\\d)(?<close>\\s*${CLOSE})?`,
  'u',
);

/**
 * The words before the number as a style: lower-cased, in their compatibility form (`№` is `No`, a
 * full-width `Ｑ` is `Q`: one paper prints, or its OCR reads, the same lead both ways), a virama's
 * word whole (`प्रश् न 04` and `प्रश्न 05` on one paper: the text layer spaces some after the virama).
 */
export function wordStyle(word: string): string {
  return closeViramaSpaces(word.normalize('NFKC')).trim().toLocaleLowerCase().replace(/\s+/g, ' ');
}

/**
 * A line read right to left prints its number's stop on the number's left, and the text layer gives
 * the run in visual order: `.2` is `2.` (Arabic `٢.` / `2.`). The stop is put back after the digits,
 * the text keeping its length so that the lead still covers the spans it was read from.
 */
const VISUAL_STOP = /^(\s*)([.．:：)）])(\d{1,3})(?![\d.．,])/u;
function logicalStop(text: string): string {
  const m = VISUAL_STOP.exec(text);
  return m ? `${m[1]}${m[3]}${m[2]}${text.slice(m[0].length)}` : text;
}

/** The text of a line's first spans as a reader sees it (a gap between runs is a space), with each span's start. */
export function leadingText(line: Line, limit = 40): { text: string; starts: { span: Span; at: number }[] } {
  let text = '';
  const starts: { span: Span; at: number }[] = [];
  const gaps = readingGaps(line.spans);
  for (const [k, s] of line.spans.entries()) {
    if (text.length >= limit) break;
    if (k > 0 && gaps[k] > Math.min(s.size, line.spans[k - 1].size) * 0.2) text += ' ';
    starts.push({ span: s, at: text.length });
    text += s.text;
  }
  return { text, starts };
}

/**
 * OCR reads a number's stop as a comma now and then (`A.2, 2⁴ の値…`, `12, Find …`): a comma right
 * after a line's first number, with a space after it (no decimal), is read as the stop, the text
 * keeping its length. Only after a short lead, one word of a few characters at most (`A.`, `Q.`,
 * `Câu`): a sentence's number (`첫째항이 9, 공차가 3인…`) keeps its comma.
 */
const OCR_COMMA_STOP = /^(\s*[^\s\d]{0,4}\s?\d{1,3}),(?=\s)/u;

/**
 * OCR reads a worded lead's digit as the letter drawn like it (`प्रश्न i9`, `प्रश्न 2I`, `Câu 1O`):
 * a number after a word that holds a digit and letters drawn as `1` or `0` is read as digits, the
 * text keeping its length. Not a number of letters alone (`Part I`, `Section II` are numerals).
 */
const OCR_LETTER_DIGITS = /^(\s*[^\d\s]{1,14}\s+)((?=[0-9Ii|Oo]{0,2}\d)(?=[0-9]{0,2}[Ii|Oo])[0-9Ii|Oo]{2,3})(?=[\s.:)]|$)/u;

/** The numbered lead of a line, or null where it opens with none. Formula runs are never a lead's number. `ocr`: the line was read by OCR. */
export function readLead(line: Line, ocr = false): Lead | null {
  const first = line.spans[0];
  if (!first || first.math) return null;
  const { text: read, starts } = leadingText(line);
  const text = ocr ? read.replace(OCR_COMMA_STOP, '$1.').replace(OCR_LETTER_DIGITS, (all, words: string, number: string) => `${words}${number.replace(/[Ii|]/g, '1').replace(/[Oo]/g, '0')}`) : read;
  const m = LEAD.exec(line.rtl ? logicalStop(text) : text);
  if (!m?.groups) return null;
  const g = m.groups;
  const word = wordStyle(g.word ?? '');
  const close = (g.close ?? '').trim();
  const open = g.open ?? '';
  // Words that end in a letter run into the number (`x2`, `log10`) are a formula, not a lead. A
  // formula's letters are Latin or Greek: a word of another script runs into its number as a lead
  // does where the script sets no spaces (`課題1`, `문제3`), or OCR lost the space.
  if (word && /[\p{Script=Latin}\p{Script=Greek}]$/u.test(g.word) && !/\s$/.test(g.word) && !/^[\p{Lu}第問№#]/u.test(g.word.trim()) ) return null;
  const major = g.major ?? null;
  const number = Number(g.num);
  // No question is numbered 0, save where OCR lost a digit of a worded lead's number (`प्रश्न 10`
  // read `प्रश्न 0`): the decoder gives it its number from the sequence.
  if (number < 1 && !(g.num.length > 1) && !(ocr && word)) return null;
  const end = m[0].length;
  const covered = coveredSpans(starts, end);
  if (!covered) return null;
  const { spans, cut } = covered;
  const rest = text.slice(end).trim() + (line.spans.length > starts.length ? ' …' : '');
  const majorKind = major === null ? '' : /\d/.test(major) ? '#.' : 'L.';
  // Full-width and half-width stops are one style (typesetters mix `7.` and `10．` in one paper).
  const style = `${open ? '(' : ''}${word ? `${word} ` : ''}${majorKind}#${close.normalize('NFKC')}`;
  return { text: m[0].trim(), word, major, number, close, open, padded: /^0\d/.test(g.num), style, spans, cut, rest };
}

/**
 * A row of labels prints at least this many of the next `ROW_AHEAD` numbers after its first in its
 * shape (OCR garbles a label now and then: `(1)26 (241 (3)46 (4) 36`); one alone may be the text's
 * (`1. Evaluate 4 × 2.`).
 */
const ROW_LABELS = 2;
const ROW_AHEAD = 3;

/**
 * Whether the line goes on to print the next numbers in its lead's own shape (`(1) 56 (2) 64 (3) 54`,
 * `1. 90  2. 88`): a row of labels numbered as questions are (options set in a row), not a question's
 * lead; a question's text does not print its next questions' numbers after its own.
 */
export function labelRow(lead: Lead): boolean {
  if (lead.word || lead.major !== null || !lead.close) return false;
  const open = lead.open ? '[(（\\[【]\\s*' : '';
  const close = escapeClose(lead.close);
  const found = Array.from({ length: ROW_AHEAD }, (_, k) => lead.number + k + 1).filter(n => new RegExp(`(?:^|\\s)${open}${n}\\s*${close}`, 'u').test(lead.rest));
  return found.length >= ROW_LABELS;
}

/** A lead's close as a pattern, full-width and half-width alike. */
const escapeClose = (close: string) => `(?:${[...new Set([close, close.normalize('NFKC')])].map(escapeRegExp).join('|')})`;

/** The spans the first `end` characters of a line cover; a lead that stops inside a span leaves the rest of it as text. */
function coveredSpans(starts: { span: Span; at: number }[], end: number): { spans: Span[]; cut: number } | null {
  const spans: Span[] = [];
  let cut = 0;
  for (const { span, at } of starts) {
    if (at >= end) break;
    if (span.math) return null;
    spans.push(span);
    cut = Math.min(span.text.length, end - at);
  }
  return spans.length ? { spans, cut } : null;
}

/**
 * The other reading of a two-part number (`12.298K 时…`): the first part is the question's number and
 * the rest opens its text. Null where the lead has no numeric first part.
 */
export function firstPartLead(line: Line, lead: Lead): Lead | null {
  if (lead.major === null || !/^\d+$/.test(lead.major)) return null;
  const { text, starts } = leadingText(line);
  const m = new RegExp(`^\\s*${lead.major}[.．]`).exec(text);
  const covered = m ? coveredSpans(starts, m[0].length) : null;
  if (!m || !covered) return null;
  return { ...lead, text: m[0].trim(), major: null, number: Number(lead.major), close: '.', style: '#.', spans: covered.spans, cut: covered.cut, rest: text.slice(m[0].length).trim() };
}

/**
 * Cuts the lead's last span where the question's text goes on in the same run (`10．下列…`), so
 * that the lead alone is the anchor; the run's box is shared out by characters.
 */
export function splitLead(line: Line, lead: Lead): Span[] {
  const last = lead.spans[lead.spans.length - 1];
  const chars = [...last.text];
  const keepChars = [...last.text.slice(0, lead.cut)].length;
  if (keepChars >= chars.length || !last.text.slice(lead.cut).trim()) return lead.spans;
  const [head, tail] = splitSpan(last, keepChars);
  const at = line.spans.indexOf(last);
  if (at >= 0) line.spans.splice(at, 1, head, tail);
  return [...lead.spans.slice(0, -1), head];
}
