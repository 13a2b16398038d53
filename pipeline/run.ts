// Runs the stage list over a batch. One document failing never stops the others: its error is
// recorded (file, page, reason) and the batch goes on. Papers the store already holds as done
// under the same run key are skipped, so a re-run after a crash resumes where it stopped.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';
import { Diagnostics, DocumentError, type Diagnostic } from './diagnostics.ts';
import type { PaperDocument } from './document.ts';
import { corpusStages, PIPELINE_VERSION, stages } from './index.ts';
import type { CorpusRecord } from './corpus/record-text.ts';
import type { StageContext } from './stage.ts';
import { Store } from './store/db.ts';
import { writeJsonl } from './store/jsonl.ts';
import { loadTemplates, type Template } from './template.ts';
import { keyFileFor } from './stages/answers.ts';
import { statsFileFor } from './stages/stats.ts';
import { closeOcr } from './providers/ocr.ts';

export interface PaperOutcome {
  file: string;
  sha256: string;
  status: 'done' | 'skipped' | 'failed';
  pages: number;
  questions: number;
  pagesRendered: number;
  recordsWritten: number;
  /** Seconds spent in each stage. */
  timings: Record<string, number>;
  error?: Diagnostic;
  messages: Diagnostic[];
}

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

export function newDocument(file: string, bytes: Uint8Array): PaperDocument {
  return {
    file: path.basename(file), path: file, sha256: '', bytes, pageCount: 0, cover: '',
    exam: { family: '', language: '', year: null, sitting: null, session: null, subject: null, form: null, electives: [] },
    // The template is set by register; no later stage runs without it.
    template: undefined as unknown as Template,
    pages: [], lines: [], tail: [], questions: [], messages: new Diagnostics(path.basename(file)), counters: {},
  };
}

export async function processPaper(file: string, base: Omit<StageContext, 'pdf'>): Promise<PaperOutcome> {
  const name = path.basename(file);
  const outcome: PaperOutcome = { file: name, sha256: '', status: 'done', pages: 0, questions: 0, pagesRendered: 0, recordsWritten: 0, timings: {}, messages: [] };
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(fs.readFileSync(file));
  } catch (e) {
    outcome.status = 'failed';
    outcome.error = { severity: 'error', rule: 'register/unreadable', message: `cannot read the file (${(e as Error).message})`, file: name };
    return outcome;
  }
  const sha = crypto.createHash('sha256').update(bytes).digest('hex');
  outcome.sha256 = sha;
  const key = paperRunKey(base.runKey, file, base.templates);
  const prior = base.store.paper(sha);
  if (prior?.status === 'done' && prior.run_key === key && !base.config.force) {
    outcome.status = 'skipped';
    outcome.pages = prior.pages ?? 0;
    outcome.questions = (base.store.db.prepare('SELECT count(*) n FROM items WHERE paper = ?').get(sha) as { n: number }).n;
    return outcome;
  }
  const doc = newDocument(file, bytes);
  const ctx: StageContext = { ...base, runKey: key };
  let stage = '';
  try {
    for (const s of stages(base.config)) {
      stage = s.name;
      const t0 = performance.now();
      await s.run(doc, ctx);
      outcome.timings[s.name] = (performance.now() - t0) / 1000;
    }
  } catch (e) {
    const err = e as Error;
    const page = e instanceof DocumentError ? e.page : undefined;
    const rule = e instanceof DocumentError ? e.rule : `${stage}/crash`;
    outcome.status = 'failed';
    outcome.error = { severity: 'error', rule, message: err.message, file: name, page, stage };
    base.store.saveFailure(sha, name, `${rule}: ${err.message}`);
  } finally {
    await ctx.pdf?.destroy().catch(() => undefined);
  }
  outcome.pages = doc.pageCount;
  outcome.questions = doc.questions.length;
  outcome.pagesRendered = doc.counters.pagesRendered ?? 0;
  outcome.recordsWritten = doc.counters.recordsWritten ?? 0;
  outcome.messages = doc.messages.list;
  return outcome;
}

export async function runBatch(config: Config, onProgress?: Progress): Promise<BatchResult> {
  const t0 = performance.now();
  const templates = loadTemplates(config.templatesDir, config.root);
  fs.mkdirSync(config.yearDir, { recursive: true });
  const store = new Store(path.join(config.yearDir, 'store.sqlite'));
  const runId = store.startRun();
  const files = listPdfs(config.inDir, templates);
  const base = { config, templates, store, runKey: runKey(config, templates) };
  const papers: PaperOutcome[] = [];
  const shas: string[] = [];
  try {
    for (const [i, file] of files.entries()) {
      onProgress?.({ done: i, total: files.length, file: path.basename(file) });
      const outcome = await processPaper(file, base);
      papers.push(outcome);
      onProgress?.({ done: i + 1, total: files.length, file: path.basename(file), outcome });
      if (outcome.status !== 'failed') shas.push(outcome.sha256);
    }
    const corpus = await runCorpus(config, store);
    const itemsFile = path.join(config.yearDir, 'items.jsonl');
    const jsonlRewritten = writeJsonl(itemsFile, store.records(shas));
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
  } finally {
    store.close();
    await closeOcr();
  }
}

/** The passes over the whole store (tag, dedup), or the ones named; one report line each. */
export async function runCorpus(config: Config, store: Store, only?: readonly string[]): Promise<string[]> {
  const records = store.storedRecords().map(r => JSON.parse(r) as CorpusRecord);
  const lines: string[] = [];
  for (const stage of corpusStages(config)) {
    if (only && !only.includes(stage.name)) continue;
    lines.push(await stage.run({ config, store, records }));
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
  const store = new Store(file);
  try {
    const lines = await runCorpus(config, store, only);
    const itemsFile = path.join(config.yearDir, 'items.jsonl');
    return { lines, itemsFile, jsonlRewritten: writeJsonl(itemsFile, store.records(store.donePapers())) };
  } finally {
    store.close();
  }
}
