// How page images are written: PNG by sharp (libspng) from the canvas's pixels, on libuv's thread
// pool. The settings are measured (test/bench-png.ts prints level × filtering against size and
// time on KICE pages; README, "Speed"): zlib level 3 without adaptive filtering writes within 3 %
// of level 6's size at a fraction of its time, and a palette (lossy quantisation, many times slower)
// is not used: figure crops and their perceptual hashes are cut from these pixels.
import { sharp } from './lazy.ts';

export const PAGE_PNG = { compressionLevel: 3, adaptiveFiltering: false } as const;

/**
 * Opaque RGBA pixels (a page drawn on white) as an RGB PNG (the alpha channel says nothing there)
 * that states its resolution (figure crops cut from it state the same).
 */
export async function encodePagePng(pixels: { data: Buffer; width: number; height: number }, dpi: number, settings: { compressionLevel: number; adaptiveFiltering: boolean } = PAGE_PNG): Promise<Buffer> {
  return sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: 4 } }).removeAlpha().withMetadata({ density: dpi }).png(settings).toBuffer();
}
