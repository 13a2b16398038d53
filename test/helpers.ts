// Shared by the tests: where ../shared is, and what to do without it (fail in CI, skip elsewhere).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ROOT } from '../pipeline/config.ts';

export const SHARED = path.resolve(ROOT, '..', 'shared');
export const KCSAT = path.join(SHARED, 'fixtures', 'papers', 'kcsat');
export const TRUTH = path.join(SHARED, 'fixtures', 'truth');
export const SCORER = path.join(SHARED, 'tools', 'score.mjs');

/** Whether the real papers are here. In CI their absence is an error, not a skip. */
export function haveShared(): boolean {
  const ok = fs.existsSync(KCSAT) && fs.existsSync(SCORER);
  if (!ok && process.env.CI) throw new Error(`../shared is missing (looked in ${SHARED}): CI must have the real papers`);
  if (!ok) console.warn(`skipping tests on real papers: ${SHARED} is not there`);
  return ok;
}

export const TEST_OUT = path.join(ROOT, 'out', 'test');
export const KCSAT_OUT = path.join(TEST_OUT, 'kcsat');
export const KCSAT_YEAR = '2099';

/** The scorer's --lint summary over an items file: records, clean share and counts per kind. */
export function lintOf(items: string): { lint_records: number; lint_clean: number; lint_counts: Record<string, number> } {
  const out = execFileSync('node', [SCORER, '--items', items, '--truth', TRUTH, '--lint', '--json'], { encoding: 'utf8' });
  return JSON.parse(out).summary;
}

/** A TCP port free on the loopback interface now (for a server a test starts: Redis, the review server). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>(resolve => server.close(() => resolve()));
  return port;
}
