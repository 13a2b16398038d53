// Compiles the commands to dist/ with esbuild (what `make` runs before any command: Makefile,
// dist/.built): one ES module per command, our code bundled, every npm package left to Node.
// Code reached only through `await import()` goes in chunks of its own, loaded when a run needs
// it, so `exam-ingest --help` loads some 30 kB. Every output sits at dist/'s top level, one
// folder below the root as pipeline/ is, so paths found from import.meta.url (config.ts ROOT)
// hold for both.
import { build } from 'esbuild';
import fs from 'node:fs';

const entryPoints = {
  cli: 'pipeline/cli.ts', //                      make ingest, make tag, make dedup, make translate
  'pool-worker': 'pipeline/queue/pool-worker.ts', // a WORKERS lane (forked by pipeline/queue/pool.ts)
  worker: 'pipeline/queue/worker-cli.ts', //      make worker
  serve: 'pipeline/server/cli.ts', //             make serve
  review: 'pipeline/review/cli.ts', //            make review
  refresh: 'pipeline/refresh-cli.ts', //          make refresh, make select
  export: 'pipeline/export/classroom/cli.ts', //  make export
  lint: 'pipeline/lint/cli.ts', //                make lint
};

fs.rmSync('dist', { recursive: true, force: true });
const result = await build({
  entryPoints,
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
  metafile: true,
});
const bytes = Object.entries(result.metafile.outputs).filter(([f]) => f.endsWith('.js'));
console.log(`build: ${Object.keys(entryPoints).length} commands in dist/ (${bytes.length} files, ${Math.round(bytes.reduce((n, [, o]) => n + o.bytes, 0) / 1024)} kB)`);
