// make select AFTER=YYYY-MM: every live item of every split (its latest version) whose paper was
// sat after the month a model's training data ends, with every export, in <OUT>/select/after-YYYY-MM/.
// Per item, and strictly: a paper whose cover gives a year and no month counts from January of that
// year, so nothing that could predate the cut-off gets in. A selection is rebuilt whole on each run.
import type { SelectConfig } from '../config.ts';
import { removePartials, writeFolderAtomically } from '../splits/atomic.ts';
import { SplitError } from '../splits/errors.ts';
import { copyImages } from '../splits/images.ts';
import { countItems, hashFiles, sourcesOf, sha256File } from '../splits/manifest.ts';
import { earliestKeyOf, monthKey } from '../splits/month.ts';
import { liveItems, listSplits } from '../splits/published.ts';
import { writeFile } from './files.ts';
import { writeExports } from './write-exports.ts';
import fs from 'node:fs';
import path from 'node:path';

export const SELECTION_FILE = 'selection.json';

export function selectAfter(cfg: SelectConfig): { target: string; items: number; lines: string[] } {
  const splits = listSplits(cfg.splitsDir);
  if (!splits.length) throw new SplitError(`no split in ${cfg.splitsDir}: run make refresh first`);
  const after = monthKey(cfg.after);
  const chosen = liveItems(splits).filter(({ item }) => earliestKeyOf(item.exam_date) > after && (!cfg.reviewedOnly || item.review?.status === 'verified'));
  const label = `after-${cfg.after}`;
  fs.mkdirSync(path.dirname(cfg.target), { recursive: true });
  // A selection killed part-way left its temporary folder; selections take no lock, so only those of dead pids go.
  removePartials(path.dirname(cfg.target));
  const dirOf = new Map(chosen.map(c => [c.item, c.dir]));
  writeFolderAtomically(cfg.target, tmp => {
    const { items } = copyImages(chosen.map(c => c.item), it => dirOf.get(it) ?? '', tmp);
    const counts = countItems(items);
    writeExports(tmp, label, items, {
      title: `exam-ingest benchmark, items sat after ${cfg.after}`,
      scope: `Every item of splits ${splits[0].name}…${splits.at(-1)!.name} (latest version of each) whose paper was sat after ${cfg.after}: for evaluating a model whose training data ends in ${cfg.after}. A paper whose cover gives no month counts from January of its year.`,
      counts,
      sources: sourcesOf(items, new Map()),
    });
    const selection = {
      after: cfg.after,
      reviewed_only: cfg.reviewedOnly,
      splits: splits.map(s => ({ split: s.name, manifest_sha256: sha256File(path.join(s.dir, 'manifest.json')) })),
      counts,
      files: hashFiles(tmp, SELECTION_FILE),
    };
    writeFile(tmp, SELECTION_FILE, JSON.stringify(selection, null, 2) + '\n');
  }, true);
  return { target: cfg.target, items: chosen.length, lines: [`select: ${chosen.length} items sat after ${cfg.after} from ${splits.length} splits: ${cfg.target}`] };
}
