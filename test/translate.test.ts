// Translations (pipeline/translate): placeholder protection as a property over synthetic formulas,
// the checks against planted errors, the glossary, and the pass over a store against a loopback
// chat-completions server replaying real English translations of 35 real KICE items
// (test/fixtures/translate/ko-en.json: written by hand, rebuilt by test/translate-record.ts),
// plus malformed, truncated, placeholder-dropping and refused replies, a resumed killed run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, resolveConfig } from '../pipeline/config.ts';
import { rerunCorpus } from '../pipeline/run.ts';
import { formulas, katexError } from '../pipeline/stages/math.ts';
import { openStore } from '../pipeline/open-store.ts';
import { checkTranslation, glossaryConsistency, type ItemText } from '../pipeline/translate/checks.ts';
import { GlossaryError, loadGlossary, termsIn } from '../pipeline/translate/glossary.ts';
import { PlaceholderError, protect, restore } from '../pipeline/translate/placeholders.ts';
import { itemOfPrompt, parseTranslation } from '../pipeline/translate/prompt.ts';
import { TranslationTable } from '../pipeline/translate/table.ts';
import { startReplay, type Recorded } from './llm-replay.ts';
import { rng, scrambled } from './translate-property.ts';
import { buildStore, FIXTURE, translationOf, type FixtureItem } from './translate-fixture.ts';

const GLOSSARY_DIR = path.join(ROOT, 'glossary/terms');
const glossary = loadGlossary(GLOSSARY_DIR, 'ko', 'en');
const fieldsOf = (t: ItemText) => [t.stem, ...t.options.map(o => o.text)];

function multiset(xs: string[]): string {
  return JSON.stringify([...xs].sort());
}

/** A random formula from LaTeX pieces the booklets use, inline or displayed. */
function syntheticFormula(random: () => number): string {
  const atoms = ['x', 'y', 'a_{n}', '\\alpha', '\\theta', '2', '3.5', '10', '\\pi', 'f(x)', "f'(x)", '\\{a_{n}\\}', '|\\vec{a}|', '\\overline{AB}', 'P(A\\cap B)', '⟦M1⟧', '①', '(가)'];
  const pick = () => atoms[Math.floor(random() * atoms.length)];
  const forms = [
    () => `${pick()}+${pick()}`, () => `\\frac{${pick()}}{${pick()}}`, () => `\\sqrt{${pick()}}`, () => `${pick()}^{${pick()}}`,
    () => `\\lim_{x\\to0}${pick()}`, () => `\\int_{0}^{1}${pick()}dx`, () => `\\sum_{k=1}^{10}${pick()}`, () => `${pick()}\\leq ${pick()}`,
    () => `\\begin{cases} ${pick()} & (x<0) \\\\ ${pick()} & (x\\geq0) \\end{cases}`, () => `${pick()}`,
  ];
  const body = forms[Math.floor(random() * forms.length)]();
  return random() < 0.15 ? `$$${body}$$` : `$${body}$`;
}

function syntheticText(random: () => number): string[] {
  const prose = ['함수', '에 대하여', '의 값은?', '실수', '(단,', '이다.)', '\n', '그림과 같이', '①', 'ㄱ.', '(나)', '12', '3.5', '개의', '%', ','];
  const field = () => Array.from({ length: 1 + Math.floor(random() * 12) }, () => (random() < 0.45 ? syntheticFormula(random) : prose[Math.floor(random() * prose.length)])).join(' ');
  return [field(), ...Array.from({ length: Math.floor(random() * 6) }, field)];
}

describe('placeholders', () => {
  it('gives back exactly the original formulas after the prose around them is scrambled (synthetic formulas, 2000 cases)', () => {
    const random = rng(20261201);
    let spans = 0;
    for (let n = 0; n < 2000; n++) {
      const fields = syntheticText(random);
      const p = protect(fields);
      expect(p.fields.join('\n')).not.toMatch(/\$/);
      // Untouched, restoring is the identity.
      expect(restore(p.fields, p.table)).toEqual(fields);
      const back = restore(scrambled(p, random), p.table);
      expect(multiset(back.flatMap(formulas))).toBe(multiset(fields.flatMap(formulas)));
      spans += p.table.length;
      for (const x of p.table) expect(back.some(b => b.includes(x.text))).toBe(true);
    }
    expect(spans).toBeGreaterThan(10000);
  });

  it('refuses a reply that drops, duplicates, alters, invents or moves a placeholder, saying which', () => {
    const p = protect(['다항함수 $f(x)$ 가\n$f\'(x)=3x(x-2)$, $f(1)=6$\n을 만족시킬 때, $f(2)$ 의 값은?', '$1$', 'ㄱ, ㄴ']);
    const good = ['A polynomial function ⟦M1⟧ satisfies\n⟦M2⟧, ⟦M3⟧\nWhat is the value of ⟦M4⟧?', '⟦M5⟧', '⟦L1⟧, ⟦L2⟧'];
    expect(restore(good, p.table)[0]).toBe('A polynomial function $f(x)$ satisfies\n$f\'(x)=3x(x-2)$, $f(1)=6$\nWhat is the value of $f(2)$?');
    const bad = (fields: string[], pattern: RegExp) => {
      let error: unknown;
      try { restore(fields, p.table); } catch (e) { error = e; }
      expect(error).toBeInstanceOf(PlaceholderError);
      expect((error as Error).message).toMatch(pattern);
    };
    bad([good[0].replace('⟦M4⟧', ''), good[1], good[2]], /⟦M4⟧ \(\$f\(2\)\$\) was dropped/);
    bad([good[0] + ' ⟦M1⟧', good[1], good[2]], /⟦M1⟧ .* appears 2 times/);
    bad([good[0].replace('⟦M4⟧', '⟦M 4⟧'), good[1], good[2]], /altered placeholder/);
    bad([good[0].replace('⟦M4⟧', '⟦M4⟧ ⟦M9⟧'), good[1], good[2]], /⟦M9⟧ in the stem is not one that was sent/);
    bad([good[0].replace('⟦M4⟧', ''), '⟦M5⟧ ⟦M4⟧', good[2]], /⟦M4⟧ moved from the stem to option 1/);
    bad(['⟦M4⟧ is what? A polynomial function ⟦M1⟧ satisfies\n⟦M2⟧, ⟦M3⟧', good[1], good[2]], /⟦M4⟧ moved across a line of its own/);
    bad([good[0].replace('⟦M2⟧, ⟦M3⟧', '⟦M3⟧, ⟦M2⟧'), good[1], good[2]], /reordered/);
    bad([good[0], good[1], '⟦L2⟧, ⟦L1⟧'], /reordered/);
    // The same through the reply parser: a ReplyError the client asks again for.
    expect(() => parseTranslation(JSON.stringify({ stem: good[0].replace('⟦M1⟧', '$f(x)$'), options: [{ label: '①', text: '⟦M5⟧' }, { label: '②', text: '⟦L1⟧, ⟦L2⟧' }] }), p, ['①', '②'])).toThrow(/translate\/placeholders|dropped/);
    expect(() => parseTranslation('{"stem": "What is', p, ['①', '②'])).toThrow(/not JSON/);
    expect(() => parseTranslation(JSON.stringify({ stem: good[0], options: [{ label: '①', text: '⟦M5⟧' }] }), p, ['①', '②'])).toThrow(/1 options where 2/);
  });

  it('protects labels, figure references, numbers in the prose and our own brackets, and leaves a Latin word\'s digits alone', () => {
    const p = protect(['(가) 점 ①과 ㄱ, ![그림](figures/a.png) 10 개, 3.5 %, H2O ⟦M1⟧']);
    expect(p.table.map(x => `${x.kind}:${x.text}`)).toEqual(['L:(가)', 'L:①', 'L:ㄱ', 'F:![그림](figures/a.png)', 'N:10', 'N:3.5', 'L:⟦', 'L:⟧']);
    expect(p.table[0].anchor).toBe(true);
  });
});

describe('checks (planted errors, each reported by its check)', () => {
  const it27 = FIXTURE.find(x => x.id.endsWith('prob-stat-27'))!;
  const it29 = FIXTURE.find(x => x.id.endsWith('geometry-29'))!;
  const rules = (source: ItemText, target: ItemText) => checkTranslation(source, target, 'ko', 'en', glossary).map(c => c.rule);
  const edit = (it: FixtureItem, from: string, to: string): ItemText => {
    const t = translationOf(it);
    expect(t.stem).toContain(from);
    return { ...t, stem: t.stem.replace(from, to) };
  };

  it('passes every recorded translation with no finding', () => {
    for (const it of FIXTURE) expect(checkTranslation(it.source, translationOf(it), 'ko', 'en', glossary), it.id).toEqual([]);
  });

  it('reports a changed number (translate/numbers), in the prose or in a formula (then translate/formulas too)', () => {
    expect(rules(it27.source, edit(it27, 'confidence level $95$ %', 'confidence level 90 %'))).toEqual(['translate/formulas', 'translate/numbers']);
    expect(rules(it27.source, edit(it27, '$95$ %', '$95$ cm'))).toEqual(['translate/numbers']);
    expect(rules(it29.source, edit(it29, 'quadrant $1$', 'the first quadrant'))).toEqual(['translate/formulas', 'translate/numbers']);
    const prose = { stem: '카드 3 장과 $x$ 의 값은?', options: [] };
    expect(rules(prose, { stem: 'With 4 cards, what is the value of $x$?', options: [] })).toEqual(['translate/numbers']);
  });

  it('reports a Hangul word left in (translate/untranslated), not the labels that are kept on purpose', () => {
    expect(rules(it27.source, edit(it27, 'population mean', 'population mean (모평균)'))).toEqual(['translate/untranslated']);
    expect(rules(it29.source, translationOf(it29))).toEqual([]); // (가) (나) (다) are labels
  });

  it('reads the other way too: English left in a Korean translation, the glossary read backwards', () => {
    const back = loadGlossary(GLOSSARY_DIR, 'en', 'ko');
    const source = { stem: 'What is the inner product $\\vec{a}\\cdot\\vec{b}$?', options: [] };
    expect(checkTranslation(source, { stem: '내적 $\\vec{a}\\cdot\\vec{b}$ 의 값은?', options: [] }, 'en', 'ko', back)).toEqual([]);
    expect(checkTranslation(source, { stem: 'inner product $\\vec{a}\\cdot\\vec{b}$ 의 값은?', options: [] }, 'en', 'ko', back).map(c => c.rule)).toEqual(['translate/untranslated', 'translate/glossary']);
  });

  it('reports a glossary term translated otherwise (per item) and a term translated two ways across items (over the set)', () => {
    expect(rules(it27.source, edit(it27, 'the standard normal distribution', 'the standard Gaussian distribution'))).toEqual(['translate/glossary']);
    const source = { stem: '두 벡터 $\\vec{a}$, $\\vec{b}$ 의 내적 $\\vec{a}\\cdot\\vec{b}$ 의 값은?', options: [] };
    const inner = { stem: 'What is the inner product $\\vec{a}\\cdot\\vec{b}$ of the two vectors $\\vec{a}$ and $\\vec{b}$?', options: [] };
    const dot = { stem: 'What is the dot product $\\vec{a}\\cdot\\vec{b}$ of the two vectors $\\vec{a}$ and $\\vec{b}$?', options: [] };
    // Each is an accepted translation on its own ...
    expect(rules(source, inner)).toEqual([]);
    expect(rules(source, dot)).toEqual([]);
    // ... but not both in one set: the minority is reported, naming the majority.
    const found = glossaryConsistency([{ id: 'a', source, target: inner }, { id: 'b', source, target: dot }, { id: 'c', source, target: inner }], glossary);
    expect([...found.keys()]).toEqual(['b']);
    expect(found.get('b')![0]).toMatchObject({ rule: 'translate/glossary' });
    expect(found.get('b')![0].message).toMatch(/"내적" is "dot product" here but "inner product" in 2 other item/);
  });

  it('reports an edited formula (translate/formulas) and one that no longer typesets (translate/katex)', () => {
    expect(rules(it27.source, edit(it27, '$N(m,5^{2})$', '$N(m,5^{3})$'))).toEqual(['translate/formulas', 'translate/numbers']);
    expect(rules(it27.source, edit(it27, '$N(m,5^{2})$', '$N(m,5^{2)$'))).toEqual(['translate/katex', 'translate/formulas']);
    expect(rules(it27.source, edit(it27, '$N(m,5^{2})$', '$N(m, 5^{2})$'))).toEqual(['translate/formulas']);
  });

  it('reports a changed option count or label (translate/options)', () => {
    const t = translationOf(it27);
    expect(rules(it27.source, { ...t, options: t.options.slice(0, 4) })).toEqual(['translate/formulas', 'translate/numbers', 'translate/options']);
    expect(rules(it27.source, { ...t, options: t.options.map((o, i) => ({ ...o, label: `(${i + 1})` })) })).toEqual(['translate/options']);
  });
});

describe('glossary (glossary/terms/ko-en.tsv)', () => {
  it('holds the CSAT terms, read both ways, longest match first', () => {
    expect(glossary.terms.length).toBeGreaterThanOrEqual(60);
    const want: Record<string, string> = { 이차곡선: 'conic section', 확률변수: 'random variable', 정적분: 'definite integral', 등차수열: 'arithmetic sequence', 극한: 'limit', 미분가능: 'differentiable', 조건부확률: 'conditional probability', 정규분포: 'normal distribution', 포물선: 'parabola', 쌍곡선: 'hyperbola', 내적: 'inner product', 정사영: 'orthogonal projection' };
    for (const [ko, en] of Object.entries(want)) expect(glossary.terms.find(t => t.term === ko)?.translations[0], ko).toBe(en);
    expect(termsIn('확률변수 X 가 표준정규분포를 따를 때 수직선 위', glossary).map(t => t.term)).toEqual(['표준정규분포', '확률변수', '수직선']);
    const back = loadGlossary(GLOSSARY_DIR, 'en', 'ko');
    expect(back.terms.find(t => t.term === 'dot product')?.translations).toEqual(['내적']);
  });

  it('refuses a malformed file, naming the file and line', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glossary-'));
    fs.writeFileSync(path.join(dir, 'ko-en.tsv'), 'term\ttranslation\tnote\tsource\n함수\tfunction\t\tx\n함수\tmap\t\tx\n');
    expect(() => loadGlossary(dir, 'ko', 'en')).toThrow(GlossaryError);
    expect(() => loadGlossary(dir, 'ko', 'en')).toThrow(/ko-en\.tsv:3: "함수" is listed twice/);
    fs.writeFileSync(path.join(dir, 'ko-en.tsv'), 'term\ttranslation\n');
    expect(() => loadGlossary(dir, 'ko', 'en')).toThrow(/:1: the header/);
  });

  it('is configured only with TRANSLATE= and a model', () => {
    expect(resolveConfig({}, {}).translate).toBeNull();
    expect(resolveConfig({}, { LLM_BASE_URL: 'http://127.0.0.1:1/v1' }).translate).toBeNull();
    expect(resolveConfig({}, { LLM_BASE_URL: 'http://127.0.0.1:1/v1', TRANSLATE: 'en, ko' }).translate?.langs).toEqual(['en', 'ko']);
    expect(() => resolveConfig({}, { TRANSLATE: 'en' })).toThrow(/TRANSLATE=en needs a model/);
    expect(() => resolveConfig({}, { LLM_MODEL: 'm', TRANSLATE: 'english' })).toThrow(/two-letter/);
  });
});

// --- the pass over a store, against the replay server ---------------------------------------------

const YEAR = '2099';

const recordedReplies = (): Record<string, Recorded> => Object.fromEntries(FIXTURE.map(it => [it.id, { content: it.content, usage: it.usage }]));
const readItems = (outDir: string) => fs.readFileSync(path.join(outDir, YEAR, 'items.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l));
const settings = (url: string) => ({ LLM_BASE_URL: url, LLM_MODEL: 'replay', LLM_ATTEMPTS: '2', LLM_BACKOFF_MS: '0', TRANSLATE: 'en' });

describe('the translate pass (make translate) against a loopback server replaying recorded replies', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'translate-pass-'));
  // Four items whose recorded reply is replaced by a bad one, each time it is asked.
  const bad = { malformed: FIXTURE[3].id, truncated: FIXTURE[8].id, dropped: FIXTURE[15].id, refused: FIXTURE[22].id };
  // Three records beyond the recording: one already in English (skipped), one with the same text as a
  // recorded item (its translation is copied), and two asking for 내적 translated two ways.
  const twin = FIXTURE[0];
  const vectors = '두 벡터 $\\vec{a}$, $\\vec{b}$ 에 대하여 $|\\vec{a}|=2$ 일 때, 내적 $\\vec{a}\\cdot\\vec{b}$ 의 값은?';
  const extra = [
    { id: 'e0e0e0e0e0e0e0e0-common-1', file: 'quiz-en.pdf', exam: { family: 'generic', language: 'en' }, source: { stem: 'What is the value of $2+2$?', options: [] } },
    { id: 'c0c0c0c0c0c0c0c0-common-2', file: 'copy.pdf', exam: twin.exam, source: twin.source },
    { id: 'd0d0d0d0d0d0d0d0-common-3', file: 'vectors.pdf', exam: twin.exam, source: { stem: vectors, options: [] } },
    { id: 'd0d0d0d0d0d0d0d0-common-4', file: 'vectors.pdf', exam: twin.exam, source: { stem: vectors.replace('=2', '=3'), options: [] } },
  ];
  const vectorReplies: Record<string, Recorded> = {
    'd0d0d0d0d0d0d0d0-common-3': { content: JSON.stringify({ stem: 'For two vectors ⟦M1⟧ and ⟦M2⟧ with ⟦M3⟧, what is the value of the inner product ⟦M4⟧?', options: [] }) },
    'd0d0d0d0d0d0d0d0-common-4': { content: JSON.stringify({ stem: 'For two vectors ⟦M1⟧ and ⟦M2⟧ with ⟦M3⟧, what is the value of the dot product ⟦M4⟧?', options: [] }) },
  };
  const dropOne = (content: string) => content.replace(/⟦M2⟧/, '');
  const badReplies = (): Record<string, Recorded> => ({
    [bad.malformed]: { content: 'Here is the translation: {"stem": ' },
    [bad.truncated]: { content: '{"stem": "For two points', finish_reason: 'length' },
    [bad.dropped]: { content: dropOne(FIXTURE[15].content) },
    [bad.refused]: { content: '', refusal: 'I cannot help with that request.' },
  });

  beforeAll(() => buildStore(path.join(out, YEAR), extra));
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it('stores the good translations with every check passing, and each bad reply as its diagnostic; counts requests and tokens', async () => {
    expect(FIXTURE.length).toBeGreaterThanOrEqual(30);
    expect(dropOne(FIXTURE[15].content)).not.toBe(FIXTURE[15].content);
    // One transient fault first: a malformed reply to whatever comes, then the item's good one.
    const sent = new Map<string, string>();
    const replay = await startReplay({ ...recordedReplies(), ...vectorReplies, ...badReplies() }, [{ content: 'not json' }], user => {
      const id = itemOfPrompt(user);
      if (id) sent.set(id, user);
      return id;
    });
    try {
      const { lines } = await rerunCorpus(resolveConfig({ year: YEAR, outDir: out, progress: false }, settings(replay.url)), ['translate']);
      const line = lines.join('\n');
      // 35 recorded + 2 vector items asked once, one transient retry, 4 bad items asked twice; the copy and the English record never.
      expect(line).toMatch(/39 records, 37 sent to the model, 1 copied from a record with the same text, 0 unchanged, 1 already in the language/);
      expect(replay.requests.length).toBe(37 - 4 + 1 + 4 * 2);
      expect(line).toContain(`${replay.requests.length} requests`);
      const tokens = /(\d+) \+ (\d+) tokens/.exec(line)!;
      expect(Number(tokens[1])).toBeGreaterThan(1000);
      expect(Number(tokens[2])).toBeGreaterThan(1000);
      expect(replay.requests.every(r => r.hasSchema && r.model === 'replay')).toBe(true);
      // What the model saw is the records' own text, protected as recorded, with the glossary's terms.
      for (const it of FIXTURE) {
        const user = sent.get(it.id)!;
        expect(user, it.id).toContain(JSON.stringify(it.protected.stem));
        for (const o of it.protected.options) expect(user).toContain(JSON.stringify(o.text));
        expect(user).not.toMatch(/\$/);
      }
      expect(sent.get(FIXTURE.find(x => x.id.endsWith('prob-stat-27'))!.id)).toMatch(/Required terms:\n(.+\n)*정규분포 → normal distribution\n/);
    } finally {
      await replay.close();
    }
    const recs = new Map(readItems(out).map(r => [r.id, r]));
    const failed = new Set(Object.values(bad));
    let checked = 0;
    for (const it of FIXTURE.filter(x => !failed.has(x.id))) {
      const t = recs.get(it.id)!.translations.en;
      expect(t, it.id).toMatchObject({ status: 'ok', checks: [], by: 'model:replay', version: 1 });
      expect(t.stem).toBe(it.translation.stem);
      expect(t.options).toEqual(translationOf(it).options);
      // What the suite asks of every stored translation, checked here from the record itself.
      expect(multiset(fieldsOf(t).flatMap(formulas))).toBe(multiset(fieldsOf(it.source).flatMap(formulas)));
      for (const f of fieldsOf(t).flatMap(formulas)) expect(katexError(f), f).toBeNull();
      checked++;
    }
    expect(checked).toBe(31);
    const diag = (id: string) => recs.get(id)!.diagnostics.filter((d: { rule: string }) => d.rule.startsWith('translate/')).map((d: { rule: string }) => d.rule);
    for (const [kind, id] of Object.entries(bad)) {
      const t = recs.get(id)!.translations.en;
      expect(t.status, kind).toBe('failed');
      expect(t.stem).toBeNull();
      const rule = { malformed: 'translate/malformed', truncated: 'translate/truncated', dropped: 'translate/placeholders', refused: 'translate/refused' }[kind];
      expect(diag(id), kind).toEqual([rule, rule]);
    }
    expect(recs.get('c0c0c0c0c0c0c0c0-common-2').translations.en).toMatchObject({ status: 'ok', by: `copy:${twin.id}`, stem: twin.translation.stem });
    expect(recs.get('e0e0e0e0e0e0e0e0-common-1').translations).toBeUndefined();
    // 내적: both accepted, not both in one set; the tie goes to the glossary's first choice.
    expect(recs.get('d0d0d0d0d0d0d0d0-common-3').translations.en.status).toBe('ok');
    expect(recs.get('d0d0d0d0d0d0d0d0-common-4').translations.en.status).toBe('flagged');
    expect(diag('d0d0d0d0d0d0d0d0-common-4')).toEqual(['translate/glossary']);
  });

  it('redoes nothing that is done: a second run asks only for the failed items, and a good reply then stores them', async () => {
    const again = await startReplay({ ...recordedReplies(), ...vectorReplies, ...badReplies() }, [], itemOfPrompt);
    try {
      const { lines } = await rerunCorpus(resolveConfig({ year: YEAR, outDir: out, progress: false }, settings(again.url)), ['translate']);
      expect(lines[0]).toMatch(/4 sent to the model, 0 copied from a record with the same text, 34 unchanged/);
      expect(again.requests.length).toBe(8);
    } finally {
      await again.close();
    }
    const fixed = await startReplay({ ...recordedReplies(), ...vectorReplies }, [], itemOfPrompt);
    try {
      await rerunCorpus(resolveConfig({ year: YEAR, outDir: out, progress: false }, settings(fixed.url)), ['translate']);
      expect(fixed.requests.length).toBe(4);
    } finally {
      await fixed.close();
    }
    const recs = new Map(readItems(out).map(r => [r.id, r]));
    for (const it of FIXTURE) expect(recs.get(it.id).translations.en, it.id).toMatchObject({ status: 'ok', stem: it.translation.stem, checks: [] });
    // The failed attempts stay out of the history: only texts are kept there.
    const store = openStore(path.join(out, YEAR, 'store.sqlite'));
    try {
      expect(new TranslationTable(store.db).get(bad.refused, 'en')).toMatchObject({ status: 'ok', version: 3, history: [] });
    } finally {
      store.close();
    }
  });

  it('loses at most the item in flight when killed (make translate, run from the command line), and resumes there', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'translate-kill-'));
    buildStore(path.join(dir, YEAR));
    let child: ReturnType<typeof spawn> | null = null;
    let seen = 0;
    // The 10th request kills the command line before it is answered.
    const replay = await startReplay(recordedReplies(), [], user => {
      if (++seen === 10) child?.kill('SIGKILL');
      return itemOfPrompt(user);
    });
    try {
      const env = { ...process.env, ...settings(replay.url), YEAR, OUT: dir, CI: '1' };
      const code = await new Promise<number | null>(resolve => {
        child = spawn(process.execPath, ['--import', 'tsx', 'pipeline/cli.ts', '--only', 'translate'], { cwd: ROOT, env, stdio: 'ignore' });
        child.on('exit', (c, signal) => resolve(signal ? -1 : c));
      });
      expect(code).toBe(-1);
      const store = openStore(path.join(dir, YEAR, 'store.sqlite'));
      const done = new TranslationTable(store.db).all('en');
      store.close();
      expect(done.length).toBe(9);
      expect(done.every(r => r.status === 'ok')).toBe(true);
      // Resumed from the command line: only the rest is asked for, and requests and tokens are printed.
      const resumed = await new Promise<string>((resolve, reject) => {
        let stdout = '';
        const c = spawn(process.execPath, ['--import', 'tsx', 'pipeline/cli.ts', '--only', 'translate'], { cwd: ROOT, env });
        c.stdout.on('data', d => { stdout += d; });
        c.on('exit', code => (code === 0 ? resolve(stdout) : reject(new Error(`exit ${code}: ${stdout}`))));
      });
      expect(resumed).toMatch(new RegExp(`${FIXTURE.length - 9} sent to the model, 0 copied from a record with the same text, 9 unchanged`));
      expect(resumed).toMatch(new RegExp(`model replay: ${FIXTURE.length - 9} requests, \\d+ \\+ \\d+ tokens`));
      expect(readItems(dir).filter(r => r.translations?.en?.status === 'ok').length).toBe(FIXTURE.length);
    } finally {
      await replay.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
