// Files the review pages load, written beside them so the site opens from file:// with nothing
// fetched from the network: KaTeX's stylesheet and fonts (copied from node_modules/katex/dist,
// never a CDN) and the shared stylesheet.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REVIEW_CSS } from './style.ts';

/** node_modules/katex/dist, found the way Node resolves the package. */
export const KATEX_DIST = path.join(path.dirname(createRequire(import.meta.url).resolve('katex/package.json')), 'dist');

/** Writes a file only when its content differs; returns whether it wrote. */
export function writeIfChanged(file: string, content: string | Buffer): boolean {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  if (fs.existsSync(file) && fs.readFileSync(file).equals(bytes)) return false;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, file);
  return true;
}

/** Copies katex.min.css and its fonts into `<assetsDir>/katex/` and writes review.css; returns the files written. */
export function writeAssets(assetsDir: string): number {
  let written = 0;
  const katexDir = path.join(assetsDir, 'katex');
  const copy = (from: string, to: string) => {
    const src = fs.statSync(from);
    if (fs.existsSync(to) && fs.statSync(to).size === src.size) return;
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(from, to);
    written++;
  };
  copy(path.join(KATEX_DIST, 'katex.min.css'), path.join(katexDir, 'katex.min.css'));
  for (const f of fs.readdirSync(path.join(KATEX_DIST, 'fonts'))) copy(path.join(KATEX_DIST, 'fonts', f), path.join(katexDir, 'fonts', f));
  if (writeIfChanged(path.join(assetsDir, 'review.css'), REVIEW_CSS)) written++;
  return written;
}
