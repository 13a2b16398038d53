// The dedup part of `make bench`: near-duplicate detection over 1k to 1M records built from real
// ones, in two corpora, each size in a process of its own (its time and peak memory alone):
//  - varied: every real record is a source; distinct items are sources with their numbers changed
//    (the same frame, another question: must stay apart); planted duplicates are copies of them
//    with the text perturbed (spacing, \dfrac for \frac, a typo) and the options reordered (must be
//    found);
//  - alike: one real record is the source of every distinct item (one family's templated question
//    a million times over, only its numbers changed), and half the planted copies are of five
//    items, thousands of copies each: buckets past the cap, joined through representatives.
// Figures are not compared here (synthetic records have no crops). Records: the items.jsonl files
// named in BENCH_ITEMS (comma-separated), else those `make test` left under out/test/, else the
// 2023-11 CSAT booklets from ../shared ingested into a temporary folder. BENCH_DEDUP_MAX caps the
// sizes (default 1000000). Printed as two tables and written to out/bench-dedup.json.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveConfig, DEFAULTS, ROOT } from '../pipeline/config.ts';
import { findDuplicates } from '../pipeline/corpus/dedup.ts';
import type { CorpusRecord } from '../pipeline/corpus/record-text.ts';

type Corpus = 'varied' | 'alike';

async function sourceRecords(): Promise<{ records: CorpusRecord[]; from: string }> {
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
    const { runBatch } = await import('../pipeline/run.ts');
    files = [(await runBatch(resolveConfig({ year: '2099', inDir, outDir: out, progress: false }, {}))).itemsFile];
  }
  // One record per id: a paper read by two of the suite's runs (kcsat's and review-real's both
  // ingest 202311-h3-math-pro.pdf) is one paper, and dedup never joins records of one paper, so its
  // second copy would stay a source of its own and the bench would count finding it as a false merge.
  const seen = new Set<string>();
  const all = files
    .flatMap(f => fs.readFileSync(f, 'utf8').trim().split('\n').filter(Boolean).map(l => JSON.parse(l) as CorpusRecord))
    .filter(r => !seen.has(r.id) && Boolean(seen.add(r.id)));
  // One record per cluster: the sources must not already hold duplicates of each other (the PAES
  // science forms share their common module, the KICE booklets of a sitting their common part).
  const { canonicalOf } = await findDuplicates(all, DEFAULTS.dedup);
  return { records: all.filter(r => (canonicalOf.get(r.id) ?? r.id) === r.id), from: files.map(f => path.relative(process.cwd(), f)).join(', ') };
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

/** n records: n/1.1 distinct items, the rest planted copies of them (pairs [original, copy]). */
function build(sources: CorpusRecord[], corpus: Corpus, n: number, seed: number): { records: CorpusRecord[]; planted: [number, number][] } {
  const rand = rng(seed);
  const distinct = Math.round(n / 1.1);
  const variable = corpus === 'alike' ? [sources.filter(hasNumbers).sort((a, b) => b.stem.length - a.stem.length)[0]] : sources.filter(hasNumbers);
  const records: CorpusRecord[] = [];
  for (let k = 0; k < distinct; k++) {
    const base = corpus === 'varied' && k < sources.length ? sources[k] : withNumbersChanged(variable[k % variable.length], 1 + Math.floor(k / variable.length), rand);
    records.push({ ...base, id: `d${k}`, number: k % 30 + 1, source: { file: `bench-${Math.floor(k / 30)}.pdf`, sha256: `p${Math.floor(k / 30)}` } });
  }
  const planted: [number, number][] = [];
  for (let k = distinct; k < n; k++) {
    const popular = corpus === 'alike' && rand() < 0.5;
    const of = popular ? Math.floor(rand() * 5) * 7919 % distinct : Math.floor(rand() * distinct);
    records.push({ ...perturbed(records[of], rand), id: `u${k}`, source: { file: `upload-${k}.pdf`, sha256: `u${k}` }, exam: { ...records[of].exam, family: 'generic' } });
    planted.push([of, k]);
  }
  return { records, planted };
}

interface Row { corpus: Corpus; records: number; seconds: number; peakRssMb: number; candidatePairs: number; allPairs: number; grouped: number; cappedBuckets: number; clusters: number; recall: number; falseMerges: number }

/** One size of one corpus, in this process (a child of the bench): its row. */
async function measure(sources: CorpusRecord[], corpus: Corpus, n: number): Promise<Row> {
  const { records, planted } = build(sources, corpus, n, n);
  const t0 = performance.now();
  const result = await findDuplicates(records, DEFAULTS.dedup);
  const seconds = (performance.now() - t0) / 1000;
  const cluster = (i: number) => result.canonicalOf.get(records[i].id) ?? records[i].id;
  const found = planted.filter(([a, b]) => cluster(a) === cluster(b)).length;
  // A false merge: two distinct items (not a planted copy and its original) in one cluster.
  const distinctIn = new Map<string, number>();
  records.forEach((r, i) => { if (r.id.startsWith('d') && result.canonicalOf.has(r.id)) distinctIn.set(cluster(i), (distinctIn.get(cluster(i)) ?? 0) + 1); });
  const falseMerges = [...distinctIn.values()].reduce((s, c) => s + (c * (c - 1)) / 2, 0);
  return {
    corpus, records: n, seconds: Number(seconds.toFixed(2)), peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    candidatePairs: result.candidatePairs, allPairs: (n * (n - 1)) / 2, grouped: result.grouped, cappedBuckets: result.cappedBuckets,
    clusters: result.clusters.length, recall: Number((found / planted.length).toFixed(4)), falseMerges,
  };
}

if (process.env.BENCH_DEDUP_CHILD) {
  const { file, corpus, n } = JSON.parse(process.env.BENCH_DEDUP_CHILD) as { file: string; corpus: Corpus; n: number };
  process.stdout.write(JSON.stringify(await measure(JSON.parse(fs.readFileSync(file, 'utf8')) as CorpusRecord[], corpus, n)) + '\n');
} else {
  const { records: sources, from } = await sourceRecords();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dedup-')), 'sources.json');
  fs.writeFileSync(file, JSON.stringify(sources));
  const max = Number(process.env.BENCH_DEDUP_MAX ?? 1_000_000);
  console.log(`bench dedup: ${sources.length} real records (one per near-duplicate cluster) from ${from}; node ${process.version}, ${os.availableParallelism()} cores, load ${os.loadavg().map(l => l.toFixed(1)).join(' ')}`);
  const rows: Row[] = [];
  for (const corpus of ['varied', 'alike'] as const) {
    console.log(`\n${corpus === 'varied' ? 'varied sources (every real record a source)' : 'nearly all alike (one record the source of every item; half the copies of five items)'}:\n`);
    console.log('| records | seconds | peak RSS MB | candidate pairs | all pairs | grouped | capped buckets | clusters | planted recall | false merges |');
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const n of [1_000, 10_000, 100_000, 1_000_000].filter(x => x <= max)) {
      // Each size in a process of its own: its own peak memory, and no heap left over from the last.
      const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1]], { env: { ...process.env, BENCH_DEDUP_CHILD: JSON.stringify({ file, corpus, n }) }, encoding: 'utf8', maxBuffer: 1 << 20, stdio: ['ignore', 'pipe', 'inherit'] });
      const r = JSON.parse(out.trim().split('\n').pop()!) as Row;
      rows.push(r);
      console.log(`| ${r.records.toLocaleString('en')} | ${r.seconds} | ${r.peakRssMb} | ${r.candidatePairs.toLocaleString('en')} | ${r.allPairs.toLocaleString('en')} | ${r.grouped.toLocaleString('en')} | ${r.cappedBuckets} | ${r.clusters.toLocaleString('en')} | ${r.recall.toFixed(4)} | ${r.falseMerges} |`);
    }
  }
  const outFile = path.join(ROOT, 'out', 'bench-dedup.json');
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile, JSON.stringify({ node: process.version, cores: os.availableParallelism(), load: os.loadavg(), sources: sources.length, from, settings: DEFAULTS.dedup, targets: { seconds: 600, peakRssMb: 4096, recall: 1, falseMerges: 0 }, rows }, null, 2));
  console.log(`\nwritten ${path.relative(process.cwd(), outFile)}`);
}
