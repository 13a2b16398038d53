// Parts: sub-parts a question's lines open with (`(a)`, `(b)(ii)`), with the marks under each.
import type { Line, Part, Span } from '../document.ts';
import { rawText } from '../text/line-text.ts';
import type { Template } from '../template.ts';

export /** Sub-parts by the labels lines open with, outermost level first; marks from the markers under each. */
function partsOf(lines: Line[], t: Template, skip: Set<Span>, markers: { line: number; value: number }[]): Part[] {
  if (!t.re.parts.length) return [];
  const starts: { line: number; label: string }[] = [];
  const path: string[] = [];
  lines.forEach((l, li) => {
    let text = rawText(l.spans.filter(s => !skip.has(s)));
    let opened = false;
    for (let level = 0; level < t.re.parts.length; level++) {
      const m = t.re.parts[level].exec(text);
      if (!m) continue;
      path.length = level;
      path[level] = m[0].trim();
      text = text.slice(m[0].length);
      opened = true;
    }
    if (opened) starts.push({ line: li, label: path.filter(Boolean).join('') });
  });
  const parts: Part[] = starts.map((p, i) => {
    const end = i + 1 < starts.length ? starts[i + 1].line : Infinity;
    const own = markers.filter(m => m.line >= p.line && m.line < end);
    return { label: p.label, marks: own.length ? own.reduce((a, m) => a + m.value, 0) : null };
  });
  // A part that only introduces its sub-parts ((b) before (b)(i)) is not a part of its own.
  return parts.filter((p, i) => !(p.marks === null && parts[i + 1]?.label.startsWith(p.label)));
}

