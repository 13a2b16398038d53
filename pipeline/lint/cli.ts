// `make lint YEAR=<y> [OUT=<dir>]` → `tsx pipeline/lint/cli.ts [--year Y] [--out DIR]`: the lint
// rules over the records of <OUT>/<YEAR>/items.jsonl (pipeline/lint/records.ts, lintSet): each
// finding on a line, then a summary. Exit 0 when every record is clean, 1 when something was
// found, 2 on bad usage or input.
import { lintSet } from './records.ts';

function main(): number {
  const args = process.argv.slice(2);
  const input: { year?: string; outDir?: string } = {};
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--year') input.year = args[++i];
    else if (args[i] === '--out') input.outDir = args[++i];
    else {
      process.stderr.write(`lint: unknown argument ${args[i]}\n`);
      return 2;
    }
  }
  const result = lintSet(input);
  for (const line of result.lines) (result.code === 2 ? process.stderr : process.stdout).write(line + '\n');
  return result.code;
}

process.exitCode = main();
