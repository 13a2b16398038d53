// Months and dates of splits. A split is named by its cut-off month as YY-MM (26-05) and holds papers
// sat up to the end of that month. A paper's date comes from its cover (pipeline/exam-date.ts, from
// the template's data: a KICE 학년도 N June mock is June of N − 1); where the cover names no year,
// the month the store first saw the paper stands in for it.
import type { ExamInfo } from '../document.ts';
import { examDate, examDateKey } from '../exam-date.ts';

export const SPLIT_NAME = /^\d{2}-\d{2}$/;

/** `2026-05` → `26-05`. */
export function splitName(cutoff: string): string {
  return cutoff.slice(2);
}

/** `26-05` → `2026-05`. */
export function cutoffOf(name: string): string {
  return `20${name}`;
}

/** `2026-05` → 202605, comparable with examDateKey. */
export function monthKey(month: string): number {
  const [y, m] = month.split('-').map(Number);
  return y * 100 + m;
}

export interface ItemDate {
  /** `YYYY-MM`, or `YYYY` where the cover gives the year and no month. */
  exam_date: string;
  exam_date_source: 'cover' | 'added';
  /** The latest month the paper can have been sat in (an unknown month counts as December), for placing it in a split. */
  latestKey: number;
  /** The earliest month it can have been sat in (an unknown month counts as January), for selecting papers after a model's cut-off. */
  earliestKey: number;
}

export function itemDate(exam: { family?: string; year?: number | null; sitting?: string | null; sat?: ExamInfo['sat'] } | null, addedAt: string): ItemDate {
  const d = exam ? examDate(exam) : null;
  if (d) {
    return {
      exam_date: d.month ? `${d.year}-${String(d.month).padStart(2, '0')}` : String(d.year),
      exam_date_source: 'cover',
      latestKey: examDateKey(d),
      earliestKey: d.year * 100 + (d.month ?? 1),
    };
  }
  // SQLite's datetime('now'): `YYYY-MM-DD HH:MM:SS`, UTC.
  const month = addedAt.slice(0, 7);
  return { exam_date: month, exam_date_source: 'added', latestKey: monthKey(month), earliestKey: monthKey(month) };
}

/** The comparable key of an item's exported date (`YYYY-MM` or `YYYY`): the earliest month it can be. */
export function earliestKeyOf(examDateText: string): number {
  return /^\d{4}$/.test(examDateText) ? Number(examDateText) * 100 + 1 : monthKey(examDateText);
}
