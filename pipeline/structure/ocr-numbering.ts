// On OCR pages, which lines open questions and with what numbers: each section's readings are
// aligned to a running sequence at once (see text/number-run.ts).
import type { Line, PaperDocument, Span } from '../document.ts';
import { alignNumbers, misreadings } from '../text/number-run.ts';
import type { Template } from '../template.ts';
import { matchAnchor, type Edges } from './anchors.ts';
import { OCR_SMALL_SHARE } from './model.ts';
import { inset, lineStart } from '../text/direction.ts';

/** Points from the column's edge within which an unread mark may be a question number. */
const MARGIN_SLACK = 4;

/**
 * Something at the margin of an OCR line that could be a question number read as nothing like one
 * (`S.`, `J,`, `&`): a short token with no Hangul or Han, in the number's place and size.
 */
export function marginMark(line: Line, column: Edges, bodySize: number, t: Template): Span[] | null {
  const first = line.spans[0];
  // At the very edge: lines under a question are indented less than the template allows a number.
  if (!first || first.math || inset(lineStart(line), column, line.rtl) > Math.min(t.numbering.indentTolerance, MARGIN_SLACK) || first.size < bodySize * OCR_SMALL_SHARE) return null;
  const text = first.text.trim();
  return /^\S{1,2}[.,]$/.test(text) || (/^[^\s\p{Script=Hangul}\p{Script=Han}]{1,3}$/u.test(text) && !t.options.markers.includes(text)) ? [first] : null;
}

/**
 * On OCR pages, which lines open questions and with what numbers, chosen for each section at once
 * (see number-run.ts); lines of pages with a text layer are left to the reading as it comes.
 */
export function ocrNumbering(doc: PaperDocument, bodySize: number): Map<Line, number | null> {
  const t = doc.template;
  const decided = new Map<Line, number | null>();
  if (t.sections.headingWhere === 'body' || !doc.pages.some(p => p.ocr)) return decided;
  const sections = new Map<string, { line: Line; reading: number | null }[]>();
  for (const line of doc.lines) {
    const page = doc.pages[line.page - 1];
    if (!page.ocr) continue;
    const column = page.columns[line.column];
    const reading = matchAnchor(line, column, bodySize, t, true)?.number ?? (marginMark(line, column, bodySize, t) ? null : undefined);
    if (reading === undefined) continue;
    const key = page.section ?? t.sections.default ?? '';
    if (!sections.has(key)) sections.set(key, []);
    sections.get(key)!.push({ line, reading });
  }
  const opening = Array.isArray(t.numbering.first) ? t.numbering.first[0] : t.numbering.first ?? 1;
  let next = opening;
  for (const candidates of sections.values()) {
    const readings = candidates.map(c => c.reading);
    const numbers = alignNumbers(readings, next, t.numbering.max);
    candidates.forEach((c, i) => decided.set(c.line, numbers[i]));
    // A number read as another is taken from the run only where its neighbours pin it; it is still
    // flagged, so a reviewer checks the question (and the key joined to it).
    for (const i of misreadings(readings, numbers)) {
      doc.messages.warn('segment/number-misread', `OCR read the question number as ${readings[i]}; the numbers around it make it ${numbers[i]}`, { page: candidates[i].line.page, stage: 'segment' });
    }
    const chosen = numbers.filter((n): n is number => n !== null);
    if (chosen.length) next = Math.max(...chosen) + 1;
  }
  return decided;
}

