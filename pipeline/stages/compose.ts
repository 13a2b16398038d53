// compose: the stem as Markdown with `$…$` formulas, from the lines before the options, without
// the printed number, the point marker, or the labels inside a drawing (a figure's A, B, O, x, y
// belong to the crop, not the text; a table's cells stay, they are content).
import { contains } from '../document.ts';
import type { PaperDocument, Question } from '../document.ts';
import type { Stage } from '../stage.ts';
import { lineText, type OnDoubt } from '../text/line-text.ts';
import { pointsPattern, type Template } from '../template.ts';

export function composeStem(q: Question, t: Template, onDoubt?: OnDoubt): string {
  const drawings = q.figures.filter(f => f.kind !== 'table');
  const keep = (s: Question['anchor'][number]) => !q.anchor.includes(s) && !drawings.some(f => f.page === s.page && contains(f.bbox, s.bbox, 1));
  let stem = q.lines.slice(0, q.stemLines).map(l => lineText(l.spans.filter(keep), onDoubt)).filter(Boolean).join('\n');
  if (t.re.points) stem = stem.replace(new RegExp(`\\s*(?:${t.re.points.source})`, 'gu'), '');
  else if (q.points !== null) {
    stem = stem.replace(new RegExp(`\\s*${pointsPattern(t, q.points).source}`, 'u'), '');
  }
  // A stop printed apart from its number (`13` `.`) is not the stem's first character.
  return stem.replace(/^[\s.．、]+/u, '').trim();
}

export function composeStage(): Stage {
  return {
    name: 'compose',
    kind: 'processor',
    run(doc: PaperDocument) {
      for (const q of doc.questions) {
        q.stem = composeStem(q, doc.template, (doubt, latex) =>
          doc.messages.warn('math/doubt', `a formula rebuilt with doubts (${doubt}): ${latex}`, { page: q.page, item: q.id, stage: 'compose' }));
        if (!q.stem) doc.messages.warn('compose/empty-stem', 'the question has no stem text', { page: q.page, item: q.id, stage: 'compose' });
      }
    },
  };
}
