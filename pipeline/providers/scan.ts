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
import type { Shape } from '../document.ts';

const run = promisify(execFile);

/** One row of `pdfimages -list`: what kind of image, how it is stored. */
interface Listed { type: string; width: number; height: number; enc: string }

function listed(out: string): Listed[] {
  return out.split('\n').slice(2).map(l => l.trim().split(/\s+/)).filter(c => c.length >= 9 && /^\d+$/.test(c[0]))
    .map(c => ({ type: c[2], width: Number(c[3]), height: Number(c[4]), enc: c[8] }));
}

/**
 * The page's one picture as stored (JPEG or PNG bytes), or null: the page holds more than one
 * image, a mask, an encoding sharp does not read (JBIG2, CCITT), a picture whose shape is not the
 * page's, or pdfimages is not there.
 */
export async function scanImage(file: string, page: number, size: { width: number; height: number }): Promise<Buffer | null> {
  let images: Listed[];
  try {
    images = listed((await run('pdfimages', ['-list', '-f', String(page), '-l', String(page), file])).stdout);
  } catch {
    return null;
  }
  if (images.length !== 1 || images[0].type !== 'image' || !['jpeg', 'image'].includes(images[0].enc)) return null;
  // The picture is the page: the same shape (a strip or a logo alone on a page is not a scan).
  if (Math.abs(images[0].width / images[0].height - size.width / size.height) > 0.01 * (size.width / size.height)) return null;
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

/** Where a page is one picture filling it (a scan), how to take that picture out as stored; undefined elsewhere. */
export function scanOf(file: string, page: number, size: { width: number; height: number }, shapes: readonly Shape[]): (() => Promise<Buffer | null>) | undefined {
  const images = shapes.filter(s => s.kind === 'image');
  const area = (b: Shape['bbox']) => (b[2] - b[0]) * (b[3] - b[1]);
  return images.length === 1 && area(images[0].bbox) >= size.width * size.height * 0.9 ? () => scanImage(file, page, size) : undefined;
}
