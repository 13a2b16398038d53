// What a paper says about itself (year, sitting, session, subject, form), read from a text by the
// template's cover patterns: the cover's text at register, and the running heads of every page
// where the cover leaves something unsaid.
import type { ExamInfo } from '../document.ts';
import type { Template } from '../template.ts';

export function readCover(t: Template, coverText: string): ExamInfo {
  const c = t.cover;
  const text = coverText.replace(/\s+/g, ' ');
  const first = (src?: string) => (src ? new RegExp(src, 'u').exec(text)?.[1] ?? null : null);
  const pick = (list?: { pattern: string; id: string }[]) => list?.find(s => new RegExp(s.pattern, 'u').test(text))?.id ?? null;
  const year = first(c.year);
  const session = first(c.session);
  const sitting = pick(c.sittings);
  return {
    family: t.family,
    language: t.language,
    year: year ? Number(year) : null,
    sitting,
    sat: satOf(t, year ? Number(year) : null, sitting),
    session: session ? Number(session) : null,
    subject: pick(c.subjects) ?? t.subject,
    form: pick(c.forms) ?? first(c.form),
    electives: [],
  };
}

/**
 * When a paper of this template was sat: the printed year moved by the family's offset, and the
 * month its sitting is sat in where the template fixes one. Null without a year.
 */
export function satOf(t: Template, year: number | null, sitting: string | null): ExamInfo['sat'] {
  if (year === null) return null;
  const month = t.cover.sittings?.find(s => s.id === sitting)?.month ?? null;
  return { year: year + (t.cover.satYearOffset ?? 0), month };
}
