// Image-only copies of real papers, made inside the tests: every page rendered by pdf.js at 200 dpi,
// then a PDF rebuilt from the pictures alone (no text layer), with the paper's key and statistics
// copied beside it. pdf.js, not poppler: poppler's anti-aliasing made OCR misread the 2-character
// elective 기하 in running heads (202106 geo: 6 questions put in the common section), which is a
// property of that rasteriser, not of scans in general.
import fs from 'node:fs';
import path from 'node:path';
import { imagesToPdf } from '../pipeline/providers/image-pdf.ts';
import { openPdf, pageSize, renderPage } from '../pipeline/providers/pdf.ts';

export async function imageOnlyCopy(paper: string, outDir: string, dpi = 200): Promise<string> {
  fs.mkdirSync(outDir, { recursive: true });
  const pdf = await openPdf(new Uint8Array(fs.readFileSync(paper)));
  const pages = [];
  try {
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      pages.push({ image: await renderPage(page, dpi), ...pageSize(page) });
    }
  } finally {
    await pdf.destroy();
  }
  const out = path.join(outDir, path.basename(paper));
  fs.writeFileSync(out, await imagesToPdf(pages));
  const stem = paper.replace(/\.pdf$/i, '');
  for (const f of fs.readdirSync(path.dirname(paper))) {
    const full = path.join(path.dirname(paper), f);
    if (full.startsWith(`${stem}-`) && !f.endsWith('.pdf')) fs.copyFileSync(full, path.join(outDir, f));
  }
  return out;
}

/** Image-only copies of several papers, `parallel` at a time (PNG and JPEG encoding run on libuv's threads, so they overlap the drawing). */
export async function imageOnlyCopies(papers: string[], outDir: string, parallel = 2, dpi = 200): Promise<string[]> {
  const out: string[] = new Array(papers.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(parallel, papers.length) }, async () => {
    while (next < papers.length) {
      const i = next++;
      out[i] = await imageOnlyCopy(papers[i], outDir, dpi);
    }
  }));
  return out;
}
