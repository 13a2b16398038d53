// `make ingest QUEUE=redis://…`: every paper the store does not hold as done becomes one job (its
// id the paper's hash, so enqueuing again is a no-op), read by `make worker` processes; this process
// waits, commits each paper's rows as its job completes (the store has one writer), then runs the
// passes over the whole store once and writes items.jsonl, as a single-process run would.
import { Queue, QueueEvents, type Job } from 'bullmq';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { commitPaper, finishBatch, listPdfs, preparePaper, runKey, type BatchResult, type PaperJob, type PaperOutcome, type PaperResult, type Progress } from '../run.ts';
import { openStore } from '../open-store.ts';
import { loadTemplates } from '../template.ts';
import { QUEUE_NAME, redisOptions } from './connection.ts';
import { jobId, portable, type QueueJobData } from './job.ts';

type PaperQueue = Queue<QueueJobData, PaperResult>;

/** Finished jobs are kept a day: a re-run within it finds them, and Redis does not grow forever. */
const KEEP = { age: 24 * 3600 };

export async function runQueued(config: Config, onProgress?: Progress): Promise<BatchResult> {
  if (!config.queue) throw new Error('internal: runQueued without QUEUE');
  const t0 = performance.now();
  const templates = loadTemplates(config.templatesDir, config.root);
  fs.mkdirSync(config.yearDir, { recursive: true });
  const store = openStore(path.join(config.yearDir, 'store.sqlite'));
  const runId = store.startRun();
  const connection = redisOptions(config.queue);
  const queue: PaperQueue = new Queue(QUEUE_NAME, { connection });
  const events = new QueueEvents(QUEUE_NAME, { connection });
  try {
    await events.waitUntilReady();
    const files = listPdfs(config.inDir, templates);
    const batchKey = runKey(config, templates);
    const papers: PaperOutcome[] = new Array(files.length);
    let done = 0;
    const finish = (index: number, outcome: PaperOutcome) => {
      papers[index] = outcome;
      onProgress?.({ done: ++done, total: files.length, file: outcome.file, outcome });
    };
    const waits: Promise<void>[] = [];
    for (const [index, file] of files.entries()) {
      const prepared = preparePaper(path.resolve(file), store, batchKey, { config, templates });
      if ('outcome' in prepared) { finish(index, prepared.outcome); continue; }
      const job = await enqueue(queue, prepared.job, config);
      waits.push(job.waitUntilFinished(events).then(
        (result: PaperResult) => finish(index, commitPaper(store, result)),
        (e: Error) => finish(index, commitPaper(store, failedJob(prepared.job, e.message))),
      ));
    }
    await Promise.all(waits);
    const shas = papers.filter(p => p.status !== 'failed').map(p => p.sha256);
    return await finishBatch(config, store, runId, papers, shas, t0);
  } finally {
    await events.close();
    await queue.close();
    store.close();
  }
}

/** Add a paper's job; one already there is left alone, unless it failed (or FORCE=1 asks for a fresh read). */
async function enqueue(queue: PaperQueue, job: PaperJob, config: Config): Promise<Job<QueueJobData, PaperResult>> {
  const id = jobId(job);
  const prior = await queue.getJob(id);
  if (prior) {
    const state = await prior.getState();
    const stale = state === 'failed' || (config.force && state === 'completed');
    if (!stale) return prior;
    await prior.remove();
  }
  return queue.add('paper', { job, config: portable(config) }, { jobId: id, removeOnComplete: KEEP, removeOnFail: KEEP });
}

function failedJob(job: PaperJob, message: string): PaperResult {
  const file = path.basename(job.file);
  return {
    outcome: { file, sha256: job.sha256, status: 'failed', pages: 0, questions: 0, pagesRendered: 0, recordsWritten: 0, timings: {}, messages: [], error: { severity: 'error', rule: 'queue/job-failed', message, file } },
    write: null,
  };
}
