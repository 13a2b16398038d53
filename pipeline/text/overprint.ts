// Overprinted text: a PDF fakes bold (or a notice box is drawn twice) by painting the same glyphs
// again a fraction of a point away. A reader sees one word; the text layer holds it two or three
// times (`확인 사항확인 사항`). The copies are dropped here, before any line is built.
import type { Span } from '../document.ts';

/** How far (in ems of the run's size) a copy may sit from the first painting and still be the same ink. */
export const OVERPRINT_EM = 0.15;

/**
 * The spans with every overprinted copy removed: same text, same size, same font kind (formula or
 * not), its origin within a fraction of an em of a span kept before it. Order is kept.
 * Two equal glyphs set side by side are at least a glyph's width apart, so they both stay.
 */
export function dropOverprint<T extends Pick<Span, 'text' | 'bbox' | 'baseline' | 'size'> & { math?: boolean }>(spans: T[]): T[] {
  const kept: T[] = [];
  const byText = new Map<string, T[]>();
  for (const s of spans) {
    const key = `${s.math ? 'm' : 't'}\u0000${s.text.trim()}`;
    const same = byText.get(key) ?? [];
    const tol = Math.max(0.2, s.size * OVERPRINT_EM);
    const copy = same.some(k => Math.abs(k.size - s.size) <= tol
      && Math.abs(k.bbox[0] - s.bbox[0]) <= tol && Math.abs(k.baseline - s.baseline) <= tol
      && Math.abs(k.bbox[2] - s.bbox[2]) <= tol);
    if (copy) continue;
    same.push(s);
    byText.set(key, same);
    kept.push(s);
  }
  return kept;
}
