// A folder appears whole or not at all: it is written in a temporary folder beside its target and
// renamed into place when complete. A process killed part-way leaves only the temporary folder,
// which the next run (under the refresh lock) removes.
import fs from 'node:fs';
import path from 'node:path';
import { alive } from './lock.ts';

const PARTIAL = /^\..+\.partial-(\d+)(?:-old)?$/;

export function partialDir(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.partial-${process.pid}`);
}

/** Remove the temporary folders left in dir by runs that were killed (their pid is not running); returns their names. */
export function removePartials(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const stale = fs.readdirSync(dir).filter(f => PARTIAL.test(f) && !alive(Number(PARTIAL.exec(f)![1])));
  for (const f of stale) fs.rmSync(path.join(dir, f), { recursive: true, force: true });
  return stale;
}

function fsyncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try { fs.fsyncSync(fd); } finally { fs.closeSync(fd); }
}

/**
 * Build a folder with `fill` (given the temporary folder) and rename it to target. With replace,
 * an existing target is swapped out (for selections, which are not frozen); without, an existing
 * target is an error the caller should have ruled out. On any error the temporary folder goes.
 */
export function writeFolderAtomically<T>(target: string, fill: (tmp: string) => T, replace = false): T {
  const tmp = partialDir(target);
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  try {
    const result = fill(tmp);
    fsyncDir(tmp);
    if (replace && fs.existsSync(target)) {
      const old = `${tmp}-old`;
      fs.renameSync(target, old);
      fs.renameSync(tmp, target);
      fs.rmSync(old, { recursive: true, force: true });
    } else {
      fs.renameSync(tmp, target);
    }
    fsyncDir(path.dirname(target));
    return result;
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}
