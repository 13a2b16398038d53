// WORKERS=n: beside the process that runs the batch, n−1 child processes on this machine read
// pages (pipeline/pages/: each page drawn and its text layer read), each with its own pdf.js
// (processes, not threads: pdf.js, sharp and the canvas keep per-process state, and a page that
// crashes its process takes no other work with it). The papers themselves are read in the batch's
// process, which writes the store alone. A child runs compiled JavaScript where the batch does
// (dist/, built by make), else the TypeScript sources through tsx.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TASKS_PER_LANE, type PageWorkers, type PoolLane } from '../pages/lanes.ts';
import type { PageResult, PageTask } from '../pages/task.ts';
import type { PoolReply, PoolRequest } from './pool-worker.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const COMPILED = import.meta.url.endsWith('.js');
const WORKER = path.join(HERE, COMPILED ? 'pool-worker.js' : 'pool-worker.ts');

interface Task { id: number; task: PageTask; resolve: (r: PageResult) => void; crashes: number }
interface Child { id: number; process: ChildProcess; tasks: Map<number, Task>; readonly busy: number }

/**
 * glibc malloc's settings for a page process (read when a process starts; the Makefile exports the
 * same for the batch's own process):
 * - MALLOC_ARENA_MAX: by default each thread that allocates gets an arena of its own, up to eight a
 *   core, and the page-sized buffers the canvas and sharp's encoder allocate on libuv's threads are
 *   freed into arenas that are seldom given back. With two, a 300-page PDF read on two lanes peaked
 *   at 1304 MB for both processes together instead of 1559 MB.
 * - MALLOC_MMAP_THRESHOLD_: glibc raises its mmap threshold to the size of each large block freed
 *   (up to 32 MB), so after the first page the 16 MB canvases and pixel copies come from the arenas,
 *   where freeing them seldom gives the memory back. A fixed threshold of 1 MB keeps every such
 *   buffer in its own mapping, returned whole when freed: the bench's 300-page PDF, run by hand three
 *   times each, peaked at 1224–1247 MB for all processes instead of 1523–1682 MB, in the same time
 *   (README, "Speed").
 */
export const MALLOC_SETTINGS = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1048576' } as const;

/** A page whose worker process dies is given to a fresh one this many times more: a native crash under load (a SIGSEGV in a library) need not recur; one the page causes fails its paper. */
const RETRIES = 1;

export class PagePool implements PageWorkers {
  private children: Child[] = [];
  /** Tasks of a process that died, to be given to another. */
  private retrying: Task[] = [];
  private closed = false;
  private nextId = 0;
  private nextChild = 0;
  private listeners: (() => void)[] = [];

  constructor(private readonly size: number, private readonly perChild = TASKS_PER_LANE) {
    for (let i = 0; i < size; i++) this.children.push(this.spawn());
  }

  private spawn(): Child {
    const execArgv = COMPILED ? [] : ['--import', import.meta.resolve('tsx')];
    const proc = fork(WORKER, [], { execArgv, env: { ...MALLOC_SETTINGS, ...process.env }, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const child: Child = { id: this.nextChild++, process: proc, tasks: new Map(), get busy() { return this.tasks.size; } };
    proc.on('message', (m: PoolReply) => {
      const task = child.tasks.get(m.id);
      if (!task) return;
      child.tasks.delete(m.id);
      // Buffers come through the channel as plain Uint8Arrays.
      const picture = m.result.text?.picture as Uint8Array | null | undefined;
      if (picture && !Buffer.isBuffer(picture)) m.result.text!.picture = Buffer.from(picture.buffer, picture.byteOffset, picture.byteLength);
      task.resolve(m.result);
      this.room();
    });
    proc.on('exit', (code, signal) => {
      this.children = this.children.filter(c => c !== child);
      for (const task of child.tasks.values()) {
        if (task.crashes < RETRIES) this.retrying.push({ ...task, crashes: task.crashes + 1 });
        else task.resolve({ page: task.task.page, image: null, crash: `the worker process stopped (${signal ?? `exit ${code}`}) while reading page ${task.task.page}, ${task.crashes + 1} times` });
      }
      child.tasks.clear();
      // A worker that died is replaced only when a page waits for it: one that cannot start fails
      // the pages it is given, one by one, and the batch still ends.
      if (!this.closed && this.retrying.length && this.children.length < this.size) this.children.push(this.spawn());
      this.room();
    });
    return child;
  }

  private send(child: Child, task: Task): void {
    // A process whose channel has closed (it stopped, or the pool is closing) takes no more pages.
    if (!child.process.connected) return this.handOn(task);
    child.tasks.set(task.id, task);
    child.process.send({ type: 'page', id: task.id, task: task.task } satisfies PoolRequest, err => {
      // The channel closed under the write (EPIPE: the process stopped). Its exit hands its pages
      // on; where that exit was seen already, this page is handed on here. Without a callback the
      // error is thrown in the batch's process (seen once under load in the suite, 2026-12-02).
      if (err && !this.children.includes(child) && child.tasks.delete(task.id)) this.handOn(task);
    });
  }

  /** A page that reached no process: to another, or failed where the pool is closed. */
  private handOn(task: Task): void {
    if (this.closed) {
      task.resolve({ page: task.task.page, image: null, crash: `the page processes were closed before page ${task.task.page} was read` });
      return;
    }
    this.retrying.push(task);
    if (this.children.length < this.size) this.children.push(this.spawn());
    this.room();
  }

  /** Retries first, then whoever listens hands out its waiting tasks. */
  private room(): void {
    // A process whose channel has closed is skipped (its exit is on the way): a page handed to it would come straight back.
    for (const child of this.children) while (child.process.connected && this.retrying.length && child.tasks.size < this.perChild) this.send(child, this.retrying.shift()!);
    if (!this.retrying.length) for (const l of this.listeners) l();
  }

  lanes(): readonly PoolLane[] {
    return this.closed || this.retrying.length ? [] : this.children;
  }

  onRoom(listener: () => void): void {
    this.listeners.push(listener);
  }

  run(lane: PoolLane, task: PageTask): Promise<PageResult> {
    return new Promise(resolve => this.send(lane as Child, { id: this.nextId++, task, resolve, crashes: 0 }));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.children.map(c => new Promise<void>(resolve => {
      if (c.process.exitCode !== null || c.process.signalCode !== null || !c.process.connected) return resolve();
      c.process.once('exit', () => resolve());
      c.process.disconnect();
    })));
  }
}
