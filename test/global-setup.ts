// Ingests the 27 real KICE booklets once (cold, into out/test/kcsat) for the end-to-end tests,
// and times it. Without ../shared (and outside CI) there is nothing to do.
import fs from 'node:fs';
import { resolveConfig } from '../pipeline/config.ts';
import { runBatch } from '../pipeline/run.ts';
import { haveShared, KCSAT, KCSAT_OUT, KCSAT_YEAR } from './helpers.ts';

export default async function setup(): Promise<void> {
  if (!haveShared()) return;
  fs.rmSync(KCSAT_OUT, { recursive: true, force: true });
  const config = resolveConfig({ year: KCSAT_YEAR, inDir: KCSAT, outDir: KCSAT_OUT, progress: false }, {});
  const result = await runBatch(config);
  const failed = result.papers.filter(p => p.status === 'failed');
  console.log(`global setup: ingested ${result.papers.length} KICE booklets cold in ${result.seconds.toFixed(1)} s (${failed.length} failed)`);
  fs.writeFileSync(`${KCSAT_OUT}/cold-run.json`, JSON.stringify({ seconds: result.seconds, papers: result.papers.map(p => ({ file: p.file, status: p.status, pagesRendered: p.pagesRendered, recordsWritten: p.recordsWritten })) }));
}
