// Counts shown for a paper on the review index: what it holds and what looks wrong with it.
import type { PaperData } from './load.ts';

export interface PaperStats {
  items: number;
  answered: number;
  withFigures: number;
  verified: number;
  rejected: number;
  pending: number;
  duplicates: number;
  tagged: number;
  errors: number;
  warnings: number;
  /** Items without an answer count as problems too: every item of a keyed paper should have one. */
  problems: number;
}

export function paperStats(p: PaperData): PaperStats {
  const status = (s: string) => p.records.filter(r => (r.review?.status ?? 'pending') === s).length;
  // The store holds every diagnostic of the paper; a record's own list is a subset of it, used when there is no store.
  const diags = p.diagnostics.length ? p.diagnostics : p.records.flatMap(r => r.diagnostics ?? []);
  const errors = diags.filter(d => d.severity === 'error').length;
  const warnings = diags.filter(d => d.severity === 'warning').length;
  const answered = p.records.filter(r => r.answer !== null && r.answer !== undefined && r.answer !== '').length;
  return {
    items: p.records.length,
    answered,
    withFigures: p.records.filter(r => r.figures?.length).length,
    verified: status('verified'),
    rejected: status('rejected'),
    pending: status('pending'),
    duplicates: p.records.filter(r => r.duplicate_of).length,
    tagged: p.records.filter(r => r.knowledge?.length).length,
    errors,
    warnings,
    problems: errors + warnings + (answered ? p.records.length - answered : 0),
  };
}
