// Fraction bars and radical vincula a Unicode math font does not set as glyphs: Word draws them
// as thin filled rectangles, between a numerator and a denominator of Cambria Math glyphs, or from
// the end of a √ over its radicand. Each becomes a rule
// glyph (`―`) of that font where it stands, so the formula builder stacks the fraction around it
// as it does around an equation font's own rules.
import type { Shape } from '../document.ts';
import type { RawSpan } from '../providers/pdf.ts';
import { RULE } from '../math/glyphs.ts';

/** Thin horizontal shapes with glyphs of a math font just above and below them, or a √ before and its radicand below. */
export function drawnRules(shapes: readonly Shape[], glyphs: readonly RawSpan[], isMath: (font: string) => boolean): RawSpan[] {
  const math = glyphs.filter(g => isMath(g.font) && g.text.trim());
  const out: RawSpan[] = [];
  for (const s of shapes) {
    if (!s.visible || (s.kind !== 'rect' && s.kind !== 'line')) continue;
    const [x0, y0, x1, y1] = s.bbox;
    const width = x1 - x0;
    if (y1 - y0 > 1.5 || width < 3 || width > 200) continue;
    const y = (y0 + y1) / 2;
    const over = (g: RawSpan) => Math.min(g.bbox[2], x1) - Math.max(g.bbox[0], x0) > Math.min(g.bbox[2] - g.bbox[0], width) * 0.5;
    const above = math.filter(g => over(g) && g.bbox[3] <= y + 1 && y - g.bbox[3] < g.size * 0.8);
    const below = math.filter(g => over(g) && g.bbox[1] >= y - 1 && g.bbox[1] - y < g.size * 0.8);
    // A radical's vinculum: a √ of the font ends where the rule starts, the radicand under it.
    const root = math.find(g => g.text.includes('√') && Math.abs(g.bbox[2] - x0) < 3 && g.bbox[1] <= y + 2 && g.bbox[3] > y);
    if (!below.length || (!above.length && !root)) continue;
    const size = Math.max(...above.map(g => g.size), ...below.map(g => g.size));
    out.push({ text: RULE, bbox: [x0, y - 0.3, x1, y + 0.3], baseline: y + size * 0.3, size, font: (above[0] ?? below[0]).font });
  }
  return out;
}
