// Marks a paper states once for a range of questions, outside them: `Question numbers 13 to 22
// carry 3 marks each`, `第1～5题每小题3分`, or a section's total over its questions (`Section I –
// 10 marks` beside `Attempt Questions 1–10`: one mark each). Questions with no marks of their own in
// the range get them. The range, the value and the word for "each" are the template's patterns
// (`points.range`, `points.head`, `points.each`).
import type { PaperDocument, Question } from '../document.ts';
import type { LineFeatures } from './candidates.ts';
import type { LineRole } from './assemble.ts';
import { markValue } from './marks.ts';

/** How many lines around a range a section's total may stand on (`10 marks` above `Attempt Questions 1–10`). */
const TOTAL_NEAR = 2;
/** A range names at most this many questions (a statement, not a year span or a page range of a long paper). */
const RANGE_MOST = 200;

export interface RangeMarks { from: number; to: number; each: number; line: number }

/** The ranges the paper's text outside its questions gives marks for, in reading order. */
export function rangeMarks(features: LineFeatures[], roles: LineRole[], doc: PaperDocument): RangeMarks[] {
  const t = doc.template;
  if (!t.re.pointsRange.length || !t.re.pointsHead) return [];
  const out: RangeMarks[] = [];
  const outside = (i: number) => roles[i] !== 'question' || features[i].heading !== null;
  features.forEach((f, i) => {
    if (!outside(i)) return;
    for (const re of t.re.pointsRange) {
      const m = re.exec(f.text);
      const from = Number(m?.groups?.from), to = Number(m?.groups?.to);
      if (!m || !(from >= 1 && to > from && to - from < RANGE_MOST)) continue;
      const after = f.text.slice(m.index + m[0].length - 1);
      const own = t.re.pointsHead!.exec(after);
      if (own) {
        const value = markValue(own);
        const each = !!t.re.pointsEach?.test(f.text);
        out.push({ from, to, each: each ? value : value / (to - from + 1), line: i });
        return;
      }
      // A section's total on a line of its own beside the range.
      for (let k = Math.max(0, i - TOTAL_NEAR); k <= Math.min(features.length - 1, i + TOTAL_NEAR); k++) {
        if (k === i || !outside(k)) continue;
        const total = t.re.pointsHead!.exec(features[k].text);
        if (total && features[k].text.replace(total[0], '').replace(/[\s\p{P}]/gu, '').length <= 12) {
          out.push({ from, to, each: markValue(total) / (to - from + 1), line: i });
          return;
        }
      }
    }
  });
  // Only whole or half marks: a division that gives less is no statement of marks.
  return out.filter(r => Number.isFinite(r.each) && r.each > 0 && Math.abs(r.each * 2 - Math.round(r.each * 2)) < 1e-9);
}

/**
 * Gives the questions of each range that carry no marks of their own the range's marks. A range
 * applies to the questions after its statement (the section it opens), else to any with its numbers.
 */
export function applyRangeMarks(questions: Question[], ranges: RangeMarks[], lineIndex: Map<Question, number>): number {
  let given = 0;
  for (const q of questions) {
    if (q.points !== null) continue;
    const at = lineIndex.get(q) ?? Infinity;
    const fits = ranges.filter(r => q.number >= r.from && q.number <= r.to);
    const r = fits.filter(x => x.line < at).pop() ?? fits[0];
    if (!r) continue;
    q.points = r.each;
    given++;
  }
  return given;
}
