// gaps: numbers a section's run of questions skips. A form that keeps a longer form's numbers (a
// DEMRE "selección de preguntas": 2, 3, 4, 6, 7, 9 …) skips them by design, and says so where it
// states how many questions it holds, or where its key skips the same numbers; only a gap nothing
// explains is reported, and a stated count the paper does not reach is reported too.
import type { PaperDocument } from '../document.ts';
import type { Stage } from '../stage.ts';
import { frontText, statedCount, statesUnreadCount } from '../text/stated-count.ts';
import { judgeNumbers } from '../structure/judge.ts';

interface Gap { section: string | null; after: number; before: number; page: number; item: string }

/** Numbers missing inside each section's run, in reading order. */
export function findGaps(doc: PaperDocument): Gap[] {
  const gaps: Gap[] = [];
  const last = new Map<string, number>();
  for (const q of doc.questions) {
    const prev = last.get(q.section ?? '');
    if (prev !== undefined && q.number > prev + 1) gaps.push({ section: q.section, after: prev, before: q.number, page: q.page, item: q.id });
    last.set(q.section ?? '', q.number);
  }
  return gaps;
}

const missing = (g: Gap) => Array.from({ length: g.before - g.after - 1 }, (_, i) => g.after + 1 + i);

export function gapsStage(): Stage {
  return {
    name: 'gaps',
    kind: 'processor',
    run(doc) {
      if (!doc.questions.length) return;
      const gaps = findGaps(doc);
      const stated = statedCount(frontText(doc), doc.template.re.count);
      const found = doc.questions.length;
      if (stated !== null && stated !== found) doc.messages.warn('gaps/count-differs', `the paper states ${stated} questions; ${found} were found`, { stage: 'gaps' });
      // A count the reading does not reach, a key with numbers it lacks: the structure's verdict hears of them.
      judgeNumbers(doc, stated, stated === null && statesUnreadCount(frontText(doc), doc.template.re.count));
      if (!gaps.length) return;
      const skipped = gaps.flatMap(g => missing(g).map(n => ({ section: g.section, number: n })));
      const list = skipped.map(s => s.number).join(', ');
      // The key skips them too: it answers (nearly) every question found and none of the skipped numbers.
      const key = doc.keyEntries;
      const inKey = (s: { section: string | null; number: number }) => !!key?.some(k => k.number === s.number && (k.section === null || k.section === s.section));
      const keyed = key ? doc.questions.filter(q => inKey(q)).length : 0;
      if (stated === found) {
        doc.messages.info('gaps/by-design', `numbers ${list} are not printed: the paper states ${stated} questions and holds ${found} (a selection that keeps a longer form's numbers)`, { stage: 'gaps' });
        return;
      }
      if (key && key.length && keyed >= found * 0.9 && !skipped.some(inKey)) {
        doc.messages.info('gaps/by-design', `numbers ${list} are not printed, and the key has no entry for them either: the form skips them by design`, { stage: 'gaps' });
        return;
      }
      for (const g of gaps) {
        const n = g.before - g.after - 1;
        doc.messages.warn('gaps/number-gap', `question ${g.before} follows ${g.after}: ${n} number(s) missing (${missing(g).join(', ')})`, { page: g.page, item: g.item, stage: 'gaps' });
      }
    },
  };
}
