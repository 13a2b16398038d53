// The layout fuzzer itself (fixtures/make-papers.ts): 40 papers of a fixed seed, checked against
// their own manifest and truth — every PDF opens with the manifest's page count, the truth's rows are
// the manifest's questions, each question's printed label is in the text layer of the page the truth
// names (scans have no text layer), and the keys beside the papers agree with the truth. This checks
// the generator, not the reader; the reader's score on the same papers is the last test, enabled
// with GENERALITY_SCORE=1 (`make bench-generality` prints it per dimension on 1,000 papers).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generatePapers, type Manifest } from '../fixtures/papers/generate.ts';
import { SCRIPTS } from '../fixtures/papers/banks.ts';
import { MARK_STYLES, NUMBERINGS, OPTION_SCHEMES } from '../fixtures/papers/styles.ts';
import { TRUTH_HEADER } from '../fixtures/papers/truth.ts';
import { ROOT } from '../pipeline/config.ts';
import { openPdf } from '../pipeline/providers/pdf.ts';
import { haveShared, SCORER, TEST_OUT } from './helpers.ts';
import { haveChromium } from './review-browser.ts';
import { formatReport, runScorer, scoreByDimension, statusesFromLog } from './generality-score.ts';

const SEED = 7;
const COUNT = 40;
const DIR = path.join(TEST_OUT, 'generality', 'papers');

function truthRows(stem: string): Record<string, string>[] {
  const [head, ...rows] = fs.readFileSync(path.join(DIR, 'truth', `${stem}.csv`), 'utf8').trim().split('\n');
  expect(head).toBe(TRUTH_HEADER);
  // The generator quotes no field of the rows checked here (sections and labels hold no comma).
  return rows.map(r => Object.fromEntries(head.split(',').map((h, i) => [h, r.split(',')[i] ?? ''])));
}

const squash = (s: string) => s.normalize('NFKC').replace(/\s+/g, '');

describe.skipIf(!haveChromium())('layout fuzzer', () => {
  let manifest: Manifest;
  beforeAll(async () => {
    const t0 = performance.now();
    manifest = await generatePapers({ seed: SEED, count: COUNT, out: DIR });
    console.log(`generality: ${COUNT} papers generated or reused in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }, 600_000);

  it('draws every script and a spread of numbering, option and mark styles', () => {
    expect(manifest.papers).toHaveLength(COUNT);
    const seen = (k: 'script' | 'numbering' | 'options' | 'marks') => new Set(manifest.papers.map(p => String(p.dims[k])));
    expect([...seen('script')].sort()).toEqual([...SCRIPTS].sort());
    expect(seen('numbering').size).toBeGreaterThanOrEqual(NUMBERINGS.length / 2);
    expect(seen('options').size).toBeGreaterThanOrEqual(OPTION_SCHEMES.length / 2);
    expect(seen('marks').size).toBeGreaterThanOrEqual(MARK_STYLES.length - 2);
    for (const c of [1, 2, 3]) expect(manifest.papers.some(p => p.dims.columns === c), `${c} columns`).toBe(true);
    expect(manifest.papers.some(p => p.dims.scan)).toBe(true);
  });

  it('writes a truth table whose questions are the manifest\'s, on pages the paper has', () => {
    for (const p of manifest.papers) {
      const rows = truthRows(p.stem);
      const questions = new Map<string, Record<string, string>>();
      for (const r of rows) {
        expect(r.paper_id).toBe(p.stem);
        questions.set(`${r.section}|${r.number}`, r);
      }
      expect([...questions.keys()], p.stem).toEqual(p.questions.map(q => `${q.section}|${q.number}`));
      for (const q of p.questions) {
        const r = questions.get(`${q.section}|${q.number}`)!;
        expect(Number(r.page), `${p.stem} ${q.number}`).toBe(q.page);
        expect(q.page).toBeGreaterThanOrEqual(1);
        expect(q.page).toBeLessThanOrEqual(p.pages);
        expect(r.type).toBe(q.type);
        expect(Number(r.options) > 0).toBe(q.type === 'mcq');
      }
      // Numbers rise within a section (a selection skips some; subjects restart at their heading).
      const bySection = new Map<string, number[]>();
      for (const q of p.questions) bySection.set(q.section, [...(bySection.get(q.section) ?? []), q.number]);
      for (const nums of bySection.values()) for (let i = 1; i < nums.length; i++) expect(nums[i], p.stem).toBeGreaterThan(nums[i - 1]);
      if (p.dims.marks === 'none') expect(rows.every(r => r.marks === ''), p.stem).toBe(true);
      if (p.dims.key === 'none') expect(rows.every(r => r.answer === ''), p.stem).toBe(true);
    }
  });

  it('prints PDFs that open with the manifest\'s page count, each label on the page the truth names (scans: no text layer)', async () => {
    const misses: string[] = [];
    for (const p of manifest.papers) {
      const file = path.join(DIR, `${p.stem}.pdf`);
      const pdf = await openPdf(new Uint8Array(fs.readFileSync(file)));
      try {
        expect(pdf.numPages, p.stem).toBe(p.pages);
      } finally {
        await pdf.destroy();
      }
      // poppler's text, page by page: pdf.js breaks Devanagari clusters that Chromium writes (NUL
      // characters, pieces of a conjunct), and this checks what was printed, not how one library reads it.
      const pages = execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).split('\f');
      if (p.dims.scan) {
        expect(pages.join('').trim(), p.stem).toBe('');
        continue;
      }
      for (const q of p.questions) {
        // The label opens a line of its page (alone, or followed by the stem).
        const lines = pages[q.page - 1].split('\n').map(squash);
        const label = squash(q.label);
        const ok = lines.some(l => l.startsWith(label))
          // Right-to-left lines may come out in visual order: the number is there, the word may be reversed.
          || (p.dims.script === 'arabic' && lines.some(l => l.includes(String(q.number))));
        if (!ok) misses.push(`${p.stem} p${q.page} ${q.label}`);
      }
    }
    expect(misses).toEqual([]);
  });

  it('puts each key beside its paper, agreeing with the truth\'s answers', () => {
    for (const p of manifest.papers) {
      for (const f of p.files) expect(fs.existsSync(path.join(DIR, f)), f).toBe(true);
      if (p.dims.key !== 'csv') continue;
      const key = fs.readFileSync(path.join(DIR, `${p.stem}-answer.csv`), 'utf8').trim().split('\n').slice(1).map(l => l.split(','));
      const want = truthRows(p.stem).filter(r => r.answer && r.part === '').map(r => [r.section, r.number, r.answer]);
      expect(key, p.stem).toEqual(want);
    }
  });

  // The reader's score on these papers: enabled by the lead when the structural decoder lands.
  it.skipIf(process.env.GENERALITY_SCORE !== '1' || !haveShared())('the reader reads them ≥ 0.98 on every field, and no miss ends silently done', () => {
    const out = path.join(TEST_OUT, 'generality', 'ingest');
    fs.rmSync(out, { recursive: true, force: true });
    const run = spawnSync('npx', ['tsx', 'pipeline/cli.ts', '--year', '2099', '--in', DIR, '--out', out, '--force', '--no-progress'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const report = scoreByDimension(manifest, runScorer(SCORER, path.join(out, '2099', 'items.jsonl'), path.join(DIR, 'truth')), statusesFromLog(run.stdout));
    console.log(formatReport(report));
    for (const [k, v] of Object.entries(report.overall.ratios)) expect(v ?? 1, k).toBeGreaterThanOrEqual(0.98);
    expect(report.misses.silent).toEqual([]);
  }, 1_200_000);
});

// Papers of seeds none of the rounds before had read, each read wrong by the reader of 2026-12-05 in
// one convention. Seed 20261206: the marks of a range read off a title KICE's template claims (0172),
// a statement `問1から問8は各4点。` taken for question 1 (0024), Arabic rows of options painted `16 .1`
// (0038) and a key's table read from the right (0118), a page number `2／2` (0104), three columns
// under a head (0030), a range `第27〜34题` (0063), marks in a margin with their unit (0045), option
// labels no scheme names (0099), a range broken over two lines (0238), pictures' labels `Ａ．` (0138).
// Seed 7: a column's marks `[4 điểm]` at the head of its twin column's rows (0031), a section heading
// stating its questions' marks under the instructions heading (0032). Seed 20261210: a question's
// label atop two pages of three taken for a running head (0247), choices among parts (0293).
const FRESH = [
  { seed: 20261206, count: 400, only: [24, 30, 38, 45, 63, 99, 104, 118, 138, 144, 172, 238] },
  { seed: 7, count: 40, only: [31, 32] },
  { seed: 20261207, count: 300, only: [21, 23, 85, 95, 178] },
  { seed: 20261208, count: 300, only: [15, 28, 48, 109, 158, 204, 238, 251] },
  { seed: 20261209, count: 300, only: [3, 4, 39, 69, 100, 135, 259, 274] },
  { seed: 20261210, count: 300, only: [247, 293] },
];

describe.skipIf(!haveChromium() || !haveShared())('papers of fresh seeds the reader once read wrong', () => {
  // (Not their types: 0030 prints each prompt with its English under it in the same script, and a
  // one-line prompt so followed is read as a worked question, not a short one.)
  it('reads each in full: every question once, on its page, with its points, options and answer', async () => {
    const short: string[] = [];
    for (const fresh of FRESH) {
      const dir = path.join(TEST_OUT, 'generality', `fresh-${fresh.seed}`);
      const manifest = await generatePapers({ ...fresh, out: dir });
      expect(manifest.papers.map(p => p.index)).toEqual(fresh.only);
      const out = path.join(TEST_OUT, 'generality', `fresh-${fresh.seed}-ingest`);
      fs.rmSync(out, { recursive: true, force: true });
      spawnSync('npx', ['tsx', 'pipeline/cli.ts', '--year', '2099', '--in', dir, '--out', out, '--force', '--no-progress'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      const scored = runScorer(SCORER, path.join(out, '2099', 'items.jsonl'), path.join(dir, 'truth'));
      expect(scored).toHaveLength(fresh.only.length);
      for (const p of scored) {
        const fields = (['points', 'answer', 'options', 'page'] as const).filter(f => p[f][0] < p[f][1]);
        if (p.matched < p.expected || p.extra || fields.length) short.push(`${p.paper}: ${p.matched}/${p.expected} +${p.extra} ${fields.map(f => `${f} ${p[f][0]}/${p[f][1]}`).join(' ')}`);
      }
    }
    expect(short).toEqual([]);
  }, 900_000);
});

// Scans of seed 20261210 that OCR read short of the bar, each in a convention the twenty-seventh
// round reads: 0072 parts `a.`–`c.` one under another, each with its mark, which the rows of options
// read by place had taken for options; 0243 pictures whose labels OCR lost, the CSV key giving `D`.
// (Its 0004, marks floated above their lines, is read in test/layout.test.ts from OCR's boxes: a
// third scan here would cost CI half a minute more.)
const SCANS = { seed: 20261210, count: 300, only: [72, 243] };

describe.skipIf(!haveChromium() || !haveShared())('scans of a fresh seed, in the conventions OCR misread', () => {
  it('reads their parts as parts, and a choice question whose labels were lost as a choice', async () => {
    const dir = path.join(TEST_OUT, 'generality', `scans-${SCANS.seed}`);
    const manifest = await generatePapers({ ...SCANS, out: dir });
    expect(manifest.papers.map(p => [p.index, p.dims.scan])).toEqual(SCANS.only.map(i => [i, true]));
    const out = path.join(TEST_OUT, 'generality', `scans-${SCANS.seed}-ingest`);
    fs.rmSync(out, { recursive: true, force: true });
    spawnSync('npx', ['tsx', 'pipeline/cli.ts', '--year', '2099', '--in', dir, '--out', out, '--force', '--no-progress'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const scored = Object.fromEntries(runScorer(SCORER, path.join(out, '2099', 'items.jsonl'), path.join(dir, 'truth')).map(p => [p.paper.slice(-4), p]));
    // Measured: types and options 4 of 9 and types 8 of 16 before.
    expect([scored['0072'].type, scored['0072'].options]).toEqual([[9, 9], [9, 9]]);
    expect(scored['0243'].type).toEqual([16, 16]);
  }, 600_000);
});
