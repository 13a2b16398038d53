// When a set's items.jsonl is written while reviewers decide. The store is the truth; items.jsonl
// follows it, but rebuilding 5,000 records per keypress costs seconds, so a decision only asks for
// a write: it is made once decisions pause for `delayMs` (at the latest 10 times that after the
// first unwritten one), paper by paper with the event loop free between papers, so requests are
// answered meanwhile. A write made at once (an export, a finished job, the server's close)
// supersedes one under way, which is then dropped rather than renamed over the newer file.

/** Writes a set's items.jsonl in steps, dropping it where `current()` turns false. */
export type StepwiseWrite = (name: string, current: () => boolean) => Promise<void>;

export class ItemsWriter {
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; since: number }>();
  private readonly unwritten = new Set<string>();
  private readonly writing = new Map<string, Promise<void>>();
  private readonly generation = new Map<string, number>();
  private closed = false;

  constructor(private readonly delayMs: number, private readonly stepwise: StepwiseWrite) {}

  /** A decision changed the set: its items.jsonl is to be written after the pause. */
  schedule(name: string): void {
    this.unwritten.add(name);
    this.arm(name);
  }

  /** Whether a decision of the set is not in its items.jsonl yet. */
  behind(name: string): boolean {
    return this.unwritten.has(name) || this.timers.has(name) || this.writing.has(name);
  }

  /** Called before a write made at once: the timer cancelled, a stepwise write under way abandoned. */
  writingNow(name: string): void {
    this.cancel(name);
    this.unwritten.delete(name);
    this.bump(name);
  }

  /** No write starts after this; returns the sets still behind (the caller writes them at once). */
  close(): string[] {
    this.closed = true;
    const behind = [...new Set([...this.unwritten, ...this.timers.keys(), ...this.writing.keys()])];
    for (const name of [...this.timers.keys()]) this.cancel(name);
    return behind;
  }

  private arm(name: string): void {
    if (this.closed) return;
    const now = Date.now();
    const prior = this.timers.get(name);
    if (prior) clearTimeout(prior.timer);
    const since = prior?.since ?? now;
    const timer = setTimeout(() => {
      this.timers.delete(name);
      this.start(name);
    }, Math.max(0, Math.min(this.delayMs, since + this.delayMs * 10 - now)));
    timer.unref();
    this.timers.set(name, { timer, since });
  }

  private start(name: string): void {
    // One write of a set at a time; the one under way arms the next when it ends, if decisions came meanwhile.
    if (this.closed || this.writing.has(name)) return;
    this.unwritten.delete(name);
    const generation = this.bump(name);
    const done = this.stepwise(name, () => !this.closed && this.generation.get(name) === generation)
      // A write that failed (the disk) leaves the set behind: tried again after the next pause.
      .catch(() => { this.unwritten.add(name); })
      .finally(() => {
        this.writing.delete(name);
        if (this.unwritten.has(name)) this.arm(name);
      });
    this.writing.set(name, done);
  }

  private cancel(name: string): void {
    const t = this.timers.get(name);
    if (t) clearTimeout(t.timer);
    this.timers.delete(name);
  }

  private bump(name: string): number {
    const next = (this.generation.get(name) ?? 0) + 1;
    this.generation.set(name, next);
    return next;
  }
}
