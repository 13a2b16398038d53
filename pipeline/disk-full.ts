// A full disk (or quota) is not one paper's failure: every paper after it would fail the same way,
// and the store could not record them. It stops the batch with the path that could not be written;
// the store is left as its last transaction did (SQLite rolls back the one that ran out of room).
// Raised as ENOSPC / EDQUOT by Node's fs, as SQLITE_FULL by better-sqlite3, and as text by sharp.

export const DISK_FULL_RULE = 'disk/full';

export class DiskFullError extends Error {
  /** `message` as `writing` makes it (it crosses from a worker process as a paper's diagnostic). */
  constructor(message: string) {
    super(message);
    this.name = 'DiskFullError';
  }

  static writing(path: string, cause: string): DiskFullError {
    return new DiskFullError(`disk full: cannot write ${path} (${cause}); the store holds what was done before, free some space and run again`);
  }
}

/** The error as a DiskFullError where it says the disk (or quota) is full; `where` names what was being written when the error does not. */
export function diskFullOf(e: unknown, where: string): DiskFullError | null {
  if (e instanceof DiskFullError) return e;
  const err = e as { code?: unknown; path?: unknown; message?: unknown } | null;
  const code = typeof err?.code === 'string' ? err.code : '';
  const message = typeof err?.message === 'string' ? err.message : String(e);
  if (code !== 'ENOSPC' && code !== 'EDQUOT' && code !== 'SQLITE_FULL' && !/no space left on device|disk quota exceeded|database or disk is full/i.test(message)) return null;
  return DiskFullError.writing(typeof err?.path === 'string' ? err.path : where, message.split('\n')[0]);
}
