// The files a user puts beside a paper: its official key (`<stem>-answer.<ext>`, or the file a
// template pairs with it by name) and its published statistics (`<stem>-stats.csv`). Found by name
// alone, without reading them: the batch lists them to notice a change (run.ts), the inbox of the
// splits to move them with their paper, the answers and stats stages to read them.
import fs from 'node:fs';
import path from 'node:path';
import type { Template } from '../template.ts';

export const KEY_EXTENSIONS = ['csv', 'png', 'jpg', 'jpeg', 'pdf'];

/** The key beside a paper: `<stem>-answer.<ext>`, or the file the template pairs by name (`_qp_` → `_ms_`). */
export function keyFileFor(paperPath: string, t?: Template): string | null {
  const stem = paperPath.replace(/\.pdf$/i, '');
  for (const ext of KEY_EXTENSIONS) for (const e of [ext, ext.toUpperCase()]) if (fs.existsSync(`${stem}-answer.${e}`)) return `${stem}-answer.${e}`;
  const base = path.basename(paperPath);
  for (const p of t?.answers?.pairs ?? []) {
    if (!base.includes(p.paper)) continue;
    const other = path.join(path.dirname(paperPath), base.replace(p.paper, p.key));
    if (fs.existsSync(other)) return other;
  }
  return null;
}

/** The published statistics beside a paper (`<stem>-stats.csv`: error rates, difficulty), if any. */
export function statsFileFor(paperPath: string): string | null {
  const file = paperPath.replace(/\.pdf$/i, '') + '-stats.csv';
  return fs.existsSync(file) ? file : null;
}
