// Sections a paper names: by count on the cover, and whether a number may open the paper.
import type { Template } from '../template.ts';

/** Sections the cover assigns by count ("the first 54 questions are the common module"), in order. */
export function sectionRanges(cover: string, t: Template): { from: number; to: number; label: string }[] {
  const text = cover.replace(/\s+/g, ' ');
  const out: { from: number; to: number; label: string }[] = [];
  let next = 1;
  for (const source of t.sections.ranges ?? []) {
    const m = new RegExp(source, 'iu').exec(text);
    if (!m) break;
    out.push({ from: next, to: next + Number(m[1]) - 1, label: m[2].replace(/\s+/g, ' ') });
    next += Number(m[1]);
  }
  return out;
}

export /** Whether `n` may be the first question of the paper. */
function canOpen(t: Template, n: number): boolean {
  const first = t.numbering.first;
  return first === null || (Array.isArray(first) ? first.includes(n) : n === first);
}

