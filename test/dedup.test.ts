// dedup: near-duplicates found through LSH candidates and verified in a math-aware normal form;
// figures compared by perceptual hash; the canonical member by rule; the pass over the store
// (with tagging) rerun alone without any PDF.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEFAULTS, resolveConfig, ROOT } from '../pipeline/config.ts';
import { BUCKET_CAP, findDuplicates, prepare, type RecordSource } from '../pipeline/corpus/dedup.ts';
import { lshPairs, MinHasher, shingles } from '../pipeline/corpus/minhash.ts';
import type { CorpusRecord } from '../pipeline/corpus/record-text.ts';
import { examDate } from '../pipeline/exam-date.ts';
import { rerunCorpus, runBatch } from '../pipeline/run.ts';

let n = 0;
const rec = (stem: string, options: string[] = [], over: Partial<CorpusRecord> = {}): CorpusRecord => {
  n++;
  return {
    id: `r${n}`, source: { file: `p${n}.pdf`, sha256: `sha${n}` }, exam: { family: 'kcsat', year: 2024, sitting: 'csat', sat: { year: 2023, month: 11 } },
    section: 'common', number: n, stem, options: options.map((text, i) => ({ label: String(i + 1), text })), figures: [], ...over,
  };
};
const STEM = '첫째항이 $2$ 인 등비수열 $\\{a_{n}\\}$ 에 대하여 $\\dfrac{a_{5}}{a_{3}}=4$ 일 때, $a_{4}$ 의 값은? 모든 항이 양수이다.';
const OPTIONS = ['$8$', '$12$', '$16$', '$20$', '$24$'];
const cluster = async (records: CorpusRecord[], figureDir?: string) => {
  const r = await findDuplicates(records, DEFAULTS.dedup, figureDir);
  return records.map(x => r.canonicalOf.get(x.id) ?? x.id);
};

describe('dedup', () => {
  it('reads whitespace, \\dfrac for \\frac and the order of options as the same question', async () => {
    const a = rec(STEM, OPTIONS);
    const b = rec(STEM.replace('\\dfrac', '\\frac').replace(/ /g, '  ').replace('$2$ 인', '$ 2 $인'), [...OPTIONS].reverse());
    expect(prepare(a).math).toBe(prepare(b).math);
    const [ca, cb] = await cluster([a, b]);
    expect(ca).toBe(cb);
  });

  it('keeps apart the same frame with one number changed, and a question with other options', async () => {
    const a = rec(STEM, OPTIONS);
    const changed = rec(STEM.replace('=4', '=9'), OPTIONS);
    const otherOptions = rec(STEM, ['$6$', '$12$', '$16$', '$20$', '$24$']);
    const ids = await cluster([a, changed, otherOptions]);
    expect(new Set(ids).size).toBe(3);
  });

  it('never merges two records of one paper, even through a third', async () => {
    const a = rec(STEM, OPTIONS);
    const b = rec(STEM, OPTIONS, { source: { file: 'q.pdf', sha256: 'same' } });
    const c = rec(STEM, OPTIONS, { source: { file: 'q.pdf', sha256: 'same' }, number: 99 });
    const ids = await cluster([a, b, c]);
    expect(ids[1]).not.toBe(ids[2]);
  });

  it('keeps apart the same words over different graphs, by the perceptual hash of their crops', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dedup-fig-'));
    const draw = (file: string, svg: string) => sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="200" height="150"><rect width="200" height="150" fill="white"/>${svg}</svg>`)).png().toFile(path.join(dir, file));
    await draw('rising.png', '<polyline points="10,140 100,80 190,10" stroke="black" stroke-width="4" fill="none"/>');
    await draw('rising-copy.png', '<polyline points="11,140 101,80 190,11" stroke="black" stroke-width="4" fill="none"/>');
    await draw('falling.png', '<polyline points="10,10 100,80 190,140" stroke="black" stroke-width="4" fill="none"/>');
    const stem = '함수 $y=f(x)$ 의 그래프가 그림과 같을 때, $\\lim_{x\\to1}f(x)$ 의 값은?';
    const a = rec(stem, OPTIONS, { figures: [{ path: 'rising.png' }] });
    const same = rec(stem, OPTIONS, { figures: [{ path: 'rising-copy.png' }] });
    const other = rec(stem, OPTIONS, { figures: [{ path: 'falling.png' }] });
    const [ca, cs, co] = await cluster([a, same, other], dir);
    expect(cs).toBe(ca);
    expect(co).not.toBe(ca);
  });

  it('makes the most official, earliest record canonical', async () => {
    const upload = rec(STEM, OPTIONS, { exam: { family: 'generic', year: 2020 } });
    // Dated as the cover reading dates them (test/register.test.ts: the KICE template's offset and months).
    const later = rec(STEM, OPTIONS, { exam: { family: 'kcsat', year: 2025, sitting: 'june-mock', sat: { year: 2024, month: 6 } } });
    const earlier = rec(STEM, OPTIONS, { exam: { family: 'kcsat', year: 2024, sitting: 'csat', sat: { year: 2023, month: 11 } } });
    const ids = await cluster([upload, later, earlier]);
    expect(ids).toEqual([earlier.id, earlier.id, earlier.id]);
    // 2024학년도 수능 was sat in November 2023; the 2025학년도 June mock in June 2024.
    expect(examDate(earlier.exam)).toEqual({ year: 2023, month: 11 });
    expect(examDate(later.exam)).toEqual({ year: 2024, month: 6 });
  });

  it('joins a bucket past the cap through representatives, says so, and reads records by position a few times each', async () => {
    // More copies of one question than a bucket compares pair by pair, each from a paper of its own
    // with its own spacing, among as many questions with other numbers.
    const copies = Array.from({ length: BUCKET_CAP + 50 }, (_, k) => rec(STEM.replace(/ /g, () => (k % 3 ? ' ' : '  ')), OPTIONS));
    const others = Array.from({ length: BUCKET_CAP + 50 }, (_, k) => rec(STEM.replace('=4', `=${k + 5}`), OPTIONS));
    const records = [...copies, ...others];
    let reads = 0;
    // A source that builds each record when asked (here: a fresh object each time), as a corpus too
    // big to hold would.
    const source: RecordSource = { length: records.length, at: i => { reads++; return structuredClone(records[i]); } };
    const r = await findDuplicates(source, DEFAULTS.dedup);
    expect(r.cappedBuckets).toBeGreaterThan(0);
    expect(r.clusters.map(c => c.members.length)).toEqual([copies.length]);
    expect(new Set(copies.map(c => r.canonicalOf.get(c.id)))).toEqual(new Set([r.clusters[0].canonical]));
    expect(others.some(o => r.canonicalOf.has(o.id))).toBe(false);
    expect(reads).toBeLessThanOrEqual(3 * records.length);
    // The array itself gives the same clusters.
    expect((await findDuplicates(records, DEFAULTS.dedup)).clusters).toEqual(r.clusters);
  });

  it('finds candidates by LSH: a near copy collides, unrelated texts seldom do', () => {
    const hasher = new MinHasher(64);
    const sig = (s: string) => hasher.signature(shingles(s, 5));
    const base = prepare(rec(STEM, OPTIONS));
    const texts = [`${base.prose}#${base.math}`, `${base.prose.replace('등비', '등차')}#${base.math}`];
    // Unrelated texts: random letters, from a fixed seed.
    let seed = 7;
    const letter = () => String.fromCharCode(97 + ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) % 26);
    for (let i = 0; i < 200; i++) texts.push(Array.from({ length: 120 }, letter).join(''));
    const pairs: [number, number][] = [];
    const count = lshPairs(texts.map(sig), 16, 4, (i, j) => { pairs.push([i, j]); });
    expect(pairs).toContainEqual([0, 1]);
    expect(count).toBe(pairs.length);
    expect(count).toBeLessThan((202 * 201) / 2 / 100);
  });
});

describe('the corpus passes over a store', () => {
  it('cluster two printings of one paper, tag every record, and rerun alone (make dedup / make tag) with no PDF there', async () => {
    const inDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dedup-in-'));
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dedup-out-'));
    const sample = path.join(ROOT, 'fixtures', 'samples', '2026-sample-math-dif.pdf');
    fs.copyFileSync(sample, path.join(inDir, 'a-first.pdf'));
    // The same paper printed again: other bytes (a trailing comment), so another paper to the store.
    fs.writeFileSync(path.join(inDir, 'b-reprint.pdf'), Buffer.concat([fs.readFileSync(sample), Buffer.from('\n% reprint\n')]));
    const config = resolveConfig({ year: '2099', inDir, outDir, progress: false }, {});
    const result = await runBatch(config);
    expect(result.corpus.join('\n')).toMatch(/dedup: \d+ records, \d+ candidate pairs/);
    const lines = () => fs.readFileSync(result.itemsFile, 'utf8').trim().split('\n').map(l => JSON.parse(l));
    const recs = lines();
    const first = recs.filter(r => r.source.file === 'a-first.pdf');
    const second = recs.filter(r => r.source.file === 'b-reprint.pdf');
    expect(first.length).toBeGreaterThan(5);
    for (const r of first) expect(r.duplicate_of, r.id).toBeNull();
    for (const r of second) {
      const twin = first.find(f => f.section === r.section && f.number === r.number);
      expect(r.duplicate_of, r.id).toBe(twin.id);
      expect(r.diagnostics.find((d: { rule: string }) => d.rule === 'dedup/duplicate').message).toMatch(/prose 1, formulas 1, options 1/);
    }
    for (const r of recs) {
      expect(r.knowledge.length, r.id).toBeGreaterThan(0);
      expect(r.knowledge[0].path).toHaveLength(2);
    }
    // A stricter threshold, rerun over the store alone: the papers are gone, nothing is read but the store.
    fs.rmSync(inDir, { recursive: true });
    const rerun = await rerunCorpus(resolveConfig({ year: '2099', outDir, progress: false }, { DEDUP_FIGURE_BITS: '64' }), ['dedup', 'tag']);
    expect(rerun.lines[0]).toMatch(/tag: \d+ records, 0 tagged/);
    expect(rerun.lines[1]).toMatch(/dedup:/);
    expect(lines().map(r => r.duplicate_of)).toEqual(recs.map(r => r.duplicate_of));
  }, 300_000);
});
