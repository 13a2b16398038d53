// Writing export files: whole, flushed to disk, and named back to the caller so a manifest can hash them.
import fs from 'node:fs';
import path from 'node:path';

/** Write a file under root (creating its folder) and flush it; returns its path relative to root. */
export function writeFile(root: string, rel: string, content: string | Uint8Array): string {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeFileSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return rel.split(path.sep).join('/');
}

export function jsonl(rows: readonly unknown[]): string {
  return rows.map(r => JSON.stringify(r) + '\n').join('');
}
