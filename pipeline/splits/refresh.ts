// make refresh: under the lock, ingest what is new in the inbox into the benchmark's store (runBatch
// also runs the tag and dedup passes over the whole store), then write the next split, or say why
// there is none. Returns lines for the CLI to print; throws a typed error when it cannot go on.
import fs from 'node:fs';
import path from 'node:path';
import type { RefreshConfig } from '../config.ts';
import { runBatch, type PaperOutcome, type Progress } from '../run.ts';
import { openStore } from '../open-store.ts';
import { writeJsonl } from '../store/jsonl.ts';
import { loadTemplates } from '../template.ts';
import { removePartials } from './atomic.ts';
import { IngestFailedError, SplitError } from './errors.ts';
import { companionsOf, inboxFolders } from './inbox.ts';
import type { StoreRecord } from './item.ts';
import { acquireLock } from './lock.ts';
import type { SourceFile } from './manifest.ts';
import { splitName } from './month.ts';
import { planIsEmpty, planSplit } from './plan.ts';
import { listSplits, publishedState } from './published.ts';
import { writeSplit, type OnWritten } from './write.ts';

export const LOCK_FILE = '.refresh.lock';

export interface RefreshResult {
  /** The split written, or null when there was nothing to write. */
  split: string | null;
  papers: PaperOutcome[];
  lines: string[];
}

export interface RefreshHooks {
  onPaper?: Progress;
  onWritten?: OnWritten;
}

export async function refresh(cfg: RefreshConfig, hooks: RefreshHooks = {}): Promise<RefreshResult> {
  const lock = acquireLock(path.join(cfg.splitsDir, LOCK_FILE));
  const lines: string[] = [];
  try {
    if (lock.tookOverFrom !== null) lines.push(`lock: took over a stale lock of pid ${lock.tookOverFrom} (no longer running)`);
    for (const p of removePartials(cfg.splitsDir)) lines.push(`removed ${p}: a split left half-written by a refresh that was stopped`);
    const name = splitName(cfg.cutoff);
    const splits = listSplits(cfg.splitsDir);
    const latest = splits.at(-1) ?? null;
    if (latest && latest.cutoff > cfg.cutoff) throw new SplitError(`cut-off ${cfg.cutoff} is before the latest split ${latest.name}: splits only move forward (CUTOFF=${latest.cutoff} or later)`);

    const { papers, companions } = await ingest(cfg, hooks.onPaper, lines);
    const failed = papers.filter(p => p.status === 'failed');
    if (failed.length) throw new IngestFailedError(failed.map(p => ({ file: p.file, reason: p.error ? `${p.error.rule}: ${p.error.message}` : 'unknown error' })));

    const storeFile = path.join(cfg.batch.yearDir, 'store.sqlite');
    if (!fs.existsSync(storeFile)) {
      lines.push(`nothing to publish: no paper in ${cfg.inbox} and no store at ${storeFile}; no split written`);
      return { split: null, papers, lines };
    }
    const store = openStore(storeFile);
    let records: StoreRecord[], dates;
    try {
      const raw = store.records(store.donePapers());
      // The corpus's items.jsonl holds every paper (each batch above wrote only its own).
      writeJsonl(path.join(cfg.batch.yearDir, 'items.jsonl'), raw);
      records = raw.map(r => JSON.parse(r) as StoreRecord);
      dates = store.paperDates();
    } finally {
      store.close();
    }
    const previous = latest && latest.name !== name ? latest : splits.at(-2) ?? null;
    const plan = planSplit({ name, cutoff: cfg.cutoff, previousCutoff: previous?.cutoff ?? null, records, papers: dates, published: publishedState(splits), reviewedOnly: cfg.reviewedOnly });
    const waiting = plan.waiting ? `; ${plan.waiting} items sat after ${cfg.cutoff} wait for a later cut-off` : '';
    if (planIsEmpty(plan)) {
      lines.push(`nothing new since ${latest ? `split ${latest.name}` : 'the start'}: no split written${waiting}`);
      return { split: null, papers, lines };
    }
    if (latest?.name === name) {
      lines.push(`split ${name} exists and is frozen: ${plan.items.length} new or corrected items and ${plan.withdrawn.length} withdrawals wait for a later cut-off (CUTOFF=)${waiting}`);
      return { split: null, papers, lines };
    }
    const manifest = writeSplit({
      splitsDir: cfg.splitsDir, name, cutoff: cfg.cutoff,
      previous: latest ? { name: latest.name, cutoff: latest.cutoff } : null,
      imagesFrom: cfg.batch.yearDir,
      templatesDir: cfg.batch.templatesDir,
      settings: { reviewed_only: cfg.reviewedOnly, dpi: cfg.batch.dpi },
      companions,
    }, plan, hooks.onWritten);
    const t = manifest.counts.total;
    lines.push(`split ${name} written: ${path.join(cfg.splitsDir, name)} (${t.items} items: ${t.new} new, ${t.corrected} corrected; ${plan.withdrawn.length} withdrawn; ${plan.late.length} late${waiting})`);
    return { split: name, papers, lines };
  } finally {
    lock.release();
  }
}

/** runBatch over each inbox folder into the corpus store; the key and stats files of each paper seen, by its hash. */
async function ingest(cfg: RefreshConfig, onPaper: Progress | undefined, lines: string[]) {
  const templates = loadTemplates(cfg.batch.templatesDir, cfg.batch.root);
  const papers: PaperOutcome[] = [];
  const companions = new Map<string, { key?: SourceFile; stats?: SourceFile }>();
  for (const folder of inboxFolders(cfg.inbox)) {
    const result = await runBatch({ ...cfg.batch, inDir: folder }, onPaper);
    for (const p of result.papers) {
      papers.push(p);
      if (p.status !== 'failed') companions.set(p.sha256, companionsOf(path.join(folder, p.file), templates));
    }
    lines.push(...result.corpus);
  }
  const n = (s: PaperOutcome['status']) => papers.filter(p => p.status === s).length;
  // Read now: done, partial or needing review. A paper needing review (read now or stored so) publishes only its verified records.
  const review = papers.filter(p => p.status !== 'failed' && p.structure?.status === 'needs-review').length;
  lines.push(`ingest: ${papers.length} papers in ${cfg.inbox} (${n('done') + n('partial') + n('needs-review')} new or redone, ${n('skipped')} unchanged, ${n('failed')} failed${review ? `; ${review} need review: only their verified records are published` : ''})`);
  return { papers, companions };
}
