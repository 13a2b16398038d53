// Answer keys with a text layer (PAES clavijeros): the key's lines read in order, every match of
// the template's entry pattern one item — number, a flag mark (`*` pilot), the answer.
import type { Template } from '../template.ts';
import { sectionOf } from './sections.ts';

export interface TextKeyEntry {
  number: number;
  answer: string;
  flags: string[];
  /** The section a column heading of the key names (ENEM's INGLÊS / ESPANHOL beside one number); null: joined by number. */
  section?: string | null;
}

/**
 * A key for many forms at once (`Câu hỏi 101 102 103 …` over rows `1 D B C …`): the column of the
 * paper's form. Undefined where the lines carry no such header; null where they do but the paper's
 * form is unknown or not among them (no column can be trusted then).
 */
function formColumn(lines: string[], form: string | null): { column: number; codes: number } | null | undefined {
  for (const line of lines) {
    const codes: string[] = line.match(/(?<![0-9])\d{3}(?![0-9])/g) ?? [];
    if (codes.length < 3 || !/^\D*$/.test(line.replace(/(?<![0-9])\d{3}(?![0-9])/g, ''))) continue;
    const column = form === null ? -1 : codes.indexOf(form);
    return column >= 0 ? { column, codes: codes.length } : null;
  }
  return undefined;
}

/**
 * Column headings that name sections (a line with two or more words the template knows as sections,
 * e.g. `INGLÊS ESPANHOL` over `1 D E`): the sections in column order, or none.
 */
function sectionColumns(lines: string[], t: Template): string[] {
  for (const line of lines) {
    const named = line.trim().split(/\s+/).map(w => sectionOf(w, t)).filter((s): s is string => !!s);
    if (named.length >= 2) return named;
  }
  return [];
}

/** Entries read from the lines; the first reading of a number wins (a later table repeats it). */
export function parseTextKey(lines: string[], t: Template, form: string | null = null): TextKeyEntry[] {
  const spec = t.answers?.keyText;
  if (!spec) return [];
  const columns = sectionColumns(lines, t);
  // A number followed by one letter per named column: each letter is that column's section's answer.
  const grouped = columns.length ? new RegExp(`^\\s*(\\d{1,3})((?:\\s+[A-E]){${columns.length}})(?=\\s|$)`, 'u') : null;
  const bySection: TextKeyEntry[] = [];
  const forms = formColumn(lines, form);
  if (forms === null) return [];
  if (forms) {
    // One row per number, one letter per form: the paper's form is its column.
    const seen = new Map<number, TextKeyEntry>();
    for (const line of lines) {
      const cells = line.trim().split(/\s+/);
      if (cells.length !== forms.codes + 1 || !/^\d{1,3}$/.test(cells[0]) || !cells.slice(1).every(c => /^[A-E]$/.test(c))) continue;
      const number = Number(cells[0]);
      if (!seen.has(number)) seen.set(number, { number, answer: cells[1 + forms.column], flags: [] });
    }
    return [...seen.values()].sort((a, b) => a.number - b.number);
  }
  const re = new RegExp(spec.entry, 'gu');
  const seen = new Map<number, TextKeyEntry>();
  for (let line of lines) {
    const g = grouped?.exec(line);
    if (g) {
      const letters = g[2].trim().split(/\s+/);
      letters.forEach((answer, i) => bySection.push({ number: Number(g[1]), answer, flags: [], section: columns[i] }));
      line = line.slice(g[0].length);
    }
    for (const m of line.matchAll(re)) {
      const number = Number(m[1]);
      if (seen.has(number)) continue;
      const flag = spec.flags?.[m[2] ?? ''];
      seen.set(number, { number, answer: m[3], flags: flag ? [flag] : [] });
    }
  }
  return [...bySection, ...[...seen.values()].sort((a, b) => a.number - b.number)];
}
