// A set's verified items, as the contract has them: items.jsonl (decisions and edits applied,
// only records whose review.status is verified) and every image those records refer to, in one tar.
import fs from 'node:fs';
import path from 'node:path';
import type { Sets } from './sets.ts';
import { tarArchive } from './tar.ts';

export function exportVerified(sets: Sets, set: string): { tar: Buffer; items: number; files: number } {
  const verified = sets.records(set).filter(r => r.review?.status === 'verified');
  const images = new Set<string>();
  for (const r of verified) {
    for (const f of r.modalities?.IO?.page_image ?? []) images.add(f);
    for (const f of r.modalities?.TI?.images ?? []) images.add(f);
    for (const f of r.figures ?? []) if (f.path) images.add(f.path);
  }
  const entries = [{ name: 'items.jsonl', data: Buffer.from(verified.map(r => JSON.stringify(r)).join('\n') + (verified.length ? '\n' : '')) }];
  for (const rel of [...images].sort()) {
    const file = sets.outputFile(set, rel);
    if (file) entries.push({ name: rel.split(path.sep).join('/'), data: fs.readFileSync(file) });
  }
  return { tar: tarArchive(entries), items: verified.length, files: entries.length - 1 };
}
