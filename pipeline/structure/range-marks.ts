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
import { joinWrapped } from '../text/script.ts';
import { markText, markValue } from './marks.ts';
import stringSimilarity from 'string-similarity';

/** How many lines around a range a section's total may stand on (`10 marks` above `Attempt Questions 1–10`). */
const TOTAL_NEAR = 2;
/**
 * Two statements of marks worded this alike (Dice over their letters, numbers and spaces left out)
 * are worded the same but for OCR's slips: `… 2 marks each` against `… 10 marks` (a section's total)
 * is 0.91, below it.
 */
const WORDING_ALIKE = 0.95;

/** A statement's wording: its letters alone, lower-cased (numbers and spaces vary from one to the next, and OCR joins words). */
const wordingOf = (text: string) => text.replace(/[^\p{L}]/gu, '').toLocaleLowerCase();

/** A range names at most this many questions (a statement, not a year span or a page range of a long paper). */
const RANGE_MOST = 200;

export interface RangeMarks { from: number; to: number; each: number; line: number }

/** A line above a page's body, set apart with the page's head: its text, and the body line it stands before. */
export interface HeadLine { text: string; before: number }

/** The ranges the paper's text outside its questions gives marks for, in reading order. */
export function rangeMarks(features: LineFeatures[], roles: LineRole[], doc: PaperDocument, head: readonly HeadLine[] = []): RangeMarks[] {
  const t = doc.template;
  if (!t.re.pointsRange.length || !t.re.pointsHead) return [];
  // Each statement's marks as printed, and whether they are a total to divide over its range.
  const out: (Omit<RangeMarks, 'each'> & { value: number; divided: boolean; wording: string })[] = [];
  const outside = (i: number) => roles[i] !== 'question' || features[i].heading !== null;
  // Lines in reading order, each at its place among the body's (a head line just before its page's first).
  const lines = [
    ...head.map(h => ({ text: markText(h.text).trim(), at: h.before - 0.5, body: -1 })),
    ...features.flatMap((f, i) => (outside(i) ? [{ text: markText(f.text).trim(), at: i, body: i }] : [])),
  ].sort((a, b) => a.at - b.at);
  const runsOn = (k: number) => !!lines[k + 1] && (lines[k].body < 0 ? lines[k + 1].body < 0 : lines[k + 1].body === lines[k].body + 1);
  // A range set over two lines of a block (`… الأسئلة من 3` / `إلى 5 لكل منها 3 درجات.`) is read on
  // the first: the second's words up to the range's end move up to it.
  lines.forEach((l, k) => {
    if (!runsOn(k)) return;
    const next = lines[k + 1];
    const joined = joinWrapped(l.text, next.text);
    // Where next's text starts in the joined one (after a space, or none in an unspaced script).
    const nextAt = joined.length - next.text.length;
    const across = statementsOf(joined).find(r => r.at < l.text.length && r.end >= nextAt);
    if (!across) return;
    l.text = joined.slice(0, across.end + 1);
    next.text = next.text.slice(across.end + 1 - nextAt);
  });
  // Each line's statements: a line may state several (`Từ câu 1 đến câu 7, mỗi câu 5 điểm. Từ câu 8
  // đến câu 10, …`), each up to where the next range opens; the last may run on to the next line of
  // the same block (a heading set over two lines: `…, mỗi` / `câu 5 điểm.`), up to that line's first range.
  const found = lines.map(l => statementsOf(l.text));
  lines.forEach((l, k) => {
    const next = lines[k + 1];
    found[k].forEach(({ from, to, at, end }, j) => {
      const last = j === found[k].length - 1;
      let statement = l.text.slice(end, last ? l.text.length : found[k][j + 1].at);
      let own = t.re.pointsHead!.exec(statement);
      if (!own && last && runsOn(k)) {
        statement = joinWrapped(statement, next.text.slice(0, found[k + 1][0]?.at ?? next.text.length));
        own = t.re.pointsHead!.exec(statement);
      }
      if (own) {
        const value = markValue(own);
        const said = l.text.slice(at, end) + statement;
        const each = !!t.re.pointsEach?.test(said);
        // Its wording: the words before its range too, where it is the line's first (a later one's stand in the statement before).
        out.push({ from, to, line: l.at, value, divided: !each, wording: wordingOf((j ? '' : l.text.slice(0, at)) + said) });
        return;
      }
      // A section's total on a line of its own beside the range.
      if (l.body < 0) return;
      const i = l.body;
      const total = near(i).map(k2 => ({ k: k2, m: t.re.pointsHead!.exec(markText(features[k2].text)) }))
        .find(({ k: k2, m: tm }) => tm && markText(features[k2].text).replace(tm[0], '').replace(/[\s\p{P}]/gu, '').length <= 12);
      if (total?.m) out.push({ from, to, line: i, value: markValue(total.m), divided: true, wording: '' });
    });
  });
  // A paper states its ranges' marks in one wording: a statement worded as one that gives its marks
  // to each question does too, where OCR lost the word for "each" (`mit je` read `mitje`).
  for (const r of out) {
    if (r.divided && r.wording && out.some(o => !o.divided && o.wording && stringSimilarity.compareTwoStrings(o.wording, r.wording) >= WORDING_ALIKE)) r.divided = false;
  }
  // A division gives only whole or half marks (one that gives less is no statement of marks); marks
  // stated for each question are as printed (`1,25 điểm`).
  return out
    .map(({ from, to, line, value, divided }) => ({ from, to, line, each: divided ? value / (to - from + 1) : value, divided }))
    .filter(r => Number.isFinite(r.each) && r.each > 0 && (!r.divided || Math.abs(r.each * 2 - Math.round(r.each * 2)) < 1e-9))
    .map(({ divided: _, ...r }) => r);

  /** The ranges a line names, in order (the template's first pattern that names any): where each opens and where its numbers end. */
  function statementsOf(text: string): { from: number; to: number; at: number; end: number }[] {
    for (const re of t.re.pointsRange) {
      const all = [...text.matchAll(new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`))]
        .map(m => ({ from: Number(m.groups?.from), to: Number(m.groups?.to), at: m.index!, end: m.index! + m[0].length - 1 }))
        // `6번부터 6번까지`: a statement for one question is a range too.
        .filter(r => r.from >= 1 && r.to >= r.from && r.to - r.from < RANGE_MOST);
      if (all.length) return all;
    }
    return [];
  }

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
