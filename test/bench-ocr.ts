// The OCR part of `make bench`: seconds per page of our OCR path (tesseract.js, Debian language
// data) on a scan — the paper's image-only copy, read as the pipeline reads it: the page's operators
// and text layer, its stored picture, bands, rings, marks — beside the native tesseract CLI (same data, the same
// pages at the same resolution, OMP_THREAD_LIMIT=1) in the same run, and the character error rate
// of OCR Hangul against the text layer of the paper itself. Each
// column of the body is recognised on its own (page segmentation 4, one column of text), so the
// reading order compared is the same on both sides.
// Printed with the ratio of our path to the CLI (the target: ≤ 1.5) and written to <OUT>/bench-ocr.json.
// Pages: BENCH_PAPER (default: a 2024 CSAT booklet from ../shared, else the shipped sample), BENCH_PAGES (default 3).
import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../pipeline/config.ts';
import { Ahead } from '../pipeline/ocr/ahead.ts';
import { ocrPage } from '../pipeline/ocr/page-ocr.ts';
import { OcrPool, TESSDATA } from '../pipeline/providers/ocr.ts';
import { openPdf, pageShapes, pageSpans, renderPage } from '../pipeline/providers/pdf.ts';
import { isScan, scanImage } from '../pipeline/providers/scan.ts';
import { imageOnlyCopy } from './image-only.ts';
import { analyse } from './analyse.ts';

const shared = path.resolve(ROOT, '..', 'shared', 'fixtures', 'papers', 'kcsat', '202311-h3-math-pro.pdf');
const paper = process.env.BENCH_PAPER ?? (fs.existsSync(shared) ? shared : path.join(ROOT, 'fixtures/samples/2026-sample-math-dif.pdf'));
const pages = Number(process.env.BENCH_PAGES ?? 3);
const DPI = 300;
const LANG = 'kor+eng';

const hangul = (s: string) => [...s].filter(c => /\p{Script=Hangul}/u.test(c)).join('');
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ocr-'));
// What OCR reads is a scan: the paper's image-only copy (pages drawn at 200 dpi, stored as JPEG),
// its pages at OCR resolution for both sides (the CLI's drawn by pdf.js, ours from the stored picture); the text layer of the paper itself is the reference.
const scanned = await imageOnlyCopy(paper, path.join(tmp, 'scan'));
const pdf = await openPdf(new Uint8Array(fs.readFileSync(scanned)));
const doc = await analyse(paper, 'layout');
const n = Math.min(pages, pdf.numPages);
const scale = DPI / 72;
// One image per column of the body band, with the Hangul the text layer has there, top to bottom.
const crops: { page: number; file: string; want: string }[] = [];
for (let p = 1; p <= n; p++) {
  const png = await renderPage(await pdf.getPage(p), DPI);
  const info = doc.pages[p - 1];
  for (const [c, col] of info.columns.entries()) {
    const file = path.join(tmp, `p${p}c${c}.png`);
    const left = Math.max(0, Math.floor((col.x0 - 6) * scale)), top = Math.floor(info.body.y0 * scale);
    await sharp(png).extract({ left, top, width: Math.min(Math.ceil((col.x1 - col.x0 + 12) * scale), Math.ceil(info.width * scale) - left), height: Math.ceil((info.body.y1 - info.body.y0) * scale) }).toFile(file);
    crops.push({ page: p, file, want: hangul(doc.lines.filter(l => l.page === p && l.column === c).flatMap(l => l.spans).map(s => s.text).join('')) });
  }
}
await pdf.destroy();

const pool = new OcrPool(LANG, 1);
let jsSeconds = 0, cliSeconds = 0, jsErrors = 0, cliErrors = 0, total = 0;
console.log(`bench-ocr: ${path.basename(paper)}, ${n} pages (${crops.length} columns) at ${DPI} dpi, ${LANG}, tessdata ${TESSDATA}`);
for (const crop of crops) {
  let t0 = performance.now();
  const js = (await pool.recognize(crop.file, { mode: 'column' })).text;
  jsSeconds += (performance.now() - t0) / 1000;
  t0 = performance.now();
  const cli = execFileSync('tesseract', [crop.file, '-', '-l', LANG, '--psm', '4', '--tessdata-dir', TESSDATA], { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  cliSeconds += (performance.now() - t0) / 1000;
  jsErrors += editDistance(hangul(js), crop.want);
  cliErrors += editDistance(hangul(cli), crop.want);
  total += crop.want.length;
}
// The pipeline's own OCR path on the same pages (bands, rings, marks read again), one worker:
// what a page costs end to end, and its Hangul against the same text layer in reading order.
let pathErrors = 0;
const again = await openPdf(new Uint8Array(fs.readFileSync(scanned)));
const ahead = new Ahead();
const t0 = performance.now();
const readings = [];
for (let p = 1; p <= n; p++) {
  const page = await again.getPage(p);
  // As text-layer reads a scan: its operators and (empty) text layer, its stored picture, then OCR,
  // the next page taken out while the last is recognised.
  const shapes = await pageShapes(page, p);
  await pageSpans(page);
  const picture = isScan(shapes, doc.pages[p - 1]) ? await scanImage(scanned, p) ?? undefined : undefined;
  readings.push((await ahead.start(() => ocrPage(page, p, doc.pages[p - 1], pool, DPI, { markers: doc.template.options.markers, numberIndent: doc.template.numbering.indentTolerance, picture }))).reading);
}
const read = await Promise.all(readings);
const pathSeconds = (performance.now() - t0) / 1000;
for (let p = 1; p <= n; p++) {
  const info = doc.pages[p - 1];
  const { spans } = read[p - 1];
  for (const [c, col] of info.columns.entries()) {
    const mine = spans.filter(s => (s.bbox[0] + s.bbox[2]) / 2 >= col.x0 - 6 && (s.bbox[0] + s.bbox[2]) / 2 < col.x1 + 6 && s.bbox[1] >= info.body.y0 && s.bbox[3] <= info.body.y1)
      .sort((a, b) => Math.round(a.baseline / 4) - Math.round(b.baseline / 4) || a.bbox[0] - b.bbox[0]);
    pathErrors += editDistance(hangul(mine.map(s => s.text).join('')), crops.find(k => k.page === p && k.file.endsWith(`p${p}c${c}.png`))?.want ?? '');
  }
}
await again.destroy();
await pool.close();
const ratio = pathSeconds / cliSeconds;
console.log(`ocr: pipeline OCR path (render, bands, rings, marks) ${(pathSeconds / n).toFixed(2)} s/page, tesseract CLI ${(cliSeconds / n).toFixed(2)} s/page: ratio ${ratio.toFixed(2)} (target ≤ 1.5)`);
console.log(`ocr: Hangul CER against the text layer (${total} characters): OCR path ${(pathErrors / total).toFixed(3)}, tesseract.js on columns ${(jsErrors / total).toFixed(3)} (${(jsSeconds / n).toFixed(2)} s/page), CLI ${(cliErrors / total).toFixed(3)}`);
fs.rmSync(tmp, { recursive: true, force: true });
// Beside test/bench.ts's bench.json.
const outFile = path.join(path.resolve(process.env.OUT || 'out'), 'bench-ocr.json');
fs.mkdirSync(path.dirname(outFile), { recursive: true });
fs.writeFileSync(outFile, JSON.stringify({
  paper: path.basename(paper), pages: n, columns: crops.length, dpi: DPI, lang: LANG,
  secondsPerPage: { ocrPath: pathSeconds / n, tesseractJsColumns: jsSeconds / n, tesseractCli: cliSeconds / n },
  ratioToCli: ratio,
  hangulCer: { ocrPath: pathErrors / total, tesseractJsColumns: jsErrors / total, tesseractCli: cliErrors / total, characters: total },
}, null, 2) + '\n');
console.log(`ocr: written ${outFile}`);
