// One refresh at a time: an exclusive lock file holding the holder's pid. A lock whose pid is no
// longer alive (a refresh killed, a machine restarted) is stale and taken over.
import fs from 'node:fs';
import path from 'node:path';
import { LockHeldError } from './errors.ts';

/** Whether a process of this pid is running (on this machine). */
export function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface Lock {
  file: string;
  /** The pid of a dead holder whose lock was taken over, if any. */
  tookOverFrom: number | null;
  release(): void;
}

/** Take the lock, or throw LockHeldError when a live process holds it. */
export function acquireLock(file: string): Lock {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let tookOverFrom: number | null = null;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      // 'wx': created by us or not at all, so two refreshes starting together cannot both get it.
      const fd = fs.openSync(file, 'wx');
      fs.writeFileSync(fd, `${process.pid}\n${new Date().toISOString()}\n`);
      fs.closeSync(fd);
      return {
        file,
        tookOverFrom,
        release() {
          // Only our own lock is removed: one taken over after we were thought dead is not ours any more.
          if (fs.existsSync(file) && Number(fs.readFileSync(file, 'utf8').split('\n')[0]) === process.pid) fs.rmSync(file, { force: true });
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number(fs.readFileSync(file, 'utf8').split('\n')[0]);
      if (alive(holder)) throw new LockHeldError(file, holder);
      tookOverFrom = holder;
      fs.rmSync(file, { force: true });
    }
  }
  throw new LockHeldError(file, Number(fs.readFileSync(file, 'utf8').split('\n')[0]));
}
