// Small CSV files beside papers (keys, statistics): a header row, trimmed cells, blank lines skipped.
import { delimitedRecords } from './delimited.ts';

export function parseCsv(text: string): Record<string, string>[] {
  const rows = delimitedRecords(text.replace(/^\uFEFF/, ''), ',').filter(r => r.some(f => f.trim() !== ''));
  const [head = [], ...body] = rows;
  return body.map(r => Object.fromEntries(head.map((h, j) => [h.trim(), (r[j] ?? '').trim()])));
}
