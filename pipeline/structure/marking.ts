// Marking schemes a section states before its questions (JEE: full, partial, zero and negative
// marks, each with its condition), read by the template's `points.scheme` patterns (group 1 the
// marks, group 2 the condition). Kept as data on every question of the section.
import type { Template } from '../template.ts';

export interface MarkRule { marks: number; when: string }
export interface Marking { full: MarkRule | null; partial: MarkRule[]; zero: MarkRule | null; negative: MarkRule | null }
export type MarkKind = keyof Marking;

/** The rule a line states, or null. Negative marks are negative whether or not the sign came through the text layer. */
export function markingLine(text: string, t: Template): { kind: MarkKind; rule: MarkRule } | null {
  for (const { kind, re } of t.re.scheme) {
    const m = re.exec(text);
    if (!m) continue;
    const value = Number(m[1]);
    const when = (m[2] ?? '').trim().replace(/[;；]$/u, '');
    return { kind, rule: { marks: kind === 'negative' ? -Math.abs(value) : value, when } };
  }
  return null;
}

/** The scheme with one more rule; a full-marks line opens a new scheme (the next section's). */
export function withRule(scheme: Marking | null, line: { kind: MarkKind; rule: MarkRule }): Marking {
  const next: Marking = line.kind === 'full' || !scheme ? { full: null, partial: [], zero: null, negative: null } : { ...scheme, partial: [...scheme.partial] };
  if (line.kind === 'partial') next.partial.push(line.rule);
  else next[line.kind] = line.rule;
  return next;
}
