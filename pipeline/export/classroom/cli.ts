// `make export FORMAT=moodle|qti|worksheet [SET=<name>|YEAR=<y>] [OUT=<dir>] [STATUS=verified|all] [COLUMNS=2] [DEST=<path>] [TITLE=…]`
// → `tsx pipeline/export/classroom/cli.ts [--format F] [--set S] [--year Y] [--out DIR] [--status S] [--columns N] [--dest PATH] [--title T]`.
// The last line on stdout is the path written; exit 0 written, 1 nothing to export or it failed, 2 bad usage (command.ts).
import { runClassroomExport } from './command.ts';

runClassroomExport(process.argv.slice(2), process.env, { out: l => process.stdout.write(`${l}\n`), err: l => process.stderr.write(`${l}\n`) })
  .then(code => { process.exitCode = code; }, e => { process.stderr.write(`export: ${(e as Error).stack ?? e}\n`); process.exitCode = 1; });
