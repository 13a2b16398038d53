// When a paper was sat, from what its cover says. KICE papers name the 학년도 (school year), which
// begins in March after the sitting: the June and September mocks and the CSAT itself of 학년도 N
// are sat in year N − 1. Other families print the year of the sitting; a month is known only
// where the sitting names one.
export interface ExamDate { year: number; month: number | null }

const KICE_MONTH: Record<string, number> = { 'june-mock': 6, 'september-mock': 9, csat: 11 };

export function examDate(exam: { family?: string; year?: number | null; sitting?: string | null }): ExamDate | null {
  if (!exam.year) return null;
  if (exam.family === 'kcsat') return { year: exam.year - 1, month: KICE_MONTH[exam.sitting ?? ''] ?? null };
  return { year: exam.year, month: null };
}

/** A sortable number: year·100 + month, an unknown month counted as the year's end (never earlier than known). */
export function examDateKey(d: ExamDate | null): number {
  return d ? d.year * 100 + (d.month ?? 12) : Number.MAX_SAFE_INTEGER;
}
