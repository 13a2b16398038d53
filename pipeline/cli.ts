// The command line the Makefile calls: `tsx pipeline/cli.ts [--year Y] [--in DIR] [--out DIR] [--dpi N] [--template ID] [--force] [--only tag,dedup]`.
// `--only` runs the named passes over the store alone (make tag / make dedup / make translate), without reading a PDF.
// Settings also come from the environment (YEAR, IN, OUT, DPI, TEMPLATE, FORCE). A progress bar on
// a terminal; one plain line per paper otherwise (CI). Exit 1 when any paper failed, 2 on bad usage.
import path from 'node:path';
import { resolveConfig, type ConfigInput } from './config.ts';
import { formatDiagnostic } from './diagnostics.ts';
import { rerunCorpus, runBatch, type PaperOutcome } from './run.ts';

function parseArgs(argv: string[]): ConfigInput & { only?: string[] } {
  const input: ConfigInput & { only?: string[] } = {};
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
  return `${o.status === 'skipped' ? 'skipped' : 'done   '} ${o.file}: ${o.pages} pages, ${o.questions} questions${o.status === 'done' ? `, ${o.pagesRendered} pages rendered, ${o.recordsWritten} records written` : ' (already in the store)'}${warn ? `, ${warn} warnings` : ''}`;
}

async function main(): Promise<number> {
  let config, only;
  try {
    const args = parseArgs(process.argv.slice(2));
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
  const result = await runBatch(config, ({ done, total, file, outcome }) => {
    if (config.progress) bar(done, total, file);
    if (outcome) {
      if (config.progress) process.stderr.write('\r\x1b[K');
      process.stdout.write(line(outcome) + '\n');
    }
  });
  const failed = result.papers.filter(p => p.status === 'failed');
  const pages = result.papers.reduce((n, p) => n + p.pages, 0);
  const questions = result.papers.reduce((n, p) => n + p.questions, 0);
  const rendered = result.papers.reduce((n, p) => n + p.pagesRendered, 0);
  const written = result.papers.reduce((n, p) => n + p.recordsWritten, 0);
  const warnings = result.papers.flatMap(p => p.messages.filter(m => m.severity === 'error'));
  for (const w of warnings) process.stdout.write(`  ${formatDiagnostic(w)}\n`);
  for (const l of result.corpus) process.stdout.write(l + '\n');
  process.stdout.write(`summary: ${result.papers.length} papers (${result.papers.filter(p => p.status === 'skipped').length} unchanged), ${pages} pages (${rendered} rendered), ${questions} questions, ${written} records written, ${failed.length} failed, ${result.seconds.toFixed(1)} s\n`);
  process.stdout.write(`items: ${rel(result.itemsFile)}${result.jsonlRewritten ? '' : ' (unchanged)'}\n`);
  return failed.length ? 1 : 0;
}

main().then(code => { process.exitCode = code; }, e => { process.stderr.write(`ingest: ${(e as Error).stack ?? e}\n`); process.exitCode = 2; });
