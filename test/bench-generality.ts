// `make bench-generality [N=1000] [SEED=20261201]`: N papers of the layout fuzzer (a fixed seed),
// generated under out/generality/<SEED>/papers (kept: a rerun prints only papers whose HTML changed),
// read by the ingest command, scored by ../shared/tools/score.mjs --page-match --all, and printed per
// dimension (script, numbering, option scheme, columns, mark style, scan …) with how each paper whose
// reading misses ended. Writes out/generality/<SEED>/summary.json and out/bench-generality.json.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { generatePapers } from '../fixtures/papers/generate.ts';
import { ROOT } from '../pipeline/config.ts';
import { SCORER } from './helpers.ts';
import { formatReport, runScorer, scoreByDimension, statusesFromLog } from './generality-score.ts';

const N = Number(process.env.N ?? 1000);
const SEED = Number(process.env.SEED ?? 20261201);
const YEAR = '2099';

async function ingest(inDir: string, outDir: string, logFile: string): Promise<{ code: number; log: string; seconds: number }> {
  const t0 = performance.now();
  const child = spawn('npx', ['tsx', 'pipeline/cli.ts', '--year', YEAR, '--in', inDir, '--out', outDir, '--force', '--no-progress'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  let read = 0;
  const onLine = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    log += text;
    for (const l of text.split('\n')) if (/^(done|PARTIAL|FAILED|skipped|needs-review|NEEDS-REVIEW)\s/.test(l) && ++read % 25 === 0) process.stdout.write(`bench-generality: ${read} papers read\n`);
  };
  child.stdout.on('data', onLine);
  child.stderr.on('data', (c: Buffer) => { log += c.toString('utf8'); });
  const code = await new Promise<number>(resolve => child.on('close', c => resolve(c ?? 1)));
  fs.writeFileSync(logFile, log);
  return { code, log, seconds: (performance.now() - t0) / 1000 };
}

async function main(): Promise<void> {
  if (!Number.isInteger(N) || N < 1 || !Number.isInteger(SEED)) throw new Error('N and SEED must be whole numbers');
  if (!fs.existsSync(SCORER)) throw new Error(`the scorer is missing (${SCORER}): bench-generality scores with ../shared/tools/score.mjs`);
  const base = path.join(ROOT, 'out', 'generality', String(SEED));
  const papers = path.join(base, 'papers');
  const outDir = path.join(base, 'ingest');
  const t0 = performance.now();
  const manifest = await generatePapers({ seed: SEED, count: N, out: papers, log: l => { if (!/^papers: gen-/.test(l)) process.stdout.write(`bench-generality: ${l}\n`); } });
  const genSeconds = (performance.now() - t0) / 1000;
  fs.rmSync(outDir, { recursive: true, force: true });
  const run = await ingest(papers, outDir, path.join(base, 'ingest.log'));
  if (![0, 1, 3].includes(run.code)) throw new Error(`the ingest command exited ${run.code} (log: ${path.relative(ROOT, path.join(base, 'ingest.log'))})`);
  const scored = runScorer(SCORER, path.join(outDir, YEAR, 'items.jsonl'), path.join(papers, 'truth'));
  const report = scoreByDimension(manifest, scored, statusesFromLog(run.log));
  process.stdout.write(`\nbench-generality: seed ${SEED}, ${N} papers, ${report.overall.questions} questions (generated in ${genSeconds.toFixed(1)} s, read in ${run.seconds.toFixed(1)} s)\n\n`);
  process.stdout.write(formatReport(report) + '\n');
  const summary = { seed: SEED, papers: N, generated_s: genSeconds, ingest_s: run.seconds, ingest_exit: run.code, ...report };
  fs.writeFileSync(path.join(base, 'summary.json'), JSON.stringify(summary, null, 1) + '\n');
  fs.writeFileSync(path.join(ROOT, 'out', 'bench-generality.json'), JSON.stringify(summary, null, 1) + '\n');
  process.stdout.write(`\nbench-generality: wrote ${path.relative(ROOT, path.join(base, 'summary.json'))} and out/bench-generality.json\n`);
}

main().catch(e => { process.stderr.write(`bench-generality: ${(e as Error).message}\n`); process.exitCode = 1; });
