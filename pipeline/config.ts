// Every setting of a run, resolved once from defaults, environment and command line, then frozen.
// The defaults below are the documented ones (README, "Configuration").
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
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
  /**
   * OCR languages (tesseract names) for every page without text (OCR_LANG=); null: the template's,
   * or, where it names none, those of the script the paper is written in (ocrScripts).
   */
  readonly ocrLang: string | null;
  /** The tesseract languages that read each script a paper may be written in (ocr/paper-language.ts). */
  readonly ocrScripts: Readonly<Record<string, string>>;
  readonly templatesDir: string;
  /** Template id to use for every paper instead of detecting one (TEMPLATE=). */
  readonly template: string | null;
  /** Re-process papers the store already holds as done (FORCE=1). */
  readonly force: boolean;
  /** Progress bar on a terminal; plain lines when not a TTY or in CI. */
  readonly progress: boolean;
  readonly root: string;
  /** The optional LLM parse (off unless LLM_BASE_URL or LLM_MODEL is set). */
  readonly llm: LlmConfig | null;
  /** Curriculum trees the tagging pass chooses paths from. */
  readonly curriculumDir: string;
  /** The model chooses each record's units among those the cues scored (LLM_TAG=1; needs LLM_*): one request per record. */
  readonly llmTag: boolean;
  /** A second path is given where another unit has at least this share of the primary's evidence. */
  readonly knowledgeSecondShare: number;
  /** Near-duplicate detection over the store (pipeline/corpus/dedup.ts). */
  readonly dedup: DedupSettings;
  /** Translations of every record (pipeline/translate): on only with TRANSLATE= and a model (LLM_*). */
  readonly translate: TranslateConfig | null;
  /** Worker processes papers are spread over on this machine (WORKERS=, default one per core); 1 runs them in this process. */
  readonly workers: number;
  /**
   * tesseract.js workers of the process that reads the papers: one per core. Pages are drawn in
   * every WORKERS lane, but OCR (scans, answer keys) runs where the paper's stages run, the batch's
   * own process (a queue worker reads whole papers, each its own).
   */
  readonly ocrWorkers: number;
  /** A Redis URL (QUEUE=redis://host:port): papers go through the BullMQ queue to `make worker` processes instead. */
  readonly queue: string | null;
  /** How long a queue job's lock lasts without renewal before another worker takes it over (QUEUE_STALL_MS). */
  readonly queueStallMs: number;
}

/** Near-duplicate detection's settings (pipeline/corpus/dedup.ts reads them). */
export interface DedupSettings {
  /** Characters per shingle. */
  readonly shingle: number;
  readonly bands: number;
  readonly rows: number;
  /** Least Dice similarity of the prose of two stems. */
  readonly text: number;
  /** Least Dice similarity of the formulas (normalised LaTeX) of two records. */
  readonly math: number;
  /** Least Dice similarity of the option texts, sorted. */
  readonly options: number;
  /** Most differing bits (of 64) between two figure crops' perceptual hashes. */
  readonly figureBits: number;
  /** How the canonical member of a cluster is chosen, first rule first. */
  readonly canonical: readonly ('official' | 'earliest' | 'file' | 'number')[];
}

export interface TranslateConfig {
  /** Target languages, ISO 639-1 (TRANSLATE=en,ko); a record already in one is skipped for it. */
  readonly langs: readonly string[];
  /** Term glossaries, `<from>-<to>.tsv` (either direction serves both). */
  readonly glossaryDir: string;
}

export interface LlmConfig {
  /** Chat-completions endpoint root: OpenAI's, or any compatible local server's (LLM_BASE_URL). */
  readonly baseURL: string;
  readonly model: string;
  readonly apiKey: string;
  /** Body lines per request, and how many lines consecutive requests share (a question cut at a chunk's edge is seen whole by the next). */
  readonly chunkLines: number;
  readonly overlapLines: number;
  /** Attempts per chunk for answers that cannot be used (malformed, truncated, refused), with doubling waits from `backoffMs`. */
  readonly attempts: number;
  readonly backoffMs: number;
  readonly timeoutMs: number;
  readonly maxTokens: number;
}

export const DEFAULTS = {
  year: String(new Date().getFullYear()),
  // A batch year outside this is a typo (YEAR=0226), refused before any paper is read; 2099 is the tests' own.
  yearRange: [1900, 2100],
  dpi: 144,
  ocrDpi: 300,
  ocrLang: null as string | null,
  // Each with English beside it: numbers, units and Latin letters are printed in every script's papers.
  ocrScripts: {
    Latin: 'eng+spa', Vietnamese: 'vie+eng', Hangul: 'kor+eng', Han: 'chi_sim+eng', Japanese: 'jpn+eng', Cyrillic: 'rus+eng',
    Greek: 'ell+eng', Arabic: 'ara+eng', Devanagari: 'hin+eng', Thai: 'tha+eng',
  } as Readonly<Record<string, string>>,
  outDir: 'out',
  inboxDir: 'inbox',
  samplesDir: 'fixtures/samples',
  templatesDir: 'templates',
  llmBaseURL: 'https://api.openai.com/v1',
  llmModel: 'gpt-4o-mini',
  llmChunkLines: 120,
  llmOverlapLines: 20,
  llmAttempts: 3,
  llmBackoffMs: 500,
  llmTimeoutMs: 120_000,
  llmMaxTokens: 4096,
  curriculumDir: 'glossary/curriculum',
  // Translations (make translate LANGS=en): no target language unless TRANSLATE= names some; the
  // glossaries of CSAT mathematics terms live beside the curriculum trees.
  translateGlossaryDir: 'glossary/terms',
  // Splits (make refresh, make select; pipeline/splits). A refresh looks for papers in inbox/ and
  // its folders one level down (so papers left in inbox/<YEAR>/ for make ingest count too), keeps
  // the benchmark's own store under <OUT>/corpus (one store, so dedup sees every paper of every
  // split) and writes <OUT>/splits/<YY-MM>/; the cut-off is the current month unless CUTOFF= says.
  refreshInbox: 'inbox',
  corpusDir: 'corpus',
  splitsDir: 'splits',
  selectDir: 'select',
  knowledgeSecondShare: 0.6,
  // Near-duplicates. 5-character shingles work for every script (Hangul and Han have no word
  // spaces to split on); 16 bands of 4 rows make a pair of Jaccard 0.8 a candidate with
  // probability 0.9998. A candidate is a duplicate when its numbers are the same, its prose is at
  // least 0.9 alike and its formulas 0.95 (Dice over bigrams: a retyped stem or a changed particle
  // stays above, another question with the same frame falls below), its options 0.9 as a set, and
  // its figures (where both have them) at most 10 of 64 perceptual-hash bits apart. The canonical
  // member is the most official (a family's own template before the generic one), then the
  // earliest sat, then by file name and number.
  // Parallelism: one worker process per core (os.availableParallelism()); a job whose worker died
  // is taken over after 30 s without its lock being renewed (a live worker renews it every 15 s).
  queueStallMs: 30_000,
  dedup: { shingle: 5, bands: 16, rows: 4, text: 0.9, math: 0.95, options: 0.9, figureBits: 10, canonical: ['official', 'earliest', 'file', 'number'] } as DedupSettings,
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

/** The ids of the templates in a folder (each file's "id"), read without checking the rest: enough to refuse an unknown TEMPLATE at once. */
function templateIds(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter(f => f.endsWith('.json')).sort().map(f => {
    try {
      return String((JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { id?: unknown }).id ?? f.replace(/\.json$/, ''));
    } catch {
      return f.replace(/\.json$/, '');
    }
  });
}

/** Why OUT cannot be the output folder (a file, or under one), or null: checked before any paper is read. */
function outProblem(outDir: string): string | null {
  for (let dir = outDir; ; dir = path.dirname(dir)) {
    if (fs.existsSync(dir)) {
      if (!fs.statSync(dir).isDirectory()) return dir === outDir ? `${outDir} is a file, not a folder` : `${outDir} cannot be made: ${dir} is a file`;
      try {
        fs.accessSync(dir, fs.constants.W_OK);
      } catch {
        return `${dir} cannot be written to`;
      }
      return null;
    }
    if (path.dirname(dir) === dir) return null;
  }
}

const hasPdf = (dir: string) => fs.existsSync(dir) && fs.readdirSync(dir).some(f => f.toLowerCase().endsWith('.pdf'));

/** The LLM settings, or null (no LLM) when neither LLM_BASE_URL nor LLM_MODEL is set. */
function resolveLlm(env: NodeJS.ProcessEnv): LlmConfig | null {
  if (!env.LLM_BASE_URL && !env.LLM_MODEL) return null;
  const int = (name: string, fallback: number, min: number) => {
    const v = Number(env[name] ?? fallback);
    check(Number.isInteger(v) && v >= min, `${name} must be a whole number ≥ ${min}, got "${env[name]}"`);
    return v;
  };
  const baseURL = env.LLM_BASE_URL ?? DEFAULTS.llmBaseURL;
  check(/^https?:\/\//.test(baseURL), `LLM_BASE_URL must be an http(s) URL, got "${baseURL}"`);
  const chunkLines = int('LLM_CHUNK_LINES', DEFAULTS.llmChunkLines, 10);
  const overlapLines = int('LLM_OVERLAP_LINES', DEFAULTS.llmOverlapLines, 0);
  check(overlapLines < chunkLines, 'LLM_OVERLAP_LINES must be smaller than LLM_CHUNK_LINES');
  return Object.freeze({
    baseURL,
    model: env.LLM_MODEL ?? DEFAULTS.llmModel,
    // A local server needs no key; the client wants a string all the same.
    apiKey: env.LLM_API_KEY ?? env.OPENAI_API_KEY ?? 'none',
    chunkLines,
    overlapLines,
    attempts: int('LLM_ATTEMPTS', DEFAULTS.llmAttempts, 1),
    backoffMs: int('LLM_BACKOFF_MS', DEFAULTS.llmBackoffMs, 0),
    timeoutMs: int('LLM_TIMEOUT_MS', DEFAULTS.llmTimeoutMs, 1000),
    maxTokens: int('LLM_MAX_TOKENS', DEFAULTS.llmMaxTokens, 64),
  });
}

/** Target languages from TRANSLATE (comma-separated ISO 639-1), or null; they need a model. */
function resolveTranslate(env: NodeJS.ProcessEnv, llm: LlmConfig | null): TranslateConfig | null {
  if (!env.TRANSLATE) return null;
  const langs = [...new Set(env.TRANSLATE.split(',').map(l => l.trim().toLowerCase()).filter(Boolean))];
  check(langs.length > 0 && langs.every(l => /^[a-z]{2}$/.test(l)), `TRANSLATE takes two-letter language codes, comma-separated (en,ko), got "${env.TRANSLATE}"`);
  check(llm !== null, `TRANSLATE=${env.TRANSLATE} needs a model: set LLM_BASE_URL (a local server keeps the papers on this machine) and LLM_MODEL`);
  return Object.freeze({ langs: Object.freeze(langs), glossaryDir: path.join(ROOT, DEFAULTS.translateGlossaryDir) });
}

/** Dedup thresholds: the defaults, or DEDUP_TEXT / DEDUP_MATH / DEDUP_OPTIONS (0–1), DEDUP_FIGURE_BITS (0–64), DEDUP_CANONICAL (rules, comma-separated). */
function resolveDedup(env: NodeJS.ProcessEnv): DedupSettings {
  const d = DEFAULTS.dedup;
  const share = (name: string, fallback: number) => {
    const v = Number(env[name] ?? fallback);
    check(Number.isFinite(v) && v >= 0 && v <= 1, `${name} must be a number from 0 to 1, got "${env[name]}"`);
    return v;
  };
  const bits = Number(env.DEDUP_FIGURE_BITS ?? d.figureBits);
  check(Number.isInteger(bits) && bits >= 0 && bits <= 64, `DEDUP_FIGURE_BITS must be a whole number from 0 to 64, got "${env.DEDUP_FIGURE_BITS}"`);
  const canonical = env.DEDUP_CANONICAL ? env.DEDUP_CANONICAL.split(',').map(x => x.trim()) : [...d.canonical];
  const rules = ['official', 'earliest', 'file', 'number'];
  check(canonical.every(r => rules.includes(r)), `DEDUP_CANONICAL names rules from ${rules.join(', ')}, got "${env.DEDUP_CANONICAL}"`);
  return Object.freeze({ ...d, text: share('DEDUP_TEXT', d.text), math: share('DEDUP_MATH', d.math), options: share('DEDUP_OPTIONS', d.options), figureBits: bits, canonical: Object.freeze(canonical as DedupSettings['canonical'][number][]) });
}

export function resolveConfig(input: ConfigInput = {}, environment: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (as `make` exports an unset one) counts as unset.
  const env = Object.fromEntries(Object.entries(environment).filter(([, v]) => v !== '')) as NodeJS.ProcessEnv;
  const year = String(input.year ?? env.YEAR ?? DEFAULTS.year);
  check(/^\d{4}$/.test(year), `YEAR must be four digits, got "${year}"`);
  check(Number(year) >= DEFAULTS.yearRange[0] && Number(year) <= DEFAULTS.yearRange[1], `YEAR must be from ${DEFAULTS.yearRange[0]} to ${DEFAULTS.yearRange[1]}, got "${year}"`);
  const dpi = Number(input.dpi ?? env.DPI ?? DEFAULTS.dpi);
  check(Number.isFinite(dpi) && dpi >= 36 && dpi <= 600, `DPI must be a number from 36 to 600, got "${input.dpi ?? env.DPI}"`);
  const outDir = path.resolve(input.outDir ?? env.OUT ?? DEFAULTS.outDir);
  const badOut = outProblem(outDir);
  check(!badOut, `OUT=${input.outDir ?? env.OUT ?? DEFAULTS.outDir}: ${badOut}`);
  const given = input.inDir ?? env.IN;
  let inDir = path.resolve(given ?? path.join(DEFAULTS.inboxDir, year));
  let usingSamples = false;
  if (given) check(fs.existsSync(inDir), `IN=${given}: no such folder`);
  else if (!hasPdf(inDir)) { inDir = path.join(ROOT, DEFAULTS.samplesDir); usingSamples = true; }
  const force = input.force ?? env.FORCE;
  const template = input.template ?? env.TEMPLATE ?? null;
  const templatesDir = path.join(ROOT, DEFAULTS.templatesDir);
  if (template !== null) {
    const ids = templateIds(templatesDir);
    check(ids.includes(template), `TEMPLATE=${template} names no template; there are: ${ids.join(', ')}`);
  }
  check(!(env.LLM_TAG === '1' || env.LLM_TAG === 'true') || Boolean(env.LLM_BASE_URL || env.LLM_MODEL), 'LLM_TAG=1 needs a model: set LLM_BASE_URL (and LLM_MODEL)');
  const llm = resolveLlm(env);
  const cores = os.availableParallelism();
  const workers = Number(env.WORKERS ?? cores);
  check(Number.isInteger(workers) && workers >= 1 && workers <= 256, `WORKERS must be a whole number from 1 to 256, got "${env.WORKERS}"`);
  const queue = env.QUEUE ?? null;
  check(queue === null || /^rediss?:\/\/[^/\s]+/.test(queue), `QUEUE must be a Redis URL (redis://host:port), got "${queue}"`);
  const queueStallMs = Number(env.QUEUE_STALL_MS ?? DEFAULTS.queueStallMs);
  check(Number.isInteger(queueStallMs) && queueStallMs >= 500, `QUEUE_STALL_MS must be a whole number of milliseconds ≥ 500, got "${env.QUEUE_STALL_MS}"`);
  const config: Config = {
    year,
    inDir,
    usingSamples,
    outDir,
    yearDir: path.join(outDir, year),
    dpi,
    ocrDpi: Number(env.OCR_DPI ?? DEFAULTS.ocrDpi),
    ocrLang: env.OCR_LANG || DEFAULTS.ocrLang,
    ocrScripts: DEFAULTS.ocrScripts,
    templatesDir,
    template,
    force: force === true || force === '1' || force === 'true',
    progress: input.progress ?? (Boolean(process.stderr.isTTY) && !env.CI),
    root: ROOT,
    llm,
    curriculumDir: path.join(ROOT, DEFAULTS.curriculumDir),
    llmTag: env.LLM_TAG === '1' || env.LLM_TAG === 'true',
    knowledgeSecondShare: DEFAULTS.knowledgeSecondShare,
    dedup: resolveDedup(env),
    translate: resolveTranslate(env, llm),
    workers,
    ocrWorkers: cores,
    queue,
    queueStallMs,
  };
  return Object.freeze(config);
}

/** `make refresh`: ingest what is new, then write the next frozen split (pipeline/splits/refresh.ts). */
export interface RefreshConfig {
  /** Ingest settings of the refresh's batches; their store, pages and figures are in <OUT>/corpus. */
  readonly batch: Config;
  /** Where new papers are looked for: its PDFs and those of its folders one level down (IN=, default inbox/). */
  readonly inbox: string;
  /** The new split's cut-off month, `YYYY-MM` (CUTOFF=, default the current month in UTC). */
  readonly cutoff: string;
  /** Only records a reviewer verified (REVIEWED_ONLY=1); otherwise every record not rejected. */
  readonly reviewedOnly: boolean;
  /** <OUT>/splits: one folder per split, YY-MM. */
  readonly splitsDir: string;
}

/** `make select`: the items of every split sat after a month, exported together (pipeline/export/select.ts). */
export interface SelectConfig {
  readonly splitsDir: string;
  /** Items whose exam was sat after this month, `YYYY-MM` (AFTER=, required). */
  readonly after: string;
  readonly reviewedOnly: boolean;
  /** Where the selection goes: <OUT>/select/after-YYYY-MM. */
  readonly target: string;
}

export interface RefreshInput extends ConfigInput { cutoff?: string; reviewedOnly?: boolean }

/** A month as `YYYY-MM` from `YYYY-MM` or `YY-MM` (20YY). */
export function parseMonth(value: string, name: string): string {
  const m = /^(\d{2}|\d{4})-(\d{1,2})$/.exec(value.trim());
  check(!!m && Number(m[2]) >= 1 && Number(m[2]) <= 12, `${name} must be a month as YYYY-MM (or YY-MM), got "${value}"`);
  const year = m[1].length === 2 ? `20${m[1]}` : m[1];
  return `${year}-${m[2].padStart(2, '0')}`;
}

const nonEmpty = (environment: NodeJS.ProcessEnv) => Object.fromEntries(Object.entries(environment).filter(([, v]) => v !== '')) as NodeJS.ProcessEnv;
const flag = (v: string | boolean | undefined) => v === true || v === '1' || v === 'true';

export function resolveRefreshConfig(input: RefreshInput = {}, environment: NodeJS.ProcessEnv = process.env, now = new Date()): RefreshConfig {
  const env = nonEmpty(environment);
  const given = input.inDir ?? env.IN;
  const inbox = path.resolve(given ?? DEFAULTS.refreshInbox);
  if (given) check(fs.existsSync(inbox), `IN=${given}: no such folder`);
  // The batch settings are make ingest's (DPI, TEMPLATE, FORCE, LLM_*, DEDUP_*); only where papers come from and where the store is differ.
  const base = resolveConfig({ ...input, inDir: undefined }, { ...env, IN: undefined });
  const corpusDir = path.join(base.outDir, DEFAULTS.corpusDir);
  const batch: Config = Object.freeze({ ...base, inDir: inbox, usingSamples: false, yearDir: corpusDir });
  const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  return Object.freeze({
    batch,
    inbox,
    cutoff: parseMonth(input.cutoff ?? env.CUTOFF ?? month, 'CUTOFF'),
    reviewedOnly: flag(input.reviewedOnly ?? env.REVIEWED_ONLY),
    splitsDir: path.join(base.outDir, DEFAULTS.splitsDir),
  });
}

export function resolveSelectConfig(input: { after?: string; outDir?: string; reviewedOnly?: boolean } = {}, environment: NodeJS.ProcessEnv = process.env): SelectConfig {
  const env = nonEmpty(environment);
  const given = input.after ?? env.AFTER;
  check(!!given, 'AFTER (or --after) is required: the month a model\'s training data ends, YYYY-MM');
  const after = parseMonth(given, 'AFTER');
  const outDir = path.resolve(input.outDir ?? env.OUT ?? DEFAULTS.outDir);
  return Object.freeze({
    splitsDir: path.join(outDir, DEFAULTS.splitsDir),
    after,
    reviewedOnly: flag(input.reviewedOnly ?? env.REVIEWED_ONLY),
    target: path.join(outDir, DEFAULTS.selectDir, `after-${after}`),
  });
}
