// End to end on the other families in ../shared: PAES (Spanish, lettered options, text-layer keys
// with pilot items), Cambridge 9709 (parts and marks, mark schemes beside the papers), gaokao
// chemistry (numbering from 7, appended answers, repeats with worked solutions), ENEM (QUESTÃO 01,
// English and Spanish both numbered 01–05), JEE Advanced (Q.1 again under each subject, numeric and
// multiple-correct types, marks per section), and two read by inferred conventions alone: the
// Vietnamese THPT (`Câu 1:`) and a university quiz (parts with their points, values from its worked key). Papers with a truth
// file are scored; the others must come out structurally sane.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../pipeline/config.ts';
import { runBatch } from '../pipeline/run.ts';
import { haveShared, lintOf, SCORER, SHARED, TEST_OUT, TRUTH } from './helpers.ts';

const FAMILIES = ['paes', 'cambridge', 'gaokao', 'enem', 'jee', 'vn-thpt', 'exam-class'] as const;
/** Families with a curriculum tree of their own. */
const TAGGED = ['paes', 'cambridge', 'gaokao'] as const;
const YEAR = '2099';
const outOf = (family: string) => path.join(TEST_OUT, family);
const itemsOf = (family: string) => path.join(outOf(family), YEAR, 'items.jsonl');
const records = (family: string) => fs.readFileSync(itemsOf(family), 'utf8').trim().split('\n').map(l => JSON.parse(l));

/** The scorer's per-paper row: counts, and [right, checked] per field. */
interface PaperRow { paper: string; expected: number; matched: number; extra: number; [field: string]: unknown }

function score(family: string): { summary: Record<string, number | null>; papers: PaperRow[] } {
  const out = execFileSync('node', [SCORER, '--items', itemsOf(family), '--truth', TRUTH, '--json'], { encoding: 'utf8' });
  return JSON.parse(out);
}

const ratio = (pair: unknown) => {
  const [a, b] = pair as [number, number];
  return b ? a / b : null;
};

describe.skipIf(!haveShared())('other exam families end to end', () => {
  beforeAll(async () => {
    for (const family of FAMILIES) {
      fs.rmSync(outOf(family), { recursive: true, force: true });
      const result = await runBatch(resolveConfig({ year: YEAR, inDir: path.join(SHARED, 'fixtures', 'papers', family), outDir: outOf(family), progress: false }, {}));
      console.log(`${family}: ${result.papers.length} papers, ${result.papers.reduce((n, p) => n + p.questions, 0)} questions in ${result.seconds.toFixed(1)} s`);
      expect(result.papers.filter(p => p.status === 'failed').map(p => p.error?.message)).toEqual([]);
    }
  }, 900_000);

  for (const family of FAMILIES) {
    it(`${family}: every paper with a truth file scores ≥ 0.98 (figure ≥ 0.9)`, () => {
      const { summary, papers } = score(family);
      console.log(`${family}: ${JSON.stringify(summary)}`);
      expect(papers.length).toBeGreaterThan(0);
      for (const p of papers) {
        expect(p.matched / p.expected, `${p.paper} recall`).toBeGreaterThanOrEqual(0.98);
        expect(p.matched / (p.matched + p.extra), `${p.paper} precision`).toBeGreaterThanOrEqual(0.98);
        for (const k of ['points', 'answer', 'page', 'type', 'options']) {
          const r = ratio(p[k]);
          if (r !== null) expect(r, `${p.paper} ${k}`).toBeGreaterThanOrEqual(0.98);
        }
        const fig = ratio(p.figure);
        if (fig !== null) expect(fig, `${p.paper} figure`).toBeGreaterThanOrEqual(0.9);
      }
    });
  }

  it('gives clean text by the scorer\'s lint over every family (≥ 0.985 in all, no control characters, bracket pieces or doubled text), and no stray invisible character in gaokao', () => {
    let records_ = 0, clean = 0;
    for (const family of FAMILIES) {
      const s = lintOf(itemsOf(family));
      console.log(`${family} lint: records=${s.lint_records} clean=${s.lint_clean} ${JSON.stringify(s.lint_counts)}`);
      for (const k of ['ctrl', 'pua', 'pieces', 'doubled']) expect(s.lint_counts[k] ?? 0, `${family} ${k}`).toBe(0);
      records_ += s.lint_records;
      clean += s.lint_clean * s.lint_records;
    }
    console.log(`lint over all families: records=${records_} clean=${(clean / records_).toFixed(4)}`);
    // Measured 0.9899 (591 of 597): what is left are options set as stacked fractions over radicals
    // (JEE Advanced, Vietnam's THPT) and THPT's cases drawn with a brace in pieces, read as repeated
    // or empty options. The KICE booklets (e2e-kcsat) are held to 0.995 on their own.
    expect(clean / records_).toBeGreaterThanOrEqual(0.985);
    expect(records('gaokao').filter(r => r.stem.split('\n').some((l: string) => /^\s*[的。]\s*$/.test(l))).map(r => r.id)).toEqual([]);
  });

  it('ingests the papers without truth files into sane records: numbers rising per section, stems, consistent options', () => {
    const truth = new Set(fs.readdirSync(TRUTH).map(f => f.replace(/\.csv$/, '')));
    let checked = 0;
    for (const family of FAMILIES) {
      const byPaper = new Map<string, ReturnType<typeof records>>();
      for (const r of records(family)) byPaper.set(r.source.file, [...(byPaper.get(r.source.file) ?? []), r]);
      for (const [file, recs] of byPaper) {
        if (truth.has(file.replace(/\.pdf$/, ''))) continue;
        checked++;
        const bySection = new Map<string, number[]>();
        for (const r of [...recs].sort((a, b) => a.page - b.page || a.regions[0].bbox[1] - b.regions[0].bbox[1])) {
          bySection.set(r.section ?? '', [...(bySection.get(r.section ?? '') ?? []), r.number]);
        }
        for (const [section, numbers] of bySection) {
          for (let i = 1; i < numbers.length; i++) expect(numbers[i], `${file} ${section}: ${numbers.join(',')}`).toBeGreaterThan(numbers[i - 1]);
        }
        for (const r of recs) {
          expect(r.stem.trim().length, `${file} ${r.number}: no stem`).toBeGreaterThan(0);
          if (r.type === 'mcq' || r.type === 'mcq-multi') expect(r.options.length, `${file} ${r.number}`).toBeGreaterThanOrEqual(2);
          else expect(r.options, `${file} ${r.number}`).toEqual([]);
          // Labels in order from the first: A B C D (no gap, no repeat).
          r.options.forEach((o: { label: string }, i: number) => expect(o.label, `${file} ${r.number}`).toBe(r.options[0].label.replace(/./, (c: string) => String.fromCharCode(c.charCodeAt(0) + i))));
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it('lists every near-duplicate cluster, and finds the PAES science forms\' shared Módulo Común (54 questions) under both numberings', () => {
    for (const family of FAMILIES) {
      const recs = records(family);
      const byId = new Map(recs.map(r => [r.id, r]));
      const dups = recs.filter(r => r.duplicate_of);
      console.log(`${family}: ${dups.length} records are near-duplicates`);
      for (const r of dups) {
        const c = byId.get(r.duplicate_of);
        console.log(`  ${c.source.file} ${c.section ?? ''} ${c.number} <= ${r.source.file} ${r.section ?? ''} ${r.number}: ${JSON.stringify(r.stem.slice(0, 60))}`);
        expect(c.source.file, r.id).not.toBe(r.source.file);
        expect(c.options.map((o: { text: string }) => o.text).sort(), r.id).toEqual(r.options.map((o: { text: string }) => o.text).sort());
      }
    }
    const paes = records('paes').filter(r => r.duplicate_of);
    expect(paes.length).toBe(54);
    for (const r of paes) expect(r.source.file).toMatch(/^C-quimica/);
  });

  it('gives every record of every family a curriculum path from a tree of its own family', () => {
    const want: Record<string, RegExp> = { paes: /^paes-/, cambridge: /^cambridge-9709$/, gaokao: /^gaokao-chemistry$/ };
    for (const family of TAGGED) {
      const recs = records(family);
      const counts = new Map<string, number>();
      for (const r of recs) {
        expect(r.knowledge.length, r.id).toBeGreaterThan(0);
        expect(r.knowledge[0].tree, r.id).toMatch(want[family]);
        const key = r.knowledge[0].path.join(' > ');
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      const weak = recs.filter(r => r.knowledge[0].confidence === 0).length;
      console.log(`${family}: ${recs.length} records tagged, ${weak} without evidence; ${[...counts].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join('; ')}`);
      expect(weak / recs.length, family).toBeLessThanOrEqual(0.1);
    }
  });

  it('records the conventions it inferred on the papers no family template claims', () => {
    for (const family of ['vn-thpt', 'exam-class']) {
      for (const r of records(family)) {
        expect(r.exam.template, r.id).toBe('generic');
        expect(r.exam.conventions?.numbering.inSequence, r.id).toBeGreaterThan(0);
      }
    }
    expect(records('vn-thpt')[0].exam.conventions.numbering.id).toBe('word:Câu');
    expect(records('vn-thpt')[0].exam.conventions.options.id).toBe('upper');
    expect(records('exam-class')[0].exam.conventions.numbering.id).toBe('dot');
    expect(records('exam-class')[0].exam.conventions.options).toBeNull();
    // Papers a family template claims are read by inference too, as a check: their own numbering wins.
    for (const family of ['paes', 'cambridge', 'gaokao', 'enem', 'jee']) {
      for (const r of records(family)) expect(r.exam.conventions?.numbering.id, `${family} ${r.id}`).toBe('template');
    }
  });

  it('reads a worked key (the quiz again with solutions) for the values its parts ask for, and no value from a solution that ends in words', () => {
    const byNumber = new Map(records('exam-class').map(r => [r.number, r]));
    expect(byNumber.get(3).parts.map((p: { label: string; type: string; answer?: string }) => `${p.label}${p.type}=${p.answer}`)).toEqual(['(a)short=1', '(b)short=3/7']);
    expect(byNumber.get(3).answer).toBe('1');
    // 1(a) states a theorem, 2 is worked: they ask for no value and get none.
    expect([byNumber.get(1).answer, byNumber.get(2).answer]).toEqual([null, null]);
    expect(byNumber.get(1).parts.every((p: { answer?: string }) => p.answer === undefined)).toBe(true);
    // Set with TeX's fonts (CMMI variables, CMSY symbols): limits keep their subscripts, fractions their sides.
    expect(byNumber.get(3).stem).toContain('$\\lim_{x\\to0}\\frac{e^{x}-1}{x}=$');
    expect(byNumber.get(3).stem).toContain('$\\lim_{x\\to0}\\frac{\\sin(3x)}{\\tan(7x)}=$');
    expect(byNumber.get(2).stem).toContain('$g(x)=x^{5}-10x$');
  });

  it('reads the formulas of a Word paper set in Cambria Math under a hidden name (THPT): scripts, drawn fraction bars, ∫ bounds, systems under one tall brace, no glyph codes left', () => {
    const byNumber = new Map(records('vn-thpt').map(r => [r.number, r]));
    const options = (n: number) => byNumber.get(n).options.map((o: { text: string }) => o.text);
    expect(options(1)).toEqual(['$2^{34}.$', '$A_{34}^{2}.$', '$34^{2}.$', '$C_{34}^{2}.$']);
    expect(options(5)[1]).toBe('$S=\\int_{0}^{2}e^{x}dx.$');
    expect(options(7)).toEqual(['$x^{4}+x^{2}+C.$', '$3x^{2}+1+C.$', '$x^{3}+x+C.$', '$\\frac{1}{4}x^{4}+\\frac{1}{2}x^{2}+C.$']);
    expect(options(14)).toEqual(['$x=\\frac{5}{2}.$', '$x=2.$', '$x=\\frac{3}{2}.$', '$x=3.$']);
    expect(byNumber.get(18).stem).toContain('$y=\\frac{\\sqrt{x+9}-3}{x^{2}+x}$');
    // A system under one tall brace glyph, its rows on the lines above and below.
    expect(byNumber.get(8).stem).toContain('\\begin{cases} x=2-t \\\\ y=1+2t \\\\ z=3+t \\end{cases}');
    expect(options(49)[3]).toBe('$\\begin{cases} x=1+3t \\\\ y=1+4t. \\\\ z=1-5t \\end{cases}$');
    for (const r of records('vn-thpt')) expect(`${r.stem} ${options(r.number).join(' ')}`, `${r.number}`).not.toMatch(/[\u0900-\u0dff\u1100-\u137f]/u);
  });

  it('reads JEE Advanced by subject: Q.1–Q.17 under each, with the type, full marks and marking scheme of its section', () => {
    const recs = records('jee');
    for (const subject of ['mathematics', 'physics', 'chemistry']) {
      const own = recs.filter(r => r.section === subject).sort((a, b) => a.number - b.number);
      expect(own.map(r => r.number), subject).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
      expect(own.filter(r => r.type === 'numeric').every(r => r.options.length === 0 && r.points === 4), subject).toBe(true);
      expect(own.filter(r => r.type === 'mcq-multi').length, subject).toBe(3);
      // Each section's marking scheme is kept as data: full, partial, zero and negative marks.
      const scheme = (n: number) => {
        const m = own.find(r => r.number === n).marking;
        return [m.full?.marks, m.partial.map((p: { marks: number }) => p.marks), m.zero?.marks, m.negative?.marks ?? null];
      };
      expect(scheme(1), subject).toEqual([4, [3, 2, 1], 0, -2]);
      expect(scheme(4), subject).toEqual([3, [], 0, -1]);
      expect(scheme(8), subject).toEqual([4, [], 0, null]);
      expect(own.find(r => r.number === 1).marking.partial[1].when, subject).toBe('If three or more options are correct but ONLY two options are chosen, both of which are correct');
    }
  });

  it('marks the pilot items the PAES keys mark, and only those', () => {
    const pilots = fs.readFileSync(path.join(SHARED, 'fixtures', 'reference', 'paes-pilot-items.csv'), 'utf8').trim().split('\n').slice(1).map(l => l.split(','));
    const recs = records('paes');
    for (const paper of new Set(recs.map(r => r.source.file.replace(/\.pdf$/, '')))) {
      const want = pilots.filter(p => p[0] === paper).map(p => Number(p[1])).sort((a, b) => a - b);
      if (!want.length) continue;
      const got = recs.filter(r => r.source.file === `${paper}.pdf` && r.pilot).map(r => r.number).sort((a: number, b: number) => a - b);
      expect(got, paper).toEqual(want);
    }
  });

  it('carries the marks of every part of a Cambridge question, summing to the question and to the paper', () => {
    const recs = records('cambridge');
    for (const r of recs) {
      if (r.parts.length) expect(r.parts.reduce((n: number, p: { marks: number | null }) => n + (p.marks ?? 0), 0), `${r.source.file} ${r.number}`).toBe(r.points);
    }
    const total = (file: string) => recs.filter(r => r.source.file === file).reduce((n, r) => n + r.points, 0);
    // The covers print the totals: 75 for Paper 1, 50 for Paper 5.
    for (const file of new Set(recs.map(r => r.source.file as string))) expect(total(file), file).toBe(file.includes('_qp_1') ? 75 : 50);
    // Mark schemes pair with their papers and are not ingested as papers.
    expect(recs.some(r => r.source.file.includes('_ms_'))).toBe(false);
  });

  it('counts each gaokao question once where the paper repeats itself with worked solutions, and joins its 【答案】', () => {
    const recs = records('gaokao').filter(r => r.source.file.includes('jiangsu'));
    const numbers = recs.map(r => r.number).sort((a, b) => a - b);
    expect(numbers).toEqual([...new Set(numbers)]);
    const choice = recs.filter(r => r.type.startsWith('mcq'));
    expect(choice.filter(r => r.answer).length / choice.length).toBeGreaterThanOrEqual(0.9);
    expect(recs.some(r => r.type === 'mcq-multi')).toBe(true);
  });
});
