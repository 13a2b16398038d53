// A queue job: one paper, and the settings of the batch that enqueued it, so every worker reads it
// the same way whatever its own environment says (less the machine's own paths and secrets).
import type { Config } from '../config.ts';
import type { PaperJob } from '../paper.ts';

export interface QueueJobData {
  job: PaperJob;
  config: Config;
}

/** The paper's hash (and the run key it is read under): enqueuing a paper again is a no-op. */
export const jobId = (job: PaperJob) => `${job.sha256}-${job.runKey}`;

/** The batch's settings as they travel: no API key in Redis. */
export const portable = (config: Config): Config => ({ ...config, llm: config.llm && { ...config.llm, apiKey: '' } });

/** A job's settings on this machine: its own sources, templates and key; the job's for the rest. */
export const localised = (sent: Config, local: Config): Config => Object.freeze({
  ...sent,
  root: local.root,
  templatesDir: local.templatesDir,
  curriculumDir: local.curriculumDir,
  llm: sent.llm && { ...sent.llm, apiKey: local.llm?.apiKey ?? 'none' },
  workers: 1,
  ocrWorkers: local.ocrWorkers,
  force: false,
});
