// When a paper was sat. The cover reading (text/cover.ts) puts it on the record's exam from the
// family's template: a school year printed for the year after the sitting (KICE's 학년도) and the
// month a sitting is sat in are template data, not code. A record without it (written before it was
// kept, or a cover that names no month) is dated by the year it prints, its month unknown.
import type { ExamInfo } from './document.ts';

export interface ExamDate { year: number; month: number | null }

export function examDate(exam: Partial<Pick<ExamInfo, 'year' | 'sat'>>): ExamDate | null {
  if (exam.sat) return { year: exam.sat.year, month: exam.sat.month };
  return exam.year ? { year: exam.year, month: null } : null;
}

/** A sortable number: year·100 + month, an unknown month counted as the year's end (never earlier than known). */
export function examDateKey(d: ExamDate | null): number {
  return d ? d.year * 100 + (d.month ?? 12) : Number.MAX_SAFE_INTEGER;
}
