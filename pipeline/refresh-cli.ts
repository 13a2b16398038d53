// The command line of the benchmark's splits (the Makefile's refresh and select):
//   tsx pipeline/refresh-cli.ts refresh [--cutoff YYYY-MM] [--in DIR] [--out DIR] [--reviewed-only] [--dpi N] [--force]
//   tsx pipeline/refresh-cli.ts select --after YYYY-MM [--out DIR] [--reviewed-only]
// Settings also come from the environment (CUTOFF, IN, OUT, REVIEWED_ONLY, AFTER, DPI, …). Exit 0 when
// the split was written or there was nothing to write; 1 when the refresh failed (a paper could not
// be ingested, another refresh holds the lock, the splits on disk do not allow it); 2 on bad usage.
import { resolveRefreshConfig, resolveSelectConfig, type RefreshInput } from './config.ts';
import { formatDiagnostic } from './diagnostics.ts';
import { selectAfter } from './export/select.ts';
import type { PaperOutcome } from './run.ts';
import { refresh } from './splits/refresh.ts';

interface Args extends RefreshInput { command: 'refresh' | 'select'; after?: string }

function parseArgs(argv: string[]): Args {
  const [command, ...rest] = argv;
  if (command !== 'refresh' && command !== 'select') throw new TypeError(`the first argument is refresh or select, got "${command ?? ''}"`);
  const args: Args = { command };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const value = () => {
      const v = rest[++i];
      if (v === undefined) throw new TypeError(`${a} needs a value`);
      return v;
    };
    if (a === '--cutoff' && command === 'refresh') args.cutoff = value();
    else if (a === '--after' && command === 'select') args.after = value();
    else if (a === '--in' && command === 'refresh') args.inDir = value();
    else if (a === '--out') args.outDir = value();
    else if (a === '--dpi' && command === 'refresh') args.dpi = value();
    else if (a === '--force' && command === 'refresh') args.force = true;
    else if (a === '--reviewed-only') args.reviewedOnly = true;
    else if (a === '--no-progress') args.progress = false;
    else throw new TypeError(`unknown argument ${a} for ${command}`);
  }
  return args;
}

function paperLine(o: PaperOutcome): string {
  if (o.status === 'failed') return `FAILED  ${o.file}: ${o.error ? formatDiagnostic(o.error) : 'unknown error'}`;
  return `${o.status === 'skipped' ? 'skipped' : 'done   '} ${o.file}: ${o.questions} questions${o.status === 'skipped' ? ' (already in the store)' : ''}`;
}

async function main(): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
    if (args.command === 'select') {
      const cfg = resolveSelectConfig(args);
      for (const l of selectAfter(cfg).lines) process.stdout.write(l + '\n');
      return 0;
    }
  } catch (e) {
    process.stderr.write(`splits: ${(e as Error).message}\n`);
    return e instanceof TypeError ? 2 : 1;
  }
  let cfg;
  try {
    cfg = resolveRefreshConfig(args);
  } catch (e) {
    process.stderr.write(`refresh: ${(e as Error).message}\n`);
    return 2;
  }
  process.stdout.write(`refresh: cut-off ${cfg.cutoff}, papers from ${cfg.inbox}, splits in ${cfg.splitsDir}${cfg.reviewedOnly ? ', verified records only' : ''}\n`);
  try {
    const result = await refresh(cfg, { onPaper: ({ outcome }) => { if (outcome) process.stdout.write(paperLine(outcome) + '\n'); } });
    for (const l of result.lines) process.stdout.write(l + '\n');
    return 0;
  } catch (e) {
    process.stderr.write(`refresh failed: ${(e as Error).message}\n`);
    return 1;
  }
}

main().then(code => { process.exitCode = code; }, e => { process.stderr.write(`refresh: ${(e as Error).stack ?? e}\n`); process.exitCode = 1; });
