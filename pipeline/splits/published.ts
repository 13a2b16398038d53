// What the splits already on disk have published. Splits are read oldest first; each one's items
// are the versions it published and its manifest names what it withdrew, so replaying them gives
// the benchmark as it stands: every live item at its latest version.
import fs from 'node:fs';
import path from 'node:path';
import { SplitError } from './errors.ts';
import type { SplitItem } from './item.ts';
import { SPLIT_NAME, cutoffOf } from './month.ts';
import type { Manifest } from './manifest.ts';

export interface PublishedSplit {
  name: string;
  cutoff: string;
  dir: string;
  manifest: Manifest;
}

export interface PublishedItem {
  id: string;
  version: number;
  split: string;
  fingerprint: string;
}

export const MANIFEST = 'manifest.json';
export const ITEMS = 'items.jsonl';

/** The complete splits under splitsDir, oldest first. Temporary folders (a dot in front) are not splits. */
export function listSplits(splitsDir: string): PublishedSplit[] {
  if (!fs.existsSync(splitsDir)) return [];
  return fs.readdirSync(splitsDir, { withFileTypes: true })
    .filter(e => e.isDirectory() && SPLIT_NAME.test(e.name))
    .map(e => e.name)
    .sort()
    .map(name => {
      const dir = path.join(splitsDir, name);
      const file = path.join(dir, MANIFEST);
      // A split folder only ever appears whole (it is renamed into place), so one without a manifest was made by hand.
      if (!fs.existsSync(file)) throw new SplitError(`${dir} has no ${MANIFEST}: not a split this pipeline wrote; move it away`);
      return { name, cutoff: cutoffOf(name), dir, manifest: JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest };
    });
}

export function readItems(dir: string): SplitItem[] {
  const text = fs.readFileSync(path.join(dir, ITEMS), 'utf8');
  return text.split('\n').filter(Boolean).map(l => JSON.parse(l) as SplitItem);
}

export interface PublishedState {
  /** Live items by id, at their latest version. */
  live: Map<string, PublishedItem>;
  /** The highest version ever given to an id, withdrawn ones included (a withdrawn item that comes back gets the next one). */
  lastVersion: Map<string, number>;
}

export function publishedState(splits: readonly PublishedSplit[]): PublishedState {
  const live = new Map<string, PublishedItem>();
  const lastVersion = new Map<string, number>();
  for (const s of splits) {
    for (const it of readItems(s.dir)) {
      live.set(it.id, { id: it.id, version: it.version, split: it.split, fingerprint: it.fingerprint });
      lastVersion.set(it.id, Math.max(lastVersion.get(it.id) ?? 0, it.version));
    }
    for (const w of s.manifest.withdrawn) live.delete(w.id);
  }
  return { live, lastVersion };
}

/** The live items themselves, latest version of each, with the folder their image paths are relative to. */
export function liveItems(splits: readonly PublishedSplit[]): { item: SplitItem; dir: string }[] {
  const live = new Map<string, { item: SplitItem; dir: string }>();
  for (const s of splits) {
    for (const item of readItems(s.dir)) live.set(item.id, { item, dir: s.dir });
    for (const w of s.manifest.withdrawn) live.delete(w.id);
  }
  return [...live.values()];
}
