// The outside world for raster images: sharp.
import fs from 'node:fs';
import sharp from 'sharp';
import type { BBox } from '../document.ts';

/** Crop a box (PDF points, top-left origin) out of a page image rendered at `scale` pixels per point. */
export async function cropPng(pageImage: string, bbox: BBox, scale: number, out: string, pad = 4): Promise<void> {
  const meta = await sharp(pageImage).metadata();
  const W = meta.width ?? 0, H = meta.height ?? 0;
  const left = Math.max(0, Math.floor((bbox[0] - pad) * scale));
  const top = Math.max(0, Math.floor((bbox[1] - pad) * scale));
  const right = Math.min(W, Math.ceil((bbox[2] + pad) * scale));
  const bottom = Math.min(H, Math.ceil((bbox[3] + pad) * scale));
  if (right - left < 2 || bottom - top < 2) throw new Error(`box ${bbox.map(v => v.toFixed(1)).join(',')} is empty on a ${W}×${H} image`);
  const tmp = `${out}.${process.pid}.tmp`;
  await sharp(pageImage).extract({ left, top, width: right - left, height: bottom - top }).flatten({ background: '#ffffff' }).png().toFile(tmp);
  fs.renameSync(tmp, out);
}
