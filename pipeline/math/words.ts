// A span's words as spans of their own, boxes shared out by each character's usual advance.
import type { Span } from '../document.ts';

/** Rough advance of a character, in em: what a span's width is shared out by. */
function advance(ch: string): number {
  return /[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uff00-\uffef]/.test(ch) ? 1 : ch === ' ' ? 0.5 : 0.55;
}

/**
 * A span with spaces in it, cut into its words (boxes shared out by character advance). Word
 * processors leave spaces in a run where scripts or brackets from another font are set over it
 * (`Na CS` with ₂ ₃ between and after): cut up, the words and what sits between them sort by x.
 */
export function words(s: Span): Span[] {
  if (!/\S\s+\S/.test(s.text)) return [s];
  const chars = [...s.text];
  const total = chars.reduce((n, c) => n + advance(c), 0);
  const per = (s.bbox[2] - s.bbox[0]) / total;
  const out: Span[] = [];
  let x = s.bbox[0];
  for (const part of s.text.split(/(\s+)/)) {
    const w = [...part].reduce((n, c) => n + advance(c), 0) * per;
    if (part.trim()) out.push({ ...s, text: part, bbox: [x, s.bbox[1], x + w, s.bbox[3]] });
    x += w;
  }
  return out;
}

