// The command line's exit statuses, documented once (README "Exit status", the usage text) and
// printed as the last line of every run, so a person reading `make ingest` (which turns any failure
// into its own status 2) still sees which it was; a script calls the bin (`npx exam-ingest`) and
// reads the status itself.
export const EXIT = { done: 0, failed: 1, usage: 2, partial: 3 } as const;

export const EXIT_MEANING: Record<number, string> = {
  [EXIT.done]: 'every paper done (or already in the store)',
  [EXIT.failed]: 'at least one paper failed (or the disk is full): it is not stored as done, the next run tries it again',
  [EXIT.usage]: 'bad usage: nothing was read',
  [EXIT.partial]: 'none failed, at least one is partial (stored, with error diagnostics)',
};

export function statusLine(code: number): string {
  return `exit status ${code}: ${EXIT_MEANING[code] ?? 'unexpected'}`;
}
