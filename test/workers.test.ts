// WORKERS=n: papers read by a pool of worker processes give the same bytes as one process reads —
// items.jsonl, page images and figure crops — whatever order the papers finish in; a paper's
// structural verdict (needs-review, its reasons) comes back from a worker process whole.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig, ROOT } from '../pipeline/config.ts';
import { runBatch } from '../pipeline/run.ts';
import { openStore } from '../pipeline/open-store.ts';
import { haveShared, KCSAT } from './helpers.ts';

/**
 * The shipped sample twice (the copy's bytes differ after %%EOF, so it is another paper) and, where
 * ../shared is here, two KICE booklets with their answer keys: papers of unequal length, so they
 * finish out of order.
 */
function inbox(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'workers-in-'));
  const sample = fs.readFileSync(path.join(ROOT, 'fixtures/samples/2026-sample-math-dif.pdf'));
  fs.writeFileSync(path.join(dir, '2026-sample-math-dif.pdf'), sample);
  fs.writeFileSync(path.join(dir, '2026-sample-math-dif-copy.pdf'), Buffer.concat([sample, Buffer.from('\n% a copy\n')]));
  if (haveShared()) {
    for (const stem of ['202106-h3-math-dif', '202106-h3-math-geo']) {
      for (const f of [`${stem}.pdf`, `${stem}-answer.png`]) fs.symlinkSync(path.join(KCSAT, f), path.join(dir, f));
    }
  }
  return dir;
}

/** Every file of an output year folder but the SQLite store (row ids and timestamps are its own), by relative path. */
function outputs(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (!e.name.startsWith('store.sqlite')) files.set(path.relative(dir, p), fs.readFileSync(p));
    }
  };
  walk(dir);
  return files;
}

/** Pids of this process's pool workers (children running pool-worker.ts). */
function poolWorkers(): number[] {
  return fs.readdirSync('/proc').filter(d => /^\d+$/.test(d)).map(Number).filter(pid => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('pool-worker.ts');
    } catch { return false; }
  });
}

describe('worker processes', () => {
  it('WORKERS=2 writes byte for byte what WORKERS=1 writes', async () => {
    const inDir = inbox();
    const runs = [];
    for (const workers of ['1', '2']) {
      const outDir = fs.mkdtempSync(path.join(os.tmpdir(), `workers-${workers}-`));
      const result = await runBatch(resolveConfig({ year: '2099', inDir, outDir, progress: false }, { WORKERS: workers }));
      expect(result.papers.filter(p => p.status === 'failed')).toEqual([]);
      expect(result.papers.map(p => p.file)).toEqual([...result.papers.map(p => p.file)].sort());
      runs.push({ result, files: outputs(path.join(outDir, '2099')) });
    }
    const [one, two] = runs;
    expect(one.result.papers.length).toBe(haveShared() ? 4 : 2);
    expect(one.files.get('items.jsonl')!.toString().trim().split('\n').length).toBe(one.result.papers.reduce((n, p) => n + p.questions, 0));
    expect([...two.files.keys()].sort()).toEqual([...one.files.keys()].sort());
    for (const [name, bytes] of one.files) expect(two.files.get(name)!.equals(bytes), name).toBe(true);

    // A worker killed mid-paper (a native crash, the OOM killer): its paper goes to a fresh worker
    // and the batch ends as if nothing happened.
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workers-killed-'));
    // With WORKERS=2 this process reads the first paper and one worker process the second: the
    // worker is killed two seconds after it is given its paper (it is then starting or reading it).
    let killed = 0, started = 0;
    const result = await runBatch(resolveConfig({ year: '2099', inDir, outDir, progress: false }, { WORKERS: '2' }), ({ outcome }) => {
      if (outcome || ++started !== 2) return;
      setTimeout(() => { for (const pid of poolWorkers()) { process.kill(pid, 'SIGKILL'); killed++; } }, 2000);
    });
    expect(killed).toBeGreaterThan(0);
    expect(result.papers.filter(p => p.status === 'failed')).toEqual([]);
    expect(fs.readFileSync(path.join(outDir, '2099', 'items.jsonl')).equals(one.files.get('items.jsonl')!)).toBe(true);
  }, 900_000);

  it('brings a paper\'s needs-review verdict back from a worker process whole', async () => {
    // Two papers, WORKERS=2: this process takes the first and the worker process the second.
    const inDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workers-unsure-'));
    const quiz = fs.readFileSync(path.join(ROOT, 'fixtures/unsure/stated-count.pdf'));
    fs.writeFileSync(path.join(inDir, 'a-stated-count.pdf'), quiz);
    fs.writeFileSync(path.join(inDir, 'b-stated-count.pdf'), Buffer.concat([quiz, Buffer.from('\n% a copy\n')]));
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workers-unsure-out-'));
    const result = await runBatch(resolveConfig({ year: '2099', inDir, outDir, progress: false }, { WORKERS: '2' }));
    for (const p of result.papers) {
      expect(p.status, p.file).toBe('needs-review');
      expect(p.structure).toMatchObject({ status: 'needs-review', reasons: [expect.stringMatching(/states 8 questions; 5 were read/)] });
    }
    expect(result.papers.map(p => p.structure)).toEqual([result.papers[0].structure, result.papers[0].structure]);
    const store = openStore(path.join(outDir, '2099', 'store.sqlite'));
    try {
      for (const p of result.papers) expect(store.verdict(p.sha256)).toEqual(p.structure);
    } finally {
      store.close();
    }
  }, 300_000);
});
