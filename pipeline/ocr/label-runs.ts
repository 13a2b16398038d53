// Option labels OCR reads as digits, in a column of options set one under another. A page recognised
// in a language whose model knows Latin letters poorly (Korean or Hindi, with English as its second) reads
// `A. 161 / B. 162 / C. 167 / D. 320 / E. 160` as `A. 161 / 6. 162 / C. 167 / 0. 320 / E. 160`, `a) b) c) d)` as `3) 0) c) 0)`: the
// run of labels is broken, and the question reads as having no options. Which label stands at each
// place is one decision over the run: the letters it did read fix where the alphabet starts, and a
// digit standing where the letters say another letter goes is that letter.
import { centerX, type Column } from '../document.ts';
import { columnOf } from '../text/columns.ts';
import type { RawSpan } from '../providers/pdf.ts';

/** A line's first word as a label: an optional opening bracket, one capital or digit, a stop or closing bracket, and what follows. */
const LABEL = /^([(（［[]?)([A-Za-z]|\d)([.)．）］\]])(.*)$/u;
/** Baselines this share of the type size apart are one line. */
const SAME_LINE = 0.4;
/** Labels of a run start within this share of the type size of each other. */
const SAME_EDGE = 0.6;
/** Lines of a run follow each other within this many type sizes. */
const RUN_GAP = 3;
/** Letters a run must have read, in their places, before its digits are read as letters. */
const READ_LETTERS = 2;
/** The last letter a run of option labels reaches. */
const LAST = 'J';

interface LabelLine { span: RawSpan; m: RegExpExecArray; x: number; y: number; size: number }

/** The first word of each line of the spans (spans whose baselines meet, leftmost first). */
function lineStarts(spans: RawSpan[]): RawSpan[] {
  const sorted = [...spans].sort((a, b) => a.baseline - b.baseline || a.bbox[0] - b.bbox[0]);
  const starts: RawSpan[] = [];
  let line: RawSpan[] = [];
  const flush = () => { if (line.length) starts.push(line.reduce((a, b) => (b.bbox[0] < a.bbox[0] ? b : a))); line = []; };
  for (const s of sorted) {
    if (line.length && Math.abs(s.baseline - line[0].baseline) > SAME_LINE * Math.max(s.size, line[0].size)) flush();
    line.push(s);
  }
  flush();
  return starts;
}

/** The runs of label lines of one column: label after label at one edge, no line starting left of them between. */
function runsOf(starts: RawSpan[]): LabelLine[][] {
  const runs: LabelLine[][] = [];
  let run: LabelLine[] = [];
  for (const span of starts) {
    const m = LABEL.exec(span.text.trim());
    const last = run[run.length - 1];
    const here = { x: span.bbox[0], y: span.baseline, size: span.size };
    const follows = last && Math.abs(here.x - last.x) <= SAME_EDGE * last.size && here.y - last.y <= RUN_GAP * last.size;
    if (m && follows) { run.push({ span, m, ...here }); continue; }
    // A line starting further in (an option's text going on) leaves the run open.
    if (!m && last && here.x > last.x + SAME_EDGE * last.size && here.y - last.y <= RUN_GAP * last.size) continue;
    if (run.length) runs.push(run);
    run = m ? [{ span, m, ...here }] : [];
  }
  if (run.length) runs.push(run);
  return runs;
}

/** The spans with each column's runs of stacked option labels read whole (see above). */
export function labelRuns(spans: RawSpan[], columns: Column[]): RawSpan[] {
  const byColumn = new Map<number, RawSpan[]>();
  for (const s of spans) {
    const c = columns.length ? columnOf(columns, centerX(s.bbox)) : 0;
    byColumn.set(c, [...(byColumn.get(c) ?? []), s]);
  }
  const fixed = new Map<RawSpan, string>();
  for (const inColumn of byColumn.values()) {
    for (const run of runsOf(lineStarts(inColumn))) {
      // Where the alphabet starts: each letter read, less its place in the run; the letters must
      // agree, and be of one case (`a)`–`e)` or `A.`–`E.`).
      const read = run.filter(l => /[A-Za-z]/.test(l.m[2]));
      const base = read.length && read.every(l => /[a-z]/.test(l.m[2])) ? 97 : read.every(l => /[A-Z]/.test(l.m[2])) ? 65 : NaN;
      const starts = run.flatMap((l, k) => (/[A-Za-z]/.test(l.m[2]) ? [l.m[2].charCodeAt(0) - base - k] : []));
      if (Number.isNaN(base) || starts.length < READ_LETTERS || new Set(starts).size !== 1 || starts[0] < 0) continue;
      // The run's own shape, as its letters print it: a digit is read as a letter where its stop is that shape's.
      const shape = read[0].m;
      run.forEach((l, k) => {
        const letter = String.fromCharCode(base + starts[0] + k);
        if (/\d/.test(l.m[2]) && l.m[3] === shape[3] && letter.toUpperCase() <= LAST) fixed.set(l.span, `${shape[1]}${letter}${l.m[3]}${l.m[4]}`);
      });
    }
  }
  return fixed.size ? spans.map(s => (fixed.has(s) ? { ...s, text: fixed.get(s)! } : s)) : spans;
}
