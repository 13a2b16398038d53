// The outside world for raster images: sharp.
import fs from 'node:fs';
import sharp from 'sharp';
import type { BBox } from '../document.ts';
import { INK } from '../pixels/runs.ts';

/**
 * Crop a box (PDF points, top-left origin) out of a page image rendered at `scale` pixels per point.
 * With `trim`, the white around the ink is cut away, and a box with no ink writes nothing (false).
 */
export async function cropPng(pageImage: string, bbox: BBox, scale: number, out: string, { pad = 4, trim = false }: { pad?: number; trim?: boolean } = {}): Promise<boolean> {
  const meta = await sharp(pageImage).metadata();
  const W = meta.width ?? 0, H = meta.height ?? 0;
  const left = Math.max(0, Math.floor((bbox[0] - pad) * scale));
  const top = Math.max(0, Math.floor((bbox[1] - pad) * scale));
  const right = Math.min(W, Math.ceil((bbox[2] + pad) * scale));
  const bottom = Math.min(H, Math.ceil((bbox[3] + pad) * scale));
  if (right - left < 2 || bottom - top < 2) throw new Error(`box ${bbox.map(v => v.toFixed(1)).join(',')} is empty on a ${W}×${H} image`);
  const region = { left, top, width: right - left, height: bottom - top };
  if (trim && (await sharp(pageImage).extract(region).greyscale().stats()).channels[0].min > INK) return false;
  const tmp = `${out}.${process.pid}.tmp`;
  const crop = sharp(pageImage).extract(region).flatten({ background: '#ffffff' });
  await (trim ? sharp(await crop.png().toBuffer()).trim({ background: '#ffffff', threshold: 40 }).extend({ top: 4, bottom: 4, left: 4, right: 4, background: '#ffffff' }) : crop).png().toFile(tmp);
  fs.renameSync(tmp, out);
  return true;
}
