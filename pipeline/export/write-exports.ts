// Every export of a set of items, into one folder: items.jsonl (the records), the Hugging Face
// files and card, the VLMEvalKit TSVs and the lm-eval tasks. The items' image paths must already
// be relative to that folder (pipeline/splits/images.ts copies them there).
import type { SplitItem } from '../splits/item.ts';
import { writeFile, jsonl } from './files.ts';
import { writeHf, type CardInfo } from './hf.ts';
import { writeLmEval } from './lm-eval.ts';
import { toRow } from './rows.ts';
import { writeVlmevalkit } from './vlmevalkit.ts';

export const ITEMS_FILE = 'items.jsonl';

/** Returns the files written, relative to root, in the order written. */
export function writeExports(root: string, label: string, items: readonly SplitItem[], card: CardInfo): string[] {
  const rows = items.map(toRow);
  return [
    writeFile(root, ITEMS_FILE, jsonl(items)),
    ...writeHf(root, label, rows, card),
    ...writeVlmevalkit(root, label, rows),
    ...writeLmEval(root, label, rows),
  ];
}
