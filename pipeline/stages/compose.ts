// compose: the stem as Markdown with `$…$` formulas, from the lines before the options, without
// the printed number, the point marker, or the labels inside a drawing (a figure's A, B, O, x, y
// belong to the crop, not the text; a table's cells stay, they are content). A question printed in
// two languages, one of them in a legacy 8-bit font nobody can read as extracted, opens with the
// readable one; the other follows, kept.
import { contains } from '../document.ts';
import type { PaperDocument, Question, Span } from '../document.ts';
import type { Stage } from '../stage.ts';
import { lineText, type OnDoubt } from '../text/line-text.ts';
import { pointsPattern, type Template } from '../template.ts';

export function composeStem(q: Question, t: Template, onDoubt?: OnDoubt): string {
  const drawings = q.figures.filter(f => f.kind !== 'table');
  const keep = (s: Question['anchor'][number]) => !q.anchor.includes(s) && !drawings.some(f => f.page === s.page && contains(f.bbox, s.bbox, 1));
  const lines = q.lines.slice(0, q.stemLines).map(l => l.spans.filter(keep)).map(spans => ({ text: lineText(spans, onDoubt), legacy: mostlyLegacy(spans) })).filter(l => l.text);
  // Readable lines first where the stem has both (the same question in a second language).
  const readable = lines.filter(l => !l.legacy);
  const ordered = readable.length < lines.length && readable.some(l => /\p{L}/u.test(l.text)) ? [...readable, ...lines.filter(l => l.legacy)] : lines;
  let stem = ordered.map(l => l.text).join('\n');
  if (t.re.points) stem = stem.replace(new RegExp(`\\s*(?:${t.re.points.source})`, 'gu'), '');
  else if (q.points !== null) {
    stem = stem.replace(new RegExp(`\\s*${pointsPattern(t, q.points).source}`, 'u'), '');
  }
  // A stop printed apart from its number (`13` `.`) is not the stem's first character.
  return stem.replace(/^[\s.．、]+/u, '').trim();
}

/** Whether most of a line's characters are set in a legacy 8-bit font. */
function mostlyLegacy(spans: Span[]): boolean {
  const count = (list: Span[]) => list.reduce((n, s) => n + s.text.replace(/\s/g, '').length, 0);
  return count(spans.filter(s => s.legacy)) * 2 > count(spans);
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
