// The dedup part of `make bench`: near-duplicate detection over 1k, 10k and 100k records built from
// real ones, against the naive all-pairs count. Distinct items are real records with their numbers
// changed (the same frame, another question: must stay apart); planted duplicates are copies of
// them with the text perturbed (spacing, \dfrac for \frac, a typo or two) and the options reordered
// (must be found). Figures are not compared here (synthetic records have no crops).
// Records: the items.jsonl files named in BENCH_ITEMS (comma-separated), else those `make test`
// left under out/test/, else the 2024 CSAT booklets from ../shared ingested into a temporary folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveConfig, DEFAULTS, ROOT } from '../pipeline/config.ts';
import { findDuplicates } from '../pipeline/corpus/dedup.ts';
import type { CorpusRecord } from '../pipeline/corpus/record-text.ts';
import { runBatch } from '../pipeline/run.ts';

async function sourceRecords(): Promise<CorpusRecord[]> {
  let files = process.env.BENCH_ITEMS?.split(',') ?? [];
  if (!files.length) {
    const testOut = path.join(ROOT, 'out', 'test');
    if (fs.existsSync(testOut)) files = fs.readdirSync(testOut).map(d => path.join(testOut, d, '2099', 'items.jsonl')).filter(f => fs.existsSync(f));
  }
  if (!files.length) {
    const inDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dedup-in-'));
    const kcsat = path.join(ROOT, '..', 'shared', 'fixtures', 'papers', 'kcsat');
    for (const f of fs.readdirSync(kcsat).filter(f => f.startsWith('202311') && f.endsWith('.pdf'))) fs.copyFileSync(path.join(kcsat, f), path.join(inDir, f));
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dedup-out-'));
    files = [(await runBatch(resolveConfig({ year: '2099', inDir, outDir: out, progress: false }, {}))).itemsFile];
  }
  const all = files.flatMap(f => fs.readFileSync(f, 'utf8').trim().split('\n').map(l => JSON.parse(l) as CorpusRecord));
  // One record per cluster: the sources must not already hold duplicates of each other (the PAES
  // science forms share their common module, the KICE booklets of a sitting their common part).
  const { canonicalOf } = await findDuplicates(all, DEFAULTS.dedup);
  return all.filter(r => (canonicalOf.get(r.id) ?? r.id) === r.id);
}

/** A small deterministic PRNG (mulberry32), so every run builds the same records. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hasNumbers = (r: CorpusRecord) => (r.stem.match(/\d+/g) ?? []).length >= 2;

/** The record with every number changed; the first by the variant's own offset, so no two variants coincide. */
function withNumbersChanged(r: CorpusRecord, variant: number, rand: () => number): CorpusRecord {
  let first = true;
  const change = (s: string) => s.replace(/\d+/g, d => String(Number(d) + (first ? ((first = false), variant) : 1 + Math.floor(rand() * 97))));
  const stem = change(r.stem);
  return { ...r, stem, options: r.options.map(o => ({ ...o, text: change(o.text) })) };
}

function perturbed(r: CorpusRecord, rand: () => number): CorpusRecord {
  let stem = r.stem.replace(/\\frac/g, () => (rand() < 0.5 ? '\\dfrac' : '\\frac')).replace(/ /g, () => (rand() < 0.1 ? '  ' : ' ')).replace(/\$ /g, () => (rand() < 0.3 ? '$' : '$ '));
  // A typo in the prose: two neighbouring letters swapped, away from formulas.
  const letters = [...stem.matchAll(/\p{L}\p{L}/gu)].filter(m => stem.slice(0, m.index).split('$').length % 2 === 1);
  if (letters.length > 20) {
    const m = letters[Math.floor(rand() * letters.length)];
    stem = stem.slice(0, m.index) + m[0][1] + m[0][0] + stem.slice(m.index! + 2);
  }
  const texts = r.options.map(o => o.text);
  for (let i = texts.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [texts[i], texts[j]] = [texts[j], texts[i]];
  }
  return { ...r, stem, options: r.options.map((o, i) => ({ label: o.label, text: texts[i] })) };
}

function build(sources: CorpusRecord[], n: number, seed: number): { records: CorpusRecord[]; planted: [number, number][] } {
  const rand = rng(seed);
  const distinct = Math.round(n / 1.1);
  const variable = sources.filter(hasNumbers);
  const records: CorpusRecord[] = [];
  for (let k = 0; k < distinct; k++) {
    const base = k < sources.length ? sources[k] : withNumbersChanged(variable[k % variable.length], 1 + Math.floor(k / variable.length), rand);
    records.push({ ...base, id: `d${k}`, number: k % 30 + 1, source: { file: `bench-${Math.floor(k / 30)}.pdf`, sha256: `p${Math.floor(k / 30)}` } });
  }
  const planted: [number, number][] = [];
  for (let k = distinct; k < n; k++) {
    const of = Math.floor(rand() * distinct);
    records.push({ ...perturbed(records[of], rand), id: `u${k}`, source: { file: `upload-${k}.pdf`, sha256: `u${k}` }, exam: { ...records[of].exam, family: 'generic' } });
    planted.push([of, k]);
  }
  return { records, planted };
}

const sources = await sourceRecords();
console.log(`bench dedup: ${sources.length} real records (one per near-duplicate cluster) as sources, node ${process.version}, ${os.cpus().length} cores`);
console.log('records   seconds   candidate pairs   all pairs          clusters   planted recall   false merges');
const rows = [];
for (const n of [1_000, 10_000, 100_000]) {
  const { records, planted } = build(sources, n, n);
  const t0 = performance.now();
  const result = await findDuplicates(records, DEFAULTS.dedup);
  const seconds = (performance.now() - t0) / 1000;
  const cluster = (i: number) => result.canonicalOf.get(records[i].id) ?? records[i].id;
  const found = planted.filter(([a, b]) => cluster(a) === cluster(b)).length;
  // A false merge: two distinct items (not a planted copy and its original) in one cluster.
  const distinctIn = new Map<string, number>();
  records.forEach((r, i) => { if (r.id.startsWith('d') && result.canonicalOf.has(r.id)) distinctIn.set(cluster(i), (distinctIn.get(cluster(i)) ?? 0) + 1); });
  const falseMerges = [...distinctIn.values()].reduce((s, c) => s + (c * (c - 1)) / 2, 0);
  const all = (n * (n - 1)) / 2;
  rows.push({ records: n, seconds, candidatePairs: result.candidatePairs, allPairs: all, clusters: result.clusters.length, recall: found / planted.length, falseMerges });
  console.log(`${String(n).padEnd(9)} ${seconds.toFixed(2).padStart(7)}   ${String(result.candidatePairs).padStart(15)}   ${String(all).padEnd(16)}   ${String(result.clusters.length).padStart(8)}   ${(found / planted.length).toFixed(4).padStart(14)}   ${String(falseMerges).padStart(12)}`);
}
const outFile = path.join(ROOT, 'out', 'bench-dedup.json');
fs.mkdirSync(path.dirname(outFile), { recursive: true });
fs.writeFileSync(outFile, JSON.stringify({ node: process.version, cores: os.cpus().length, sources: sources.length, settings: DEFAULTS.dedup, rows }, null, 2));
console.log(`written ${path.relative(process.cwd(), outFile)}`);
