// Parts: sub-parts a question's lines open with (`(a)`, `(b)(ii)`), with the marks under each.
import type { Line, Part, Span } from '../document.ts';
import { rawText } from '../text/line-text.ts';
import type { Template } from '../template.ts';

/**
 * The label of the part a line opens (`(b)(ii)`: every level the line opens, under the levels
 * opened before it, kept in `path`), or null where it opens none.
 */
export function openedPart(text: string, t: Template, path: string[]): string | null {
  let opened = false;
  for (let level = 0; level < t.re.parts.length; level++) {
    const m = t.re.parts[level].exec(text);
    if (!m) continue;
    path.length = level;
    path[level] = m[0].trim();
    text = text.slice(m[0].length);
    opened = true;
  }
  return opened ? path.filter(Boolean).join('') : null;
}

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
    const label = openedPart(rawText(l.spans.filter(s => !skip.has(s))), t, path);
    if (label !== null) starts.push({ line: li, label });
  });
  const parts: PartSpan[] = starts.map((p, i) => {
    const end = i + 1 < starts.length ? starts[i + 1].line : lines.length;
    const own = markers.filter(m => m.line >= p.line && m.line < end);
    return { part: { label: p.label, marks: own.length ? own.reduce((a, m) => a + m.value, 0) : null }, from: p.line, to: end };
  });
  // A part that only introduces its sub-parts ((b) before (b)(i)) is not a part of its own.
  return parts.filter((p, i) => !(p.part.marks === null && parts[i + 1]?.part.label.startsWith(p.part.label)));
}

