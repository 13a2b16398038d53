// items.jsonl: written from the store, whole, by rename; left untouched when its content would not change.
import fs from 'node:fs';

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
