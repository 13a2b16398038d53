// The outside world for raster images: sharp.
import fs from 'node:fs';
import type { BBox } from '../document.ts';
import { INK } from '../pixels/runs.ts';
import { sharp } from './lazy.ts';

/** A page image decoded once: its pixels as stored (RGB, or RGBA for images written before 2026-12). */
export interface PageImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/** Decodes a page image file, for every crop to be cut from it. */
export async function loadPageImage(file: string): Promise<PageImage> {
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/**
 * Crop a box (PDF points, top-left origin) out of a page image rendered at `scale` pixels per point
 * (decoded already, or a file to decode). With `trim`, the white around the ink is cut away, and a
 * box with no ink writes nothing (false).
 */
export async function cropPng(pageImage: PageImage | string, bbox: BBox, scale: number, out: string, { pad = 4, trim = false }: { pad?: number; trim?: boolean } = {}): Promise<boolean> {
  const image = typeof pageImage === 'string' ? await loadPageImage(pageImage) : pageImage;
  const W = image.width, H = image.height;
  const left = Math.max(0, Math.floor((bbox[0] - pad) * scale));
  const top = Math.max(0, Math.floor((bbox[1] - pad) * scale));
  const right = Math.min(W, Math.ceil((bbox[2] + pad) * scale));
  const bottom = Math.min(H, Math.ceil((bbox[3] + pad) * scale));
  if (right - left < 2 || bottom - top < 2) throw new Error(`box ${bbox.map(v => v.toFixed(1)).join(',')} is empty on a ${W}×${H} image`);
  const region = { left, top, width: right - left, height: bottom - top };
  // A crop states the resolution of the page it is cut from.
  const pixels = () => sharp(image.data, { raw: { width: W, height: H, channels: image.channels } }).extract(region).withMetadata({ density: scale * 72 });
  if (trim && (await pixels().greyscale().stats()).channels[0].min > INK) return false;
  const tmp = `${out}.${process.pid}.tmp`;
  const crop = pixels().flatten({ background: '#ffffff' });
  await (trim ? sharp(await crop.png().toBuffer()).trim({ background: '#ffffff', threshold: 40 }).extend({ top: 4, bottom: 4, left: 4, right: 4, background: '#ffffff' }) : crop).png().toFile(tmp);
  fs.renameSync(tmp, out);
  return true;
}
