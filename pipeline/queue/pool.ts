// WORKERS=n: beside the process that runs the batch, n−1 child processes on this machine read
// papers, each with its own pdf.js and tesseract.js workers (processes, not threads: pdf.js, sharp
// and the canvas keep per-process state, and a paper that crashes its process takes no other paper
// with it). Results come back in
// whatever order papers finish; the caller commits them, so the store never sees a second writer.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.ts';
import type { PaperJob, PaperResult } from '../paper.ts';
import type { PoolReply, PoolRequest } from './pool-worker.ts';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pool-worker.ts');

interface Task { job: PaperJob; onStart?: () => void; resolve: (r: PaperResult) => void; crashes: number }

/** A paper whose worker process dies is given to a fresh one this many times more: a native crash under load (a SIGSEGV in a library) need not recur; one the paper causes fails it. */
const RETRIES = 1;

export class PaperPool {
  private idle: ChildProcess[] = [];
  private busy = new Map<ChildProcess, Task>();
  private waiting: Task[] = [];
  private closed = false;

  constructor(private readonly size: number, private readonly config: Config) {
    for (let i = 0; i < size; i++) this.idle.push(this.spawn());
  }

  private spawn(): ChildProcess {
    // tsx as a loader of this process's own Node, so the workers run the same sources.
    const child = fork(WORKER, [], { execArgv: ['--import', import.meta.resolve('tsx')], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.send({ type: 'init', config: this.config } satisfies PoolRequest);
    child.on('message', (m: PoolReply) => {
      const task = this.busy.get(child);
      if (!task) return;
      this.busy.delete(child);
      task.resolve(m.result);
      this.idle.push(child);
      this.next();
    });
    child.on('exit', (code, signal) => {
      this.idle = this.idle.filter(c => c !== child);
      const task = this.busy.get(child);
      this.busy.delete(child);
      if (task && task.crashes < RETRIES) this.waiting.unshift({ ...task, crashes: task.crashes + 1 });
      else if (task) task.resolve(crashed(task.job, `the worker process stopped (${signal ?? `exit ${code}`}) while reading it${task.crashes ? `, ${task.crashes + 1} times` : ''}`));
      this.next();
    });
    return child;
  }

  private next(): void {
    // A worker that died is replaced only when a paper waits for it: one that cannot start fails
    // the papers it is given, one by one, and the batch still ends.
    while (!this.closed && this.waiting.length && this.idle.length + this.busy.size < this.size) this.idle.push(this.spawn());
    while (this.idle.length && this.waiting.length) {
      const child = this.idle.shift()!;
      const task = this.waiting.shift()!;
      this.busy.set(child, task);
      task.onStart?.();
      child.send({ type: 'paper', job: task.job } satisfies PoolRequest);
    }
  }

  run(job: PaperJob, onStart?: () => void): Promise<PaperResult> {
    return new Promise(resolve => {
      this.waiting.push({ job, onStart, resolve, crashes: 0 });
      this.next();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.idle, ...this.busy.keys()];
    await Promise.all(all.map(c => new Promise<void>(resolve => {
      if (c.exitCode !== null || c.signalCode !== null) return resolve();
      c.once('exit', () => resolve());
      c.disconnect();
    })));
  }
}

function crashed(job: PaperJob, message: string): PaperResult {
  const file = path.basename(job.file);
  return {
    outcome: { file, sha256: job.sha256, status: 'failed', pages: 0, questions: 0, pagesRendered: 0, recordsWritten: 0, timings: {}, messages: [], error: { severity: 'error', rule: 'worker/crash', message, file } },
    write: null,
  };
}
