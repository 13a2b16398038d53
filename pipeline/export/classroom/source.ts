// The records a classroom export reads, with reviewers' decisions applied: from the store where
// there is one (a decision is in the store the moment it is made, whatever items.jsonl says), else
// from items.jsonl. An uploaded set is read through the review server's own set store.
import fs from 'node:fs';
import path from 'node:path';
import { Sets } from '../../server/sets.ts';
import { resolveServerSettings } from '../../server/settings.ts';
import { openStore } from '../../open-store.ts';
import type { ClassroomRecord } from './question.ts';
import type { ClassroomSource } from './settings.ts';

export interface LoadedRecords {
  records: ClassroomRecord[];
  /** The folder the records' image paths are relative to. */
  baseDir: string;
  /** Where they were read from, for messages. */
  from: string;
}

function parseLines(lines: readonly string[], from: string): ClassroomRecord[] {
  return lines.filter(l => l.trim()).map((l, i) => {
    try {
      return JSON.parse(l) as ClassroomRecord;
    } catch (e) {
      throw new Error(`${from}:${i + 1}: not JSON (${(e as Error).message})`);
    }
  });
}

export function loadRecords(source: ClassroomSource): LoadedRecords {
  if (source.kind === 'set') {
    const sets = new Sets(resolveServerSettings({ outDir: source.outDir, year: source.year }, {}));
    try {
      const records = sets.records(source.set) as unknown as ClassroomRecord[];
      return { records, baseDir: sets.paths(source.set).yearDir, from: `set ${source.set}` };
    } finally {
      sets.close();
    }
  }
  const storeFile = path.join(source.dir, 'store.sqlite');
  if (fs.existsSync(storeFile)) {
    const store = openStore(storeFile);
    try {
      return { records: parseLines(store.records(store.donePapers()), storeFile), baseDir: source.dir, from: storeFile };
    } finally {
      store.close();
    }
  }
  const items = path.join(source.dir, 'items.jsonl');
  return { records: parseLines(fs.readFileSync(items, 'utf8').split('\n'), items), baseDir: source.dir, from: items };
}
