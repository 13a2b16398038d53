// Which label scheme each question prints, and what its labels are there. A paper may choose with
// `A.`–`D.` in one section and open parts `(a)`, `(b)` in another: each scheme the paper prints
// (learn.ts) takes the questions whose labels run in it, and whether its labels are options or parts
// is decided over those questions alone (label-role.ts), not once for the whole paper.
import type { Line } from '../document.ts';
import { rawText } from '../text/line-text.ts';
import type { Template } from '../template.ts';
import type { OptionScheme } from './learn.ts';
import { asParts, decideLabels, readsAsChoices, readsAsParts, type LabelStats } from './label-role.ts';

/** The questions one scheme takes, and what its labels were decided to be there. */
export interface LabelGroup {
  markers: string[];
  /** Indices of the questions in the group. */
  questions: number[];
  /** The template the group's questions are read with (its labels as options, or as parts). */
  template: Template;
  parts: boolean;
  stats: LabelStats | null;
}

/** The template with another scheme's labels as its options. */
function withScheme(t: Template, s: OptionScheme): Template {
  return Object.freeze({ ...t, options: { ...t.options, markers: s.markers, pattern: s.pattern }, re: { ...t.re, option: s.pattern ? new RegExp(s.pattern, 'gu') : null } });
}

/** The longest run of a template's option labels in order (A, then B, …) in a question's lines. */
function longestRun(lines: Line[], t: Template): number {
  const markers = t.options.markers;
  if (!markers.length) return 0;
  let best = 0, run = 0;
  for (const l of lines) {
    const text = rawText(l.spans.filter(s => !s.math));
    const labels = t.re.option ? [...text.matchAll(new RegExp(t.re.option.source, 'gu'))].map(m => m[1]) : [...text].filter(c => markers.includes(c));
    for (const label of labels) {
      const i = markers.indexOf(label);
      if (i === 0) run = 1;
      else if (i === run && run > 0) run++;
      best = Math.max(best, run);
    }
  }
  return best;
}

/**
 * The paper's questions grouped by the scheme they print (the longest run of two labels or more; the
 * paper's first scheme on a tie, and for a question with none), each group's labels decided as options
 * or parts over its own questions. With no other scheme there is one group: the whole paper, as before.
 */
export function labelGroups(questions: Line[][], t: Template, others: readonly OptionScheme[]): LabelGroup[] {
  const templates = [t, ...others.map(s => withScheme(t, s))];
  const of = questions.map(lines => {
    if (!others.length) return 0;
    const runs = templates.map(x => longestRun(lines, x));
    const best = Math.max(...runs);
    return best >= 2 ? runs.indexOf(best) : 0;
  });
  return templates.flatMap((x, k) => {
    const mine = of.flatMap((g, i) => (g === k ? [i] : []));
    if (!mine.length) return [];
    const decided = decideLabels(mine.map(i => questions[i]), x);
    const group = { markers: x.options.markers, template: decided.template, parts: decided.parts, stats: decided.stats };
    // Where the scheme's labels are options, a question whose own labels plainly open parts keeps them
    // as parts; where they are parts, one whose own labels plainly are choices keeps them as options.
    const stats = decided.stats;
    if (!stats) return [{ ...group, questions: mine }];
    const own = mine.filter(i => (decided.parts ? readsAsChoices(questions[i], x, stats) : readsAsParts(questions[i], x, stats)));
    if (!own.length || own.length === mine.length) return [{ ...group, questions: mine }];
    const apart = decided.parts ? { template: x, parts: false } : { template: asParts(x), parts: true };
    return [{ ...group, questions: mine.filter(i => !own.includes(i)) }, { ...group, questions: own, ...apart }];
  });
}
