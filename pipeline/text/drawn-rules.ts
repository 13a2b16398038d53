// Fraction bars and radical vincula a Unicode math font does not set as glyphs: Word draws them
// as thin filled rectangles, between a numerator and a denominator of Cambria Math glyphs, or from
// the end of a √ over its radicand. Each becomes a rule
// glyph (`―`) of that font where it stands, so the formula builder stacks the fraction around it
// as it does around an equation font's own rules.
import type { Shape } from '../document.ts';
import type { RawSpan } from '../providers/pdf.ts';
import { RULE } from '../math/glyphs.ts';

/** A drawn rule is at most this many points thick… */
const RULE_THICKNESS = 1.5;
/** …and this many points long at least and at most (a fraction's bar, not an underline across a page). */
const RULE_MIN = 3;
const RULE_MAX = 200;
/** A glyph stands over (or under) a rule where their overlap covers this share of the narrower. */
const OVER_SHARE = 0.5;
/** A numerator or denominator lies within this many ems of the rule. */
const STACK_GAP = 0.8;
/** A √ ends within this many points of where its vinculum starts. */
const ROOT_JOIN = 3;
/** The rule glyph made: this many points either side of the drawn line, its baseline this many ems under it. */
const GLYPH_HALF = 0.3;
const AXIS_DROP = 0.3;

/** Thin horizontal shapes with glyphs of a math font just above and below them, or a √ before and its radicand below. */
export function drawnRules(shapes: readonly Shape[], glyphs: readonly RawSpan[], isMath: (font: string) => boolean): RawSpan[] {
  const math = glyphs.filter(g => isMath(g.font) && g.text.trim());
  const out: RawSpan[] = [];
  for (const s of shapes) {
    if (!s.visible || (s.kind !== 'rect' && s.kind !== 'line')) continue;
    const [x0, y0, x1, y1] = s.bbox;
    const width = x1 - x0;
    if (y1 - y0 > RULE_THICKNESS || width < RULE_MIN || width > RULE_MAX) continue;
    const y = (y0 + y1) / 2;
    const over = (g: RawSpan) => Math.min(g.bbox[2], x1) - Math.max(g.bbox[0], x0) > Math.min(g.bbox[2] - g.bbox[0], width) * OVER_SHARE;
    const above = math.filter(g => over(g) && g.bbox[3] <= y + 1 && y - g.bbox[3] < g.size * STACK_GAP);
    const below = math.filter(g => over(g) && g.bbox[1] >= y - 1 && g.bbox[1] - y < g.size * STACK_GAP);
    // A radical's vinculum: a √ of the font ends where the rule starts, the radicand under it.
    const root = math.find(g => g.text.includes('√') && Math.abs(g.bbox[2] - x0) < ROOT_JOIN && g.bbox[1] <= y + 2 && g.bbox[3] > y);
    if (!below.length || (!above.length && !root)) continue;
    const size = Math.max(...above.map(g => g.size), ...below.map(g => g.size));
    out.push({ text: RULE, bbox: [x0, y - GLYPH_HALF, x1, y + GLYPH_HALF], baseline: y + size * AXIS_DROP, size, font: (above[0] ?? below[0]).font });
  }
  return out;
}
