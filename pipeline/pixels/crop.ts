// Pieces of a grey picture as PNGs for the recogniser.
import { sharp } from '../providers/lazy.ts';
import type { Gray } from './gray.ts';
import type { Box } from './runs.ts';

/**
 * A box of the picture as a PNG, scaled by `shrink` (≤ 1) and with `border` white pixels around it:
 * tesseract misses text that touches the picture's edge. Given a `level` (pixels/threshold.ts), the
 * piece is cut to black and white at it after scaling.
 */
export async function cropPng(g: Gray, box: Box, shrink = 1, border = 10, level?: number): Promise<Buffer> {
  const width = Math.max(1, box[2] - box[0]), height = Math.max(1, box[3] - box[1]);
  const part = sharp(g.data, { raw: { width: g.width, height: g.height, channels: 1 } }).extract({ left: box[0], top: box[1], width, height });
  if (shrink < 1) part.resize(Math.max(1, Math.round(width * shrink)), Math.max(1, Math.round(height * shrink)));
  if (level !== undefined) part.threshold(level);
  return part.extend({ top: border, bottom: border, left: border, right: border, background: '#ffffff' }).png().toBuffer();
}
