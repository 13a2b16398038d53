// totals: the marks a paper states it is worth (`The total mark for this paper is 75.`, `Total: 20`)
// held against the sum of its questions' points. A mark misread or missed shows here, as a warning
// on the paper; where they agree, that is recorded too (the points were all read).
import type { Stage } from '../stage.ts';
import { frontText, statedCount } from '../text/stated-count.ts';

export function totalsStage(): Stage {
  return {
    name: 'totals',
    kind: 'processor',
    run(doc) {
      const total = statedCount(frontText(doc), doc.template.re.total);
      if (total === null || !doc.questions.length) return;
      const without = doc.questions.filter(q => q.points === null);
      const sum = doc.questions.reduce((n, q) => n + (q.points ?? 0), 0);
      if (sum === total && !without.length) {
        doc.messages.info('totals/match', `the questions' points sum to the ${total} marks the paper states`, { stage: 'totals' });
        return;
      }
      const missing = without.length ? ` (${without.length} question(s) without points: ${without.map(q => q.number).join(', ')})` : '';
      doc.messages.warn('totals/differ', `the paper states ${total} marks in total; its questions' points sum to ${sum}${missing}`, { stage: 'totals' });
    },
  };
}
