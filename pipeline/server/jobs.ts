// Background ingestion: every upload is a job, and jobs run one at a time (the pipeline's OCR
// workers and page renderer are shared) through runBatch over the set's inbox. Listeners (the
// server-sent events of a page) hear every change. A paper that cannot be read fails alone: its
// job carries the message, the file moves to the set's failed/ folder, and the queue goes on.
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { resolveConfig } from '../config.ts';
import { formatDiagnostic } from '../diagnostics.ts';
import { listPdfs, runBatch, type PaperOutcome } from '../run.ts';
import type { Sets } from './sets.ts';
import type { ServerSettings } from './settings.ts';

export type JobState = 'queued' | 'running' | 'done' | 'failed';

export interface Job {
  id: string;
  set: string;
  /** The uploaded paper this job was made for. */
  file: string;
  state: JobState;
  /** Papers of the set's inbox processed so far, out of total. */
  done: number;
  total: number;
  errors: { file: string; message: string }[];
  /** The papers the run finished, with their question counts, and why a paper's structure needs review where it does. */
  papers: { file: string; status: PaperOutcome['status']; questions: number; review?: string[] }[];
  created: string;
  finished: string | null;
}

export class JobQueue extends EventEmitter {
  private readonly jobs = new Map<string, Job>();
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly settings: ServerSettings, private readonly sets: Sets) {
    super();
  }

  get(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  /** Resolves once every job queued so far has finished. */
  idle(): Promise<void> {
    return this.chain;
  }

  /** The jobs of a set since the server started, oldest first. */
  list(set: string): Job[] {
    return [...this.jobs.values()].filter(j => j.set === set);
  }

  /**
   * Queues the papers a stopped server left in the sets' inboxes: a PDF the set's store does not
   * hold as done (what failed was moved out of the inbox). Returns the jobs queued.
   */
  resume(): Job[] {
    const queued: Job[] = [];
    for (const set of this.sets.list()) {
      const p = this.sets.paths(set);
      if (!fs.existsSync(p.inbox)) continue;
      const store = this.sets.store(set);
      for (const file of listPdfs(p.inbox)) {
        const sha = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
        if (store?.paper(sha)?.status !== 'done') queued.push(this.enqueue(set, path.basename(file)));
      }
    }
    return queued;
  }

  enqueue(set: string, file: string): Job {
    const job: Job = { id: crypto.randomUUID(), set, file, state: 'queued', done: 0, total: 0, errors: [], papers: [], created: new Date().toISOString(), finished: null };
    this.jobs.set(job.id, job);
    this.chain = this.chain.then(() => this.run(job));
    return job;
  }

  private changed(job: Job): void {
    this.emit('job', job);
  }

  private async run(job: Job): Promise<void> {
    job.state = 'running';
    this.changed(job);
    const p = this.sets.paths(job.set);
    try {
      const config = resolveConfig({ year: this.settings.year, inDir: p.inbox, outDir: p.outDir, progress: false }, this.settings.pipelineEnv);
      await runBatch(config, ({ done, total, outcome }) => {
        job.done = done;
        job.total = total;
        if (outcome) {
          job.papers.push({ file: outcome.file, status: outcome.status, questions: outcome.questions, ...(outcome.structure?.status === 'needs-review' && { review: outcome.structure.reasons }) });
          if (outcome.status === 'failed') this.failed(job, outcome);
        }
        this.changed(job);
      });
      // An earlier job's run may have met this job's paper already and failed it.
      const note = path.join(p.failed, `${job.file}.txt`);
      if (!job.papers.some(x => x.file === job.file) && fs.existsSync(note)) job.errors.push({ file: job.file, message: fs.readFileSync(note, 'utf8') });
      job.state = job.errors.some(e => e.file === job.file) ? 'failed' : 'done';
      // Decisions made while the run went on are in the store; items.jsonl follows them.
      this.sets.writeItems(job.set);
    } catch (e) {
      job.state = 'failed';
      job.errors.push({ file: job.file, message: (e as Error).message });
    }
    job.finished = new Date().toISOString();
    this.changed(job);
  }

  /** Moves a paper that failed (and its key) out of the inbox, leaving its message beside it. */
  private failed(job: Job, outcome: PaperOutcome): void {
    const p = this.sets.paths(job.set);
    const message = outcome.error ? formatDiagnostic(outcome.error) : 'unknown error';
    job.errors.push({ file: outcome.file, message });
    fs.mkdirSync(p.failed, { recursive: true });
    const stem = outcome.file.replace(/\.pdf$/i, '');
    for (const f of fs.readdirSync(p.inbox)) {
      if (f === outcome.file || f.startsWith(`${stem}-answer.`)) fs.renameSync(path.join(p.inbox, f), path.join(p.failed, f));
    }
    fs.writeFileSync(path.join(p.failed, `${outcome.file}.txt`), message);
  }
}
