// Grey pixels: the one picture every piece of pixel work (OCR of scanned pages, answer-key images)
// reads from, one byte a pixel, 0 black to 255 white.
import sharp, { type Sharp } from 'sharp';
import { drawPage, type PdfPage } from '../providers/pdf.ts';

export interface Gray {
  width: number;
  height: number;
  data: Uint8Array;
}

/** An image file or its bytes (any format sharp reads), flattened on white and made grey. */
export async function loadGray(input: string | Buffer): Promise<Gray> {
  return toGray(sharp(input));
}

/**
 * A page rendered by pdf.js straight to grey pixels at the given resolution. The canvas's pixels go
 * to sharp as they are: no PNG is written and decoded again on the way (half the cost of a page).
 * The grey is sharp's, so it equals loadGray of the same page rendered to PNG.
 */
export async function renderGray(page: PdfPage, dpi: number): Promise<Gray> {
  const canvas = await drawPage(page, dpi);
  const rgba = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  return toGray(sharp(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength), { raw: { width: canvas.width, height: canvas.height, channels: 4 } }));
}

async function toGray(image: Sharp): Promise<Gray> {
  const { data, info } = await image.flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}
