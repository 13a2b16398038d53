// `make bench`, the ingest part: exactly the bar's work, timed alike on both sides. On three 12-page
// A3 KICE booklets from ../shared (with their keys and statistics, as a user has them; IN= for
// other papers), `make ingest` cold — the whole command, with an empty store and no page image
// on disk — against poppler's bare pass over the same PDFs (`pdftoppm -r 150 -png` then
// `pdftotext -bbox-layout`, one file after another), the two alternated three times in one run:
// each side's three times, the ratio of each pair, the median and the worst. Then a warm re-run
// (the same command, nothing new) as a share of the cold run, the peak memory of a 300-page and a 1000-page PDF
// assembled with qpdf from the booklets (BENCH_RSS_PAGES=n,m for other counts), and how the page PNG
// settings were chosen (level and filtering against size and time, on pages of the booklets).
// Printed, and written to <OUT>/bench.json (OUT, default out).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../pipeline/config.ts';
import { canvasPixels, drawPage, openPdf } from '../pipeline/providers/pdf.ts';
import { encodePagePng, PAGE_PNG } from '../pipeline/providers/png.ts';
import { sharp } from '../pipeline/providers/lazy.ts';
import { KCSAT } from './helpers.ts';

const STEMS = ['202311-h3-math-dif', '202311-h3-math-geo', '202311-h3-math-pro'];
const RUNS = 3;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['WORKERS', 'QUEUE', 'FORCE', 'IN', 'OUT', 'YEAR', 'MAKEFLAGS', 'MAKELEVEL', 'MFLAGS'].includes(k)));

function inbox(): string {
  if (process.env.IN) return path.resolve(process.env.IN);
  if (!fs.existsSync(KCSAT)) throw new Error(`bench: ${KCSAT} is not there: give papers with IN=`);
  const dir = path.join(tmp, 'in');
  fs.mkdirSync(dir);
  for (const stem of STEMS) for (const f of fs.readdirSync(KCSAT).filter(f => f.startsWith(stem))) fs.symlinkSync(path.join(KCSAT, f), path.join(dir, f));
  return dir;
}

const seconds = (t0: number) => (performance.now() - t0) / 1000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pdfsIn = (dir: string) => fs.readdirSync(dir).filter(f => f.toLowerCase().endsWith('.pdf') && !/-answer\.pdf$/i.test(f)).sort().map(f => path.join(dir, f));

/** poppler's bare pass: every page to PNG at 150 dpi, then the text with word boxes, one file after another. */
function poppler(files: string[]): number {
  const out = fs.mkdtempSync(path.join(tmp, 'poppler-'));
  const t0 = performance.now();
  for (const [i, f] of files.entries()) {
    execFileSync('pdftoppm', ['-r', '150', '-png', f, path.join(out, `p${i}`)]);
    execFileSync('pdftotext', ['-bbox-layout', f, path.join(out, `p${i}.html`)]);
  }
  const s = seconds(t0);
  fs.rmSync(out, { recursive: true, force: true });
  return s;
}

/** `make ingest` as a user runs it, the whole command; its summary line. */
function ingest(inDir: string, outDir: string): { seconds: number; summary: string } {
  const t0 = performance.now();
  const stdout = execFileSync('make', ['--no-print-directory', '-C', ROOT, 'ingest', 'YEAR=2099', `IN=${inDir}`, `OUT=${outDir}`], { env, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { seconds: seconds(t0), summary: stdout.split('\n').find(l => l.startsWith('summary:')) ?? '' };
}

/** Peak resident memory of a command and every process under it (sampled from /proc every 50 ms), in MB: the largest one and all together. */
async function peakRss(command: string, args: string[]): Promise<{ seconds: number; processMb: number; totalMb: number; code: number | null }> {
  const t0 = performance.now();
  const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  let processMb = 0, totalMb = 0;
  const rss = (pid: number) => { try { return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024; } catch { return 0; } };
  const tree = (root: number): number[] => {
    const kids = new Map<number, number[]>();
    for (const d of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
      } catch { /* gone */ }
    }
    const out = [root];
    for (let i = 0; i < out.length; i++) out.push(...(kids.get(out[i]) ?? []));
    return out;
  };
  const timer = setInterval(() => {
    const each = tree(child.pid!).map(rss);
    processMb = Math.max(processMb, ...each);
    totalMb = Math.max(totalMb, each.reduce((a, b) => a + b, 0));
  }, 50);
  const code = await new Promise<number | null>(resolve => child.on('exit', c => resolve(c)));
  clearInterval(timer);
  return { seconds: seconds(t0), processMb: Math.round(processMb), totalMb: Math.round(totalMb), code };
}

/** A PDF of n pages taken in turn from the KICE booklets (qpdf), each booklet's fonts its own. */
function assemble(n: number): string {
  const booklets = fs.readdirSync(KCSAT).filter(f => /^\d{6}-h3-math-\w+\.pdf$/.test(f)).sort().map(f => path.join(KCSAT, f));
  // qpdf's arguments: a file and its page range, in turn (until this session the count was taken
  // from the arguments, two per booklet, so "300 pages" was 300 booklets: some 3,600 pages).
  const pages: string[] = [];
  for (let k = 0, taken = 0; taken < n; k++) {
    const take = Math.min(12, n - taken);
    pages.push(booklets[k % booklets.length], `1-${take}`);
    taken += take;
  }
  const dir = fs.mkdtempSync(path.join(tmp, `rss-${n}-`));
  const out = path.join(dir, `assembled-${n}.pdf`);
  execFileSync('qpdf', ['--empty', '--pages', ...pages, '--', out]);
  const count = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [out], { encoding: 'utf8' }))![1]);
  if (count !== n) throw new Error(`bench: the assembled PDF has ${count} pages, not ${n}`);
  return dir;
}

/** Page PNG settings: every zlib level and both filterings on the pixels of some pages, against size and time. */
async function pngSettings(files: string[], perPaper = 4) {
  const pixels: { data: Buffer; width: number; height: number }[] = [];
  for (const f of files) {
    const pdf = await openPdf(new Uint8Array(fs.readFileSync(f)));
    for (let n = 1; n <= Math.min(perPaper, pdf.numPages); n++) {
      const canvas = await drawPage(await pdf.getPage(n), 144);
      const p = canvasPixels(canvas);
      pixels.push({ ...p, data: Buffer.from(p.data) });
    }
    await pdf.destroy();
  }
  const rows: { setting: string; kb: number; ms: number; chosen: boolean }[] = [];
  const run = async (setting: string, encode: (p: (typeof pixels)[number]) => Promise<Buffer>, chosen = false) => {
    let bytes = 0;
    const t0 = performance.now();
    for (const p of pixels) bytes += (await encode(p)).length;
    rows.push({ setting, kb: Math.round(bytes / 1024 / pixels.length), ms: Math.round((performance.now() - t0) / pixels.length), chosen });
  };
  for (const adaptiveFiltering of [false, true]) for (const compressionLevel of [1, 3, 6, 9]) {
    const chosen = compressionLevel === PAGE_PNG.compressionLevel && adaptiveFiltering === PAGE_PNG.adaptiveFiltering;
    await run(`level ${compressionLevel}, ${adaptiveFiltering ? 'adaptive filtering' : 'no filtering'}`, p => encodePagePng(p, 144, { compressionLevel, adaptiveFiltering }), chosen);
  }
  for (const effort of [1, 7]) await run(`palette (lossy), effort ${effort}`, p => sharp(p.data, { raw: { width: p.width, height: p.height, channels: 4 } }).removeAlpha().png({ palette: true, effort }).toBuffer());
  return { pages: pixels.length, rows };
}

const inDir = inbox();
const files = pdfsIn(inDir);
const pages = files.reduce((n, f) => n + Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [f], { encoding: 'utf8' }))![1]), 0);
console.log(`bench: ${files.length} papers (${pages} pages) from ${inDir}; node ${process.version}, ${os.availableParallelism()} cores, load ${os.loadavg().map(l => l.toFixed(1)).join(' ')}, ${new Date().toISOString()}`);
// Built before anything is timed, as `make bench` has it (a cold ingest does not compile).
execFileSync('make', ['--no-print-directory', '-C', ROOT, 'build'], { env, stdio: 'ignore' });

const popplerRuns: number[] = [], ingestRuns: number[] = [], outs: string[] = [];
let summary = '';
for (let i = 0; i < RUNS; i++) {
  popplerRuns.push(poppler(files));
  const out = fs.mkdtempSync(path.join(tmp, 'cold-'));
  const r = ingest(inDir, out);
  ingestRuns.push(r.seconds);
  outs.push(out);
  summary = r.summary;
  console.log(`  run ${i + 1}: poppler ${popplerRuns[i].toFixed(2)} s, make ingest ${ingestRuns[i].toFixed(2)} s (× ${(popplerRuns[i] / ingestRuns[i]).toFixed(2)}), load ${os.loadavg()[0].toFixed(1)}`);
}
const ratios = popplerRuns.map((p, i) => p / ingestRuns[i]);
const items = outs.map(o => fs.readFileSync(path.join(o, '2099', 'items.jsonl'), 'utf8'));
const warmRuns = [0, 1, 2].map(() => ingest(inDir, outs[RUNS - 1]));
const warm = median(warmRuns.map(r => r.seconds));

// Long papers: 300 pages, and 1000 (the bar holds for both), each in a process of its own.
const rssPages = (process.env.BENCH_RSS_PAGES ?? '300,1000').split(',').map(Number).filter(n => n > 0);
const rssRuns = process.env.IN ? [] : await (async () => {
  const runs = [];
  for (const pages of rssPages) {
    const dir = assemble(pages);
    const r = await peakRss(process.execPath, [path.join(ROOT, 'dist/cli.js'), '--year', '2099', '--in', dir, '--out', path.join(dir, 'out'), '--no-progress']);
    runs.push({ pages, ...r });
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return runs;
})();
const png = await pngSettings(files);

const fmt = (xs: number[]) => xs.map(x => x.toFixed(2)).join(', ');
console.log(`\n| | run 1 | run 2 | run 3 |\n|---|---:|---:|---:|`);
console.log(`| poppler: pdftoppm -r 150 -png, pdftotext -bbox-layout (s) | ${popplerRuns.map(x => x.toFixed(2)).join(' | ')} |`);
console.log(`| make ingest, cold (s) | ${ingestRuns.map(x => x.toFixed(2)).join(' | ')} |`);
console.log(`| ratio (poppler / ingest) | ${ratios.map(x => x.toFixed(2)).join(' | ')} |`);
console.log(`\ningest against poppler: median × ${median(ratios).toFixed(2)}, worst × ${Math.min(...ratios).toFixed(2)} (target: worst ≥ 1.5); ${summary.replace(/^summary: /, '')}`);
console.log(`the three cold runs wrote the same items.jsonl: ${items.every(t => t === items[0])}`);
console.log(`warm re-run (make ingest, nothing new): ${fmt(warmRuns.map(r => r.seconds))} s, median ${warm.toFixed(2)} s = ${(100 * warm / median(ingestRuns)).toFixed(2)} % of the cold median (target ≤ 2 %)`);
for (const rss of rssRuns) console.log(`${rss.pages}-page PDF (qpdf, ${Math.ceil(rss.pages / 12)} booklets): ${rss.seconds.toFixed(1)} s, peak RSS ${rss.processMb} MB in one process, ${rss.totalMb} MB all processes together (target ≤ 1536 MB)${rss.code ? `, exit ${rss.code}` : ''}`);
console.log(`\npage PNG settings on ${png.pages} pages at 144 dpi (per page; * chosen):\n\n| setting | kB | ms |\n|---|---:|---:|`);
for (const r of png.rows) console.log(`| ${r.setting}${r.chosen ? ' *' : ''} | ${r.kb} | ${r.ms} |`);

const result = {
  date: new Date().toISOString(),
  machine: { cores: os.availableParallelism(), node: process.version, load: os.loadavg() },
  papers: files.map(f => path.basename(f)), pages,
  poppler: popplerRuns, ingest: ingestRuns, ratios, medianRatio: median(ratios), worstRatio: Math.min(...ratios),
  sameItemsJsonl: items.every(t => t === items[0]),
  warm: { runs: warmRuns.map(r => r.seconds), shareOfCold: warm / median(ingestRuns) },
  rss: rssRuns, png,
  targets: { worstRatio: 1.5, warmShareOfCold: 0.02, rssMb: 1536 },
};
const outFile = path.join(path.resolve(process.env.OUT || path.join(ROOT, 'out')), 'bench.json');
fs.mkdirSync(path.dirname(outFile), { recursive: true });
fs.writeFileSync(outFile, JSON.stringify(result, null, 2) + '\n');
console.log(`\nwritten: ${path.relative(process.cwd(), outFile)}`);
fs.rmSync(tmp, { recursive: true, force: true });
