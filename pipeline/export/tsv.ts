// Tab-separated values as pandas reads them (VLMEvalKit loads its TSVs with pd.read_csv(sep='\t')):
// a field holding a tab, a line break or a double quote is quoted, with quotes doubled.
import { delimitedRecords } from '../text/delimited.ts';

function field(v: unknown): string {
  const s = v === null || v === undefined ? '' : typeof v === 'string' ? v : String(v);
  return /[\t\n\r"]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function formatTsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  return [columns.join('\t'), ...rows.map(r => columns.map(c => field(r[c])).join('\t'))].join('\n') + '\n';
}

/** The inverse of formatTsv: a header line and rows of named fields. */
export function parseTsv(text: string): { columns: string[]; rows: Record<string, string>[] } {
  const [columns = [], ...body] = delimitedRecords(text, '\t');
  return { columns, rows: body.map(r => Object.fromEntries(columns.map((c, i) => [c, r[i] ?? '']))) };
}
