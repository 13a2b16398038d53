// gaps: numbers a run of questions skips are reported, unless the paper's stated count or its key
// explains them (a selection that keeps a longer form's numbers).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../pipeline/config.ts';
import { Diagnostics } from '../pipeline/diagnostics.ts';
import type { PaperDocument, Question } from '../pipeline/document.ts';
import type { StageContext } from '../pipeline/stage.ts';
import { gapsStage } from '../pipeline/stages/gaps.ts';
import { loadTemplates } from '../pipeline/template.ts';
import { statedCount } from '../pipeline/text/stated-count.ts';

const templates = loadTemplates(path.join(ROOT, 'templates'), ROOT);
const of = (id: string) => templates.find(t => t.id === id)!;

/** A paper with these numbers (in one section) and this cover, and a key of these numbers if given. */
function paper(numbers: number[], cover: string, key: number[] | null = null, template = 'generic'): PaperDocument {
  const questions = numbers.map(n => ({ id: `p-${n}`, number: n, section: null, page: 1, lines: [] }) as unknown as Question);
  return {
    cover, lines: [], questions, template: of(template), messages: new Diagnostics('p.pdf'),
    keyEntries: key && key.map(number => ({ section: null, number })),
  } as unknown as PaperDocument;
}
const run = async (doc: PaperDocument) => {
  await gapsStage().run(doc, {} as StageContext);
  return doc.messages.list.map(m => `${m.severity} ${m.rule}${m.item ? ` ${m.item}` : ''}`);
};

describe('gaps', () => {
  it('reads the count a paper states, by its template\'s patterns, first statement first', () => {
    expect(statedCount('INSTRUCCIONES 1. Esta prueba contiene 65 preguntas, 60 de las cuales serán consideradas', of('paes').re.count)).toBe(65);
    expect(statedCount('1. Esta prueba consta de 80 preguntas de los tres ejes', of('paes').re.count)).toBe(80);
    expect(statedCount('This paper contains 12 questions. Answer all of them.', of('generic').re.count)).toBe(12);
    expect(statedCount('Đề thi gồm 50 câu trắc nghiệm', of('generic').re.count)).toBe(50);
    expect(statedCount('본 시험은 총 30문항입니다', of('generic').re.count)).toBe(30);
    expect(statedCount('本试卷共 20 小题', of('generic').re.count)).toBe(20);
    expect(statedCount('Answer every question. Calculators are not allowed.', of('generic').re.count)).toBeNull();
  });

  it('reads a stated count OCR spaced out character by character (`11 問 を`, `12 문 항 을`, `共 5 小 题`)', () => {
    expect(statedCount('この 冊子 は 完全 版から11 問 を 抜粋 し たもので す', of('generic').re.count)).toBe(11);
    expect(statedCount('이 문제지는 전체 문항 중 12 문 항 을 뽑은 것으로', of('generic').re.count)).toBe(12);
    expect(statedCount('本 试卷 共 5 小 题', of('generic').re.count)).toBe(5);
  });

  it('reads a stated count as printed where the text layer spaces a word after its virama, or words stand between (Hindi, Arabic)', () => {
    expect(statedCount('इस चयन में पूरे प्रश् न-पत्र के 16 प्रश् न हैं; प्रत् येक प्रश् न अपनी मूल संख् या रखता है।', of('generic').re.count)).toBe(16);
    expect(statedCount('يتضمن هذا النموذج 9 سؤا الً مختارة من الاختبار الكامل', of('generic').re.count)).toBe(9);
    expect(statedCount('يتكون هذا الاختبار من 12 سؤالًا.', of('generic').re.count)).toBe(12);
  });

  it('takes gaps as by design where the stated count is what the paper holds', async () => {
    expect(await run(paper([1, 2, 4, 5, 7, 8], 'Este modelo contiene 6 preguntas.'))).toEqual(['info gaps/by-design']);
  });

  it('takes gaps as by design where the key skips the same numbers', async () => {
    expect(await run(paper([1, 2, 4, 5, 7, 8], 'Quiz', [1, 2, 4, 5, 7, 8]))).toEqual(['info gaps/by-design']);
  });

  it('reports a gap nothing explains, and a stated count the paper does not reach', async () => {
    expect(await run(paper([1, 2, 4, 5], 'Quiz', [1, 2, 3, 4, 5]))).toEqual(['warning gaps/number-gap p-4']);
    expect(await run(paper([1, 2, 4, 5], 'This quiz has 5 questions.'))).toEqual(['warning gaps/count-differs', 'warning gaps/number-gap p-4']);
    expect(await run(paper([1, 2, 3], 'This quiz has 3 questions.'))).toEqual([]);
  });
});
