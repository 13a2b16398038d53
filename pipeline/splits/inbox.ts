// Where a refresh finds papers: the inbox folder itself and each folder one level down (so papers
// left in inbox/<YEAR>/ for make ingest count too), each that holds a PDF; hidden folders are skipped.
// And what lies beside each paper: its key and stats files, hashed for the manifest.
import fs from 'node:fs';
import path from 'node:path';
import { keyFileFor, statsFileFor } from '../keys/companions.ts';
import type { Template } from '../template.ts';
import { sha256File, type SourceFile } from './manifest.ts';

export function inboxFolders(inbox: string): string[] {
  if (!fs.existsSync(inbox)) return [];
  const hasPdf = (dir: string) => fs.readdirSync(dir).some(f => f.toLowerCase().endsWith('.pdf'));
  const subfolders = fs.readdirSync(inbox, { withFileTypes: true })
    .filter(e => e.isDirectory() && !e.name.startsWith('.'))
    .map(e => path.join(inbox, e.name))
    .sort();
  return [inbox, ...subfolders].filter(hasPdf);
}

export function companionsOf(paper: string, templates: readonly Template[]): { key?: SourceFile; stats?: SourceFile } {
  const key = keyFileFor(paper) ?? templates.map(t => keyFileFor(paper, t)).find(Boolean) ?? null;
  const stats = statsFileFor(paper);
  return {
    ...(key && { key: { file: path.basename(key), sha256: sha256File(key) } }),
    ...(stats && { stats: { file: path.basename(stats), sha256: sha256File(stats) } }),
  };
}
