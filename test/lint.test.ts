// lint: each rule on a question built to break it (and on one that must pass), the stage's
// diagnostics. On real papers the scorer's --lint runs over the end-to-end outputs (e2e-kcsat,
// e2e-families, ocr-path), which already ingest every paper of ../shared.
import { describe, expect, it } from 'vitest';
import type { PageInfo, Question, Span } from '../pipeline/document.ts';
import { Diagnostics } from '../pipeline/diagnostics.ts';
import { bracketPieces, controlCharacters, doubledText, duplicateOption, emptyOption, furnitureRegion, privateUse } from '../pipeline/lint/rules.ts';
import { lintDocument } from '../pipeline/stages/lint.ts';
import type { PaperDocument } from '../pipeline/document.ts';

function question(over: Partial<Question> = {}): Question {
  return {
    id: 'p-common-1', section: 'common', number: 1, type: 'mcq', points: 2, marking: null, parts: [], flags: [], page: 1, lines: [], anchor: [],
    stemLines: 0, regions: [], stem: '다음 값을 구하시오.', options: ['1', '2', '3', '4', '5'].map((t, i) => ({ label: String(i + 1), text: t })),
    figures: [], answer: null, errorRate: null, difficulty: null, ...over,
  };
}

const span = (text: string, bbox: [number, number, number, number]): Span => ({ page: 1, text, bbox, baseline: bbox[3], size: 10, font: 'F', math: false });

function page(spans: Span[], furniture: Span[]): PageInfo {
  return { number: 1, width: 600, height: 800, body: { y0: 50, y1: 750 }, columns: [], section: null, spans, shapes: [], furniture };
}

describe('lint rules', () => {
  it('control characters: a U+0001 from an undecoded font, but not a line break', () => {
    expect(controlCharacters.check(question({ stem: 'x\u0001y' }), [])[0].message).toMatch(/U\+0001/);
    expect(controlCharacters.check(question({ stem: '첫 줄\n둘째 줄\t끝' }), [])).toEqual([]);
  });

  it('Private Use Area code points left undecoded', () => {
    expect(privateUse.check(question({ options: [{ label: 'A', text: 'a\ue0eab' }] }), [])[0].message).toMatch(/option A.*U\+E0EA/);
    expect(privateUse.check(question(), [])).toEqual([]);
  });

  it('bracket pieces outside a formula, and only there', () => {
    expect(bracketPieces.check(question({ stem: '값은 2⎛⎜⎝ $\\frac12$ − 13⎞⎟⎠ 이다' }), [])[0].message).toMatch(/⎛/);
    expect(bracketPieces.check(question({ stem: '값은 $\\left⎛ x \\right⎞$ 이다' }), [])).toEqual([]);
  });

  it('doubled text: an overprinted heading read twice, not two formulas with the same word between', () => {
    expect(doubledText.check(question({ stem: '구하시오.\n※ 확인 사항확인 사항' }), [])[0].message).toMatch(/확인 사항확인 사항/);
    expect(doubledText.check(question({ stem: '$a$ 의 값과 $b$ 의 값' }), [])).toEqual([]);
    expect(doubledText.check(question({ stem: 'A pesquisa mostra a pesquisa' }), [])).toEqual([]);
  });

  it('empty options, unless the option is a picture with its crop', () => {
    const q = question({ options: [{ label: 'A', text: '' }, { label: 'B', text: '', image: 'figures/x-B.png' }, { label: 'C', text: '3' }] });
    expect(emptyOption.check(q, []).map(f => f.message)).toEqual(['option A has no text and no image']);
  });

  it('duplicate options name the one they repeat', () => {
    const q = question({ options: [{ label: 'A', text: 'P V V' }, { label: 'B', text: 'P' }, { label: 'C', text: 'P V V' }] });
    expect(duplicateOption.check(q, []).map(f => f.message)).toEqual(['option C reads the same as option A: "P V V"']);
    expect(duplicateOption.check(question(), [])).toEqual([]);
  });

  it('a region that holds only furniture (a running head), not one with body text beside it', () => {
    const head = span('FORMA 193 – 2024', [200, 20, 400, 32]);
    const body = span('¿Cuál es el valor?', [60, 100, 300, 112]);
    const p = page([body], [head]);
    const onlyHead = question({ regions: [{ page: 1, column: 0, bbox: [50, 15, 550, 40] }] });
    expect(furnitureRegion.check(onlyHead, [p])[0].message).toMatch(/FORMA 193/);
    const both = question({ regions: [{ page: 1, column: 0, bbox: [50, 15, 550, 120] }] });
    expect(furnitureRegion.check(both, [p])).toEqual([]);
  });

  it('the stage puts each finding on the document with page, item, rule and severity', () => {
    const doc = { questions: [question({ page: 3, stem: '확인 사항확인 사항' }), question({ id: 'p-common-2' })], pages: [], messages: new Diagnostics('x.pdf'), counters: {} } as unknown as PaperDocument;
    lintDocument(doc);
    expect(doc.messages.list).toEqual([expect.objectContaining({ rule: 'lint/doubled-text', severity: 'warning', page: 3, item: 'p-common-1', file: 'x.pdf', stage: 'lint' })]);
    expect(doc.counters.lintClean).toBe(1);
  });
});
