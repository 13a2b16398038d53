// Options: runs of the template's labels in order (①②③, A B C D) within a question's lines; the
// last run of two or more is the options, and each option's text runs to the next label.
import type { Line, Option, Span } from '../document.ts';
import { lineText } from '../text/line-text.ts';
import { readingGaps, spanStart } from '../text/direction.ts';
import type { Template } from '../template.ts';
import { rowOptions, type RowConvention } from './option-rows.ts';

interface Marker { label: string; span: Span; line: number; offset: number; length: number; guess?: boolean }

/**
 * What OCR makes of a letter label at the start of a line: the stop read as a comma, the letter
 * as another (`E,2` for `C. 2`, `10.` for `D.`), the text run on (`A.5`). Such a mark, set where the
 * run's labels are set, takes the place of the label the run expects next, never of one it has seen.
 */
const OCR_LABEL = /^\s*\(?([A-Z0-9©]{1,2})\s*[.,)．]/u;
/** …or a capital OCR read glued to the digit after it, its stop lost (`C19` for `C. 19`). */
const OCR_GLUED = /^\s*([A-Z])(?=\d)/u;
/** An OCR word that is a label and nothing else: a letter, perhaps in brackets, and its stop or closing bracket (`B.`, `(c)`). */
const OCR_WHOLE_LABEL = /^[(（]?\p{L}[.．)）]$/u;

/** Every option marker in the lines: the label itself (①), or where the template's pattern matches (`A)`). */
function markersIn(lines: Line[], t: Template, skip: Set<Span>, ocr = false): Marker[] {
  const found: Marker[] = [];
  lines.forEach((line, li) => {
    if (!t.re.option) return;
    // Markers by pattern over the line's text, so a label and its stop in two runs (`A` `．`) still
    // match; a gap between runs reads as a space.
    let text = '';
    const starts: { span: Span; at: number }[] = [];
    const kept = line.spans.filter(s => !skip.has(s) && !s.math);
    const gaps = readingGaps(kept);
    for (const [k, s] of kept.entries()) {
      // On a scan, a word that is a label whole (`B.`) is parted from the next by a space whatever
      // their boxes say: OCR's box for a label may reach over its value (`B.` over `2`).
      const spaced = ocr && k > 0 && OCR_WHOLE_LABEL.test(kept[k - 1].text.trim());
      if (k > 0 && (gaps[k] > Math.min(s.size, kept[k - 1].size) * 0.2 || spaced)) text += ' ';
      starts.push({ span: s, at: text.length });
      text += s.text;
    }
    for (const m of text.matchAll(t.re.option)) {
      const at = m.index! + m[0].indexOf(m[1]);
      const owner = starts.filter(x => x.at <= at).pop();
      if (!owner || !t.options.markers.includes(m[1])) continue;
      const offset = at - owner.at;
      found.push({ label: m[1], span: owner.span, line: li, offset, length: Math.min(m[0].length - m[0].indexOf(m[1]), owner.span.text.length - offset) });
    }
    const guess = ocr && starts.length ? OCR_LABEL.exec(text) ?? OCR_GLUED.exec(text) : null;
    if (guess && !found.some(f => f.line === li && f.span === starts[0].span && f.offset === 0)) {
      found.push({ label: guess[1], span: starts[0].span, line: li, offset: 0, length: Math.min(guess[0].trimStart().length, starts[0].span.text.length), guess: true });
    }
  });
  if (t.re.option) return found;
  lines.forEach((line, li) => line.spans.forEach(s => {
    if (skip.has(s) || s.math) return;
    const text = s.text;
    for (let k = 0; k < text.length; k++) {
      const label = t.options.markers.find(m => text.startsWith(m, k));
      if (label) found.push({ label, span: s, line: li, offset: k, length: label.length });
    }
  }));
  return found;
}

/** A word shaped as a label OCR misread: one or two characters and a stop or closing bracket (`8.` for `B.`, `Cc.` for `C.`). */
const MISREAD_LABEL = /^[(（]?\S{1,2}[.．,)）:;]$/u;

/**
 * The labels OCR misread between two it read (B and C between A and D): the words between them
 * shaped as labels, in order. The run's order pins their places: the caller takes them only where
 * there are as many as labels skipped (values printed with a stop, `5.` `6.`, make more).
 */
function pinnedBetween(lines: Line[], skip: Set<Span>, prev: Marker, next: Marker, at: (li: number, s: Span) => number): Marker[] {
  const found: Marker[] = [];
  for (let li = prev.line; li <= next.line; li++) {
    const spans = lines[li].spans.filter(s => !skip.has(s) && s !== prev.span && s !== next.span && MISREAD_LABEL.test(s.text.trim()));
    for (const s of spans.sort((a, b) => at(li, a) - at(li, b))) {
      if ((li === prev.line && at(li, s) <= at(li, prev.span)) || (li === next.line && at(li, s) >= at(li, next.span))) continue;
      found.push({ label: '', span: s, line: li, offset: s.text.length - s.text.trimStart().length, length: s.text.trim().length, guess: true });
    }
  }
  return found;
}

export function hasOptionMarkers(lines: Line[], t: Template, skip: Set<Span>): boolean {
  return t.options.markers.length > 0 && optionsOf(lines, t, skip).options.length >= 2;
}

/**
 * A question's options: its labels' last run in order; on a scanned page of a paper that sets its
 * options in rows (`rows`), the row's cells by place where that run falls short of the row.
 */
export function optionsOf(lines: Line[], t: Template, skip: Set<Span>, ocr = false, rows: RowConvention | null = null): { options: Option[]; firstLine: number; byPlace?: true } {
  const markers = t.options.markers;
  // Where a span stands in its line's reading: by x, by place in the line where it reads right to left.
  const at = (li: number, s: Span) => (lines[li].rtl ? lines[li].spans.indexOf(s) : s.bbox[0]);
  const found = markersIn(lines, t, skip, ocr).sort((a, b) => a.line - b.line || at(a.line, a.span) - at(b.line, b.span) || a.offset - b.offset);
  // Runs of markers in order (①②③…, A B C D); a label out of order is text. The last run of at
  // least two is the options: an earlier run labels something else (a figure's panels A–D).
  const runs: Marker[][] = [];
  for (const f of found) {
    const idx = markers.indexOf(f.label);
    const run = runs[runs.length - 1];
    if (idx === 0) runs.push([f]);
    else if (run && idx === run.length) run.push(f);
    else if (f.guess && run && run.length < markers.length && run[run.length - 1].line < f.line && run.some(r => Math.abs(spanStart(r.span, lines[r.line].rtl) - spanStart(f.span, lines[f.line].rtl)) <= 6)) run.push({ ...f, label: markers[run.length] });
    else if (ocr && run && idx > run.length) {
      // Labels skipped (`A. 40° 8. 41 C, 39` / `D. 46`): OCR misread them, and the labels read on
      // either side pin where they stand.
      const pinned = pinnedBetween(lines, skip, run[run.length - 1], f, at);
      if (pinned.length === idx - run.length) run.push(...pinned.map((p, k) => ({ ...p, label: markers[run.length + k] })), f);
    }
  }
  const seq = runs.filter(r => r.length >= 2).pop();
  if (ocr && rows && (seq?.length ?? 0) < rows.count) {
    // The row read by place holds the labels that were read: a row after them is something else.
    const byPlace = rowOptions(lines, t, skip, rows);
    if (byPlace && (!seq || byPlace.firstLine <= seq[0].line)) return byPlace;
  }
  if (!seq) return { options: [], firstLine: -1 };
  const options: Option[] = seq.map((f, i) => {
    const next = seq[i + 1];
    const parts: string[] = [];
    const lastLine = next ? next.line : f.line;
    for (let li = f.line; li <= lastLine; li++) {
      const spans = lines[li].spans.filter(s => {
        if (skip.has(s)) return false;
        const rtl = lines[li].rtl;
        const afterMarker = li > f.line || s === f.span || (rtl ? at(li, s) >= at(li, f.span) : s.bbox[0] >= f.span.bbox[0] - 0.5);
        // The next label's span is kept only where text of this option stands before the label in it.
        const beforeNext = !next || li < next.line || (s !== next.span && (rtl ? at(li, s) < at(li, next.span) : s.bbox[0] < next.span.bbox[0] - 0.5)) || (s === next.span && next.offset > 0);
        return afterMarker && beforeNext;
      });
      let text = lineText(spans);
      if (li === f.line) {
        const at = text.indexOf(f.span.text.slice(f.offset, f.offset + f.length).trim());
        text = at >= 0 ? text.slice(at + f.span.text.slice(f.offset, f.offset + f.length).trim().length) : text;
      }
      if (next && li === next.line && next.offset > 0) {
        // The label is in the last span: its last occurrence (a formula before it may hold the same letter, `+ C`).
        const cut = text.lastIndexOf(next.span.text.slice(next.offset, next.offset + next.length).trim());
        text = cut >= 0 ? text.slice(0, cut) : text;
      }
      parts.push(text.trim());
    }
    // The last option runs on over lines set under its text (a long option that wraps).
    if (!next) {
      const rtl = lines[f.line].rtl;
      const indent = spanStart(f.span, rtl) + (f.offset === 0 ? (rtl ? -4 : 4) : 0);
      for (let li = f.line + 1; li < lines.length; li++) {
        const l = lines[li];
        if (l.column !== lines[f.line].column || l.page !== lines[f.line].page || (rtl ? l.bbox[2] > indent : l.bbox[0] < indent)) break;
        if (l.bbox[1] - lines[li - 1].bbox[3] > l.spans[0].size * 1.2) break;
        parts.push(lineText(l.spans.filter(s => !skip.has(s))));
      }
    }
    // A stop set apart from its label (`A` `．`) is left at the head of the text; the next label's
    // opening bracket (`(A) 3 (B) 4`) at its tail.
    return { label: f.label, text: parts.filter(Boolean).join(' ').replace(/^[.．、)）]\s*/u, '').replace(/\s*[(（]$/u, '').trim() };
  });
  return { options, firstLine: seq[0].line };
}

