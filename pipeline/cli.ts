// The command line the Makefile calls (`make ingest`, `make tag`, `make dedup`, `make translate`);
// `--help` prints the usage below. Settings also come from the environment (YEAR, IN, OUT, DPI,
// TEMPLATE, FORCE, WORKERS, QUEUE). A progress bar on a terminal; one plain line per paper
// otherwise (CI); then every warning and error of every paper, so nobody needs SQLite to read them.
// Run from dist/cli.js (compiled by `make`: README, "Speed"); what a run needs (the stages, pdf.js,
// the store, the queue client) is imported once the arguments are read, so `--help` and a bad
// argument answer at once.
import path from 'node:path';
import { resolveConfig, type ConfigInput } from './config.ts';
import { formatDiagnostic } from './diagnostics.ts';
import type { BatchResult, PaperOutcome, Progress } from './run.ts';

const USAGE = `usage: tsx pipeline/cli.ts [options]        (make ingest YEAR=y [IN=dir] [OUT=dir] …)

Ingests every PDF of a folder into <out>/<year>/ (items.jsonl, store.sqlite, page images, figures).

  --year Y          batch year (YEAR; default this year)
  --in DIR          folder of papers (IN; default inbox/<year>, the shipped samples when that has none)
  --out DIR         output folder (OUT; default out)
  --dpi N           page image resolution (DPI; default 144)
  --template ID     use this template for every paper instead of detecting one (TEMPLATE)
  --force           read again papers the store holds as done (FORCE=1)
  --no-progress     plain lines, no progress bar
  --only LIST       tag,dedup,translate: only these passes over the store, no PDF read
  --help            this text

Environment: WORKERS=n worker processes on this machine (default one per core; 1 reads papers in
this process). QUEUE=redis://host:port sends the papers through a BullMQ queue to \`make worker\`
processes on any machine seeing the same folders, and waits (QUEUE_STALL_MS: how soon a dead
worker's paper is taken over, default 30000).

Exit status: 0 every paper done (or already in the store); 1 at least one paper failed (unreadable,
no template, no question found: it is not stored as done and the next run tries it again); 3 none
failed but at least one is partial (stored, with error diagnostics listed above the summary);
2 bad usage.`;

function parseArgs(argv: string[]): ConfigInput & { only?: string[]; help?: boolean } {
  const input: ConfigInput & { only?: string[]; help?: boolean } = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new TypeError(`${a} needs a value`);
      return v;
    };
    if (a === '--year') input.year = value();
    else if (a === '--in') input.inDir = value();
    else if (a === '--out') input.outDir = value();
    else if (a === '--dpi') input.dpi = value();
    else if (a === '--template') input.template = value();
    else if (a === '--force') input.force = true;
    else if (a === '--no-progress') input.progress = false;
    else if (a === '--help' || a === '-h') input.help = true;
    else if (a === '--only') {
      input.only = value().split(',');
      const known = ['tag', 'dedup', 'translate'];
      if (!input.only.every(x => known.includes(x))) throw new TypeError(`--only takes ${known.join(', ')} (comma-separated), got "${input.only.join(',')}"`);
    }
    else throw new TypeError(`unknown argument ${a}`);
  }
  return input;
}

function line(o: PaperOutcome): string {
  if (o.status === 'failed') return `FAILED  ${o.file}: ${o.error ? formatDiagnostic(o.error) : 'unknown error'}`;
  const warn = o.messages.filter(m => m.severity !== 'info').length;
  return `${o.status === 'skipped' ? 'skipped' : o.status === 'partial' ? 'PARTIAL' : 'done   '} ${o.file}: ${o.pages} pages, ${o.questions} questions${o.status !== 'skipped' ? `, ${o.pagesRendered} pages rendered, ${o.recordsWritten} records written` : ' (already in the store)'}${warn ? `, ${warn} warnings` : ''}`;
}

async function main(): Promise<number> {
  let config, only;
  try {
    const args = parseArgs(process.argv.slice(2));
    if (args.help) {
      process.stdout.write(USAGE + '\n');
      return 0;
    }
    only = args.only;
    config = resolveConfig(args);
  } catch (e) {
    process.stderr.write(`ingest: ${(e as Error).message}\n`);
    return 2;
  }
  const rel = (p: string) => path.relative(process.cwd(), p) || '.';
  if (only) {
    // make tag / make dedup: the passes over the store alone, no PDF read.
    const t0 = performance.now();
    const { rerunCorpus } = await import('./run.ts');
    const result = await rerunCorpus(config, only);
    for (const l of result.lines) process.stdout.write(l + '\n');
    process.stdout.write(`items: ${rel(result.itemsFile)}${result.jsonlRewritten ? '' : ' (unchanged)'}, ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    return 0;
  }
  process.stdout.write(`ingest: year ${config.year}, papers from ${rel(config.inDir)}${config.usingSamples ? ' (shipped samples: the inbox has no PDF)' : ''}, output in ${rel(config.yearDir)}\n`);
  const bar = (done: number, total: number, file: string) => {
    const w = 30, fill = total ? Math.round((done / total) * w) : w;
    process.stderr.write(`\r[${'#'.repeat(fill)}${'.'.repeat(w - fill)}] ${done}/${total} ${file.slice(0, 40).padEnd(40)}`);
  };
  const progress: Progress = ({ done, total, file, outcome }) => {
    if (config.progress) bar(done, total, file);
    if (outcome) {
      if (config.progress) process.stderr.write('\r\x1b[K');
      process.stdout.write(line(outcome) + '\n');
    }
  };
  const result: BatchResult = config.queue
    ? await (await import('./queue/enqueue.ts')).runQueued(config, progress)
    : await (await import('./run.ts')).runBatch(config, progress);
  const failed = result.papers.filter(p => p.status === 'failed');
  const pages = result.papers.reduce((n, p) => n + p.pages, 0);
  const questions = result.papers.reduce((n, p) => n + p.questions, 0);
  const rendered = result.papers.reduce((n, p) => n + p.pagesRendered, 0);
  const written = result.papers.reduce((n, p) => n + p.recordsWritten, 0);
  const partial = result.papers.filter(p => p.status === 'partial');
  // Every warning and error, paper by paper (a skipped paper's were listed when it was read).
  for (const p of result.papers) {
    const notes = p.messages.filter(m => m.severity !== 'info');
    if (!notes.length) continue;
    process.stdout.write(`${p.file}: ${notes.filter(m => m.severity === 'error').length} errors, ${notes.filter(m => m.severity === 'warning').length} warnings\n`);
    for (const m of notes) process.stdout.write(`  ${formatDiagnostic(m)}${m.stage ? ` (${m.stage})` : ''}\n`);
  }
  for (const l of result.corpus) process.stdout.write(l + '\n');
  process.stdout.write(`summary: ${result.papers.length} papers (${result.papers.filter(p => p.status === 'skipped').length} unchanged), ${pages} pages (${rendered} rendered), ${questions} questions, ${written} records written, ${partial.length} partial, ${failed.length} failed, ${result.seconds.toFixed(1)} s\n`);
  process.stdout.write(`items: ${rel(result.itemsFile)}${result.jsonlRewritten ? '' : ' (unchanged)'}\n`);
  return failed.length ? 1 : partial.length ? 3 : 0;
}

main().then(code => { process.exitCode = code; }, e => { process.stderr.write(`ingest: ${(e as Error).stack ?? e}\n`); process.exitCode = 2; });
