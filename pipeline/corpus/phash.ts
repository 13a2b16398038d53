// A perceptual hash of a figure crop (dHash: 9×8 grey, one bit per horizontal step), so that two
// questions with the same words and different graphs stay apart, while the same drawing cropped
// a pixel differently or rendered at another resolution still matches.
import { sharp } from '../providers/lazy.ts';

export async function dHash(file: string): Promise<bigint> {
  const { data } = await sharp(file).greyscale().resize(9, 8, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
  let h = 0n;
  for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) h = (h << 1n) | (data[y * 9 + x] > data[y * 9 + x + 1] ? 1n : 0n);
  return h;
}

export function hamming(a: bigint, b: bigint): number {
  let x = a ^ b, n = 0;
  while (x) { n += Number(x & 1n); x >>= 1n; }
  return n;
}
