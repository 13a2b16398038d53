// emit: one record per question in the three modalities, as the contract names them.
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
  });
});
