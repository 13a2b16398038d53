// The ways a refresh or a selection stops, each with a message that says what to do. The CLI prints
// the message and exits non-zero; nothing below it prints.

/** Another refresh holds the lock (its pid is alive). */
export class LockHeldError extends Error {
  constructor(readonly lockFile: string, readonly pid: number) {
    super(`another refresh is running (pid ${pid}, lock ${lockFile}); try again when it ends`);
    this.name = 'LockHeldError';
  }
}

/** A split's settings or the splits on disk do not allow what was asked (a cut-off before the latest split, a damaged split). */
export class SplitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SplitError';
  }
}

/** Papers of the inbox could not be ingested: no split is written, since a split missing one of its papers could never take it back. */
export class IngestFailedError extends Error {
  constructor(readonly failures: { file: string; reason: string }[]) {
    super(`${failures.length} paper${failures.length === 1 ? '' : 's'} could not be ingested, so no split was written (fix or remove ${failures.length === 1 ? 'it' : 'them'} and run again):\n${failures.map(f => `  ${f.file}: ${f.reason}`).join('\n')}`);
    this.name = 'IngestFailedError';
  }
}
