// items.jsonl: written from the store, whole, by rename; left untouched when its content would not change.
import fs from 'node:fs';

export function writeJsonl(file: string, lines: string[]): boolean {
  const text = lines.length ? lines.join('\n') + '\n' : '';
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) return false;
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
  return true;
}
