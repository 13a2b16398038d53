// `make bench [IN=dir] [DPI=n]`: seconds per page of each stage over a batch, cold (no cached
// page images) and warm (images cached, every stage rerun), in a throw-away output folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveConfig } from '../pipeline/config.ts';
import { runBatch, type BatchResult } from '../pipeline/run.ts';

function report(label: string, r: BatchResult): void {
  const done = r.papers.filter(p => p.status === 'done');
  const pages = done.reduce((n, p) => n + p.pages, 0);
  const stages = new Map<string, number>();
  for (const p of done) for (const [k, v] of Object.entries(p.timings)) stages.set(k, (stages.get(k) ?? 0) + v);
  console.log(`${label}: ${done.length} papers, ${pages} pages, ${r.seconds.toFixed(1)} s wall, ${(r.seconds / Math.max(1, pages)).toFixed(3)} s/page`);
  for (const [k, v] of stages) console.log(`  ${k.padEnd(11)} ${(v / Math.max(1, pages)).toFixed(3)} s/page  (${v.toFixed(1)} s)`);
}

const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
const base = resolveConfig({ year: '2099', outDir: out, progress: false });
console.log(`bench: papers from ${base.inDir}, ${base.dpi} dpi, node ${process.version}, ${os.cpus().length} cores`);
report('cold', await runBatch(base));
report('warm', await runBatch(resolveConfig({ year: '2099', outDir: out, progress: false, force: true })));
fs.rmSync(out, { recursive: true, force: true });
