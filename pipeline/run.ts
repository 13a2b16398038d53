// Runs the stage list over a batch. One document failing never stops the others: its error is
// recorded (file, page, reason) and the batch goes on. Papers the store already holds as done
// under the same run key are skipped, so a re-run after a crash resumes where it stopped.
// A paper's stages run here, its pages in the WORKERS lanes (this process and n−1 pool processes:
// pipeline/pages/), or the whole paper in a queue worker on another machine (QUEUE=); what emit
// would write comes back, and the store is written here alone, one transaction per paper, so the
// rows do not depend on where or in which order papers and pages were read.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';
import { corpusStages, PIPELINE_VERSION } from './index.ts';
import type { CorpusRecord } from './corpus/record-text.ts';
import type { Store } from './store/db.ts';
import { openStore } from './open-store.ts';
import { writeStoreJsonl } from './store/jsonl.ts';
import { statKey } from './store/file-stat.ts';
import { loadTemplates, type Template } from './template.ts';
import { keyFileFor, statsFileFor } from './keys/companions.ts';
import { closeOcr } from './providers/ocr.ts';
import { PageLanes } from './pages/lanes.ts';
import { PagePool } from './queue/pool.ts';
import { DISK_FULL_RULE, diskFullOf, DiskFullError } from './disk-full.ts';

export type { PaperOutcome, PaperJob, PaperResult, PaperSettings } from './paper.ts';
export { analysePaper, newDocument } from './paper.ts';
import { analysePaper, emptyOutcome, unreadable, type PaperJob, type PaperOutcome, type PaperResult, type PaperSettings } from './paper.ts';

export interface BatchResult {
  papers: PaperOutcome[];
  seconds: number;
  itemsFile: string;
  jsonlRewritten: boolean;
  /** One line per pass over the store (tag, dedup). */
  corpus: string[];
}

export type Progress = (event: { done: number; total: number; file: string; outcome?: PaperOutcome }) => void;

/**
 * The papers in a folder: its PDFs less the answer keys beside them — `<stem>-answer.pdf`, and a
 * key a template pairs with its paper by name (a Cambridge `_ms_` beside its `_qp_`).
 */
export function listPdfs(dir: string, templates: readonly Template[] = []): string[] {
  const names = fs.readdirSync(dir).filter(f => f.toLowerCase().endsWith('.pdf'));
  const present = new Set(names);
  const pairs = templates.flatMap(t => t.answers?.pairs ?? []);
  const isKey = (f: string) => /-answer\.pdf$/i.test(f) || pairs.some(p => f.includes(p.key) && present.has(f.replace(p.key, p.paper)));
  return names.filter(f => !isKey(f)).sort().map(f => path.join(dir, f));
}

export function runKey(config: Config, templates: readonly Template[]): string {
  const h = crypto.createHash('sha256');
  h.update(JSON.stringify({ v: PIPELINE_VERSION, dpi: config.dpi, template: config.template, llm: config.llm && { url: config.llm.baseURL, model: config.llm.model } }));
  for (const t of templates) h.update(JSON.stringify(t));
  return h.digest('hex').slice(0, 16);
}

/**
 * One paper's run key: the batch's, plus the name and bytes of every file beside the paper that
 * decides its records (the answer key, the published error rates). A corrected key or new stats
 * make a stored paper out of date, so it is redone though its PDF is the same.
 */
export function paperRunKey(batchKey: string, file: string, templates: readonly Template[]): string {
  const companions = new Set<string>();
  for (const f of [keyFileFor(file), ...templates.map(t => keyFileFor(file, t)), statsFileFor(file)]) if (f) companions.add(f);
  if (!companions.size) return batchKey;
  const h = crypto.createHash('sha256').update(batchKey);
  for (const f of [...companions].sort()) h.update(`\0${path.basename(f)}\0`).update(fs.readFileSync(f));
  return h.digest('hex').slice(0, 16);
}

/**
 * Before any stage, where the store is: the paper's hash and run key, and whether the store holds
 * it as done under that key already (then it is skipped, and nothing is read).
 */
export function preparePaper(file: string, store: Store, batchKey: string, settings: PaperSettings): { outcome: PaperOutcome } | { job: PaperJob } {
  const outcome = emptyOutcome(file);
  let sha: string;
  try {
    // A file hashed before and unchanged since is not read again (schema.sql, `file_hashes`).
    const stat = statKey(file);
    const known = stat && store.knownHash(path.resolve(file), stat);
    sha = known || crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    if (stat && !known) store.saveHash(path.resolve(file), stat, sha);
  } catch (e) {
    return { outcome: unreadable(outcome, e) };
  }
  const key = paperRunKey(batchKey, file, settings.templates);
  const prior = store.paper(sha);
  if (prior?.status === 'done' && prior.run_key === key && !settings.config.force) {
    const questions = (store.db.prepare('SELECT count(*) n FROM items WHERE paper = ?').get(sha) as { n: number }).n;
    const structure = store.verdict(sha);
    return { outcome: { ...outcome, sha256: sha, status: 'skipped', pages: prior.pages ?? 0, questions, ...(structure && { structure }) } };
  }
  return { job: { file, sha256: sha, runKey: key } };
}

/**
 * The one place a paper's rows are written: replaced whole in one transaction (ids are stable, so
 * a paper read twice writes the same rows), or its failure recorded so the next run reads it again.
 */
export function commitPaper(store: Store, result: PaperResult): PaperOutcome {
  const { outcome, write } = result;
  if (outcome.status === 'failed' || !write) {
    if (outcome.sha256) store.saveFailure(outcome.sha256, outcome.file, outcome.error ? `${outcome.error.rule}: ${outcome.error.message}` : 'failed');
    return outcome;
  }
  return { ...outcome, recordsWritten: store.saveDocument(write.paper, write.pages, write.items, write.diagnostics) };
}

/**
 * Where papers are read: in this process, each paper's stages, while its pages are read by the
 * WORKERS lanes (this process and WORKERS−1 pool processes, pipeline/pages/lanes.ts), every lane
 * taking the next page of whichever paper is furthest along. A few papers are in hand at once (one
 * more than the lanes), so the lanes have the next paper's pages while the last one's later stages
 * run; with WORKERS=1, one paper at a time, every page in this process.
 */
async function readPapers(todo: { index: number; job: PaperJob }[], settings: PaperSettings, onStart: (job: PaperJob) => void, onResult: (index: number, r: PaperResult) => void): Promise<void> {
  const list = [...todo];
  const workers = settings.config.workers;
  const pool = workers > 1 && todo.length ? new PagePool(workers - 1) : null;
  const lanes = new PageLanes(pool);
  const inHand = workers > 1 ? workers + 1 : 1;
  const reader = async () => {
    for (let next = list.shift(); next; next = list.shift()) {
      onStart(next.job);
      try {
        onResult(next.index, await analysePaper(next.job, settings, lanes));
      } catch (e) {
        // The batch stops (a full disk): no lane takes another paper.
        list.length = 0;
        throw e;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(inHand, todo.length) }, reader));
  } finally {
    await pool?.close();
  }
}

export async function runBatch(config: Config, onProgress?: Progress): Promise<BatchResult> {
  const t0 = performance.now();
  const templates = loadTemplates(config.templatesDir, config.root);
  const storeFile = path.join(config.yearDir, 'store.sqlite');
  let store: Store | null = null;
  let runId: number;
  try {
    fs.mkdirSync(config.yearDir, { recursive: true });
    store = openStore(storeFile);
    runId = store.startRun();
  } catch (e) {
    store?.close();
    throw diskFullOf(e, storeFile) ?? e;
  }
  const files = listPdfs(config.inDir, templates);
  const settings: PaperSettings = { config, templates };
  const batchKey = runKey(config, templates);
  const papers: PaperOutcome[] = new Array(files.length);
  const todo: { index: number; job: PaperJob }[] = [];
  let done = 0;
  const finish = (index: number, outcome: PaperOutcome) => {
    papers[index] = outcome;
    onProgress?.({ done: ++done, total: files.length, file: outcome.file, outcome });
  };
  try {
    for (const [index, file] of files.entries()) {
      const prepared = preparePaper(file, store, batchKey, settings);
      if ('outcome' in prepared) finish(index, prepared.outcome);
      else todo.push({ index, job: prepared.job });
    }
    await readPapers(todo, settings,
      job => onProgress?.({ done, total: files.length, file: path.basename(job.file) }),
      (index, result) => {
        if (result.outcome.error?.rule === DISK_FULL_RULE) throw new DiskFullError(result.outcome.error.message);
        finish(index, commitPaper(store, result));
      });
    const shas = papers.filter(p => p.status !== 'failed').map(p => p.sha256);
    return await finishBatch(config, store, runId, papers, shas, t0);
  } catch (e) {
    throw diskFullOf(e, storeFile) ?? e;
  } finally {
    store.close();
    await closeOcr();
  }
}

/** After the papers: the corpus passes over the whole store, items.jsonl, and the run's row. */
export async function finishBatch(config: Config, store: Store, runId: number, papers: PaperOutcome[], shas: string[], t0: number): Promise<BatchResult> {
  const corpus = await runCorpus(config, store);
  const itemsFile = path.join(config.yearDir, 'items.jsonl');
  const jsonlRewritten = writeStoreJsonl(store, itemsFile, shas);
  const seconds = (performance.now() - t0) / 1000;
  store.finishRun(runId, {
    papers: papers.length,
    skipped: papers.filter(p => p.status === 'skipped').length,
    failed: papers.filter(p => p.status === 'failed').length,
    pages: papers.reduce((n, p) => n + p.pages, 0),
    questions: papers.reduce((n, p) => n + p.questions, 0),
    written: papers.reduce((n, p) => n + p.recordsWritten, 0),
    seconds,
  });
  return { papers, seconds, itemsFile, jsonlRewritten, corpus };
}

/**
 * The passes over the whole store (tag, dedup), or the ones named; one report line each. After a
 * batch (no names), a pass whose records (the done papers and their run keys) and settings are
 * those it last ran on is skipped: a re-run with nothing new reads no record. Named ones always run.
 */
export async function runCorpus(config: Config, store: Store, only?: readonly string[]): Promise<string[]> {
  let records: CorpusRecord[] | undefined;
  const papers = store.papersKey();
  const lines: string[] = [];
  for (const stage of corpusStages(config)) {
    if (only && !only.includes(stage.name)) continue;
    const input = stage.input && crypto.createHash('sha256').update(papers).update(stage.input(config)).digest('hex');
    if (input && !only && store.passInput(stage.name) === input) {
      lines.push(`${stage.name}: unchanged (the same papers and settings as when it last ran)`);
      continue;
    }
    // Read when a pass first asks for them: a pass that is off (translate without a model) reads none.
    lines.push(await stage.run({ config, store, get records() { return (records ??= store.storedRecords().map(r => JSON.parse(r) as CorpusRecord)); } }));
    if (input) store.savePassInput(stage.name, input);
  }
  return lines;
}

/**
 * `make tag` / `make dedup`: the named passes over the store alone, without reading a PDF; items.jsonl
 * is written again for every done paper of the store.
 */
export async function rerunCorpus(config: Config, only: readonly string[]): Promise<{ lines: string[]; itemsFile: string; jsonlRewritten: boolean }> {
  const file = path.join(config.yearDir, 'store.sqlite');
  if (!fs.existsSync(file)) throw new Error(`no store at ${file}: run make ingest YEAR=${config.year} first`);
  const store = openStore(file);
  try {
    const lines = await runCorpus(config, store, only);
    const itemsFile = path.join(config.yearDir, 'items.jsonl');
    return { lines, itemsFile, jsonlRewritten: writeStoreJsonl(store, itemsFile, store.donePapers()) };
  } finally {
    store.close();
  }
}
