// Marks a paper states once for a range of questions, outside them: `Question numbers 13 to 22
// carry 3 marks each`, `第1～5题每小题3分`, or a section's total over its questions (`Section I –
// 10 marks` beside `Attempt Questions 1–10`: one mark each). Questions with no marks of their own in
// the range get them. The range, the value and the word for "each" are the template's patterns
// (`points.range`, `points.head`, `points.each`). The statements stand on lines of the body that
// are no question's, or above a page's body where layout set them apart with its head (a cover's
// instructions set across the columns).
import type { PaperDocument, Question } from '../document.ts';
import type { LineFeatures } from './candidates.ts';
import type { LineRole } from './assemble.ts';
import { markText, markValue } from './marks.ts';

/** How many lines around a range a section's total may stand on (`10 marks` above `Attempt Questions 1–10`). */
const TOTAL_NEAR = 2;
/** A range names at most this many questions (a statement, not a year span or a page range of a long paper). */
const RANGE_MOST = 200;

export interface RangeMarks { from: number; to: number; each: number; line: number }

/** A line above a page's body, set apart with the page's head: its text, and the body line it stands before. */
export interface HeadLine { text: string; before: number }

/** The ranges the paper's text outside its questions gives marks for, in reading order. */
export function rangeMarks(features: LineFeatures[], roles: LineRole[], doc: PaperDocument, head: readonly HeadLine[] = []): RangeMarks[] {
  const t = doc.template;
  if (!t.re.pointsRange.length || !t.re.pointsHead) return [];
  const out: (RangeMarks & { divided: boolean })[] = [];
  const outside = (i: number) => roles[i] !== 'question' || features[i].heading !== null;
  // Lines in reading order, each at its place among the body's (a head line just before its page's first).
  const lines = [
    ...head.map(h => ({ text: markText(h.text), at: h.before - 0.5, body: -1 })),
    ...features.flatMap((f, i) => (outside(i) ? [{ text: markText(f.text), at: i, body: i }] : [])),
  ].sort((a, b) => a.at - b.at);
  for (const l of lines) {
    for (const re of t.re.pointsRange) {
      const m = re.exec(l.text);
      const from = Number(m?.groups?.from), to = Number(m?.groups?.to);
      // `6번부터 6번까지`: a statement for one question is a range too.
      if (!m || !(from >= 1 && to >= from && to - from < RANGE_MOST)) continue;
      const after = l.text.slice(m.index + m[0].length - 1);
      const own = t.re.pointsHead!.exec(after);
      if (own) {
        const value = markValue(own);
        const each = !!t.re.pointsEach?.test(l.text);
        out.push({ from, to, each: each ? value : value / (to - from + 1), line: l.at, divided: !each });
        break;
      }
      // A section's total on a line of its own beside the range.
      if (l.body < 0) continue;
      const i = l.body;
      const total = near(i).map(k => ({ k, m: t.re.pointsHead!.exec(markText(features[k].text)) }))
        .find(({ k, m: tm }) => tm && markText(features[k].text).replace(tm[0], '').replace(/[\s\p{P}]/gu, '').length <= 12);
      if (total?.m) {
        out.push({ from, to, each: markValue(total.m) / (to - from + 1), line: i, divided: true });
        break;
      }
    }
  }
  // A division gives only whole or half marks (one that gives less is no statement of marks); marks
  // stated for each question are as printed (`1,25 điểm`).
  return out
    .filter(r => Number.isFinite(r.each) && r.each > 0 && (!r.divided || Math.abs(r.each * 2 - Math.round(r.each * 2)) < 1e-9))
    .map(({ divided: _, ...r }) => r);

  function near(i: number): number[] {
    const ks: number[] = [];
    for (let k = Math.max(0, i - TOTAL_NEAR); k <= Math.min(features.length - 1, i + TOTAL_NEAR); k++) if (k !== i && outside(k)) ks.push(k);
    return ks;
  }
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
