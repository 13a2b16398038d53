// The WORKERS lanes as pages see them: the page tasks of every paper being read wait in one list,
// and a lane with room takes the next, so three 12-page papers or one of 300 pages keep every lane
// busy. A lane is this process (tasks run on the paper's own open PDF) or a pool process
// (pipeline/queue/pool.ts: it opens the file itself). A lane takes pages of a paper it has read
// before where there are some (its fonts are loaded: some 0.3 s a paper), else of a paper no lane
// has started, else of the paper with the most pages left. Each lane holds two tasks at once: one
// page is drawn while the last one's PNG is encoded on libuv's threads. A page's reading depends on
// nothing else, so the results are the same whichever lane read it; each paper takes them in order.
import type { PageResult, PageTask } from './task.ts';

/** Tasks a lane holds at once. */
export const TASKS_PER_LANE = 2;

/** A lane of the pool (a process), as long as it lives. */
export interface PoolLane {
  readonly id: number;
  /** Tasks it holds now. */
  readonly busy: number;
}

/** Where tasks go besides this process: a pool of processes (pipeline/queue/pool.ts). */
export interface PageWorkers {
  /** Its lanes now (a dead process's lane is gone; its tasks are given again inside the pool). */
  lanes(): readonly PoolLane[];
  run(lane: PoolLane, task: PageTask): Promise<PageResult>;
  /** Called when a lane frees up or appears, so that waiting tasks are handed out. */
  onRoom(listener: () => void): void;
}

interface Waiting { task: PageTask; local: () => Promise<PageResult>; resolve: (r: PageResult) => void }

const LOCAL = -1;

export class PageLanes {
  private waiting: Waiting[] = [];
  private localBusy = 0;
  /** Papers (by hash) each lane has read pages of. */
  private seen = new Map<number, Set<string>>();

  /** `workers`: the pool processes, or null to read every page in this process. */
  constructor(private readonly workers: PageWorkers | null = null, private readonly perLane = TASKS_PER_LANE) {
    workers?.onRoom(() => this.pump());
  }

  /** Reads a page in whichever lane takes it first; `local` reads it in this process. */
  read(task: PageTask, local: () => Promise<PageResult>): Promise<PageResult> {
    return new Promise(resolve => {
      this.waiting.push({ task, local, resolve });
      this.pump();
    });
  }

  /** The next task for a lane: of a paper it knows, else of a paper nobody has started, else of the paper with most pages waiting. */
  private take(lane: number): Waiting | undefined {
    if (!this.waiting.length) return undefined;
    const known = this.seen.get(lane);
    let i = known ? this.waiting.findIndex(w => known.has(w.task.sha256)) : -1;
    if (i < 0) {
      const started = new Set([...this.seen.values()].flatMap(s => [...s]));
      i = this.waiting.findIndex(w => !started.has(w.task.sha256));
    }
    if (i < 0) {
      const left = new Map<string, number>();
      for (const w of this.waiting) left.set(w.task.sha256, (left.get(w.task.sha256) ?? 0) + 1);
      const most = [...left].sort((a, b) => b[1] - a[1])[0][0];
      i = this.waiting.findIndex(w => w.task.sha256 === most);
    }
    const [w] = this.waiting.splice(i, 1);
    if (!this.seen.has(lane)) this.seen.set(lane, new Set());
    this.seen.get(lane)!.add(w.task.sha256);
    return w;
  }

  private pump(): void {
    // Pool processes first: this process also runs the papers' other stages.
    for (const lane of this.workers?.lanes() ?? []) {
      for (let room = this.perLane - lane.busy; room > 0; room--) {
        const w = this.take(lane.id);
        if (!w) return;
        void this.workers!.run(lane, w.task).then(w.resolve);
      }
    }
    while (this.localBusy < this.perLane) {
      const w = this.take(LOCAL);
      if (!w) return;
      this.localBusy++;
      void w.local().catch((e: Error) => ({ page: w.task.page, image: null, renderError: e.message, textError: e.message }) satisfies PageResult)
        .then(r => { this.localBusy--; w.resolve(r); this.pump(); });
    }
  }
}
