// QUEUE=redis://…: a real Redis on a free loopback port, two `make worker` processes, six KICE
// booklets through the queue, one worker killed with SIGKILL mid-run: its paper is taken over after
// the stall interval, and items.jsonl is the single-process run's, with no row written twice. A
// paper's needs-review verdict comes back through the queue whole.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, ROOT } from '../pipeline/config.ts';
import { QUEUE_NAME, redisOptions } from '../pipeline/queue/connection.ts';
import { runBatch } from '../pipeline/run.ts';
import { runQueued } from '../pipeline/queue/enqueue.ts';
import { startWorker } from '../pipeline/queue/worker.ts';
import { openStore } from '../pipeline/open-store.ts';
import { freePort, haveShared, KCSAT } from './helpers.ts';

const STEMS = ['202106', '202206'].flatMap(s => ['dif', 'geo', 'pro'].map(e => `${s}-h3-math-${e}`));
// Low resolution: the comparison is of records and images between two runs at the same settings.
const DPI = '72';
const STALL_MS = '4000';

/** Node with tsx as its loader, not the tsx launcher: a signal then reaches the process that works. */
const tsx = (script: string, args: string[], env: NodeJS.ProcessEnv) =>
  spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, script), ...args], { cwd: ROOT, env: { ...process.env, CI: 'true', IN: '', OUT: '', YEAR: '', FORCE: '', TEMPLATE: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });

const exited = (child: ChildProcess) => new Promise<number | null>(resolve => {
  if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
  else child.once('exit', code => resolve(code));
});

describe.skipIf(!haveShared())('ingest through the queue', () => {
  let redis: ChildProcess;
  let url = '';
  const workers: ChildProcess[] = [];
  const inDir = fs.mkdtempSync(path.join(os.tmpdir(), 'queue-in-'));

  beforeAll(async () => {
    for (const stem of STEMS) for (const f of [`${stem}.pdf`, `${stem}-answer.png`]) fs.symlinkSync(path.join(KCSAT, f), path.join(inDir, f));
    const port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      redis.stdout!.on('data', (b: Buffer) => { if (/Ready to accept connections/.test(b.toString())) resolve(); });
      redis.once('exit', code => reject(new Error(`redis-server exited (${code})`)));
    });
  });

  afterAll(async () => {
    for (const w of workers) w.kill('SIGKILL');
    redis?.kill('SIGTERM');
    if (redis) await exited(redis);
  });

  it('gives the single-process items.jsonl with a worker killed mid-run', async () => {
    // The reference: the same six booklets read in one process.
    const refOut = fs.mkdtempSync(path.join(os.tmpdir(), 'queue-ref-'));
    const ref = await runBatch(resolveConfig({ year: '2099', inDir, outDir: refOut, dpi: DPI, progress: false }, { WORKERS: '1' }));
    expect(ref.papers.map(p => p.status)).toEqual(STEMS.map(() => 'done'));

    const events = new QueueEvents(QUEUE_NAME, { connection: redisOptions(url) });
    let stalled = 0;
    events.on('stalled', () => { stalled++; });
    await events.waitUntilReady();

    const env = { QUEUE: url, QUEUE_STALL_MS: STALL_MS };
    const logs = ['', ''];
    for (const i of [0, 1]) {
      const w = tsx('pipeline/queue/worker-cli.ts', [], env);
      w.stdout!.on('data', (b: Buffer) => { logs[i] += b.toString(); });
      w.stderr!.on('data', (b: Buffer) => { logs[i] += b.toString(); });
      workers.push(w);
    }
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'queue-out-'));
    const ingest = tsx('pipeline/cli.ts', ['--year', '2099', '--in', inDir, '--out', out, '--dpi', DPI, '--no-progress'], env);
    let said = '';
    ingest.stdout!.on('data', (b: Buffer) => { said += b.toString(); });
    ingest.stderr!.on('data', (b: Buffer) => { said += b.toString(); });

    // The first worker is killed a moment after it finishes its first paper: it holds its second then.
    const [victim, survivor] = workers;
    await new Promise<void>(resolve => {
      const watch = setInterval(() => {
        if (!/^done /m.test(logs[0])) return;
        clearInterval(watch);
        setTimeout(() => { victim.kill('SIGKILL'); resolve(); }, 1500);
      }, 100);
    });
    const code = await exited(ingest);
    expect(code, `${said}\n--- worker 1 ---\n${logs[0]}\n--- worker 2 ---\n${logs[1]}`).toBe(0);
    expect(stalled, 'the killed worker\'s paper was taken over').toBeGreaterThanOrEqual(1);
    expect(said).toMatch(new RegExp(`summary: ${STEMS.length} papers .* 0 failed`));

    const items = fs.readFileSync(path.join(out, '2099', 'items.jsonl'), 'utf8');
    const want = fs.readFileSync(ref.itemsFile, 'utf8');
    expect(items.split('\n').map(l => l && JSON.parse(l).id)).toEqual(want.split('\n').map(l => l && JSON.parse(l).id));
    expect(items).toBe(want);
    const db = new Database(path.join(out, '2099', 'store.sqlite'), { readonly: true });
    const rows = db.prepare('SELECT count(*) n, count(DISTINCT id) ids, count(DISTINCT paper || number || section) questions FROM items').get() as { n: number; ids: number; questions: number };
    db.close();
    expect(rows).toEqual({ n: want.trim().split('\n').length, ids: rows.n, questions: rows.n });

    survivor.kill('SIGTERM');
    expect(await exited(survivor)).toBe(0);
    await events.close();
  }, 1_500_000);

  it('brings a paper\'s needs-review verdict back through the queue whole', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'queue-unsure-'));
    fs.copyFileSync(path.join(ROOT, 'fixtures/unsure/stated-count.pdf'), path.join(dir, 'stated-count.pdf'));
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'queue-unsure-out-'));
    const config = resolveConfig({ year: '2099', inDir: dir, outDir: out, dpi: DPI, progress: false }, { QUEUE: url, QUEUE_STALL_MS: STALL_MS });
    // A worker in this process: the paper's outcome and rows still travel through Redis as JSON.
    const worker = startWorker({ ...config, queue: url });
    try {
      const result = await runQueued(config);
      expect(result.papers.map(p => [p.file, p.status])).toEqual([['stated-count.pdf', 'needs-review']]);
      expect(result.papers[0].structure).toMatchObject({ status: 'needs-review', reasons: [expect.stringMatching(/states 8 questions; 5 were read/)] });
      const store = openStore(path.join(out, '2099', 'store.sqlite'));
      try {
        expect(store.verdict(result.papers[0].sha256)).toEqual(result.papers[0].structure);
      } finally {
        store.close();
      }
      const records = fs.readFileSync(path.join(out, '2099', 'items.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l));
      expect(records.map(r => r.structure.status)).toEqual(Array(5).fill('needs-review'));
    } finally {
      await worker.close();
    }
  }, 300_000);
});
