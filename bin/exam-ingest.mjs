#!/usr/bin/env node
// `exam-ingest`: the command line (pipeline/cli.ts) as the package's bin, so `npx exam-ingest …`
// (or the command itself, once the package is installed or linked) runs it in this one process
// and exits with the documented status: 0 done, 1 a paper failed or the disk is full, 2 bad usage,
// 3 partial (README, "Exit status"). It runs the compiled command (dist/cli.js, what `make build`
// writes) where that is newer than every source, else the sources through tsx's loader (seconds
// slower to start: README, "Speed").
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const mtime = f => { try { return fs.statSync(f).mtimeMs; } catch { return -1; } };

/** Whether dist/ was built after the last change to a source, the build script or the lock file. */
function compiledIsFresh() {
  const built = mtime(path.join(root, 'dist', '.built'));
  if (built < 0) return false;
  const sources = fs.readdirSync(path.join(root, 'pipeline'), { recursive: true }).filter(f => /\.(ts|sql)$/.test(f)).map(f => path.join(root, 'pipeline', f));
  return [...sources, path.join(root, 'build.mjs'), path.join(root, 'package-lock.json')].every(f => mtime(f) <= built);
}

if (compiledIsFresh()) await import('../dist/cli.js');
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../pipeline/cli.ts');
}
