// Counts shown for a paper on the review index: what it holds and what looks wrong with it.
import type { PaperData } from './load.ts';

/** A paper's status on the index, as the run named it: needs-review over partial (an error) over done. */
export type PaperStatus = 'needs-review' | 'partial' | 'done';

export interface PaperStats {
  status: PaperStatus;
  /** Pages of the paper and the share of its text the reading explains; null where not known. */
  pages: number | null;
  coverage: number | null;
  /** Items read unsurely. */
  unsure: number;
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
    status: p.structure?.status === 'needs-review' ? 'needs-review' : errors ? 'partial' : 'done',
    pages: p.pageCount,
    coverage: p.structure?.coverage ?? null,
    unsure: p.records.filter(r => r.structure?.unsure).length,
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
