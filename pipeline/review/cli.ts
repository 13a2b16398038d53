// `make review YEAR=<y> [OUT=<dir>]` → `tsx pipeline/review/cli.ts [--year Y] [--out DIR]`: builds
// the static review site of <OUT>/<YEAR>/ and prints where it is. Exit 2 on bad usage or input.
import path from 'node:path';
import { resolveConfig } from '../config.ts';
import { buildReviewSite } from './site.ts';

function main(): number {
  const args = process.argv.slice(2);
  const input: { year?: string; outDir?: string } = {};
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--year') input.year = args[++i];
    else if (args[i] === '--out') input.outDir = args[++i];
    else {
      process.stderr.write(`review: unknown argument ${args[i]}\n`);
      return 2;
    }
  }
  try {
    const config = resolveConfig(input);
    const site = buildReviewSite(config.yearDir);
    const rel = path.relative(process.cwd(), site.index) || site.index;
    process.stdout.write(`review: ${site.papers} papers, ${site.items} items; ${site.written} pages written, ${site.skipped} unchanged, ${site.removed} removed in ${site.seconds.toFixed(1)} s\n`);
    process.stdout.write(`open: ${rel} (file://${site.index})\n`);
    return 0;
  } catch (e) {
    process.stderr.write(`review: ${(e as Error).message}\n`);
    return 2;
  }
}

process.exitCode = main();
