// Every setting of a run, resolved once from defaults, environment and command line, then frozen.
// The defaults below are the documented ones (README, "Configuration").
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Config {
  /** Batch year: outputs go to <out>/<year>/. */
  readonly year: string;
  /** Folder of PDFs to ingest (default inbox/<year>; the shipped samples when that has no PDF). */
  readonly inDir: string;
  /** Whether inDir fell back to the shipped samples. */
  readonly usingSamples: boolean;
  readonly outDir: string;
  /** <outDir>/<year>: where items.jsonl, the store and all images go. */
  readonly yearDir: string;
  /** Page image resolution (dots per inch) for the IO modality and figure crops. */
  readonly dpi: number;
  /** Resolution pages without a usable text layer are rendered at for OCR. */
  readonly ocrDpi: number;
  /** OCR languages (tesseract names) for a cover read before any template is known. */
  readonly ocrLang: string;
  readonly templatesDir: string;
  /** Template id to use for every paper instead of detecting one (TEMPLATE=). */
  readonly template: string | null;
  /** Re-process papers the store already holds as done (FORCE=1). */
  readonly force: boolean;
  /** Progress bar on a terminal; plain lines when not a TTY or in CI. */
  readonly progress: boolean;
  readonly root: string;
}

export const DEFAULTS = {
  year: String(new Date().getFullYear()),
  dpi: 144,
  ocrDpi: 300,
  ocrLang: 'kor+eng',
  outDir: 'out',
  inboxDir: 'inbox',
  samplesDir: 'fixtures/samples',
  templatesDir: 'templates',
} as const;

export interface ConfigInput {
  year?: string;
  inDir?: string;
  outDir?: string;
  dpi?: number | string;
  template?: string;
  force?: boolean | string;
  progress?: boolean;
}

function check(cond: boolean, message: string): asserts cond {
  if (!cond) throw new TypeError(`config: ${message}`);
}

const hasPdf = (dir: string) => fs.existsSync(dir) && fs.readdirSync(dir).some(f => f.toLowerCase().endsWith('.pdf'));

export function resolveConfig(input: ConfigInput = {}, environment: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (as `make` exports an unset one) counts as unset.
  const env = Object.fromEntries(Object.entries(environment).filter(([, v]) => v !== '')) as NodeJS.ProcessEnv;
  const year = String(input.year ?? env.YEAR ?? DEFAULTS.year);
  check(/^\d{4}$/.test(year), `YEAR must be four digits, got "${year}"`);
  const dpi = Number(input.dpi ?? env.DPI ?? DEFAULTS.dpi);
  check(Number.isFinite(dpi) && dpi >= 36 && dpi <= 600, `DPI must be a number from 36 to 600, got "${input.dpi ?? env.DPI}"`);
  const outDir = path.resolve(input.outDir ?? env.OUT ?? DEFAULTS.outDir);
  const given = input.inDir ?? env.IN;
  let inDir = path.resolve(given ?? path.join(DEFAULTS.inboxDir, year));
  let usingSamples = false;
  if (given) check(fs.existsSync(inDir), `IN=${given}: no such folder`);
  else if (!hasPdf(inDir)) { inDir = path.join(ROOT, DEFAULTS.samplesDir); usingSamples = true; }
  const force = input.force ?? env.FORCE;
  const config: Config = {
    year,
    inDir,
    usingSamples,
    outDir,
    yearDir: path.join(outDir, year),
    dpi,
    ocrDpi: Number(env.OCR_DPI ?? DEFAULTS.ocrDpi),
    ocrLang: env.OCR_LANG ?? DEFAULTS.ocrLang,
    templatesDir: path.join(ROOT, DEFAULTS.templatesDir),
    template: input.template ?? env.TEMPLATE ?? null,
    force: force === true || force === '1' || force === 'true',
    progress: input.progress ?? (Boolean(process.stderr.isTTY) && !env.CI),
    root: ROOT,
  };
  return Object.freeze(config);
}
