// The real records the dedup bench builds its corpora from: the items.jsonl files named in
// BENCH_ITEMS (comma-separated), else those `make test` left under out/test/, else the 2023-11 CSAT
// booklets from ../shared ingested into a temporary folder (a fresh clone). Each real question once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveConfig, DEFAULTS, ROOT } from '../pipeline/config.ts';
import { findDuplicates } from '../pipeline/corpus/dedup.ts';
import type { CorpusRecord } from '../pipeline/corpus/record-text.ts';

async function itemsFiles(): Promise<string[]> {
  const named = process.env.BENCH_ITEMS?.split(',').filter(Boolean) ?? [];
  if (named.length) return named;
  const testOut = path.join(ROOT, 'out', 'test');
  const left = fs.existsSync(testOut) ? fs.readdirSync(testOut).map(d => path.join(testOut, d, '2099', 'items.jsonl')).filter(f => fs.existsSync(f)) : [];
  if (left.length) return left;
  const inDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dedup-in-'));
  const kcsat = path.join(ROOT, '..', 'shared', 'fixtures', 'papers', 'kcsat');
  for (const f of fs.readdirSync(kcsat).filter(f => f.startsWith('202311') && f.endsWith('.pdf'))) fs.copyFileSync(path.join(kcsat, f), path.join(inDir, f));
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dedup-out-'));
  const { runBatch } = await import('../pipeline/run.ts');
  return [(await runBatch(resolveConfig({ year: '2099', inDir, outDir: out, progress: false }, {}))).itemsFile];
}

export async function sourceRecords(): Promise<{ records: CorpusRecord[]; from: string }> {
  const files = await itemsFiles();
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
