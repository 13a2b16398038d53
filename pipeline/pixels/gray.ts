// Grey pixels: the one picture every piece of pixel work (OCR of scanned pages, answer-key images)
// reads from, one byte a pixel, 0 black to 255 white.
import type { Sharp } from 'sharp';
import { sharp } from '../providers/lazy.ts';
import { canvasPixels, drawPage, type PdfPage } from '../providers/pdf.ts';

export interface Gray {
  width: number;
  height: number;
  data: Uint8Array;
}

/** An image file or its bytes (any format sharp reads), flattened on white and made grey. */
export async function loadGray(input: string | Buffer): Promise<Gray> {
  return toGray(sharp(input));
}

/** sRGB byte → linear light, scaled so the three weighted channels sum to an index of TO_SRGB. */
const STEPS = 1 << 16;
const linear = (v: number) => { const c = v / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
const [RED, GREEN, BLUE] = [0.2126, 0.7152, 0.0722].map(w => Float64Array.from({ length: 256 }, (_, v) => linear(v) * w * STEPS));
const TO_SRGB = Uint8Array.from({ length: STEPS + 1 }, (_, k) => { const y = k / STEPS; return Math.round(255 * (y <= 0.0031308 ? 12.92 * y : 1.055 * y ** (1 / 2.4) - 0.055)); });

/**
 * A page rendered by pdf.js straight to grey pixels at the given resolution: no PNG is written and
 * decoded again on the way. The canvas is opaque (drawn on white), so each pixel's grey is its
 * luminance in linear light, as sharp's greyscale (libvips's b-w) computes it — the same bytes as
 * loadGray of the page rendered to PNG, give or take one on a coloured pixel — in a loop of this
 * thread, three times as fast as handing 70 MB of RGBA to sharp. A neutral pixel is its own grey.
 */
export async function renderGray(page: PdfPage, dpi: number): Promise<Gray> {
  const canvas = await drawPage(page, dpi);
  const { data: rgba, width, height } = canvasPixels(canvas);
  const data = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < data.length; i++, j += 4) {
    const r = rgba[j], g = rgba[j + 1], b = rgba[j + 2];
    data[i] = r === g && g === b ? r : TO_SRGB[Math.round(RED[r] + GREEN[g] + BLUE[b])];
  }
  // The pixels may be the canvas's own memory: it is held until they are read.
  void canvas.width;
  return { width, height, data };
}

/**
 * A scanned page's stored picture (see providers/scan.ts) brought to the size the page would be
 * drawn at, and made grey: what renderGray gives for that page, without pdf.js decoding the picture.
 */
export async function scanGray(picture: Buffer, width: number, height: number): Promise<Gray> {
  // Grey before scaling (a third of the pixels to scale), and scaled bilinearly, as a canvas draws a
  // picture larger: Lanczos costs half as much again for no gain in what OCR reads.
  const { data, info } = await sharp(picture).flatten({ background: '#ffffff' }).greyscale().resize(width, height, { fit: 'fill', kernel: 'linear' }).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

async function toGray(image: Sharp): Promise<Gray> {
  const { data, info } = await image.flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}
