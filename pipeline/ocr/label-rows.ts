// Option labels OCR ran into their values in a row of options. A Korean page's row `A. 20  B. 18
// C. 21  D. 27  E. 30` came back `A. 20 B18 C. 21 D. 27 E. 30`: the stop of `B.` lost and the label
// run into its value, one word. Which label stands at each place is one decision over the row: its
// labels read whole fix where the alphabet starts, and a word that is a letter and digits standing
// where that alphabet names the same letter is that label, with its value after it; so is a letter
// whose stop was read as a comma (`B,`), where one label of the row was read whole (a grid's rows
// hold two: `C. 11  D, 14`).
import type { Column } from '../document.ts';
import { spansByColumn, spansInRows } from './column-spans.ts';
import type { RawSpan } from '../providers/pdf.ts';

/** A word that is a label read whole: an optional opening bracket, one letter, a stop or closing bracket, and nothing else. */
const WHOLE = /^([(（]?)([A-Za-z])([.)．）])$/u;
/** A word that is a letter run into a number, its stop lost (`B18` for `B. 18`). */
const RUN_IN = /^([A-Za-z])(\d+(?:[.,]\d+)?)$/u;
/** A word that is a label whose stop OCR read as a comma or a colon (`B,` for `B.`): taken only at the place naming its letter. */
const MISREAD_STOP = /^([A-Za-z])([,;:])$/u;
/** Labels a row must have read whole, each in its place, before a word run into its value is read as one. */
const READ_WHOLE = 2;
/**
 * …and before a letter whose stop was misread is: one, its letter naming the place of the rest (a
 * grid's rows hold two labels: `C. 11  D, 14`).
 */
const READ_WHOLE_STOPPED = 1;

/** A word of a row that is a label read whole (no value), or a letter run into its value. */
interface Placed { span: RawSpan; letter: string; open: string; stop: string; value: string | null; misread?: boolean }

/** The spans with each row's labels run into their values read apart (see above). */
export function labelRows(spans: RawSpan[], columns: Column[]): RawSpan[] {
  const fixed = new Map<RawSpan, string>();
  for (const inColumn of spansByColumn(spans, columns)) {
    for (const row of spansInRows(inColumn)) {
      // The row's labels and run-in words in order, each at its place among them.
      const placed = row.flatMap((s): Placed[] => {
        const whole = WHOLE.exec(s.text.trim());
        if (whole) return [{ span: s, letter: whole[2], open: whole[1], stop: whole[3], value: null }];
        const runIn = RUN_IN.exec(s.text.trim());
        if (runIn) return [{ span: s, letter: runIn[1], open: '', stop: '', value: runIn[2] }];
        const misread = MISREAD_STOP.exec(s.text.trim());
        return misread ? [{ span: s, letter: misread[1], open: '', stop: misread[2], value: null, misread: true }] : [];
      });
      const whole = placed.flatMap((p, k) => (p.value === null && !p.misread ? [{ ...p, k }] : []));
      if (whole.length < READ_WHOLE_STOPPED) continue;
      // One alphabet, one case: each whole label's letter, less its place, names where it starts.
      const lower = whole.every(p => /[a-z]/.test(p.letter));
      if (!lower && !whole.every(p => /[A-Z]/.test(p.letter))) continue;
      const starts = new Set(whole.map(p => p.letter.charCodeAt(0) - p.k));
      if (starts.size !== 1) continue;
      const [start] = starts;
      const shape = whole[0];
      placed.forEach((p, k) => {
        if (p.letter.charCodeAt(0) !== start + k || (!p.misread && whole.length < READ_WHOLE)) return;
        if (p.misread) fixed.set(p.span, `${shape.open}${p.letter}${shape.stop}`);
        else if (p.value !== null) fixed.set(p.span, `${shape.open}${p.letter}${shape.stop} ${p.value}`);
      });
    }
  }
  return fixed.size ? spans.map(s => (fixed.has(s) ? { ...s, text: fixed.get(s)! } : s)) : spans;
}
