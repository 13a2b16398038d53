// What the command line prints of a batch: one line per paper as it finishes (its status word
// first: `done`, `PARTIAL`, `needs-review`, `skipped`, `FAILED`; test/generality-score.ts reads the
// word), then under each paper why it needs review and its warnings and errors, then the summary.
// Plain functions of the run's outcomes, so they are the same for a run in this process, in a pool
// or through a queue.
import { formatDiagnostic } from './diagnostics.ts';
import { coverageText, needsReview } from './reading-verdict.ts';
import type { BatchResult, PaperOutcome } from './run.ts';

/**
 * The word a paper's line starts with. A paper that needs review says so whether it was read now or
 * skipped as already stored: the flag stays until the paper is read again and found sure.
 */
export function statusWord(o: PaperOutcome): string {
  if (o.status === 'failed') return 'FAILED ';
  if (needsReview(o.structure)) return 'needs-review';
  return o.status === 'skipped' ? 'skipped' : o.status === 'partial' ? 'PARTIAL' : 'done   ';
}

export function paperLine(o: PaperOutcome): string {
  if (o.status === 'failed') return `${statusWord(o)} ${o.file}: ${o.error ? formatDiagnostic(o.error) : 'unknown error'}`;
  const warnings = o.messages.filter(m => m.severity === 'warning').length;
  const errors = o.messages.filter(m => m.severity === 'error').length;
  const read = o.status !== 'skipped' ? `, ${o.pagesRendered} pages rendered, ${o.recordsWritten} records written` : ' (already in the store)';
  const notes = `${errors ? `, ${errors} errors` : ''}${warnings ? `, ${warnings} warnings` : ''}`;
  const review = needsReview(o.structure) ? `, coverage ${coverageText(o.structure!.coverage)}; needs review: ${o.structure!.reasons.join('; ')}` : '';
  return `${statusWord(o)} ${o.file}: ${o.pages} pages, ${o.questions} questions${read}${notes}${review}`;
}

/** The lines under a paper in the summary: why it needs review (if it does), then every warning and error. */
export function paperNotes(p: PaperOutcome): string[] {
  const notes = p.messages.filter(m => m.severity !== 'info');
  const review = needsReview(p.structure) ? p.structure! : null;
  if (!notes.length && !review) return [];
  // A skipped paper's diagnostics were listed when it was read; its stored verdict is listed again.
  const counts = p.status === 'skipped' ? 'as stored' : `${notes.filter(m => m.severity === 'error').length} errors, ${notes.filter(m => m.severity === 'warning').length} warnings`;
  const head = review ? `${p.file}: needs review (coverage ${coverageText(review.coverage)}${review.unsure.length ? `, unsure questions ${review.unsure.join(', ')}` : ''}), ${counts}` : `${p.file}: ${counts}`;
  return [head, ...(review?.reasons ?? []).map(r => `  needs review: ${r}`), ...notes.map(m => `  ${formatDiagnostic(m)}${m.stage ? ` (${m.stage})` : ''}`)];
}

/** The summary's counts, in the order printed. */
export function summaryLine(result: BatchResult): string {
  const papers = result.papers;
  const sum = (k: 'pages' | 'questions' | 'pagesRendered' | 'recordsWritten') => papers.reduce((n, p) => n + p[k], 0);
  const count = (f: (p: PaperOutcome) => boolean) => papers.filter(f).length;
  return `summary: ${papers.length} papers (${count(p => p.status === 'skipped')} unchanged), ${sum('pages')} pages (${sum('pagesRendered')} rendered), ${sum('questions')} questions, ${sum('recordsWritten')} records written, ${count(p => needsReview(p.structure) && p.status !== 'failed')} needs-review, ${count(p => p.status === 'partial')} partial, ${count(p => p.status === 'failed')} failed, ${result.seconds.toFixed(1)} s`;
}
