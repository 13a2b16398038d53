// A split holds its own copies of the images its items name (images/pages, images/figures), so it
// stays whole and unchanged whatever later happens to the store's folders.
import fs from 'node:fs';
import path from 'node:path';
import { SplitError } from './errors.ts';
import type { SplitItem } from './item.ts';

/** Where an image of the store goes in an export folder: pages/… → images/pages/…, figures/… → images/figures/…. */
function target(rel: string): string {
  const posix = rel.split(path.sep).join('/');
  // Items read back from a split already point into its images/ folder.
  return posix.startsWith('images/') ? posix : `images/${posix}`;
}

/**
 * Copy every image the items name from `from` (the folder their paths are relative to, or a
 * function giving it per item) into `to`; returns the items with their paths rewritten and the
 * copied files, relative to `to`.
 */
export function copyImages(items: readonly SplitItem[], from: string | ((it: SplitItem) => string), to: string): { items: SplitItem[]; files: string[] } {
  const copied = new Set<string>();
  const moveFrom = (base: string) => (rel: string) => {
    const dest = target(rel);
    if (!copied.has(dest)) {
      const src = path.join(base, rel);
      if (!fs.existsSync(src)) throw new SplitError(`image ${src} named by a record is missing: run the ingest again (FORCE=1) to redraw it`);
      fs.mkdirSync(path.dirname(path.join(to, dest)), { recursive: true });
      fs.copyFileSync(src, path.join(to, dest));
      copied.add(dest);
    }
    return dest;
  };
  const out = items.map(it => {
    const move = moveFrom(typeof from === 'string' ? from : from(it));
    return {
      ...it,
      figures: it.figures.map(f => ({ ...f, path: f.path ? move(f.path) : null })),
      modalities: {
        TO: it.modalities.TO,
        TI: { ...it.modalities.TI, images: it.modalities.TI.images.map(move) },
        IO: { ...it.modalities.IO, page_image: it.modalities.IO.page_image.map(move) },
      },
    };
  });
  return { items: out, files: [...copied].sort() };
}
