// Text with no visible glyph: pdf.js's text runs carry every character of the text layer, painted
// or not. A run whose every character was painted invisibly, or clipped away (see `hidden` of
// pageGraphics), is not on the page a reader sees (gaokao booklets leak a stray `的` or `。` so).
import type { BBox } from '../document.ts';
import { intersects } from '../document.ts';

interface Positioned { text: string; bbox: BBox }

/** The runs less those whose every non-space character is one of the hidden glyphs over the run's box. */
export function dropHidden<T extends Positioned>(runs: T[], hidden: Positioned[]): { kept: T[]; dropped: T[] } {
  if (!hidden.length) return { kept: runs, dropped: [] };
  const kept: T[] = [], dropped: T[] = [];
  for (const r of runs) {
    const over = hidden.filter(h => intersects(h.bbox, r.bbox));
    const chars = [...r.text.replace(/\s/g, '')];
    const pool = over.map(h => h.text);
    const allHidden = chars.length > 0 && chars.every(c => {
      const k = pool.indexOf(c);
      if (k < 0) return false;
      pool.splice(k, 1);
      return true;
    });
    (allHidden ? dropped : kept).push(r);
  }
  return { kept, dropped };
}
