// compose: a question printed in two languages, one of them in a legacy 8-bit font, opens with the
// readable one (fixtures/legacy, made by fixtures/make-legacy.ts); a paper in the legacy font alone
// keeps its order, and the lint says, for each item, that its text is not readable.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../pipeline/config.ts';
import type { Line, Question, Span } from '../pipeline/document.ts';
import { composeStem } from '../pipeline/stages/compose.ts';
import { lintDocument } from '../pipeline/stages/lint.ts';
import { analyse, templates } from './analyse.ts';

const generic = templates.find(t => t.id === 'generic')!;
const span = (text: string, y: number, legacy = false): Span => ({ page: 1, text, bbox: [60, y - 10, 60 + text.length * 5, y + 2], baseline: y, size: 12, font: legacy ? 'L' : 'T', math: false, ...(legacy ? { legacy } : {}) });
const line = (s: Span): Line => ({ page: 1, column: 0, bbox: s.bbox, spans: [s] });

function question(lines: Line[]): Question {
  return {
    id: 'x-main-1', section: null, number: 1, type: 'mcq', points: null, marking: null, parts: [], flags: [], page: 1, lines, anchor: [],
    stemLines: lines.length, regions: [], stem: '', options: [], figures: [], answer: null, errorRate: null, difficulty: null,
  };
}

describe('compose', () => {
  it('puts the readable lines first where a stem holds legacy-font lines too, and keeps both', () => {
    const q = question([line(span('fuEufyf[kr esa ls dkSu lh la[;k vHkkT; gS\\', 100, true)), line(span('Which of the following numbers is prime?', 120))]);
    expect(composeStem(q, generic)).toBe('Which of the following numbers is prime?\nfuEufyf[kr esa ls dkSu lh la[;k vHkkT; gS\\');
    // All legacy (or all readable): the order stays.
    const only = question([line(span(',d oxZ dh Hkqtk 6 lseh gSA', 100, true)), line(span('mldk {ks=kQy Kkr dhft,A', 120, true))]);
    expect(composeStem(only, generic)).toBe(',d oxZ dh Hkqtk 6 lseh gSA\nmldk {ks=kQy Kkr dhft,A');
  });

  it.each([
    ['hi-en-bilingual', /^Which of the following numbers is prime\?\nfuEufyf\[kr/],
    ['hi-legacy', /^fuEufyf\[kr esa ls dkSu/],
  ])('%s: every item flagged with page, item and rule; the English leads where there is one', async (paper, first) => {
    const doc = await analyse(path.join(ROOT, 'fixtures', 'legacy', `${paper}.pdf`));
    lintDocument(doc);
    expect(doc.questions.map(q => q.number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(doc.questions[0].stem).toMatch(first);
    if (paper === 'hi-en-bilingual') for (const q of doc.questions) expect(q.stem, `question ${q.number}`).toMatch(/^[A-Z][a-z]* [a-z]/);
    const flagged = doc.messages.list.filter(m => m.rule === 'lint/legacy-font');
    expect(flagged.map(m => m.item)).toEqual(doc.questions.map(q => q.id));
    expect(flagged.every(m => m.severity === 'warning' && m.page === 1)).toBe(true);
  }, 60_000);
});
