// `make worker QUEUE=redis://…`: one paper at a time from the queue, read as the enqueuing batch
// said, its rows returned to the enqueuer (the one writer of the store). A worker killed mid-paper
// stops renewing its lock; after QUEUE_STALL_MS another worker takes the paper over, and since a
// paper's rows are keyed by stable ids and written whole, reading it twice writes the same rows.
import { Worker } from 'bullmq';
import type { Config } from '../config.ts';
import { closeOcr } from '../providers/ocr.ts';
import { analysePaper, type PaperResult } from '../paper.ts';
import { loadTemplates } from '../template.ts';
import { QUEUE_NAME, redisOptions } from './connection.ts';
import { localised, type QueueJobData } from './job.ts';

export function startWorker(local: Config & { queue: string }, onPaper?: (r: PaperResult) => void): { close(): Promise<void>; worker: Worker<QueueJobData, PaperResult> } {
  const templates = loadTemplates(local.templatesDir, local.root);
  const worker = new Worker<QueueJobData, PaperResult>(QUEUE_NAME, async job => {
    const result = await analysePaper(job.data.job, { config: localised(job.data.config, local), templates });
    onPaper?.(result);
    return result;
  }, {
    connection: redisOptions(local.queue),
    // A paper keeps a core busy: one at a time per worker process.
    concurrency: 1,
    lockDuration: local.queueStallMs,
    stalledInterval: local.queueStallMs,
    // A paper whose worker dies is taken over; one that kills every worker it meets fails.
    maxStalledCount: 5,
  });
  return {
    worker,
    async close() {
      await worker.close();
      await closeOcr();
    },
  };
}
