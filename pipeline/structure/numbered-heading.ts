// A heading that opens with a number of its own (`Часть 2 — Физика`, `第2部 ― 物理`, `1 영역 — 수학`,
// `Part 3: Chemistry`): its lead reads like a question's, so it is a candidate too, and whether it
// heads a section (a place where the numbering may start over) or opens a question is the decoder's
// choice over the whole paper (decode.ts). What makes it look like a heading is its setting, not
// its words: set all bold, larger than the body or in capitals, short, naming something after its
// number. The name is what follows the separator after the number (`Физика`), as a key names it.
import type { Line } from '../document.ts';
import type { Lead } from './lead.ts';
import { boldThroughout, isBold } from '../text/bold.ts';

/** A numbered heading is a short line: at most this many characters (a question's first line runs on). */
const NUMBERED_HEADING_MAX_CHARS = 50;
/** …or this many times as long where it is set bold throughout. */
export const BOLD_LONGER = 2.5;
/** …set at least this much larger than the body text, if not bold throughout or in capitals. */
const NUMBERED_HEADING_SIZE = 1.15;
/** …or with at least this share of its letters capitals. */
const NUMBERED_HEADING_CAPITALS = 0.7;

/** A bracketed group (`(15 marks)`, `（每小题4分）`): says how a section is marked, names nothing. */
const BRACKETED = /[(（[【][^)）\]】]*[)）\]】]/gu;
/** What stands between a heading's number and its name: a dash, a colon, a stop. */
const SEPARATOR = /^[^\p{L}\p{N}]*[—–―\-:：.．][\s]*/u;
/** The name's own separator where the number's word runs on (`部 ― 物理`: the word `部`, then the name). */
const INNER_SEPARATOR = /\s[—–―\-:：]\s*/u;
/** …on a page read by OCR, where a dash comes back as the stroke of Han's one or Hangul's ㅡ (`第1部 一 数学`, `3 영역ㅡ 화학`): followed by a space. */
const OCR_SEPARATOR = /\s[—–―\-:：]\s*|[一ㅡ]\s+/u;
/** A word OCR read as a dash's look-alike and nothing else. */
const OCR_DASH = /^[一ㅡ]$/u;

function letters(text: string): number {
  return [...text].filter(c => /\p{L}/u.test(c)).length;
}

function names(text: string): boolean {
  const n = letters(text);
  return n >= 3 || (n >= 2 && /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text));
}

/**
 * The share of a text's letters that are capitals, counted in words of two letters or more: a row of
 * option labels (`A) 27 B) 44`) or a figure's `A B` is no heading.
 */
export function capitalsShare(text: string): number {
  const ls = [...text].filter(c => /\p{L}/u.test(c));
  const words = text.match(/\p{L}[\p{L}\p{M}]+/gu) ?? [];
  const upper = words.flatMap(w => [...w]).filter(c => c !== c.toLocaleLowerCase() && c === c.toLocaleUpperCase());
  return ls.length ? upper.length / ls.length : 0;
}

/** The text of a numbered line after its lead, as printed (the lead's own `rest` stops after a few spans). */
function afterLead(text: string, lead: Lead): string {
  const at = text.indexOf(lead.text);
  return (at >= 0 ? text.slice(at + lead.text.length) : lead.rest).trim();
}

/**
 * The name a numbered line gives as a heading (`Физика` of `Часть 2 — Физика`), or null where the
 * line is not set as a heading: too long, naming nothing after its number, or in the body's type
 * (and not alone in a frame). `statesOwnRange`: the line states marks for a range from its lead's number.
 */
export function numberedHeadingName(line: Line, text: string, lead: Lead | null, sizeRatio: number, optionLabels: number, beforeMarks: (text: string) => string = text => text, framed = false, statesOwnRange = false): string | null {
  if (!lead || optionLabels > 0) return null;
  // Punctuation (the dash after the number) tells nothing of the weight: a scan's thin dash is no bold word.
  const prose = line.spans.filter(s => !s.math && /[\p{L}\p{N}]/u.test(s.text));
  const ocr = line.spans.some(s => s.font.startsWith('ocr'));
  // (Nor does a dash OCR read as `一` or `ㅡ`: a thin stroke reads light beside bold words.)
  // On a page read by OCR nearly every letter's strokes say so: a short word's are misjudged here and there.
  const words = prose.filter(s => !(ocr && OCR_DASH.test(s.text.trim())));
  const allBold = words.length > 0 && (ocr ? boldThroughout(words) : words.every(isBold));
  // One set bold throughout may run on into what it states for its questions (`Sección 2 — Física  Las preguntas 1 a 4 valen 2 puntos cada una.`).
  if (text.trim().length > NUMBERED_HEADING_MAX_CHARS * (allBold ? BOLD_LONGER : 1)) return null;
  // A number that opens a statement of marks for a range (`物理 第1〜3题每小题5分。`) is the
  // statement's, not the heading's: the name is what stands before the statement.
  const rest = beforeMarks(statesOwnRange ? text : afterLead(text, lead)).replace(BRACKETED, ' ').replace(/\s+/g, ' ').trim();
  if (!names(rest)) return null;
  if (!allBold && !framed && sizeRatio < NUMBERED_HEADING_SIZE && capitalsShare(rest) < NUMBERED_HEADING_CAPITALS) return null;
  const inner = (ocr ? OCR_SEPARATOR : INNER_SEPARATOR).exec(rest);
  const name = (inner ? rest.slice(inner.index + inner[0].length) : rest.replace(SEPARATOR, '')).trim();
  return names(name) ? name : rest;
}
