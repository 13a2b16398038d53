// Image-only copies of real papers, made inside the tests: every page rendered, then a PDF rebuilt
// from the pictures alone (no text layer), with the paper's key and statistics copied beside it.
import fs from 'node:fs';
import path from 'node:path';
import { imagesToPdf } from '../pipeline/providers/image-pdf.ts';
import { openPdf, pageSize, renderPage } from '../pipeline/providers/pdf.ts';

export async function imageOnlyCopy(paper: string, outDir: string, dpi = 200): Promise<string> {
  fs.mkdirSync(outDir, { recursive: true });
  const pdf = await openPdf(new Uint8Array(fs.readFileSync(paper)));
  const pages = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    pages.push({ image: await renderPage(page, dpi), ...pageSize(page) });
  }
  await pdf.destroy();
  const out = path.join(outDir, path.basename(paper));
  fs.writeFileSync(out, await imagesToPdf(pages));
  const stem = paper.replace(/\.pdf$/i, '');
  for (const f of fs.readdirSync(path.dirname(paper))) {
    const full = path.join(path.dirname(paper), f);
    if (full.startsWith(`${stem}-`) && !f.endsWith('.pdf')) fs.copyFileSync(full, path.join(outDir, f));
  }
  return out;
}
