// The review server's settings, resolved once from defaults and the environment, then frozen.
// Every default is here: HOST 127.0.0.1, PORT 8730, UPLOAD_LIMIT_MB 100, SETS_DIR out/sets.
import path from 'node:path';
import { DEFAULTS as PIPELINE_DEFAULTS } from '../config.ts';

export const SERVER_DEFAULTS = {
  host: '127.0.0.1',
  port: 8730,
  uploadLimitMb: 100,
  /** Custom sets live under <OUT>/sets/<set>/ (inbox/, failed/, <YEAR>/). */
  setsSubdir: 'sets',
  /**
   * A set's items.jsonl is written this long after the last decision (and at least this often while
   * decisions keep coming: 10 times it), not per decision: rewriting 5,000 records costs more than the
   * decision itself. An export and the server's close write it at once.
   */
  itemsWriteDelayMs: 2000,
} as const;

export interface ServerSettings {
  readonly host: string;
  /** 0 asks the system for a free port (tests). */
  readonly port: number;
  /** Largest accepted upload request, in bytes. */
  readonly uploadLimitBytes: number;
  /** Required on every request when set (and it must be set to listen beyond loopback). */
  readonly token: string | null;
  readonly setsDir: string;
  /** Batch year a set's output goes under (<setsDir>/<set>/<year>/). */
  readonly year: string;
  /** The environment the pipeline's own settings are resolved from (DPI, TEMPLATE, LLM_*). */
  readonly pipelineEnv: NodeJS.ProcessEnv;
  /** How long after the last decision a set's items.jsonl is written (SERVER_DEFAULTS.itemsWriteDelayMs). */
  readonly itemsWriteDelayMs: number;
}

export class ServerConfigError extends Error {
  constructor(message: string) {
    super(`serve: ${message}`);
    this.name = 'ServerConfigError';
  }
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

export interface ServerInput {
  host?: string;
  port?: number;
  uploadLimitMb?: number;
  token?: string | null;
  outDir?: string;
  year?: string;
  itemsWriteDelayMs?: number;
}

export function resolveServerSettings(input: ServerInput = {}, environment: NodeJS.ProcessEnv = process.env): ServerSettings {
  // An empty variable (as `make` exports an unset one) counts as unset.
  const env = Object.fromEntries(Object.entries(environment).filter(([, v]) => v !== '')) as NodeJS.ProcessEnv;
  const host = input.host ?? env.HOST ?? SERVER_DEFAULTS.host;
  const port = Number(input.port ?? env.PORT ?? SERVER_DEFAULTS.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ServerConfigError(`PORT must be a whole number from 0 to 65535, got "${input.port ?? env.PORT}"`);
  const mb = Number(input.uploadLimitMb ?? env.UPLOAD_LIMIT_MB ?? SERVER_DEFAULTS.uploadLimitMb);
  if (!Number.isFinite(mb) || mb <= 0) throw new ServerConfigError(`UPLOAD_LIMIT_MB must be a positive number, got "${input.uploadLimitMb ?? env.UPLOAD_LIMIT_MB}"`);
  const token = input.token === undefined ? env.REVIEW_TOKEN ?? null : input.token;
  // Beyond loopback anyone on the network could reach the store: only with a token.
  if (!isLoopback(host) && !token) throw new ServerConfigError(`HOST=${host} is not a loopback address: set REVIEW_TOKEN so that requests without it are refused`);
  const year = String(input.year ?? env.YEAR ?? PIPELINE_DEFAULTS.year);
  if (!/^\d{4}$/.test(year)) throw new ServerConfigError(`YEAR must be four digits, got "${year}"`);
  const outDir = path.resolve(input.outDir ?? env.OUT ?? PIPELINE_DEFAULTS.outDir);
  return Object.freeze({
    host,
    port,
    uploadLimitBytes: Math.floor(mb * 1024 * 1024),
    token,
    setsDir: path.join(outDir, SERVER_DEFAULTS.setsSubdir),
    year,
    pipelineEnv: environment,
    itemsWriteDelayMs: input.itemsWriteDelayMs ?? SERVER_DEFAULTS.itemsWriteDelayMs,
  });
}
