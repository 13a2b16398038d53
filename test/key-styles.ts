// `npx tsx test/key-styles.ts --in DIR [--out OUT] [--detail]` (or `--seed S --count K` to generate
// DIR under /tmp): how well the keys of generated papers (fixtures/make-papers.ts) are read, per key
// style (csv, appended, pdf, grid) and per script. Only the papers that have a key are ingested;
// answers are scored by ../shared/tools/score.mjs, whose answer figure counts the questions it
// matched: a question the structure misread is not held against the key. `--detail` lists each
// answer that differs (a diagnostic; the figures are the scorer's).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { generatePapers, readManifest, type Manifest } from '../fixtures/papers/generate.ts';
import { ROOT } from '../pipeline/config.ts';
import { parseCsv } from '../pipeline/text/csv.ts';
import { SCORER } from './helpers.ts';

const USAGE = 'usage: npx tsx test/key-styles.ts (--in DIR | --seed S --count K) [--out OUT] [--detail]';

function args(argv: string[]): { dir: string; out: string; seed?: number; count?: number; detail: boolean } {
  const o: Record<string, string> = {};
  let detail = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--detail') { detail = true; continue; }
    if (!['--in', '--out', '--seed', '--count'].includes(argv[i]) || argv[i + 1] === undefined) throw new TypeError(USAGE);
    o[argv[i].slice(2)] = argv[++i];
  }
  const seed = o.seed !== undefined ? Number(o.seed) : undefined, count = o.count !== undefined ? Number(o.count) : undefined;
  if (!o.in && (seed === undefined || count === undefined)) throw new TypeError(USAGE);
  const dir = o.in ?? `/tmp/gen${seed}`;
  return { dir, out: o.out ?? `${dir.replace(/\/$/, '')}-keys-out`, seed, count, detail };
}

type Sums = { papers: number; expected: number; matched: number; answer: [number, number] };
const blank = (): Sums => ({ papers: 0, expected: 0, matched: 0, answer: [0, 0] });

const CIRCLED = '①②③④⑤⑥⑦⑧⑨⑩';
/** The scorer's folding of an answer (circled → digit, letters sorted upper-case), for the detail list only. */
function norm(a: unknown): string {
  if (a === null || a === undefined) return '';
  let s = String(a).trim().replace(/^\(|\)$/g, '').replace(/\s+/g, '');
  s = [...s].map(ch => (CIRCLED.includes(ch) ? String(CIRCLED.indexOf(ch) + 1) : ch)).join('');
  if (/^-?\d+(\.\d+)?$/.test(s)) return String(Number(s));
  if (/^[A-Za-z,]+$/.test(s)) return s.replace(/,/g, '').toUpperCase().split('').sort().join('');
  return s;
}

async function main(): Promise<void> {
  const a = args(process.argv.slice(2));
  if (!fs.existsSync(SCORER)) throw new Error(`the scorer is missing (${SCORER})`);
  let manifest: Manifest | null = a.seed !== undefined ? await generatePapers({ seed: a.seed, count: a.count!, out: a.dir }) : readManifest(a.dir);
  if (!manifest) throw new Error(`${a.dir} holds no manifest.json of generated papers`);
  const keyed = manifest.papers.filter(p => p.dims.key !== 'none');
  // The keyed papers alone, linked into a folder of their own with their keys and truth.
  const stage = path.join(a.out, 'in');
  fs.rmSync(a.out, { recursive: true, force: true });
  fs.mkdirSync(path.join(stage, 'truth'), { recursive: true });
  for (const p of keyed) {
    for (const f of [`${p.stem}.pdf`, ...p.files]) fs.symlinkSync(path.resolve(a.dir, f), path.join(stage, f));
    fs.symlinkSync(path.resolve(a.dir, 'truth', `${p.stem}.csv`), path.join(stage, 'truth', `${p.stem}.csv`));
  }
  const t0 = performance.now();
  const run = spawnSync('npx', ['tsx', 'pipeline/cli.ts', '--year', '2099', '--in', stage, '--out', path.join(a.out, 'ingest'), '--force', '--no-progress'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  fs.writeFileSync(path.join(a.out, 'ingest.log'), `${run.stdout}\n${run.stderr}`);
  const items = path.join(a.out, 'ingest', '2099', 'items.jsonl');
  if (!fs.existsSync(items)) fs.writeFileSync(items, '');
  const scored = JSON.parse(execFileSync('node', [SCORER, '--items', items, '--truth', path.join(stage, 'truth'), '--json', '--all'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })) as
    { papers: { paper: string; expected: number; matched: number; answer: [number, number] }[] };
  const byPaper = new Map(scored.papers.map(p => [p.paper, p]));
  const table = new Map<string, Sums>();
  const add = (k: string, p: { expected: number; matched: number; answer: [number, number] }) => {
    const s = table.get(k) ?? blank();
    s.papers++; s.expected += p.expected; s.matched += p.matched; s.answer[0] += p.answer[0]; s.answer[1] += p.answer[1];
    table.set(k, s);
  };
  for (const p of keyed) {
    const sc = byPaper.get(p.stem) ?? { expected: 0, matched: 0, answer: [0, 0] as [number, number] };
    add('overall', sc);
    add(`key=${p.dims.key}`, sc);
    add(`key=${p.dims.key} script=${p.dims.script}`, sc);
    if (p.dims.options === 'native' || p.dims.options === 'circled') add(`key=${p.dims.key} options=${p.dims.options}`, sc);
  }
  const f = (n: [number, number]) => (n[1] ? (n[0] / n[1]).toFixed(3) : '    -');
  const lines = [`key styles: ${keyed.length} keyed papers of ${manifest.papers.length} in ${a.dir}, read in ${((performance.now() - t0) / 1000).toFixed(0)} s (exit ${run.status})`, `${'group'.padEnd(40)} papers  qs matched answer (right/checked)`];
  for (const [k, s] of [...table].sort(([x], [y]) => (x === 'overall' ? -1 : y === 'overall' ? 1 : x.localeCompare(y)))) {
    lines.push(`${k.padEnd(40)} ${String(s.papers).padStart(6)} ${String(s.expected).padStart(4)} ${String(s.matched).padStart(7)} ${f(s.answer)} (${s.answer[0]}/${s.answer[1]})`);
  }
  process.stdout.write(lines.join('\n') + '\n');
  if (!a.detail) return;
  // Each answer that differs, for finding why (matched here by paper, section and number).
  const got = new Map<string, string>();
  for (const l of fs.readFileSync(items, 'utf8').split('\n').filter(Boolean)) {
    const r = JSON.parse(l) as { source?: { file?: string }; section?: string; number?: number; answer?: unknown };
    const stem = path.basename(String(r.source?.file ?? '')).replace(/\.pdf$/i, '');
    got.set(`${stem}|${r.section ?? ''}|${r.number}`, norm(r.answer));
  }
  for (const p of keyed) {
    const seen = new Set<string>();
    for (const r of parseCsv(fs.readFileSync(path.join(a.dir, 'truth', `${p.stem}.csv`), 'utf8'))) {
      // One row per question (a question marked part by part has a row per part, each with its answer).
      if (!r.answer || r.type === 'free' || seen.has(`${r.section}|${r.number}`)) continue;
      seen.add(`${r.section}|${r.number}`);
      const have = got.get(`${p.stem}|${r.section}|${r.number}`) ?? [...got].find(([k]) => k.startsWith(`${p.stem}|`) && k.endsWith(`|${r.number}`))?.[1];
      if (have !== undefined && have !== norm(r.answer)) process.stdout.write(`  ${p.stem} [${p.dims.key} ${p.dims.script} ${p.dims.options}] ${r.section} ${r.number}: want ${norm(r.answer)} have ${have || '∅'}\n`);
    }
  }
}

main().catch(e => { process.stderr.write(`key-styles: ${(e as Error).message}\n`); process.exitCode = 1; });
