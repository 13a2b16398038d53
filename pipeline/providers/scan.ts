// The picture of a scanned page as the PDF stores it (a JPEG, or a lossless image), taken out by
// poppler's pdfimages: decoded by libjpeg in sharp it costs a tenth of what pdf.js takes to decode
// it in JavaScript and draw it on a canvas (measured on 200 dpi A3 scans: ~0.15 s against ~1.5 s
// a page). Only a page that is one picture and nothing else is read this way; any other page, or a
// machine without pdfimages, is drawn by pdf.js as before.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One row of `pdfimages -list`: what kind of image, how it is stored, how large it is drawn (points). */
interface Listed { type: string; enc: string; drawnWidth: number; drawnHeight: number }

function listed(out: string): Listed[] {
  return out.split('\n').slice(2).map(l => l.trim().split(/\s+/)).filter(c => c.length >= 14 && /^\d+$/.test(c[0]))
    .map(c => ({ type: c[2], enc: c[8], drawnWidth: Number(c[3]) / Number(c[12]) * 72, drawnHeight: Number(c[4]) / Number(c[13]) * 72 }));
}

/**
 * The page's one picture as stored (JPEG or PNG bytes), or null: the page holds more than one
 * image, a mask, an encoding sharp does not read (JBIG2, CCITT), a picture not drawn over the whole
 * page, or pdfimages is not there.
 */
export async function scanImage(file: string, page: number, size: { width: number; height: number }): Promise<Buffer | null> {
  let images: Listed[];
  try {
    images = listed((await run('pdfimages', ['-list', '-f', String(page), '-l', String(page), file])).stdout);
  } catch {
    return null;
  }
  if (images.length !== 1 || images[0].type !== 'image' || !['jpeg', 'image'].includes(images[0].enc)) return null;
  // The picture is the page: drawn as large as the page (a logo alone on a page is not a scan).
  const near = (a: number, b: number) => Math.abs(a - b) <= b * 0.02;
  if (!near(images[0].drawnWidth, size.width) || !near(images[0].drawnHeight, size.height)) return null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scan-'));
  try {
    await run('pdfimages', ['-f', String(page), '-l', String(page), '-j', '-png', file, path.join(dir, 'p')]);
    const [name] = fs.readdirSync(dir).filter(f => /\.(jpg|png)$/.test(f));
    return name ? fs.readFileSync(path.join(dir, name)) : null;
  } catch {
    return null;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

