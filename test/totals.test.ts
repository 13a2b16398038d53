// totals: the total marks a paper states, held against the sum of its questions' points.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../pipeline/config.ts';
import { Diagnostics } from '../pipeline/diagnostics.ts';
import type { PaperDocument, Question } from '../pipeline/document.ts';
import type { StageContext } from '../pipeline/stage.ts';
import { totalsStage } from '../pipeline/stages/totals.ts';
import { loadTemplates } from '../pipeline/template.ts';

const templates = loadTemplates(path.join(ROOT, 'templates'), ROOT);

function paper(points: (number | null)[], cover: string, template = 'generic'): PaperDocument {
  const questions = points.map((p, i) => ({ id: `p-${i + 1}`, number: i + 1, section: null, page: 1, lines: [], points: p }) as unknown as Question);
  return { cover, lines: [], questions, template: templates.find(t => t.id === template)!, messages: new Diagnostics('p.pdf') } as unknown as PaperDocument;
}
const run = async (doc: PaperDocument) => {
  await totalsStage().run(doc, {} as StageContext);
  return doc.messages.list.map(m => `${m.severity} ${m.rule}: ${m.message}`);
};

describe('totals', () => {
  it('records that the points sum to the total the paper states (a quiz\'s `Total: 20`, Cambridge\'s sentence)', async () => {
    expect(await run(paper([7, 6, 7], 'Problem Points Score 1 7 2 6 3 7 Total: 20'))).toEqual(['info totals/match: the questions\' points sum to the 20 marks the paper states']);
    expect(await run(paper([5, 6, 64], '• The total mark for this paper is 75.', 'cambridge-9709'))).toHaveLength(1);
  });

  it('reports a sum that falls short, naming the questions without points', async () => {
    expect(await run(paper([7, null, 7], 'Total: 20'))).toEqual(['warning totals/differ: the paper states 20 marks in total; its questions\' points sum to 14 (1 question(s) without points: 2)']);
  });

  it('says nothing where the paper states no total', async () => {
    expect(await run(paper([1, 2], 'Answer every question.'))).toEqual([]);
  });
});
