// One paper read by the stages, wherever it runs (this process, a pool worker, a queue worker):
// what a paper to read is, what reading it gives back, and the reading itself. Below the batch
// runner (pipeline/run.ts) and the workers that call it, so neither imports the other.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';
import { Diagnostics, DocumentError, type Diagnostic } from './diagnostics.ts';
import type { PaperDocument } from './document.ts';
import { stages } from './index.ts';
import type { StageContext } from './stage.ts';
import { PaperCollector, type PaperWrite } from './store/paper-write.ts';
import type { Template } from './template.ts';
import { setOcrPoolSize } from './providers/ocr.ts';
import { DISK_FULL_RULE, diskFullOf } from './disk-full.ts';
import { verdictOf, type StructureVerdict } from './reading-verdict.ts';
import type { PageLanes } from './pages/lanes.ts';

export interface PaperOutcome {
  file: string;
  sha256: string;
  /**
   * needs-review: stored, but its structural reading is in doubt (`structure` says why); partial:
   * stored, but a stage reported an error on it; failed: nothing stored as done (no question, or a
   * stage threw), retried next run; skipped: already in the store under the same run key (its
   * stored verdict is in `structure`, so a needs-review paper stays flagged). Precedence over one
   * paper read: failed, then needs-review (its errors are still listed), then partial, then done.
   */
  status: 'done' | 'partial' | 'needs-review' | 'skipped' | 'failed';
  /** The paper's structural verdict (pipeline/reading-verdict.ts); absent where it was not judged. */
  structure?: StructureVerdict;
  pages: number;
  questions: number;
  pagesRendered: number;
  recordsWritten: number;
  /** Seconds spent in each stage. */
  timings: Record<string, number>;
  error?: Diagnostic;
  messages: Diagnostic[];
}

/** One paper to read: where it is, the hash it had when it was listed, and the run key its rows will carry. */
export interface PaperJob {
  file: string;
  sha256: string;
  runKey: string;
}

/** A paper read: its outcome, and the rows emit would write (none when it failed). */
export interface PaperResult {
  outcome: PaperOutcome;
  write: PaperWrite | null;
}

/** What reading a paper needs besides the paper: the same everywhere it runs. */
export interface PaperSettings {
  config: Config;
  templates: readonly Template[];
}

export function newDocument(file: string, bytes: Uint8Array): PaperDocument {
  return {
    file: path.basename(file), path: file, sha256: '', bytes, pageCount: 0, cover: '',
    exam: { family: '', language: '', year: null, sitting: null, session: null, subject: null, form: null, electives: [] },
    // The template is set by register; no later stage runs without it.
    template: undefined as unknown as Template,
    pages: [], lines: [], tail: [], questions: [], keyEntries: null, messages: new Diagnostics(path.basename(file)), counters: {},
  };
}

export const emptyOutcome = (file: string): PaperOutcome => ({ file: path.basename(file), sha256: '', status: 'done', pages: 0, questions: 0, pagesRendered: 0, recordsWritten: 0, timings: {}, messages: [] });

export const unreadable = (outcome: PaperOutcome, e: unknown): PaperOutcome => ({
  ...outcome, status: 'failed', error: { severity: 'error', rule: 'register/unreadable', message: `cannot read the file (${(e as Error).message})`, file: outcome.file },
});

/**
 * The stages over one paper, wherever it runs; nothing is written to the store here (page images
 * and figure crops go to disk under names fixed by the paper's hash). A paper in which no question
 * was found has failed; one whose structure the decoder doubts needs review; one a stage reported
 * an error on is partial. The outcome and rows are plain data, so they come back whole from a pool
 * or queue worker. Its pages are read by the batch's WORKERS lanes where it is given them
 * (pipeline/pages/lanes.ts), else in this process.
 */
export async function analysePaper(job: PaperJob, settings: PaperSettings, pages?: PageLanes): Promise<PaperResult> {
  const outcome = { ...emptyOutcome(job.file), sha256: job.sha256 };
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(fs.readFileSync(job.file));
  } catch (e) {
    return { outcome: unreadable(outcome, e), write: null };
  }
  setOcrPoolSize(settings.config.ocrWorkers);
  const doc = newDocument(job.file, bytes);
  const sink = new PaperCollector();
  const ctx: StageContext = { config: settings.config, templates: settings.templates, store: sink, runKey: job.runKey, pages };
  let stage = '';
  try {
    const list = await stages(settings.config);
    for (const s of list) {
      stage = s.name;
      const t0 = performance.now();
      await s.run(doc, ctx);
      outcome.timings[s.name] = (performance.now() - t0) / 1000;
      // What a later stage can start on once the paper is known (a key's picture read by OCR).
      if (s.name === 'register') for (const later of list) later.prefetch?.(doc, ctx);
    }
    if (doc.sha256 !== job.sha256) throw new DocumentError('register/changed', 'the file changed after it was listed');
    if (!doc.questions.length) throw new DocumentError('segment/no-questions', `no question found in ${doc.pageCount} pages (template ${doc.template.id})`);
    const structure = verdictOf(doc);
    if (structure) outcome.structure = structure;
    outcome.status = structure?.status === 'needs-review' ? 'needs-review' : doc.messages.errors.length ? 'partial' : 'done';
  } catch (e) {
    const err = e as Error;
    const page = e instanceof DocumentError ? e.page : undefined;
    // A full disk fails the batch, not the paper: the runner stops on this rule (runBatch).
    const full = diskFullOf(e, settings.config.yearDir);
    const rule = full ? DISK_FULL_RULE : e instanceof DocumentError ? e.rule : `${stage}/crash`;
    outcome.status = 'failed';
    outcome.error = { severity: 'error', rule, message: full?.message ?? err.message, file: outcome.file, page, stage };
  } finally {
    await ctx.pdf?.destroy().catch(() => undefined);
  }
  outcome.pages = doc.pageCount;
  outcome.questions = doc.questions.length;
  outcome.pagesRendered = doc.counters.pagesRendered ?? 0;
  outcome.messages = doc.messages.list;
  return { outcome, write: outcome.status === 'failed' ? null : sink.write };
}

