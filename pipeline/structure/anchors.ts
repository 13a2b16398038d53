// Anchors: the printed number that opens a question, at its column's left edge, read by the
// template's numbering pattern (through OCR's usual misreadings on an OCR page).
import type { Column, Line, Span } from '../document.ts';
import { lineInset, splitSpan } from '../text/direction.ts';

/** A column's two edges (where its lines start, whichever way they read). */
export type Edges = Pick<Column, 'x0' | 'x1' | 'lean'>;
import type { Template } from '../template.ts';
import { OCR_SMALL_SHARE, SMALL_SHARE } from './model.ts';

/** How far into a line a numbering lead may run (`Pregunta 12.`, `QUESTÃO 01`, `Exercice 3 :`). */
export const MAX_LEAD = 16;

/** Runs this share of their size apart or closer touch (no space stands between them). */
const TOUCH = 0.05;

/** What follows a number that runs on into its text: anything but a space, a stop or a closing bracket. */
const RUNS_ON = /^[^\s.．,，、)）\]］:：;]/u;

/**
 * How OCR misreads a question number at the margin: `7,` for `7.`, `l`/`I`/`|` for 1, `O`/`o` for 0,
 * `A` for 4. On an OCR page the number's run is read through this before the template's pattern.
 */
export function ocrNumberText(lead: string): string {
  const m = /^(\s*)([0-9IlOoA|]{1,2})\s*[,.](?![0-9])/.exec(lead);
  if (!m || !/[0-9]/.test(m[2]) && m[2].length > 1) return lead;
  const digits = [...m[2]].map(c => ({ I: '1', l: '1', '|': '1', O: '0', o: '0', A: '4' })[c] ?? c).join('');
  // Same length as what it replaces: the caller cuts the run by character counts.
  return `${m[1]}${digits}${m[0].slice(m[1].length + m[2].length).replace(',', '.')}${lead.slice(m[0].length)}`;
}

/**
 * The number a line starts with, if the line opens a question: spans consumed and the number. The
 * line starts at its column's edge: the left one, the right one where it reads right to left.
 */
export function matchAnchor(line: Line, column: Edges, bodySize: number, t: Template, ocr = false): { number: number; spans: Span[]; runsOn: boolean } | null {
  const first = line.spans[0];
  if (!first || first.math) return null;
  if (lineInset(line, column) > t.numbering.indentTolerance) return null;
  if (first.size < bodySize * (ocr ? OCR_SMALL_SHARE : SMALL_SHARE)) return null;
  let lead = '';
  const spans: Span[] = [];
  const read = (text: string) => t.re.numbering.exec(ocr ? ocrNumberText(text) : text);
  for (const [i, s] of line.spans.entries()) {
    if (s.math) break;
    spans.push(s);
    lead += s.text;
    let m = read(lead);
    if (m) {
      // The lead's closing word in a run of its own (`第12` `题`: OCR parts them where a space
      // stands) is the lead's too, where the pattern reads it whole: it is no stem's first word.
      for (const next of line.spans.slice(i + 1)) {
        const more = read(lead + next.text);
        if (next.math || !more || more[1] !== m[1] || more[0].trimEnd().length < (lead + next.text).trimEnd().length) break;
        spans.push(next);
        lead += next.text;
        m = more;
      }
      const n = Number(m[1]);
      // The number runs on into what follows it with no space or stop (`12.298K`, a quantity; OCR's
      // `Question 29+4` for `Question 2 9+4`): the decoder may read it by its leading digits.
      // (Cut from its text at an earlier look, the text is the next run, touching the number's.)
      const after = line.spans[line.spans.indexOf(spans[spans.length - 1]) + 1];
      const rest = lead.slice(m[0].length) || (after && touching(spans[spans.length - 1], after) ? after.text : '');
      const runsOn = RUNS_ON.test(rest);
      if (n < 1 || n > t.numbering.max) return null;
      splitAfter(line, spans, lead.length - m[0].length);
      return { number: n, spans, runsOn };
    }
    if (lead.length > MAX_LEAD) break;
  }
  return null;
}

/**
 * The anchor of a number OCR ran on into its text, read by its leading digits (`29` of `Question
 * 29+4` read as 2, decode.ts Candidate.runsOn): the digits after the number are the text's, cut
 * from the anchor's last run.
 */
export function runOnCut(line: Line, spans: Span[], number: number): Span[] {
  const last = spans[spans.length - 1];
  const m = last ? new RegExp(`(?<!\\d)${number}(\\d+)$`).exec(last.text) : null;
  if (!m || !line.spans.includes(last)) return spans;
  const [head, tail] = splitSpan(last, [...last.text].length - m[1].length);
  line.spans.splice(line.spans.indexOf(last), 1, head, tail);
  return [...spans.slice(0, -1), head];
}

/** Two runs with no space between them (one run cut in two: splitAfter). */
const touching = (a: Span, b: Span) => Math.max(b.bbox[0] - a.bbox[2], a.bbox[0] - b.bbox[2]) <= TOUCH * a.size;

/**
 * Where the number's run goes on into the question's text (`10．下列…` in one run), the run is cut
 * in two — the number, and the text after it, its box shared out by characters — so that the
 * number alone is the anchor.
 */
function splitAfter(line: Line, spans: Span[], over: number): void {
  const lastSpan = spans[spans.length - 1];
  const chars = [...lastSpan.text];
  const keep = chars.length - [...lastSpan.text.slice(lastSpan.text.length - over)].length;
  if (over <= 0 || !lastSpan.text.slice(lastSpan.text.length - over).trim()) return;
  const [head, tail] = splitSpan(lastSpan, keep);
  line.spans.splice(line.spans.indexOf(lastSpan), 1, head, tail);
  spans[spans.length - 1] = head;
}

