// What a file's stat says of its content, as one string: size, modification and change times (ns),
// inode. Two equal keys mean the file was not written between them (the change time cannot be set
// back by hand, unlike the modification time): what lets a re-run skip reading a paper it hashed
// (run.ts, `file_hashes`) and an items.jsonl it wrote (jsonl.ts, `outputs`).
import fs from 'node:fs';

/** The file's stat key; null where there is no file. */
export function statKey(file: string): string | null {
  const s = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  return s ? `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}` : null;
}
