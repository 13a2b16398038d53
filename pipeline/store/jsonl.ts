// items.jsonl: written from the store, whole, by rename; left untouched when its content would not change.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Store } from './db.ts';
import { statKey } from './file-stat.ts';

export function writeJsonl(file: string, lines: string[]): boolean {
  const text = lines.length ? lines.join('\n') + '\n' : '';
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) return false;
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, file);
  } catch (e) {
    // A write cut short (a full disk) leaves the old file whole and no half-written one beside it.
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  return true;
}

/**
 * The records of these papers written to `file` from the store (store.records, overlays included).
 * Where the store's generation, the papers and the file's stat are as the last write left them,
 * nothing is read: a re-run that brings nothing new does not read every record of the set to find
 * the file the same (schema.sql, `generation`). Returns whether the file was rewritten.
 */
export function writeStoreJsonl(store: Store, file: string, papers: readonly string[]): boolean {
  const key = path.basename(file);
  const made = `${store.generation()}:${crypto.createHash('sha256').update(papers.join('\n')).digest('hex')}`;
  const stat = statKey(file);
  if (stat && store.outputState(key) === `${made}:${stat}`) return false;
  const rewritten = writeJsonl(file, store.records([...papers]));
  store.saveOutputState(key, `${made}:${statKey(file)}`);
  return rewritten;
}
