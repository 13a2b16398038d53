// The command line the Makefile calls (`make ingest`, `make tag`, `make dedup`, `make translate`);
// `--help` prints the usage below. Settings also come from the environment (YEAR, IN, OUT, DPI,
// TEMPLATE, FORCE, WORKERS, QUEUE). A progress bar on a terminal; one plain line per paper
// otherwise (CI); then every warning and error of every paper, so nobody needs SQLite to read them.
// Run from dist/cli.js (compiled by `make`: README, "Speed"); what a run needs (the stages, pdf.js,
// the store, the queue client) is imported once the arguments are read, so `--help` and a bad
// argument answer at once.
import path from 'node:path';
import { resolveConfig, type ConfigInput } from './config.ts';
import type { BatchResult, Progress } from './run.ts';
import { DiskFullError } from './disk-full.ts';
import { EXIT, exitCode, statusLine } from './exit-status.ts';
import { paperLine, paperNotes, summaryLine } from './run-report.ts';

const USAGE = `usage: exam-ingest [options]        (make ingest YEAR=y [IN=dir] [OUT=dir] …)

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

Each paper's line starts with its status: done, PARTIAL (stored; a stage reported an error),
needs-review (stored, but its structure is in doubt: a question read unsurely, little of the text
explained, or a count the paper states that the reading does not reach; the reasons follow, and
stay with the paper in the store, so a re-run that skips it still says it needs review), skipped
(already in the store), FAILED (not stored).

Exit status: 0 every paper done (or already in the store, none needing review); 1 at least one
paper failed (unreadable, no template, no question found: it is not stored as done and the next run
tries it again), or the disk is full (the batch stops, the path is named, the store keeps what was
done); 3 none failed but at least one is partial (stored, with error diagnostics listed above the
summary) or needs review (stored, its reasons listed above the summary); 2 bad usage (an unknown
TEMPLATE, an OUT that is a file, a YEAR or DPI out of range…), refused before any paper is read. The
last line printed names the status.`;

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

/** Runs the command; the status line is printed by the caller (not after --help). */
async function main(): Promise<number | 'help'> {
  let config, only;
  try {
    const args = parseArgs(process.argv.slice(2));
    if (args.help) {
      process.stdout.write(USAGE + '\n');
      return 'help';
    }
    only = args.only;
    config = resolveConfig(args);
  } catch (e) {
    process.stderr.write(`ingest: ${(e as Error).message}\n`);
    return EXIT.usage;
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
      process.stdout.write(paperLine(outcome) + '\n');
    }
  };
  const result: BatchResult = config.queue
    ? await (await import('./queue/enqueue.ts')).runQueued(config, progress)
    : await (await import('./run.ts')).runBatch(config, progress);
  // Why each paper needs review, and every warning and error, paper by paper (a skipped paper's
  // diagnostics were listed when it was read; its stored verdict is listed again).
  for (const p of result.papers) for (const l of paperNotes(p)) process.stdout.write(l + '\n');
  for (const l of result.corpus) process.stdout.write(l + '\n');
  process.stdout.write(summaryLine(result) + '\n');
  process.stdout.write(`items: ${rel(result.itemsFile)}${result.jsonlRewritten ? '' : ' (unchanged)'}\n`);
  return exitCode(result.papers);
}

const finish = (code: number) => {
  process.stdout.write(statusLine(code) + '\n');
  process.exitCode = code;
};

main().then(code => (code === 'help' ? undefined : finish(code)), e => {
  // A full disk: the batch stopped, the path named; anything else is a fault of this program.
  if (e instanceof DiskFullError) {
    process.stderr.write(`ingest: ${e.message}\n`);
    return finish(EXIT.failed);
  }
  process.stderr.write(`ingest: ${(e as Error).stack ?? e}\n`);
  finish(EXIT.usage);
});
