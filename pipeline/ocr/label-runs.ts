// Option labels OCR reads as digits, in a column of options set one under another. A page recognised
// in a language whose model knows Latin letters poorly (Korean or Hindi, with English as its second) reads
// `A. 161 / B. 162 / C. 167 / D. 320 / E. 160` as `A. 161 / 6. 162 / C. 167 / 0. 320 / E. 160`, `a) b) c) d)` as `3) 0) c) 0)`: the
// run of labels is broken, and the question reads as having no options. Which label stands at each
// place is one decision over the run: the letters it did read fix where the alphabet starts, and a
// digit standing where the letters say another letter goes is that letter — so is a label run into
// its value (`C. 8` read `68`), a capital read small (`c.`) or a letter read twice (`Cc.`).
import type { Column } from '../document.ts';
import { spansByColumn, spansInRows } from './column-spans.ts';
import type { RawSpan } from '../providers/pdf.ts';

/**
 * A line's first word as a label: an optional opening bracket, one letter or digit, a stop or closing
 * bracket, and what follows. A letter of another alphabet stands where OCR, reading a page in its own
 * language first, drew a Latin label as one of its letters (`р.` for `D.` on a Russian page): it is
 * read as a digit is, by its place in a run of Latin letters.
 */
const LABEL = /^([(（［[]?)([A-Za-z]|\d|\p{L})([.)．）］\]])(.*)$/u;
/**
 * A line's first word that is a label whose stop OCR lost, run into its option's value: a digit
 * standing for the letter and the value's digits (`C. 8` read `68`). Taken as a label only at a
 * place between two others of a run.
 */
const LOST_STOP = /^(\d)(\d+(?:[.,]\d+)?)$/u;
/**
 * A line's first word that is a label whose stop OCR read as a letter or a comma (`As` for `A.`,
 * `B,`): taken as a label only where a label follows it in the run and the run names its letter
 * at its place.
 */
const MISREAD_STOP = /^([A-Za-z])([s,;:])$/u;
/** A label's letter OCR read twice, in both cases (`Cc.` for `C.`). */
const DOUBLED = /^([(（［[]?)([A-Za-z])([A-Za-z])([.)．）］\]])(.*)$/u;
/** Letters whose capital and small forms differ in size only: OCR reads a capital `C.` as `c.` now and then. */
const CASE_ALIKE = /^[cosvwxzCOSVWXZ]$/;
/** Labels of a run start within this share of the type size of each other. */
const SAME_EDGE = 0.6;
/** Lines of a run follow each other within this many type sizes. */
const RUN_GAP = 3;
/** Letters a run must have read, in their places, before its digits are read as letters. */
const READ_LETTERS = 2;
/** The last letter a run of option labels reaches. */
const LAST = 'J';

/** A label as read: its opening bracket, its letter or digit, its stop, what follows; read twice (`Cc.`), or run into its value with no stop (`68`). */
interface Label { open: string; char: string; stop: string; rest: string; doubled?: boolean; lost?: boolean; misread?: boolean }

interface LabelLine extends Label { span: RawSpan; x: number; end: number; y: number; size: number; labels: number }

/** A line's first word read as a label, a letter read twice (`Cc.`) as once; null where it is none. */
function labelOf(text: string): Label | null {
  const m = LABEL.exec(text);
  if (m) return { open: m[1], char: m[2], stop: m[3], rest: m[4] };
  const d = DOUBLED.exec(text);
  return d && d[2].toLowerCase() === d[3].toLowerCase() ? { open: d[1], char: d[2], stop: d[4], rest: d[5], doubled: true } : null;
}

/** A line's first word that is a label run into its value, its stop lost (`68`); null where it is none. */
function lostStop(text: string): Label | null {
  const m = LOST_STOP.exec(text);
  return m ? { open: '', char: m[1], stop: '', rest: m[2], lost: true } : null;
}

/** A line's first word that is a label whose stop was misread (`As`); null where it is none. */
function misreadStop(text: string): Label | null {
  const m = MISREAD_STOP.exec(text);
  return m ? { open: '', char: m[1], stop: m[2], rest: '', misread: true } : null;
}

/** The first word of each line of the spans (spans whose baselines meet, leftmost first), where the line ends, and how many of its words read as labels. */
function lineStarts(spans: RawSpan[]): { span: RawSpan; end: number; labels: number }[] {
  return spansInRows(spans).map(row => ({ span: row[0], end: Math.max(...row.map(s => s.bbox[2])), labels: row.filter(s => /[A-Za-z]/.test(labelOf(s.text.trim())?.char ?? '')).length }));
}

/**
 * The runs of label lines of one column: label after label at one edge, no line starting left of
 * them between. The edge is their start, or their end where a right-to-left page sets each option's
 * line flush right (`A. 6` and `D. 17` end level and start apart).
 */
function runsOf(starts: { span: RawSpan; end: number; labels: number }[]): LabelLine[][] {
  const runs: LabelLine[][] = [];
  let run: LabelLine[] = [];
  const follow = (a: { x: number; end: number; y: number; size: number }, b: { span: RawSpan; end: number }) =>
    (Math.abs(b.span.bbox[0] - a.x) <= SAME_EDGE * a.size || Math.abs(b.end - a.end) <= SAME_EDGE * a.size) && b.span.baseline - a.y <= RUN_GAP * a.size;
  starts.forEach((start, i) => {
    const { span, end, labels } = start;
    const label = labelOf(span.text.trim());
    const last = run[run.length - 1];
    const here = { span, x: span.bbox[0], end, y: span.baseline, size: span.size, labels };
    const follows = last && follow(last, start);
    if (label && follows) { run.push({ ...label, ...here }); return; }
    // (A label run into its value stands in a run only with a label after it.)
    const next = starts[i + 1];
    const labelNext = !label && next && labelOf(next.span.text.trim()) && follow(here, next);
    const lost = labelNext && follows ? lostStop(span.text.trim()) : null;
    if (lost) { run.push({ ...lost, ...here }); return; }
    // (A label whose stop was misread may open a run too: the first of a column, `As 25` over `B. 27`.)
    const misread = labelNext ? misreadStop(span.text.trim()) : null;
    if (misread) {
      if (follows) run.push({ ...misread, ...here });
      else { if (run.length) runs.push(run); run = [{ ...misread, ...here }]; }
      return;
    }
    // A line starting further in (an option's text going on) leaves the run open.
    if (!label && last && here.x > last.x + SAME_EDGE * last.size && here.y - last.y <= RUN_GAP * last.size) return;
    if (run.length) runs.push(run);
    run = label ? [{ ...label, ...here }] : [];
  });
  if (run.length) runs.push(run);
  return runs;
}

/** The spans with each column's runs of stacked option labels read whole (see above). */
export function labelRuns(spans: RawSpan[], columns: Column[]): RawSpan[] {
  const fixed = new Map<RawSpan, string>();
  for (const inColumn of spansByColumn(spans, columns)) {
    for (const run of runsOf(lineStarts(inColumn))) {
      // Where the alphabet starts: each letter read, less its place in the run; the letters must
      // agree, and be of one case (`a)`–`e)` or `A.`–`E.`), a letter whose two cases look alike
      // (`c.` among `A.` `B.` `D.`) taking the others' case.
      const read = run.filter(l => /[A-Za-z]/.test(l.char) && !l.misread);
      const deciding = read.filter(l => !CASE_ALIKE.test(l.char));
      const cased = deciding.length ? deciding : read;
      const base = cased.length && cased.every(l => /[a-z]/.test(l.char)) ? 97 : cased.every(l => /[A-Z]/.test(l.char)) ? 65 : NaN;
      const inCase = (c: string) => (base === 97 ? c.toLowerCase() : c.toUpperCase());
      // Options set in a grid open its rows' lines with every row's first label (`A. 6  B. 14` over
      // `C. 17  D. 18`: the lines open A, C, E): the run steps by the labels a row holds, the most
      // any of its lines was read with letters, where its letters agree on that step and not on one.
      const startsBy = (step: number) => run.flatMap((l, k) => (/[A-Za-z]/.test(l.char) && !l.misread ? [inCase(l.char).charCodeAt(0) - base - k * step] : []));
      const agree = (starts: number[]) => starts.length >= READ_LETTERS && new Set(starts).size === 1 && starts[0] >= 0;
      const step = [1, Math.max(1, ...run.map(l => l.labels))].find(n => agree(startsBy(n)));
      if (Number.isNaN(base) || step === undefined) continue;
      const starts = startsBy(step);
      // The run's own shape, as its letters print it: a digit is read as a letter where its stop is that shape's.
      const shape = read[0];
      run.forEach((l, k) => {
        const letter = String.fromCharCode(base + starts[0] + k * step);
        if (letter.toUpperCase() > LAST) return;
        if (l.misread) {
          // A label whose stop was misread: only where its letter is the one its place names.
          if (inCase(l.char) === letter) fixed.set(l.span, `${shape.open}${letter}${shape.stop}`);
        } else if (l.lost) {
          // A label run into its value, its stop lost: only where labels stand on both sides.
          if (k > 0 && !run[k - 1].lost) fixed.set(l.span, `${shape.open}${letter}${shape.stop} ${l.rest}`);
        } else if (!/[A-Za-z]/.test(l.char) && l.stop === shape.stop) fixed.set(l.span, `${shape.open}${letter}${l.stop}${l.rest}`);
        // A letter read in the other case, or twice: the run's letter, as its place names it.
        else if (/[A-Za-z]/.test(l.char) && (l.doubled || l.char !== letter)) fixed.set(l.span, `${l.open}${letter}${l.stop}${l.rest}`);
      });
    }
  }
  return fixed.size ? spans.map(s => (fixed.has(s) ? { ...s, text: fixed.get(s)! } : s)) : spans;
}
