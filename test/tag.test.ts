// tag: curriculum trees load and are checked; the tagger scores units by their cues within the
// subjects the section allows, prefers the longer cue, and always gives a path.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../pipeline/config.ts';
import { loadCurricula, loadCurriculum } from '../pipeline/corpus/curriculum.ts';
import type { CorpusRecord } from '../pipeline/corpus/record-text.ts';
import { tagRecord, treesFor } from '../pipeline/corpus/tagger.ts';
import { paperLanguages } from '../pipeline/corpus/tag-stage.ts';

const trees = loadCurricula(path.join(ROOT, 'glossary', 'curriculum'));
const kice = (section: string, stem: string, options: string[] = []): CorpusRecord => ({
  id: `x-${section}-1`, source: { file: '202311-h3-math-pro.pdf', sha256: 'x' }, exam: { family: 'kcsat', language: 'ko', subject: 'mathematics' },
  section, number: 1, stem, options: options.map((text, i) => ({ label: '①②③④⑤'[i], text })), figures: [],
});

describe('curriculum trees', () => {
  it('loads every tree in glossary/curriculum, each with subjects, units and cues', () => {
    expect(trees.length).toBeGreaterThanOrEqual(1);
    for (const t of trees) {
      expect(t.subjects.length, t.id).toBeGreaterThan(0);
      for (const s of t.subjects) for (const u of s.units) expect(u.terms.length + u.formulas.length, `${t.id} ${s.name} > ${u.name}`).toBeGreaterThan(0);
    }
    const kr = trees.find(t => t.id === 'kr-2015-math')!;
    expect(kr.subjects.map(s => [s.name, s.units.map(u => u.name)])).toEqual([
      ['수학I', ['지수함수와 로그함수', '삼각함수', '수열']],
      ['수학II', ['함수의 극한과 연속', '미분', '적분']],
      ['확률과 통계', ['경우의 수', '확률', '통계']],
      ['미적분', ['수열의 극한', '미분법', '적분법']],
      ['기하', ['이차곡선', '평면벡터', '공간도형과 공간좌표']],
    ]);
  });

  it('names the file, the field and what was expected when a tree is wrong', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'curriculum-'));
    const write = (data: unknown) => {
      const f = path.join(dir, 'bad.json');
      fs.writeFileSync(f, JSON.stringify(data));
      return () => loadCurriculum(f);
    };
    const good = { id: 'bad', title: 't', language: 'en', source: 's', applies: { languages: ['en'] }, subjects: [{ name: 'S', units: [{ name: 'U', terms: ['x'] }] }] };
    expect(() => write(good)()).not.toThrow();
    expect(write({ ...good, id: 'other' })).toThrow(/curriculum bad\.json: "id" must be the file name/);
    expect(write({ ...good, subjects: [{ name: 'S', units: [{ name: 'U', terms: 'x' }] }] })).toThrow(/"subjects\[0\]\.units\[0\]\.terms" must be an array/);
    expect(write({ ...good, priors: [{ section: '(', subjects: ['S'] }] })).toThrow(/priors\[0\]\.section is not a valid pattern/);
    expect(write({ ...good, priors: [{ section: 'x', subjects: ['T'] }] })).toThrow(/names "T", which is not a subject of this tree/);
  });
});

describe('tagger', () => {
  it('keeps an elective section to its subject, and tells 수학I from 수학II in the common part by cues', () => {
    expect(tagRecord(kice('calculus', '함수 $f(x)=e^{2x}\\sin x$ 에 대하여 $f\'(0)$ 의 값은?'), trees).paths[0].path).toEqual(['미적분', '미분법']);
    expect(tagRecord(kice('common', '첫째항이 $2$ 인 등비수열 $\\{a_{n}\\}$ 에 대하여 $a_{3}=8$ 일 때, $a_{5}$ 의 값은?'), trees).paths[0].path).toEqual(['수학I', '수열']);
    expect(tagRecord(kice('common', '$\\int_{0}^{2}(3x^{2}-2x)dx$ 의 값은?'), trees).paths[0].path).toEqual(['수학II', '적분']);
    expect(tagRecord(kice('geometry', '좌표공간의 두 점 $A(1,2,3)$, $B(3,0,1)$ 에 대하여 선분 $AB$ 의 $xy$ 평면 위로의 정사영의 길이는?'), trees).paths[0].path).toEqual(['기하', '공간도형과 공간좌표']);
  });

  it('counts a cue inside a longer cue once, for the longer one (a difference quotient is 미분, not 극한)', () => {
    const t = tagRecord(kice('common', '함수 $f(x)=2x^{3}-5x^{2}+3$ 에 대하여 $\\lim_{h\\to0}\\frac{f(2+h)-f(2)}{h}$ 의 값은?'), trees);
    expect(t.paths[0].path).toEqual(['수학II', '미분']);
    expect(t.paths[0].evidence).toContain('\\lim_{h\\to0}');
  });

  it('gives a second path where another unit has nearly as much evidence, and a confidence that says how clear it was', () => {
    const t = tagRecord(kice('common', '곡선 $y=x^{3}-3x$ 위의 점에서의 접선과 곡선으로 둘러싸인 부분의 넓이를 구하시오. 정적분 $\\int_{0}^{1}f(x)dx$, 미분계수 $f\'(1)$'), trees);
    expect(t.paths.length).toBe(2);
    expect(new Set(t.paths.map(p => p.path[1]))).toEqual(new Set(['미분', '적분']));
    expect(t.paths[0].confidence).toBeGreaterThanOrEqual(0.5);
    expect(t.paths[0].confidence).toBeLessThan(1);
  });

  it('always gives a path: with no cue, the section\'s first unit at confidence 0 and a note saying so', () => {
    const t = tagRecord(kice('prob-stat', '다음 중 옳은 것은?'), trees);
    expect(t.paths).toHaveLength(1);
    expect(t.paths[0].path[0]).toBe('확률과 통계');
    expect(t.paths[0].confidence).toBe(0);
    expect(t.note).toMatch(/no cue/);
  });

  it('finds trees by family, else by language and subject', () => {
    const kr = kice('common', 'x');
    expect(treesFor(kr, trees).map(t => t.id)).toEqual(['kr-2015-math']);
    const upload = { ...kr, exam: { family: 'generic', language: 'ko', subject: null } };
    expect(treesFor(upload, trees).map(t => t.id)).toContain('kr-2015-math');
  });
});

describe('trees of the paper\'s language and family only', () => {
  // An educator's German algebra test, read by the generic template (language und).
  const german = (number: number, stem: string, options: string[] = []): CorpusRecord => ({
    id: `de-${number}`, source: { file: 'algebra-klasse-9.pdf', sha256: 'de' }, exam: { family: 'generic', language: 'und', subject: null },
    section: null, number, stem, options: options.map((text, i) => ({ label: 'ABCD'[i], text })), figures: [],
  });
  const paper = [
    german(1, 'Lösen Sie die quadratische Gleichung $x^{2}-5x+6=0$ und geben Sie die Lösungsmenge an.'),
    german(2, 'Berechnen Sie die Ableitung der Funktion $f(x)=3x^{2}+2x$ an der Stelle $x=1$.'),
    german(3, 'Welche der folgenden Zahlen ist eine Lösung der Gleichung?', ['$x=2$', '$x=3$', '$x=-1$', 'keine']),
  ];

  it('gives a German paper no tag from a Spanish, British or any other tree, and says why', () => {
    const languageOf = paperLanguages(paper);
    for (const r of paper) {
      expect(languageOf(r)).toBe('de');
      expect(treesFor(r, trees, languageOf(r))).toEqual([]);
      const t = tagRecord(r, trees, 0.6, languageOf(r));
      expect(t.paths, r.id).toEqual([]);
      expect(t.note).toMatch(/no curriculum tree for family "generic" or language "de".*not tagged/);
    }
    // Read alone, the short third question is not told either: still no tag.
    expect(tagRecord(paper[2], trees).paths).toEqual([]);
  });

  it('takes a family\'s tree only in the family\'s language, and the language\'s general tree for an upload', () => {
    const english = { ...kice('common', 'Find the derivative of $f(x)=x^{3}$ at $x=1$.'), exam: { family: 'kcsat', language: 'en', subject: 'mathematics' } };
    expect(treesFor(english, trees).map(t => t.id)).not.toContain('kr-2015-math');
    const upload = { ...english, exam: { family: 'generic', language: 'und', subject: null } };
    // The trees that serve English uploads (applies.languages); Cambridge's serves its family alone.
    expect(treesFor(upload, trees).map(t => t.id)).toEqual(['general-math-en', 'jee-advanced']);
    expect(tagRecord(upload, trees).paths[0].tree).toMatch(/^(general-math-en|jee-advanced)$/);
  });
});

describe('the model tagger (through the openai client, against a loopback server replaying replies)', () => {
  it('takes the unit the model names among the offered ones, asks again on an unusable reply, and keeps the cue paths when none is usable', async () => {
    const { startReplay } = await import('./llm-replay.ts');
    const { makeClient } = await import('../pipeline/llm/client.ts');
    const { resolveConfig } = await import('../pipeline/config.ts');
    const { tagWithLlm, tagPrompt } = await import('../pipeline/corpus/llm-tagger.ts');
    const a = { ...kice('common', '함수 $f(x)=x^{3}$ 에 대하여 $\\int_{0}^{1}f(x)dx$ 의 값은?'), id: 'rec-a' };
    const b = { ...kice('common', '등차수열 $\\{a_{n}\\}$ 에 대하여 $a_{3}=7$ 일 때, $a_{5}$ 의 값은?'), id: 'rec-b' };
    const c = { ...kice('common', '$\\log_{2}8$ 의 값은?'), id: 'rec-c' };
    const ta = tagRecord(a, trees), tb = tagRecord(b, trees), tc = tagRecord(c, trees);
    // The model is offered every unit of 수학I and 수학II, best-scored first.
    expect(tagPrompt(a, ta.candidates).user).toMatch(/^Question rec-a:/);
    expect(ta.candidates).toHaveLength(6);
    const differentiation = ta.candidates.findIndex(x => x.path[1] === '미분') + 1;
    const replay = await startReplay(
      { 'rec-a': { content: JSON.stringify({ paths: [differentiation] }) }, 'rec-c': { content: JSON.stringify({ paths: [99] }) } },
      [{ content: 'not json' }, { content: JSON.stringify({ paths: [1] }) }],
      user => /^Question (\S+):/m.exec(user)?.[1] ?? null,
    );
    try {
      const config = resolveConfig({}, { LLM_BASE_URL: replay.url, LLM_MODEL: 'replay', LLM_ATTEMPTS: '2', LLM_BACKOFF_MS: '0' });
      const client = makeClient(config.llm!);
      const usage = { requests: 0, promptTokens: 0, completionTokens: 0 };
      // b: a malformed reply first, then a usable one.
      const rb = await tagWithLlm(client, config.llm!, b, tb, usage);
      expect(rb.paths[0]).toMatchObject({ path: tb.candidates[0].path, by: 'llm' });
      // a: the model's choice stands even where the cues prefer another unit.
      const ra = await tagWithLlm(client, config.llm!, a, ta, usage);
      expect(ra.paths.map(p => p.path)).toEqual([['수학II', '미분']]);
      // c: a unit that was not offered, twice: the cue tagger's paths stand, and the note says why.
      const rc = await tagWithLlm(client, config.llm!, c, tc, usage);
      expect(rc.paths).toEqual(tc.paths);
      expect(rc.note).toMatch(/llm\/unknown-unit/);
      expect(replay.requests.every(r => r.hasSchema && r.model === 'replay')).toBe(true);
      expect(usage.requests).toBe(5);
    } finally {
      await replay.close();
    }
  });
});
