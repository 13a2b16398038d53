// Image-only copies of real papers, made inside the tests: what a scanner gives for a printed
// booklet. Every page is rasterised by poppler's pdftoppm (grey, as JPEG, in a child process, so
// copies made side by side use both cores) and a PDF rebuilt from the pictures alone (no text
// layer), with the paper's key and statistics copied beside it.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { imagesToPdf } from '../pipeline/providers/image-pdf.ts';
import { openPdf, pageSize } from '../pipeline/providers/pdf.ts';

const run = promisify(execFile);

/** A binary grey map (P5, 8 bits) as a grey JPEG. */
async function pgmToJpeg(pgm: Buffer): Promise<Buffer> {
  const head = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 64).toString('latin1'));
  if (!head || head[3] !== '255') throw new Error('pdftoppm wrote no 8-bit grey map');
  const [width, height] = [Number(head[1]), Number(head[2])];
  return sharp(pgm.subarray(head[0].length), { raw: { width, height, channels: 1 } }).toColourspace('b-w').jpeg({ quality: 90 }).toBuffer();
}

export async function imageOnlyCopy(paper: string, outDir: string, dpi = 200): Promise<string> {
  fs.mkdirSync(outDir, { recursive: true });
  const pdf = await openPdf(new Uint8Array(fs.readFileSync(paper)));
  const sizes = [];
  for (let n = 1; n <= pdf.numPages; n++) sizes.push(pageSize(await pdf.getPage(n)));
  await pdf.destroy();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'image-only-'));
  try {
    // Raw grey maps (pdftoppm's own JPEG writer gives three channels even for -gray), made JPEG here.
    await run('pdftoppm', ['-r', String(dpi), '-gray', paper, path.join(tmp, 'p')]);
    // pdftoppm numbers its files with as many digits as the last page needs, so they sort as pages.
    const maps = fs.readdirSync(tmp).filter(f => f.endsWith('.pgm')).sort();
    if (maps.length !== sizes.length) throw new Error(`pdftoppm gave ${maps.length} pages of ${path.basename(paper)}'s ${sizes.length}`);
    const pages = [];
    for (const [i, f] of maps.entries()) pages.push({ image: await pgmToJpeg(fs.readFileSync(path.join(tmp, f))), ...sizes[i] });
    const out = path.join(outDir, path.basename(paper));
    fs.writeFileSync(out, await imagesToPdf(pages));
    const stem = paper.replace(/\.pdf$/i, '');
    for (const f of fs.readdirSync(path.dirname(paper))) {
      const full = path.join(path.dirname(paper), f);
      if (full.startsWith(`${stem}-`) && !f.endsWith('.pdf')) fs.copyFileSync(full, path.join(outDir, f));
    }
    return out;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Image-only copies of several papers, `parallel` at a time (pdftoppm runs outside this process). */
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
