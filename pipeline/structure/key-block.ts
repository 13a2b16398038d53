// A key printed at the end of the paper itself (`1.C 2.A 3.60 …`, a table of item numbers over
// answers, one per section under the section's name): read by its structure (keys/pair-key.ts), in
// any script, and claimed before the decoder chooses, so that its numbered lines (`1.C`, `№ 1 2 3`)
// open no question and its lines are no question's text; they are the paper's tail, where the
// answers stage reads the key.
import { keyLineOf, keyRow, type KeyTextLine } from '../keys/pair-key.ts';
import type { LineFeatures } from './candidates.ts';

/** A key answers at least this many items (two pairs on a line of a question's text are no key). */
const MIN_ENTRIES = 3;
/** Lines between and after the key's rows that are no row (a section's name, the key's title, a closing mark) are short. */
const LABEL_MAX_CHARS = 40;
/** Before its first row, the key's title and a section's name: at most this many lines, up to a heading. */
const TITLE_LINES = 3;

/** A line that stands between or after a key's rows: short, opening with no number (a section's name `A`, `Физика`). */
function label(f: LineFeatures): boolean {
  return f.text.trim().length <= LABEL_MAX_CHARS && f.lead === null;
}

/**
 * Where a key appended after the questions starts (the index of its first line, its title's where
 * it has one), or null. The key runs to the paper's last line: rows of pairs or numbers over
 * answers, with short labels between them (each section's name) and after them; before its first
 * row it takes the lines up to the nearest heading (its title), where that is near and the lines
 * between are labels; a key with no such title opens its page. A paper whose last lines are not
 * such rows has no appended key.
 */
export function appendedKeyStart(features: LineFeatures[]): number | null {
  const lines: KeyTextLine[] = features.map(f => keyLineOf(f.line.page, f.line.spans));
  // Each row of a key by the line it starts on, with the entries it gives; the line of answers under a row of numbers is part of it.
  const rows = new Map<number, number>();
  const under = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    const row = keyRow(lines[i], lines[i + 1]);
    if (!row) continue;
    rows.set(i, row.entries);
    if (row.kind === 'numbers-over-answers') under.add(++i);
  }
  // From the last line back: rows and labels, up to the first line that is neither.
  let first: number | null = null;
  let entries = 0;
  let garbled = false;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (under.has(i)) continue;
    if (rows.has(i)) { first = i; entries += rows.get(i)!; continue; }
    // After a scanned key's last row, one short line OCR garbled past reading (`Ls 2はる1 44 5.4`
    // for `1.5 2.1 3.1 4.4 5.4`) is the key's where rows stand above it.
    if (!label(features[i]) && first === null && !garbled && lines[i].ocr && features[i].text.trim().length <= LABEL_MAX_CHARS) { garbled = true; continue; }
    if (!label(features[i])) break;
    // A key whose title opens its page starts there: the rows on the page before are the last
    // question's (its options `1. 82` … `4. 41`, set as a table of pairs is).
    if (first !== null && features[i].heading !== null && (i === 0 || features[i - 1].line.page !== features[i].line.page)) break;
  }
  // Something must come before the key: a paper that is nothing but rows of numbers has no questions to end.
  if (first === null || entries < MIN_ENTRIES || first === 0) return null;
  const page = features[first].line.page;
  for (let k = 1; k <= TITLE_LINES; k++) {
    const f = features[first - k];
    // With no title, a key starts a page of its own (its labels above it); rows at the foot of a
    // question (its options `1) 4  2) 5  3) 6`, set as pairs are) are that question's.
    if (!f || f.line.page !== page) return first - k + 1;
    // The last question's options and marks are its own, however short their lines (a lone
    // letter may be a section's name: `A` over its key).
    if (!label(f) || f.optionLabels.length >= 2 || f.marks) break;
    if (f.heading !== null) return first - k;
  }
  return null;
}
