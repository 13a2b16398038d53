// Turning positioned spans back into text: spaces from gaps, formula runs as `$…$` with a
// geometric best effort at fractions, radicals and scripts. (Exact LaTeX is the math stage's job.)
import type { Span } from '../document.ts';
import { centerX, centerY, height, width } from '../document.ts';

const BAR = /^―+$/;

interface Item { x: number; text: string }

function plain(spans: Span[]): string {
  let out = '';
  let prev: Span | null = null;
  for (const s of spans) {
    if (prev && s.bbox[0] - prev.bbox[2] > Math.min(s.size, prev.size) * 0.2 && !out.endsWith(' ')) out += ' ';
    out += s.text;
    prev = s;
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** Linear LaTeX for one run of equation-font spans on one line. */
export function mathRun(spans: Span[]): string {
  const left = new Set(spans);
  const items: Item[] = [];
  const bars = spans.filter(s => BAR.test(s.text.trim())).sort((a, b) => width(a.bbox) - width(b.bbox));
  for (const bar of bars) {
    if (!left.has(bar)) continue;
    const under = (s: Span) => s !== bar && left.has(s) && centerX(s.bbox) >= bar.bbox[0] - 1 && centerX(s.bbox) <= bar.bbox[2] + 1;
    const above = spans.filter(s => under(s) && centerY(s.bbox) < bar.baseline - height(bar.bbox) * 0.3);
    const below = spans.filter(s => under(s) && centerY(s.bbox) > bar.baseline - height(bar.bbox) * 0.3);
    left.delete(bar);
    // A radical's bar: a √ just before it; what lies under the bar is the radicand.
    const root = spans.find(s => left.has(s) && s.text.trim() === '√' && s.bbox[2] >= bar.bbox[0] - 3 && s.bbox[0] < bar.bbox[0]);
    if (root) {
      const radicand = spans.filter(s => left.has(s) && s !== root && s.bbox[0] >= bar.bbox[0] - 1 && s.bbox[0] < bar.bbox[2] && centerY(s.bbox) > bar.baseline);
      const index = spans.find(s => left.has(s) && s !== root && s.size < root.size * 0.7 && s.bbox[2] <= root.bbox[0] + root.size * 0.7 && centerY(s.bbox) < centerY(root.bbox));
      [root, ...radicand, ...(index ? [index] : [])].forEach(s => left.delete(s));
      items.push({ x: root.bbox[0], text: `\\sqrt${index ? `[${index.text.trim()}]` : ''}{${mathRun(radicand)}}` });
    } else if (above.length && below.length) {
      [...above, ...below].forEach(s => left.delete(s));
      items.push({ x: bar.bbox[0], text: `\\frac{${mathRun(above)}}{${mathRun(below)}}` });
    }
    // A bar over nothing else (an overline whose letters sit on the line) is left out of the linear text.
  }
  const rest = spans.filter(s => left.has(s));
  if (!rest.length) return items.sort((a, b) => a.x - b.x).map(i => i.text).join(' ');
  const base = rest.reduce((a, b) => (b.size > a.size ? b : a));
  for (const s of rest) {
    const t = s.text.trim();
    if (!t) continue;
    const small = s.size < base.size * 0.85;
    if (small && s.baseline < base.baseline - base.size * 0.2) items.push({ x: s.bbox[0], text: `^{${t}}` });
    else if (small && s.baseline > base.baseline + base.size * 0.1) items.push({ x: s.bbox[0], text: `_{${t}}` });
    else items.push({ x: s.bbox[0], text: t.replace(/√/g, '\\surd ') });
  }
  return items.sort((a, b) => a.x - b.x).map(i => i.text).join(' ').replace(/\s+\^/g, '^').replace(/\s+_/g, '_').replace(/\s+/g, ' ').trim();
}

/** One line's spans (already in x order) as Markdown text with `$…$` formulas. */
export function lineText(spans: Span[]): string {
  const parts: string[] = [];
  for (let i = 0; i < spans.length;) {
    let j = i;
    while (j < spans.length && spans[j].math === spans[i].math) j++;
    const run = spans.slice(i, j);
    if (run[0].math) {
      const tex = mathRun(run);
      if (tex) parts.push(`$${tex}$`);
    } else parts.push(plain(run));
    i = j;
  }
  return parts.filter(Boolean).join(' ').replace(/\s+([,.?)\]])/g, '$1').trim();
}

/** The plain characters of spans, for pattern matching (no formula markup). */
export function rawText(spans: Span[]): string {
  return plain(spans);
}
