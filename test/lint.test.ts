// lint: each rule on a question built to break it (and on one that must pass), the stage's
// diagnostics, and `make lint` over a stored set's records. On real papers the scorer's --lint runs over the end-to-end outputs (e2e-kcsat,
// e2e-families, ocr-path), which already ingest every paper of ../shared.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../pipeline/config.ts';
import type { PageInfo, Question, Span } from '../pipeline/document.ts';
import { Diagnostics } from '../pipeline/diagnostics.ts';
import { bracketPieces, cjkRadical, controlCharacters, doubledText, duplicateOption, emptyOption, furnitureRegion, legacyFont, privateUse } from '../pipeline/lint/rules.ts';
import { lintRecords, lintSet } from '../pipeline/lint/records.ts';
import { TEST_OUT } from './helpers.ts';
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

  it('CJK radical code points left in the text (⺀ has no ideograph), not the ideographs', () => {
    expect(cjkRadical.check(question({ stem: '下列各数中，最⼤的是 ⺀' }), [])[0].message).toMatch(/stem: .*U\+2F24 U\+2E80/);
    expect(cjkRadical.check(question({ stem: '下列各数中，最大的是' }), [])).toEqual([]);
  });

  it('text in a legacy 8-bit font: runs the text layer marked, or a stored text of words no language spells', () => {
    const marked: Span = { ...span('fuEufyf[kr esa ls dkSu', [60, 100, 200, 112]), legacy: true };
    const line = { page: 1, column: 0, bbox: marked.bbox, spans: [marked] };
    expect(legacyFont.check(question({ lines: [line], stem: 'Which number is prime?' }), [])[0].message).toMatch(/legacy 8-bit font.*fuEufyf\[kr/);
    const stored = question({ stem: 'Which of the following numbers is prime?\nfuEufyf[kr esa ls dkSu lh la[;k vHkkT; gS\\' });
    expect(legacyFont.check(stored, [])[0].message).toMatch(/^stem: 4 of 8 words spelled as no language/);
    expect(legacyFont.check(question({ stem: 'Dissolve NaCl and KMnO4 in water: what mass (g/mol) of HClO forms?' }), [])).toEqual([]);
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

describe('make lint: the rules over a stored set', () => {
  const record = (n: number, stem: string, options: string[] = ['12', '15']) => ({ id: `p-main-${n}`, source: { file: 'p.pdf' }, section: null, number: n, page: 2, stem, options: options.map((text, i) => ({ label: 'AB'[i], text })) });
  const records = [
    record(1, 'Which of the following numbers is prime?'),
    record(2, 'The side of a square is 6 cm.\n,d oxZ dh Hkqtk 6 lseh gSA mldk {ks=kQy Kkr dhft,A'),
    record(3, '最⼤的是', ['12', '12']),
  ];

  it('reads each record back as a question and reports file, page, item and rule', () => {
    const found = lintRecords(records);
    expect(found.map(d => [d.item, d.rule])).toEqual([['p-main-2', 'lint/legacy-font'], ['p-main-3', 'lint/cjk-radical'], ['p-main-3', 'lint/duplicate-option']]);
    expect(found[0]).toMatchObject({ file: 'p.pdf', page: 2, severity: 'warning' });
  });

  it('prints the findings and a summary, exits 1 on findings, 0 when clean, 2 without a set', () => {
    const out = path.join(TEST_OUT, 'lint-cli');
    fs.rmSync(out, { recursive: true, force: true });
    const write = (year: string, list: object[]) => {
      fs.mkdirSync(path.join(out, year), { recursive: true });
      fs.writeFileSync(path.join(out, year, 'items.jsonl'), list.map(r => JSON.stringify(r)).join('\n') + '\n');
    };
    write('2031', records);
    write('2032', [records[0]]);
    expect(lintSet({ year: '2032', outDir: out })).toMatchObject({ code: 0, lines: [expect.stringMatching(/1 records in .*, 1 clean, 0 findings$/)] });
    expect(lintSet({ year: '2033', outDir: out })).toMatchObject({ code: 2, lines: [expect.stringMatching(/^lint: no items\.jsonl/)] });
    // The command itself, as `make lint YEAR=2031 OUT=…` runs it.
    const run = spawnSync('npx', ['tsx', 'pipeline/lint/cli.ts'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, YEAR: '2031', OUT: out } });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^warning: p\.pdf, page 2, item p-main-2: stem: .* \[lint\/legacy-font\]$/m);
    expect(run.stdout).toMatch(/lint: 3 records in .*items\.jsonl, 1 clean, 3 findings \(lint\/legacy-font=1 lint\/cjk-radical=1 lint\/duplicate-option=1\)\n$/);
  }, 60_000);
});
