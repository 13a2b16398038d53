// emit: one record per question in the three modalities, as the contract names them, each with
// the structural verdict on its paper (`structure`).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../pipeline/config.ts';
import { toRecord } from '../pipeline/stages/emit.ts';
import { analyse } from './analyse.ts';

describe('emit', () => {
  it('builds TO, TI and IO from the document without changing it', async () => {
    const doc = await analyse(path.join(ROOT, 'fixtures/samples/2026-sample-math-dif.pdf'));
    doc.pages.forEach(p => { p.image = `pages/p${p.number}.png`; });
    const q4 = doc.questions.find(q => q.number === 4)!;
    q4.figures = [{ page: 1, bbox: [500, 400, 700, 520], kind: 'drawing', path: 'figures/f.png' }];
    const before = JSON.stringify(doc.questions.map(q => [q.stem, q.options, q.regions]));
    const r = toRecord(doc, q4);
    expect(JSON.stringify(doc.questions.map(q => [q.stem, q.options, q.regions]))).toBe(before);
    expect(r).toMatchObject({ section: 'common', number: 4, type: 'mcq', points: 3, page: 1, answer: null, error_rate: null, difficulty: null, review: { status: 'pending' } });
    expect(r.source).toEqual({ file: '2026-sample-math-dif.pdf', sha256: doc.sha256, pages: 4 });
    expect(r.modalities.TO.text).toContain('① 1');
    expect(r.modalities.TO.text.startsWith(r.stem)).toBe(true);
    expect(r.modalities.TI).toEqual({ text: r.modalities.TO.text, images: ['figures/f.png'] });
    expect(r.modalities.IO).toEqual({ page_image: ['pages/p1.png'], question: { number: 4, section: 'common', regions: r.regions } });
    expect(r.regions.every(g => g.bbox.length === 4 && g.bbox[0] < g.bbox[2] && g.bbox[1] < g.bbox[3])).toBe(true);
    // The decoder's verdict rides on every record, apart from the reviewer's review.status.
    expect(r.structure).toEqual({ status: doc.reading!.reasons.length ? 'needs-review' : 'sure', reasons: doc.reading!.reasons, coverage: Math.round(doc.reading!.coverage * 1000) / 1000, unsure: doc.reading!.unsure.includes(4) });
  });

  it('says on each record of an unsure paper that it needs review and why, and which questions were read unsurely', async () => {
    const doc = await analyse(path.join(ROOT, 'fixtures/samples/2026-sample-math-dif.pdf'));
    const [a, b] = doc.questions;
    // The decoder's verdict as judge.ts leaves it: reasons, coverage, the unsure numbers and a warning naming each unsure question.
    doc.reading = { coverage: 0.41234, unsure: [b.number], reasons: ['the reading explains 41% of the paper\'s text'], endReason: null };
    doc.messages.warn('structure/unsure', `question ${b.number} is read unsurely`, { item: b.id, stage: 'segment' });
    const ra = toRecord(doc, a), rb = toRecord(doc, b);
    expect(rb.structure).toEqual({ status: 'needs-review', reasons: ['the reading explains 41% of the paper\'s text'], coverage: 0.412, unsure: true });
    expect(ra.structure).toMatchObject({ status: 'needs-review', unsure: false });
    expect(rb.review).toEqual({ status: 'pending' });
    // A question's own flag, where the decoder sets one, decides.
    a.unsure = true;
    expect(toRecord(doc, a).structure?.unsure).toBe(true);
    // An unsure number whose warning names no question: every question of that number not claimed by another warning.
    doc.messages.list.splice(doc.messages.list.findIndex(d => d.rule === 'structure/unsure'), 1);
    expect(toRecord(doc, b).structure?.unsure).toBe(true);
    // Sure: no reasons.
    doc.reading = { coverage: 0.98, unsure: [], reasons: [], endReason: null };
    expect(toRecord(doc, b).structure).toEqual({ status: 'sure', reasons: [], coverage: 0.98, unsure: false });
  });
});
