// The parts of a record's text the corpus passes read: prose (formulas taken out) and the LaTeX
// of its formulas, each normalised once. Tagging matches cues in them; dedup compares them.

import type { ExamInfo } from '../document.ts';
/** The fields of an item record that the corpus passes read. */
export interface CorpusRecord {
  id: string;
  source: { file: string; sha256: string };
  exam: { family?: string; language?: string; subject?: string | null; year?: number | null; sitting?: string | null; sat?: ExamInfo['sat']; template?: string };
  section: string | null;
  number: number;
  stem: string;
  options: { label: string; text: string }[];
  figures: { path: string | null }[];
}

const MATH = /\$\$([\s\S]+?)\$\$|\$([^$]+?)\$/g;

/** Formulas of a text, in order. */
export function formulasOf(text: string): string[] {
  return [...text.matchAll(MATH)].map(m => m[1] ?? m[2]);
}

/** The text with every formula replaced by a space. */
export function proseOf(text: string): string {
  return text.replace(MATH, ' ');
}

/**
 * LaTeX in one spelling: no whitespace, `\dfrac`/`\tfrac` as `\frac`, `\left`/`\right` and spacing
 * commands dropped, `\rightarrow` as `\to`, `\le`/`\ge` spelled out. Operators, digits and structure
 * (braces, scripts) stay: two formulas that differ in a digit are different formulas.
 */
export function normLatex(latex: string): string {
  return latex
    .replace(/\\(?:d|t)frac/g, '\\frac')
    .replace(/\\(?:left|right|displaystyle|textstyle|,|;|!|quad|qquad)(?![a-zA-Z])/g, '')
    .replace(/\\rightarrow(?![a-zA-Z])/g, '\\to')
    .replace(/\\le(?![a-zA-Z])/g, '\\leq')
    .replace(/\\ge(?![a-zA-Z])/g, '\\geq')
    .replace(/\s+/g, '');
}

/** Prose in one spelling: NFKC, lower case, runs of whitespace as one space. */
export function normProse(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}
