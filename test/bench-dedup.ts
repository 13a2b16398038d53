// The dedup part of `make bench`: near-duplicate detection over 1k to 1M records built from real
// ones (bench-dedup-sources.ts), in two corpora, varied and nearly all alike (bench-dedup-corpus.ts),
// each size in a process of its own (its time and peak memory alone). Figures are not compared here
// (synthetic records have no crops). BENCH_DEDUP_MAX caps the sizes (default 1000000). Printed as
// two tables and written to out/bench-dedup.json.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULTS, ROOT } from '../pipeline/config.ts';
import { findDuplicates, type RecordSource } from '../pipeline/corpus/dedup.ts';
import type { CorpusRecord } from '../pipeline/corpus/record-text.ts';
import { benchCorpus, type Corpus } from './bench-dedup-corpus.ts';
import { sourceRecords } from './bench-dedup-sources.ts';

interface Row { corpus: Corpus; records: number; seconds: number; buildingSeconds: number; peakRssMb: number; candidatePairs: number; allPairs: number; grouped: number; cappedBuckets: number; clusters: number; recall: number; falseMerges: number }

/**
 * This process's own peak resident memory, MB. getrusage's maxRSS carries over from the parent
 * through fork and exec (a child of a bench that had ingested the booklets in-process reported the
 * parent's 359 MB at 1,000 records), so Linux's VmHWM, which belongs to this address space, is read.
 */
function peakRssMb(): number {
  const hwm = fs.existsSync('/proc/self/status') ? /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8')) : null;
  return Math.round((hwm ? Number(hwm[1]) : process.resourceUsage().maxRSS) / 1024);
}

/** One size of one corpus, in this process (a child of the bench): its row. */
async function measure(sources: CorpusRecord[], corpus: Corpus, n: number): Promise<Row> {
  // Records are built as dedup reads them (never all held); the time that takes is the bench's, not
  // dedup's, so it is clocked apart and taken out.
  const records = benchCorpus(sources, corpus, n, n);
  let building = 0;
  const timed: RecordSource = {
    length: records.length,
    at: i => {
      const t = performance.now();
      const r = records.at(i);
      building += performance.now() - t;
      return r;
    },
  };
  const t0 = performance.now();
  const result = await findDuplicates(timed, DEFAULTS.dedup);
  const seconds = (performance.now() - t0 - building) / 1000;
  const cluster = (id: string) => result.canonicalOf.get(id) ?? id;
  let found = 0;
  for (let k = records.distinct; k < n; k++) if (cluster(`d${records.originalOf(k)}`) === cluster(`u${k}`)) found++;
  // A false merge: two distinct items (not a planted copy and its original) in one cluster.
  const distinctIn = new Map<string, number>();
  for (const [id, canonical] of result.canonicalOf) if (id.startsWith('d')) distinctIn.set(canonical, (distinctIn.get(canonical) ?? 0) + 1);
  const falseMerges = [...distinctIn.values()].reduce((s, c) => s + (c * (c - 1)) / 2, 0);
  return {
    corpus, records: n, seconds: Number(seconds.toFixed(2)), buildingSeconds: Number((building / 1000).toFixed(2)), peakRssMb: peakRssMb(),
    candidatePairs: result.candidatePairs, allPairs: (n * (n - 1)) / 2, grouped: result.grouped, cappedBuckets: result.cappedBuckets,
    clusters: result.clusters.length, recall: Number((found / (n - records.distinct)).toFixed(4)), falseMerges,
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
    console.log('| records | seconds | building s | peak RSS MB | candidate pairs | all pairs | grouped | capped buckets | clusters | planted recall | false merges |');
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const n of [1_000, 10_000, 100_000, 1_000_000].filter(x => x <= max)) {
      // Each size in a process of its own: its own peak memory, and no heap left over from the last.
      const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1]], { env: { ...process.env, BENCH_DEDUP_CHILD: JSON.stringify({ file, corpus, n }) }, encoding: 'utf8', maxBuffer: 1 << 20, stdio: ['ignore', 'pipe', 'inherit'] });
      const r = JSON.parse(out.trim().split('\n').pop()!) as Row;
      rows.push(r);
      console.log(`| ${r.records.toLocaleString('en')} | ${r.seconds} | ${r.buildingSeconds} | ${r.peakRssMb} | ${r.candidatePairs.toLocaleString('en')} | ${r.allPairs.toLocaleString('en')} | ${r.grouped.toLocaleString('en')} | ${r.cappedBuckets} | ${r.clusters.toLocaleString('en')} | ${r.recall.toFixed(4)} | ${r.falseMerges} |`);
    }
  }
  const outFile = path.join(ROOT, 'out', 'bench-dedup.json');
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile, JSON.stringify({ node: process.version, cores: os.availableParallelism(), load: os.loadavg(), sources: sources.length, from, settings: DEFAULTS.dedup, targets: { seconds: 600, peakRssMb: 4096, recall: 1, falseMerges: 0 }, rows }, null, 2));
  console.log(`\nwritten ${path.relative(process.cwd(), outFile)}`);
}
