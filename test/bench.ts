// `make bench`: in one run, on three 12-page A3 KICE booklets from ../shared (IN= for other papers),
// the ratios issue 14 sets: ingest pages/s against poppler's bare pass (`pdftoppm -r 150` plus
// `pdftotext -bbox-layout`, one process), with 1 and 2 worker processes and through the queue with
// 2 workers; a warm re-run (nothing new) against the cold run; peak RSS of one worker reading a
// 20-page booklet; seconds per page of each stage. Printed as a table and written to <OUT>/bench.json.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveConfig, ROOT, type Config } from '../pipeline/config.ts';
import { runQueued } from '../pipeline/queue/enqueue.ts';
import { listPdfs, runBatch, type BatchResult } from '../pipeline/run.ts';
import { freePort, KCSAT } from './helpers.ts';

const STEMS = ['202311-h3-math-dif', '202311-h3-math-geo', '202311-h3-math-pro'];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['WORKERS', 'QUEUE', 'FORCE'].includes(k)));

function inbox(): string {
  if (process.env.IN) return path.resolve(process.env.IN);
  if (!fs.existsSync(KCSAT)) throw new Error(`bench: ${KCSAT} is not there: give papers with IN=`);
  const dir = path.join(tmp, 'in');
  fs.mkdirSync(dir);
  for (const stem of STEMS) for (const f of fs.readdirSync(KCSAT).filter(f => f.startsWith(stem))) fs.symlinkSync(path.join(KCSAT, f), path.join(dir, f));
  return dir;
}

const pagesOf = (r: BatchResult) => r.papers.filter(p => p.status !== 'failed').reduce((n, p) => n + p.pages, 0);
const config = (outDir: string, extra: NodeJS.ProcessEnv = {}): Config => resolveConfig({ year: '2099', inDir, outDir, progress: false }, { ...env, ...extra });

/** poppler's bare pass over the same papers, one process after another: pages/s. */
function poppler(files: string[]): { seconds: number; pages: number } {
  const out = path.join(tmp, 'poppler');
  fs.mkdirSync(out);
  let pages = 0;
  const t0 = performance.now();
  for (const [i, f] of files.entries()) {
    execFileSync('pdftoppm', ['-r', '150', '-png', f, path.join(out, `p${i}`)]);
    execFileSync('pdftotext', ['-bbox-layout', f, path.join(out, `p${i}.html`)]);
    pages += Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [f], { encoding: 'utf8' }))![1]);
  }
  return { seconds: (performance.now() - t0) / 1000, pages };
}

/** A Redis of its own and two `make worker` processes: the queue's figures on this machine. */
async function queued(outDir: string): Promise<BatchResult> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise<void>(resolve => redis.stdout!.on('data', (b: Buffer) => { if (/Ready to accept/.test(b.toString())) resolve(); }));
  const workers: ChildProcess[] = [0, 1].map(() => spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'pipeline/queue/worker-cli.ts')], { cwd: ROOT, env: { ...env, QUEUE: url }, stdio: 'ignore' }));
  try {
    return await runQueued(config(outDir, { QUEUE: url }));
  } finally {
    for (const w of workers) w.kill('SIGTERM');
    await Promise.all(workers.map(w => new Promise(resolve => w.once('exit', resolve))));
    redis.kill('SIGTERM');
  }
}

/** Peak RSS of one worker (WORKERS=1: the papers are read in the process) on a 20-page booklet assembled with qpdf. */
function peakRss(): { pages: number; mb: number } | null {
  if (process.env.IN) return null;
  const dir = path.join(tmp, 'rss-in');
  fs.mkdirSync(dir);
  const [a, b, c] = STEMS.map(s => path.join(KCSAT, `${s}.pdf`));
  execFileSync('qpdf', ['--empty', '--pages', a, '1-12', b, '9-12', c, '9-12', '--', path.join(dir, 'booklet-20.pdf')]);
  const r = spawnSync('/usr/bin/time', ['-f', 'maxrss_kb=%M', process.execPath, '--import', 'tsx', path.join(ROOT, 'pipeline/cli.ts'), '--year', '2099', '--in', dir, '--out', path.join(tmp, 'rss-out'), '--no-progress'],
    { cwd: ROOT, env: { ...env, WORKERS: '1', CI: 'true' }, encoding: 'utf8' });
  const kb = Number(/maxrss_kb=(\d+)/.exec(r.stderr)?.[1]);
  return { pages: 20, mb: Math.round(kb / 1024) };
}

function stageTable(r: BatchResult): Record<string, number> {
  const pages = Math.max(1, pagesOf(r));
  const stages: Record<string, number> = {};
  for (const p of r.papers) for (const [k, v] of Object.entries(p.timings)) stages[k] = (stages[k] ?? 0) + v;
  return Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, Number((v / pages).toFixed(3))]));
}

const inDir = inbox();
const files = listPdfs(inDir);
console.log(`bench: ${files.length} papers from ${inDir}, node ${process.version}, ${os.availableParallelism()} cores, load ${os.loadavg().map(l => l.toFixed(1)).join(' ')}`);
const base = poppler(files);
const one = await runBatch(config(path.join(tmp, 'w1'), { WORKERS: '1' }));
const warm = await runBatch(config(path.join(tmp, 'w1'), { WORKERS: '1' }));
const two = await runBatch(config(path.join(tmp, 'w2'), { WORKERS: '2' }));
const queue = await queued(path.join(tmp, 'q2'));
const rss = peakRss();
const same = ['w2', 'q2'].every(d => fs.readFileSync(path.join(tmp, d, '2099/items.jsonl'), 'utf8') === fs.readFileSync(one.itemsFile, 'utf8'));

const popplerRate = base.pages / base.seconds;
const row = (label: string, r: BatchResult) => {
  const pages = pagesOf(r), rate = pages / r.seconds;
  return { run: label, pages, seconds: Number(r.seconds.toFixed(2)), pagesPerSecond: Number(rate.toFixed(3)), vsPoppler: Number((rate / popplerRate).toFixed(2)) };
};
const rows = [
  { run: 'poppler (pdftoppm -r 150 + pdftotext -bbox-layout)', pages: base.pages, seconds: Number(base.seconds.toFixed(2)), pagesPerSecond: Number(popplerRate.toFixed(3)), vsPoppler: 1 },
  row('ingest cold, WORKERS=1', one),
  row('ingest cold, WORKERS=2', two),
  row('ingest cold, QUEUE with 2 workers', queue),
];
const result = {
  machine: { cores: os.availableParallelism(), node: process.version, load: os.loadavg() },
  papers: files.map(f => path.basename(f)),
  rows,
  // A warm re-run reads no paper; one redone (a template edited between the runs) would not be warm.
  warm: { seconds: Number(warm.seconds.toFixed(2)), shareOfCold: Number((warm.seconds / one.seconds).toFixed(4)), papersRedone: warm.papers.filter(p => p.status !== 'skipped').length },
  peakRssPerWorker: rss,
  sameItemsJsonl: same,
  secondsPerPageByStage: stageTable(one),
  targets: { ingestVsPoppler: 1.5, warmShareOfCold: 0.02, rssMb: 1536 },
};
console.log('\n| run | pages | s | pages/s | × poppler |\n|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.run} | ${r.pages} | ${r.seconds} | ${r.pagesPerSecond} | ${r.vsPoppler} |`);
console.log(`\nwarm re-run: ${result.warm.seconds} s = ${(result.warm.shareOfCold * 100).toFixed(2)} % of cold (target ≤ 2 %), ${result.warm.papersRedone} papers redone`);
if (rss) console.log(`peak RSS of one worker on a ${rss.pages}-page booklet: ${rss.mb} MB (target ≤ 1536 MB)`);
console.log(`items.jsonl of WORKERS=2 and QUEUE equal WORKERS=1's: ${same}`);
console.log('seconds per page by stage (WORKERS=1, cold):');
for (const [k, v] of Object.entries(result.secondsPerPageByStage)) console.log(`  ${k.padEnd(11)} ${v}`);
const outFile = path.join(path.resolve(process.env.OUT || 'out'), 'bench.json');
fs.mkdirSync(path.dirname(outFile), { recursive: true });
fs.writeFileSync(outFile, JSON.stringify(result, null, 2) + '\n');
console.log(`written: ${path.relative(process.cwd(), outFile)}`);
fs.rmSync(tmp, { recursive: true, force: true });
