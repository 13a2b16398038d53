// Text painted otherwise than it reads: pdf.js's text runs carry every character of the text layer,
// painted or not, and say nothing of how it was painted. The operator walk (pageGraphics) does: a
// run whose every character was painted invisibly, or clipped away, is not on the page a reader
// sees (gaokao booklets leak a stray `的` or `。` so); one whose every character was filled and
// stroked is set bold by a word processor's hand.
import type { BBox } from '../document.ts';
import { intersects } from '../document.ts';

interface Positioned { text: string; bbox: BBox }

/** Whether every non-space character of the run is one of the glyphs over its box (each glyph taken once). */
function allAmong(r: Positioned, glyphs: readonly Positioned[]): boolean {
  const chars = [...r.text.replace(/\s/g, '')];
  const pool = glyphs.filter(h => intersects(h.bbox, r.bbox)).map(h => h.text);
  return chars.length > 0 && chars.every(c => {
    const k = pool.indexOf(c);
    if (k < 0) return false;
    pool.splice(k, 1);
    return true;
  });
}

/** The runs less those whose every non-space character is one of the hidden glyphs over the run's box. */
export function dropHidden<T extends Positioned>(runs: T[], hidden: Positioned[]): { kept: T[]; dropped: T[] } {
  if (!hidden.length) return { kept: runs, dropped: [] };
  const kept: T[] = [], dropped: T[] = [];
  for (const r of runs) (allAmong(r, hidden) ? dropped : kept).push(r);
  return { kept, dropped };
}

/** The runs, those whose every non-space character is one of the stroked glyphs over it marked bold. */
export function markStroked<T extends Positioned & { bold?: boolean }>(runs: T[], stroked: Positioned[]): T[] {
  if (!stroked.length) return runs;
  return runs.map(r => (!r.bold && allAmong(r, stroked) ? { ...r, bold: true } : r));
}
