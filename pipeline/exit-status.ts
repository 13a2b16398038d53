// The command line's exit statuses, documented once (README "Exit status", the usage text) and
// printed as the last line of every run, so a person reading `make ingest` (which turns any failure
// into its own status 2) still sees which it was; a script calls the bin (`npx exam-ingest`) and
// reads the status itself.
// A paper that needs review shares 3 with a partial one: both are stored and both want a person's
// look before their records are trusted; the per-paper lines and the summary tell which.
import type { StructureVerdict } from './reading-verdict.ts';

export const EXIT = { done: 0, failed: 1, usage: 2, partial: 3 } as const;

export const EXIT_MEANING: Record<number, string> = {
  [EXIT.done]: 'every paper done (or already in the store)',
  [EXIT.failed]: 'at least one paper failed (or the disk is full): it is not stored as done, the next run tries it again',
  [EXIT.usage]: 'bad usage: nothing was read',
  [EXIT.partial]: 'none failed, at least one is partial (stored, with error diagnostics) or needs review (stored, its structure in doubt)',
};

/** A batch's status from its papers: any failed, else any partial or needing review (read now or as stored), else done. */
export function exitCode(papers: readonly { status: string; structure?: Pick<StructureVerdict, 'status'> }[]): number {
  if (papers.some(p => p.status === 'failed')) return EXIT.failed;
  if (papers.some(p => p.status === 'partial' || p.status === 'needs-review' || p.structure?.status === 'needs-review')) return EXIT.partial;
  return EXIT.done;
}

export function statusLine(code: number): string {
  return `exit status ${code}: ${EXIT_MEANING[code] ?? 'unexpected'}`;
}
