// Scores a run over generated papers per dimension of the fuzzer: the shared scorer's per-paper
// figures (--json --page-match --all) summed over the papers that share a value of a dimension
// (per script, numbering, option scheme, columns, mark style, scan …), and how each paper whose
// reading misses ended (silently `done`, or `partial`, `needs-review`, `failed`). Used by
// test/bench-generality.ts (`make bench-generality`) and test/generality.test.ts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Manifest } from '../fixtures/papers/generate.ts';

export const FIELDS = ['recall', 'precision', 'points', 'answer', 'type', 'options', 'page', 'figure'] as const;
export type Field = typeof FIELDS[number];

/** The dimensions reported, in the order of the table. */
export const DIMENSIONS = ['script', 'lang', 'numbering', 'sequence', 'statedCount', 'composition', 'options', 'optionLayout', 'columns', 'paper', 'furniture', 'instructions', 'cover', 'sections', 'marks', 'parts', 'nested', 'figures', 'tables', 'key', 'scan', 'bilingual', 'alternatives', 'markValues', 'kangxi'] as const;

/** One paper as the scorer reports it with --json. */
export interface ScoredPaper {
  paper: string; expected: number; found: number; matched: number; extra: number;
  points: [number, number]; answer: [number, number]; type: [number, number]; options: [number, number]; page: [number, number]; figure: [number, number];
  missing: string[];
}

export interface Cell { papers: number; questions: number; matched: number; extra: number; ratios: Record<Field, number | null> }
export type Status = 'done' | 'partial' | 'needs-review' | 'failed' | 'skipped' | 'missing';
export interface Miss { paper: string; status: Status; recall: number; extra: number; expected: number }
export interface GeneralityReport {
  overall: Cell;
  byDimension: Record<string, Record<string, Cell>>;
  /** Papers whose reading misses (recall < 0.95 or more than 5% extra records), by how they ended. */
  misses: { total: number; byStatus: Record<string, number>; silent: string[]; papers: Miss[] };
  statuses: Record<string, number>;
}

/** The shared scorer over a run's records and the generated truth; a run with no records scores zero. */
export function runScorer(scorer: string, items: string, truth: string): ScoredPaper[] {
  let file = items;
  if (!fs.existsSync(file)) {
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'generality-')), 'items.jsonl');
    fs.writeFileSync(file, '');
  }
  const out = execFileSync('node', [scorer, '--items', file, '--truth', truth, '--json', '--page-match', '--all'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return (JSON.parse(out) as { papers: ScoredPaper[] }).papers;
}

/**
 * Each paper's status from the ingest command's lines (`done    x.pdf: …`, `PARTIAL x.pdf: …`,
 * `FAILED  x.pdf: …`, and whatever word a later status prints first, e.g. `needs-review`).
 */
export function statusesFromLog(log: string): Map<string, Status> {
  const out = new Map<string, Status>();
  for (const line of log.split('\n')) {
    const m = /^([A-Za-z-]+)\s+(\S.*?\.pdf):/.exec(line);
    if (!m) continue;
    const word = m[1].toLowerCase();
    const status: Status | null = word === 'done' ? 'done' : word === 'partial' ? 'partial' : word === 'failed' ? 'failed' : word === 'skipped' ? 'skipped' : /review/.test(word) ? 'needs-review' : null;
    if (status) out.set(m[2].replace(/\.pdf$/i, ''), status);
  }
  return out;
}

const empty = (): { papers: number; questions: number; matched: number; extra: number; sums: Record<string, [number, number]> } =>
  ({ papers: 0, questions: 0, matched: 0, extra: 0, sums: Object.fromEntries(['points', 'answer', 'type', 'options', 'page', 'figure'].map(k => [k, [0, 0]])) });

function cell(acc: ReturnType<typeof empty>): Cell {
  const r = (a: [number, number]) => (a[1] ? a[0] / a[1] : null);
  return {
    papers: acc.papers, questions: acc.questions, matched: acc.matched, extra: acc.extra,
    ratios: {
      recall: acc.questions ? acc.matched / acc.questions : null,
      precision: acc.matched + acc.extra ? acc.matched / (acc.matched + acc.extra) : null,
      points: r(acc.sums.points), answer: r(acc.sums.answer), type: r(acc.sums.type), options: r(acc.sums.options), page: r(acc.sums.page), figure: r(acc.sums.figure),
    },
  };
}

/** A paper misses where it finds under 95% of its questions or adds more than 5% extra records. */
export const misses = (p: ScoredPaper) => (p.expected ? p.matched / p.expected : 1) < 0.95 || p.extra > 0.05 * p.expected;

export function scoreByDimension(manifest: Manifest, scored: ScoredPaper[], statuses: Map<string, Status> = new Map()): GeneralityReport {
  const byPaper = new Map(scored.map(p => [p.paper, p]));
  const overall = empty();
  const dims: Record<string, Map<string, ReturnType<typeof empty>>> = Object.fromEntries(DIMENSIONS.map(d => [d, new Map()]));
  const add = (acc: ReturnType<typeof empty>, p: ScoredPaper) => {
    acc.papers++; acc.questions += p.expected; acc.matched += p.matched; acc.extra += p.extra;
    for (const k of Object.keys(acc.sums)) { const v = (p as unknown as Record<string, [number, number]>)[k]; acc.sums[k][0] += v[0]; acc.sums[k][1] += v[1]; }
  };
  const missList: Miss[] = [];
  const statusCount: Record<string, number> = {};
  for (const entry of manifest.papers) {
    const p = byPaper.get(entry.stem);
    if (!p) throw new Error(`the scorer has no row for ${entry.stem}: was it run with --all over this truth folder?`);
    add(overall, p);
    for (const d of DIMENSIONS) {
      const v = String((entry.dims as unknown as Record<string, unknown>)[d]);
      if (!dims[d].has(v)) dims[d].set(v, empty());
      add(dims[d].get(v)!, p);
    }
    const status = statuses.get(entry.stem) ?? 'missing';
    statusCount[status] = (statusCount[status] ?? 0) + 1;
    if (misses(p)) missList.push({ paper: entry.stem, status, recall: p.expected ? p.matched / p.expected : 1, extra: p.extra, expected: p.expected });
  }
  const byStatus: Record<string, number> = {};
  for (const m of missList) byStatus[m.status] = (byStatus[m.status] ?? 0) + 1;
  return {
    overall: cell(overall),
    byDimension: Object.fromEntries(DIMENSIONS.map(d => [d, Object.fromEntries([...dims[d]].sort(([a], [b]) => a.localeCompare(b)).map(([v, acc]) => [v, cell(acc)]))])),
    misses: { total: missList.length, byStatus, silent: missList.filter(m => m.status === 'done' || m.status === 'skipped').map(m => m.paper), papers: missList },
    statuses: statusCount,
  };
}

/** The report as a table: one block per dimension, a row per value, the lowest field marked. */
export function formatReport(r: GeneralityReport): string {
  const f = (v: number | null) => (v === null ? '    -' : v.toFixed(3));
  const head = `${'value'.padEnd(22)} ${'papers'.padStart(6)} ${'qs'.padStart(5)}  ${FIELDS.map(k => k.slice(0, 9).padStart(9)).join(' ')}`;
  const row = (name: string, c: Cell) => `${name.slice(0, 22).padEnd(22)} ${String(c.papers).padStart(6)} ${String(c.questions).padStart(5)}  ${FIELDS.map(k => f(c.ratios[k]).padStart(9)).join(' ')}`;
  const lines = [head, row('overall', r.overall)];
  for (const [d, values] of Object.entries(r.byDimension)) {
    lines.push('', `[${d}]`);
    for (const [v, c] of Object.entries(values)) lines.push(row(v, c));
  }
  const st = Object.entries(r.statuses).map(([k, v]) => `${k}=${v}`).join(' ');
  const ms = Object.entries(r.misses.byStatus).map(([k, v]) => `${k}=${v}`).join(' ');
  lines.push('', `statuses: ${st}`, `misses (recall < 0.95 or > 5% extra): ${r.misses.total}${ms ? ` — ${ms}` : ''}; silent (ended done): ${r.misses.silent.length}`);
  return lines.join('\n');
}
