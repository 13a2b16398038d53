// Formula runs arrive from the text layer as spans of several glyphs ("√―", "(√―", "f (x) = 2x").
// Rebuilding structure needs one box per glyph: a span's width is shared out by each glyph's usual
// advance (in em), and a stretched rule glyph (―, the fraction bar or radical's vinculum) takes
// what is left.
import type { BBox, Span } from '../document.ts';

export interface Glyph {
  ch: string;
  bbox: BBox;
  baseline: number;
  size: number;
}

export const RULE = '―';

function advance(ch: string): number {
  if (ch === ' ') return 0.25;
  if ('()[]{}|∣'.includes(ch)) return 0.33;
  if ('+-=<>≤≥×→'.includes(ch)) return 0.75;
  if ('√∫Σ'.includes(ch)) return 0.6;
  if (',.′\''.includes(ch)) return 0.25;
  if (/[A-Z]/.test(ch)) return 0.65;
  if ('⎧⎨⎩⎪⎡⎤⎣⎦'.includes(ch)) return 0.45;
  return 0.5;
}

export function toGlyphs(span: Span): Glyph[] {
  // Mathematical alphanumerics (𝑎, 𝐴, 𝛼: Word's Cambria Math) are the plain letter in LaTeX, which sets letters italic itself.
  const chars = [...span.text].map(c => (/[\u{1D400}-\u{1D7FF}]/u.test(c) ? c.normalize('NFKC') : c));
  const total = span.bbox[2] - span.bbox[0];
  const rules = chars.filter(c => c === RULE).length;
  const fixed = chars.filter(c => c !== RULE).reduce((n, c) => n + advance(c) * span.size, 0);
  // Without a rule, scale the estimates to the span's real width; with one, the rule stretches.
  const scale = rules ? Math.min(1, total / Math.max(fixed, 1e-6)) : total / Math.max(fixed, 1e-6);
  const ruleWidth = rules ? Math.max(0, total - fixed * scale) / rules : 0;
  const out: Glyph[] = [];
  let x = span.bbox[0];
  for (const ch of chars) {
    const w = ch === RULE ? ruleWidth : advance(ch) * span.size * scale;
    if (ch !== ' ') out.push({ ch, bbox: [x, span.bbox[1], x + w, span.bbox[3]], baseline: span.baseline, size: span.size });
    x += w;
  }
  return out;
}
