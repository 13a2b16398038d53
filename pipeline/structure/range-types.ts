// The kind of answer a paper states once for a range of questions: `For questions 16-20, solve the
// problem and enter your answer in the grid` (grid-ins: `numeric`), `For questions 1-15, … choose the
// best answer from the choices provided` (`mcq`). The sentence that names the range is read for the
// template's `typeStatements`; the questions of the range get that type, where what they print does
// not say otherwise (a question printing choices is no grid-in).
import type { Question } from '../document.ts';
import type { QuestionType, Template } from '../template.ts';

/** A statement's sentence may run over at most this many lines after the one naming the range. */
const SENTENCE_LINES = 3;
/** A range names at most this many questions (a statement, not a year span). */
const RANGE_MOST = 200;
/** Where a sentence ends: a stop, question or exclamation mark before a space or the end (not `2.5`). */
const SENTENCE_END = /[.!?。！？](?=\s|$)/u;

export interface RangeType { from: number; to: number; type: QuestionType; line: number }

/** The ranges of questions whose answers the paper's sentences state a kind of, in reading order. */
export function rangeTypes(texts: readonly string[], t: Template): RangeType[] {
  if (!t.re.typeStatements.length || !t.re.pointsRange.length) return [];
  const out: RangeType[] = [];
  texts.forEach((text, i) => {
    for (const range of t.re.pointsRange) {
      for (const m of text.matchAll(new RegExp(range.source, 'gu'))) {
        const from = Number(m.groups?.from), to = Number(m.groups?.to);
        if (!(from >= 1 && to > from && to - from < RANGE_MOST)) continue;
        // The sentence from the range on, over the lines it runs on to.
        let sentence = text.slice(m.index!);
        for (let k = i + 1; k <= i + SENTENCE_LINES && k < texts.length && !SENTENCE_END.test(sentence); k++) sentence += ` ${texts[k]}`;
        const end = SENTENCE_END.exec(sentence);
        if (end) sentence = sentence.slice(0, end.index);
        const stated = t.re.typeStatements.find(s => s.re.test(sentence));
        if (stated) out.push({ from, to, type: stated.type, line: i });
      }
    }
  });
  return out;
}

/**
 * Gives the questions of each range the type stated for it: the statement before the question (the
 * section it opens), else any with its number. A question that prints choices keeps them against a
 * statement of written answers; one that reads as choosing several keeps that against plain choice.
 * Returns how many questions changed type.
 */
export function applyRangeTypes(questions: Question[], ranges: RangeType[], lineIndex: Map<Question, number>): number {
  let changed = 0;
  for (const q of questions) {
    const at = lineIndex.get(q) ?? Infinity;
    const fits = ranges.filter(r => q.number >= r.from && q.number <= r.to);
    const r = fits.filter(x => x.line < at).pop() ?? fits[0];
    if (!r || r.type === q.type) continue;
    const choosing = r.type === 'mcq' || r.type === 'mcq-multi';
    if (!choosing && q.options.length >= 2) continue;
    if (r.type === 'mcq' && q.type === 'mcq-multi') continue;
    q.type = r.type;
    changed++;
  }
  return changed;
}
