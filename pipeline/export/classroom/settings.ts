// The settings of `make export` (classroom formats), resolved once from the command line and the
// environment, then frozen. Every default is here: STATUS=verified, one column, Chromium at
// /usr/bin/chromium, files under the source's own exports/ folder.
//   YEAR=<y>  reads <OUT>/<y>/ (what `make ingest` wrote); the default source.
//   SET=<name> reads the uploaded set <OUT>/sets/<name>/<YEAR>/ (what `make serve` holds); a set with
//              one year folder only is read from it whatever YEAR says.
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULTS as PIPELINE_DEFAULTS } from '../../config.ts';
import { checkSetName } from '../../server/security.ts';
import { SERVER_DEFAULTS } from '../../server/settings.ts';
import type { StatusFilter } from './question.ts';

export const CLASSROOM_FORMATS = ['moodle', 'qti', 'worksheet'] as const;
export type ClassroomFormat = (typeof CLASSROOM_FORMATS)[number];

export const CLASSROOM_DEFAULTS = {
  status: 'verified' as StatusFilter,
  columns: 1 as 1 | 2,
  /** Exports go to <source folder>/exports/ (<OUT>/<YEAR>/exports, <OUT>/sets/<set>/exports). */
  exportsSubdir: 'exports',
  /** Debian's Chromium, which prints the worksheet PDFs (through playwright-core). */
  chromium: '/usr/bin/chromium',
} as const;

export type ClassroomSource =
  | { readonly kind: 'year'; readonly year: string; readonly dir: string }
  | { readonly kind: 'set'; readonly set: string; readonly year: string; readonly dir: string; readonly outDir: string };

export interface ClassroomSettings {
  readonly format: ClassroomFormat;
  readonly status: StatusFilter;
  readonly columns: 1 | 2;
  readonly source: ClassroomSource;
  /** The export's name: the set's name or the year, with `-all` for STATUS=all. */
  readonly label: string;
  /** The title a worksheet and a QTI test carry. */
  readonly title: string;
  /** What is written: the .xml (moodle), the .zip (qti), or the folder of the worksheet's four files. */
  readonly target: string;
  readonly chromium: string;
}

export interface ClassroomInput {
  format?: string;
  set?: string;
  year?: string;
  outDir?: string;
  status?: string;
  columns?: string | number;
  /** Write here instead of the default target. */
  dest?: string;
  title?: string;
}

/** Bad usage: reported in one line, exit status 2. */
export class ClassroomUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClassroomUsageError';
  }
}

function usage(cond: boolean, message: string): asserts cond {
  if (!cond) throw new ClassroomUsageError(message);
}

function setSource(set: string, year: string, outDir: string): ClassroomSource {
  try {
    checkSetName(set);
  } catch (e) {
    throw new ClassroomUsageError(`SET: ${(e as Error).message}`);
  }
  const setDir = path.join(outDir, SERVER_DEFAULTS.setsSubdir, set);
  const existing = fs.existsSync(path.join(outDir, SERVER_DEFAULTS.setsSubdir))
    ? fs.readdirSync(path.join(outDir, SERVER_DEFAULTS.setsSubdir), { withFileTypes: true }).filter(d => d.isDirectory()).map(d => d.name).sort()
    : [];
  usage(fs.existsSync(setDir), `no set named "${set}" in ${path.join(outDir, SERVER_DEFAULTS.setsSubdir)}${existing.length ? ` (sets: ${existing.join(', ')})` : ' (no set uploaded there: make serve)'}`);
  const years = fs.readdirSync(setDir).filter(y => /^\d{4}$/.test(y) && fs.existsSync(path.join(setDir, y, 'store.sqlite'))).sort();
  // The server writes a set under its YEAR (this year by default); a set made in another year has only that folder.
  const chosen = years.includes(year) ? year : years.length === 1 ? years[0] : null;
  usage(chosen !== null, years.length ? `set "${set}" has no ${year}/ folder; it has ${years.join(', ')}: name one with YEAR=` : `set "${set}" holds no ingested paper yet (${setDir})`);
  return { kind: 'set', set, year: chosen, dir: path.join(setDir, chosen), outDir };
}

export function resolveClassroomSettings(input: ClassroomInput = {}, environment: NodeJS.ProcessEnv = process.env): ClassroomSettings {
  // An empty variable (as `make` exports an unset one) counts as unset.
  const env = Object.fromEntries(Object.entries(environment).filter(([, v]) => v !== '')) as NodeJS.ProcessEnv;
  const format = input.format ?? env.FORMAT;
  usage(!!format, `FORMAT is required: one of ${CLASSROOM_FORMATS.join(', ')}`);
  usage((CLASSROOM_FORMATS as readonly string[]).includes(format!), `FORMAT must be one of ${CLASSROOM_FORMATS.join(', ')}, got "${format}"`);
  const status = input.status ?? env.STATUS ?? CLASSROOM_DEFAULTS.status;
  usage(status === 'verified' || status === 'all', `STATUS must be verified or all, got "${status}"`);
  // COLUMNS is not read from the environment: shells set it to the terminal's width.
  const columns = Number(input.columns ?? CLASSROOM_DEFAULTS.columns);
  usage(columns === 1 || columns === 2, `COLUMNS must be 1 or 2, got "${input.columns}"`);
  const year = String(input.year ?? env.YEAR ?? PIPELINE_DEFAULTS.year);
  usage(/^\d{4}$/.test(year), `YEAR must be four digits, got "${year}"`);
  const outDir = path.resolve(input.outDir ?? env.OUT ?? PIPELINE_DEFAULTS.outDir);
  usage(!fs.existsSync(outDir) || fs.statSync(outDir).isDirectory(), `OUT=${outDir} is not a folder`);
  const set = input.set ?? env.SET;
  const source: ClassroomSource = set ? setSource(set, year, outDir) : { kind: 'year', year, dir: path.join(outDir, year) };
  if (source.kind === 'year') {
    usage(fs.existsSync(path.join(source.dir, 'store.sqlite')) || fs.existsSync(path.join(source.dir, 'items.jsonl')),
      `nothing ingested in ${source.dir}: run make ingest YEAR=${year}${input.outDir ?? env.OUT ? ` OUT=${input.outDir ?? env.OUT}` : ''} first, or name an uploaded set with SET=`);
  }
  const label = `${source.kind === 'set' ? source.set : source.year}${status === 'all' ? '-all' : ''}`;
  const file = { moodle: `${label}-moodle.xml`, qti: `${label}-qti.zip`, worksheet: `${label}-worksheet` }[format as ClassroomFormat];
  const dest = input.dest ?? env.DEST;
  // DEST naming a folder that exists takes the file inside it (the worksheet's folder is DEST itself).
  const intoFolder = dest !== undefined && format !== 'worksheet' && fs.existsSync(dest) && fs.statSync(dest).isDirectory();
  const target = path.resolve(dest === undefined ? path.join(source.dir, CLASSROOM_DEFAULTS.exportsSubdir, file) : intoFolder ? path.join(dest, file) : dest);
  const title = input.title ?? env.TITLE ?? (source.kind === 'set' ? source.set : `exam-ingest ${source.year}`);
  return Object.freeze({
    format: format as ClassroomFormat,
    status: status as StatusFilter,
    columns: columns as 1 | 2,
    source: Object.freeze(source),
    label,
    title,
    target,
    chromium: env.CHROMIUM ?? CLASSROOM_DEFAULTS.chromium,
  });
}
