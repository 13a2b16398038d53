// The picture of a scanned page as the PDF stores it (a JPEG, or a lossless image), taken out by
// poppler's pdfimages: taken out, decoded by libjpeg in sharp and brought to 300 dpi it costs about
// half what pdf.js takes to draw the page at 300 dpi (measured on 200 dpi A3 copies of KICE
// booklets: ~0.36 s against ~0.70 s a page). Only a page that is one picture filling it is read
// this way; any other page, or a machine without pdfimages, is drawn by pdf.js as before.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Shape } from '../document.ts';

const run = promisify(execFile);

/**
 * The page's one picture as stored (JPEG or PNG bytes), or null: the page holds more than one
 * image, an encoding sharp does not read (JBIG2, CCITT, JPEG 2000), or pdfimages is not there. The
 * caller has seen, in the page's operators, one picture drawn over the whole page.
 */
export async function scanImage(file: string, page: number): Promise<Buffer | null> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scan-'));
  try {
    await run('pdfimages', ['-f', String(page), '-l', String(page), '-j', '-png', file, path.join(dir, 'p')]);
    const names = fs.readdirSync(dir);
    return names.length === 1 && /\.(jpg|png)$/.test(names[0]) ? fs.readFileSync(path.join(dir, names[0])) : null;
  } catch {
    return null;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether a page's shapes are one picture drawn over (nearly) the whole page: a scan. */
export function isScan(shapes: readonly Shape[], size: { width: number; height: number }): boolean {
  const images = shapes.filter(s => s.kind === 'image');
  return images.length === 1 && (images[0].bbox[2] - images[0].bbox[0]) * (images[0].bbox[3] - images[0].bbox[1]) >= size.width * size.height * 0.9;
}
