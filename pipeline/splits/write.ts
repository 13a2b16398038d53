// Writing one split: its images copied in, its exports, then the manifest hashing every file, all
// in a temporary folder renamed into place at the end (atomic.ts). Once there it is never written again.
import fs from 'node:fs';
import path from 'node:path';
import { PIPELINE_VERSION } from '../index.ts';
import { writeExports } from '../export/write-exports.ts';
import { writeFile } from '../export/files.ts';
import { writeFolderAtomically } from './atomic.ts';
import { SplitError } from './errors.ts';
import { copyImages } from './images.ts';
import { countItems, hashFiles, sourcesOf, templateHashes, type Manifest, type SourceFile } from './manifest.ts';
import type { SplitPlan } from './plan.ts';
import { MANIFEST } from './published.ts';

export interface SplitTarget {
  splitsDir: string;
  name: string;
  cutoff: string;
  previous: { name: string; cutoff: string } | null;
  /** The folder the records' image paths are relative to (the corpus store's). */
  imagesFrom: string;
  templatesDir: string;
  settings: Manifest['settings'];
  companions: ReadonlyMap<string, { key?: SourceFile; stats?: SourceFile }>;
}

/** Called with each file of the split once written (paths relative to it), manifest.json last, before the folder is renamed into place. */
export type OnWritten = (file: string) => void;

export function writeSplit(t: SplitTarget, plan: SplitPlan, onWritten?: OnWritten): Manifest {
  const target = path.join(t.splitsDir, t.name);
  if (fs.existsSync(target)) throw new SplitError(`split ${t.name} already exists at ${target} and is frozen`);
  fs.mkdirSync(t.splitsDir, { recursive: true });
  return writeFolderAtomically(target, tmp => {
    const { items, files: images } = copyImages(plan.items, t.imagesFrom, tmp);
    const counts = countItems(items);
    const sources = sourcesOf(items, t.companions);
    const window = { after: t.previous?.cutoff ?? null, through: t.cutoff };
    const written = writeExports(tmp, t.name, items, {
      title: `exam-ingest benchmark, split ${t.name}`,
      scope: `Split ${t.name}: questions of papers sat ${window.after ? `after ${window.after}` : 'any time'} up to the end of ${window.through}` +
        ` (${counts.total.new} new items, ${counts.total.corrected} corrected versions of items of earlier splits${plan.late.length ? `, ${plan.late.length} items of papers added after the split covering their month was frozen` : ''}).` +
        ' The split is frozen: its files never change, and manifest.json holds the sha256 of each. A correction is published in a later split as a new version of the item.',
      counts,
      sources,
    });
    for (const f of [...images, ...written]) onWritten?.(f);
    const manifest: Manifest = {
      split: t.name,
      cutoff: t.cutoff,
      window,
      previous: t.previous?.name ?? null,
      created_at: new Date().toISOString(),
      pipeline_version: PIPELINE_VERSION,
      templates: templateHashes(t.templatesDir),
      settings: t.settings,
      counts,
      sources,
      superseded: plan.superseded,
      withdrawn: plan.withdrawn,
      late: plan.late,
      files: hashFiles(tmp, MANIFEST),
    };
    writeFile(tmp, MANIFEST, JSON.stringify(manifest, null, 2) + '\n');
    onWritten?.(MANIFEST);
    return manifest;
  });
}
