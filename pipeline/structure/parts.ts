// Parts: sub-parts a question's lines open with (`(a)`, `(b)(ii)`), with the marks under each.
import type { Line, Part, Span } from '../document.ts';
import { rawText } from '../text/line-text.ts';
import type { Template } from '../template.ts';

/** A part with the lines it spans in its question (`from` up to, not including, `to`). */
export interface PartSpan { part: Part; from: number; to: number }

/** Sub-parts by the labels lines open with, outermost level first; marks from the markers under each. */
export function partsOf(lines: Line[], t: Template, skip: Set<Span>, markers: { line: number; value: number }[]): Part[] {
  return partSpans(lines, t, skip, markers).map(p => p.part);
}

/** The parts and where each runs: a part ends where the next one opens. */
export function partSpans(lines: Line[], t: Template, skip: Set<Span>, markers: { line: number; value: number }[]): PartSpan[] {
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
  const parts: PartSpan[] = starts.map((p, i) => {
    const end = i + 1 < starts.length ? starts[i + 1].line : lines.length;
    const own = markers.filter(m => m.line >= p.line && m.line < end);
    return { part: { label: p.label, marks: own.length ? own.reduce((a, m) => a + m.value, 0) : null }, from: p.line, to: end };
  });
  // A part that only introduces its sub-parts ((b) before (b)(i)) is not a part of its own.
  return parts.filter((p, i) => !(p.part.marks === null && parts[i + 1]?.part.label.startsWith(p.part.label)));
}

