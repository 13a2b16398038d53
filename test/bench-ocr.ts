// The OCR part of `make bench`: a scan read by `make ingest` against the tesseract CLI, timed as
// test/bench.ts times the text path. The scan is the image-only copy of a KICE booklet (every page
// drawn at 200 dpi by pdf.js, stored as JPEG, no text layer: test/image-only.ts), alone in its
// folder (no key: both sides read the same pages and nothing else). `make ingest` cold (the whole
// command, empty store, no page image on disk) against poppler drawing each page at the resolution
// the pipeline reads scans at (`pdftoppm -r 300 -gray`) and `tesseract` reading it (kor+eng, the
// Debian language data, OMP_THREAD_LIMIT=1), page after page; the two alternated three times:
// each side's times, the ratio of each pair (ingest / CLI), the median and the worst. Printed and
// written to <OUT>/bench-ocr.json. BENCH_PAPER (default 202311-h3-math-pro from ../shared, else
// the shipped sample), BENCH_PAGES (default: all of it).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../pipeline/config.ts';
import { TESSDATA } from '../pipeline/providers/ocr.ts';
import { imageOnlyCopy } from './image-only.ts';

const shared = path.resolve(ROOT, '..', 'shared', 'fixtures', 'papers', 'kcsat', '202311-h3-math-pro.pdf');
const paper = process.env.BENCH_PAPER ?? (fs.existsSync(shared) ? shared : path.join(ROOT, 'fixtures/samples/2026-sample-math-dif.pdf'));
const RUNS = 3, DPI = 300, LANG = 'kor+eng';
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['WORKERS', 'QUEUE', 'FORCE', 'IN', 'OUT', 'YEAR', 'MAKEFLAGS', 'MAKELEVEL', 'MFLAGS'].includes(k)));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ocr-'));
const seconds = (t0: number) => (performance.now() - t0) / 1000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const copy = await imageOnlyCopy(paper, path.join(tmp, 'copy'));
const inDir = path.join(tmp, 'in');
fs.mkdirSync(inDir);
let scan = path.join(inDir, path.basename(copy));
const all = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [copy], { encoding: 'utf8' }))![1]);
const pages = Math.min(all, Number(process.env.BENCH_PAGES ?? all));
if (pages < all) execFileSync('qpdf', ['--empty', '--pages', copy, `1-${pages}`, '--', scan]);
else fs.copyFileSync(copy, scan);
scan = path.resolve(scan);

/** poppler draws each page at 300 dpi in grey, tesseract reads it; one page after another. */
function cli(): number {
  const out = fs.mkdtempSync(path.join(tmp, 'cli-'));
  const t0 = performance.now();
  for (let p = 1; p <= pages; p++) {
    const png = path.join(out, `p${p}`);
    execFileSync('pdftoppm', ['-r', String(DPI), '-gray', '-png', '-f', String(p), '-l', String(p), '-singlefile', scan, png]);
    execFileSync('tesseract', [`${png}.png`, path.join(out, `p${p}`), '-l', LANG, '--tessdata-dir', TESSDATA], { env: { ...env, OMP_THREAD_LIMIT: '1' }, stdio: 'ignore' });
  }
  const s = seconds(t0);
  fs.rmSync(out, { recursive: true, force: true });
  return s;
}

function ingest(): { seconds: number; summary: string } {
  const out = fs.mkdtempSync(path.join(tmp, 'ingest-'));
  const t0 = performance.now();
  const stdout = execFileSync('make', ['--no-print-directory', '-C', ROOT, 'ingest', 'YEAR=2099', `IN=${inDir}`, `OUT=${out}`], { env, encoding: 'utf8', maxBuffer: 64 << 20 });
  const s = seconds(t0);
  fs.rmSync(out, { recursive: true, force: true });
  return { seconds: s, summary: stdout.split('\n').find(l => l.startsWith('summary:')) ?? '' };
}

console.log(`bench-ocr: ${path.basename(paper)}, image-only copy, ${pages} pages; tesseract ${execFileSync('tesseract', ['--version'], { encoding: 'utf8' }).split('\n')[0]}, ${LANG}, ${TESSDATA}; ${os.availableParallelism()} cores, load ${os.loadavg().map(l => l.toFixed(1)).join(' ')}`);
execFileSync('make', ['--no-print-directory', '-C', ROOT, 'build'], { env, stdio: 'ignore' });
const cliRuns: number[] = [], ingestRuns: number[] = [];
let summary = '';
for (let i = 0; i < RUNS; i++) {
  cliRuns.push(cli());
  const r = ingest();
  ingestRuns.push(r.seconds);
  summary = r.summary;
  console.log(`  run ${i + 1}: tesseract CLI ${cliRuns[i].toFixed(2)} s, make ingest ${ingestRuns[i].toFixed(2)} s (× ${(ingestRuns[i] / cliRuns[i]).toFixed(2)} of the CLI), load ${os.loadavg()[0].toFixed(1)}`);
}
const ratios = ingestRuns.map((s, i) => s / cliRuns[i]);
console.log(`\n| | run 1 | run 2 | run 3 |\n|---|---:|---:|---:|`);
console.log(`| pdftoppm -r ${DPI} -gray + tesseract -l ${LANG}, OMP_THREAD_LIMIT=1 (s) | ${cliRuns.map(x => x.toFixed(2)).join(' | ')} |`);
console.log(`| make ingest, cold (s) | ${ingestRuns.map(x => x.toFixed(2)).join(' | ')} |`);
console.log(`| ratio (ingest / CLI) | ${ratios.map(x => x.toFixed(2)).join(' | ')} |`);
console.log(`\nOCR path against the tesseract CLI: median × ${median(ratios).toFixed(2)}, worst × ${Math.max(...ratios).toFixed(2)} of its time (target: ≤ 1.5); ${summary.replace(/^summary: /, '')}`);
const outFile = path.join(path.resolve(process.env.OUT || path.join(ROOT, 'out')), 'bench-ocr.json');
fs.mkdirSync(path.dirname(outFile), { recursive: true });
fs.writeFileSync(outFile, JSON.stringify({ date: new Date().toISOString(), cores: os.availableParallelism(), load: os.loadavg(), paper: path.basename(paper), pages, dpi: DPI, lang: LANG, cli: cliRuns, ingest: ingestRuns, ratios, medianRatio: median(ratios), worstRatio: Math.max(...ratios), target: 1.5 }, null, 2) + '\n');
console.log(`written: ${path.relative(process.cwd(), outFile)}`);
fs.rmSync(tmp, { recursive: true, force: true });
