// Worked keys: a copy of the paper with each question's (or part's) solution written under it, the
// way a teacher prints a "KEY" of a quiz. Its questions are found by the paper's own numbering and
// part labels, in the paper's order; a part's answer is the value its solution ends on
// (`… = 3/7`), and only that: a solution whose last equation does not end its line (`c = ±2/√3. As
// only …`) gives none, rather than a guess.
import { openedPart } from '../structure/parts.ts';
import type { Template } from '../template.ts';

/** One line of the key: its plain characters (for labels) and its text with `$…$` formulas (for values). */
export interface KeyLine { raw: string; text: string }

/** A question of the paper: its number and how its first line reads, less the number (to recognise the copy). */
export interface PaperQuestion { number: number; opening: string }

export interface WorkedEntry {
  number: number;
  /** The part's label (`(a)`, `(b)(ii)`), or null for a question without parts. */
  part: string | null;
  /** The final value, as plain text (`3/7`, `-2/sqrt(3)`); null where the solution ends in words. */
  value: string | null;
}

/** Characters that tell one copy of a first line from another: letters and digits, no spacing. */
const squeeze = (s: string) => s.replace(/[^\p{L}\p{N}]/gu, '').toLowerCase();
/** How much of a question's first line the key's must repeat for the key to count as the paper's copy. */
const OPENING = 12;

/**
 * The key's entries, or null where the lines are not a copy of the paper: at least half of its
 * questions, each opening as the paper's does, found in the paper's order.
 */
export function readWorkedKey(lines: KeyLine[], t: Template, paper: PaperQuestion[]): WorkedEntry[] | null {
  if (!paper.length) return null;
  const blocks: { number: number; part: string | null; lines: KeyLine[] }[] = [];
  let next = 0;
  const path: string[] = [];
  for (const line of lines) {
    let raw = line.raw;
    const numbered = t.re.numbering.exec(raw);
    // Only the next question of the paper, or one after it, opens a block: a footnote's `1` or a
    // table's row is not a question, and a question the key skips does not stop the reading.
    const at = numbered ? paper.findIndex((q, i) => i >= next && q.number === Number(numbered[1])) : -1;
    const rest = at >= 0 ? raw.slice(numbered![0].length) : '';
    if (at >= 0 && squeeze(rest).startsWith(squeeze(paper[at].opening).slice(0, OPENING))) {
      next = at + 1;
      path.length = 0;
      raw = rest;
      blocks.push({ number: paper[at].number, part: null, lines: [] });
    }
    const current = blocks[blocks.length - 1];
    if (!current) continue;
    const label = openedPart(raw, t, path);
    if (label !== null) {
      if (current.part === null && !current.lines.some(l => l.raw.trim())) current.part = label;
      else blocks.push({ number: current.number, part: label, lines: [] });
    }
    blocks[blocks.length - 1].lines.push(line);
  }
  const found = new Set(blocks.map(b => b.number));
  if (found.size * 2 < paper.length) return null;
  return blocks.map(b => ({ number: b.number, part: b.part, value: finalValue(b.lines) }));
}

/** A relation between two sides: the last one of a solution says whether it ends on a value. */
const RELATION = /=|<|>|≤|≥|≠|\\(?:le|ge|leq|geq|neq|lt|gt)(?![a-zA-Z])/g;

/**
 * The value a solution ends on: the right side of the last relation of its last line holding one,
 * where that relation is `=` and nothing but a full stop follows the value on that line.
 */
export function finalValue(lines: KeyLine[]): string | null {
  for (let i = lines.length - 1; i >= 0; i--) {
    const text = lines[i].text.replace(/\$/g, ' ');
    const last = [...text.matchAll(RELATION)].pop();
    if (!last) continue;
    if (last[0] !== '=') return null;
    return plainValue(text.slice(last.index! + 1).replace(/[\s.]+$/u, ''));
  }
  return null;
}

/**
 * LaTeX of a value as plain text, the way answers are written in keys and tables (`3/7`,
 * `sqrt(3)`, `-2/sqrt(3)`): null where it is not a value (words, an open bracket, nothing).
 */
export function plainValue(latex: string): string | null {
  let s = latex.replace(/[−–]/g, '-').replace(/\\(?:left|right|,|;|!|\s)/g, '').replace(/\\cdot|\\times|∗|·/g, '*').replace(/\\pm/g, '±');
  s = s.replace(/\\pi(?![a-zA-Z])/g, 'pi').replace(/\\infty(?![a-zA-Z])|∞/g, 'inf');
  // Innermost first, so that a fraction of roots comes out whole.
  for (let guard = 0; guard < 8 && /\\(?:d?frac|sqrt)/.test(s); guard++) {
    s = s.replace(/\\sqrt\{([^{}]*)\}/g, (_, x: string) => `sqrt(${x})`).replace(/√\s*([0-9]+)/g, 'sqrt($1)');
    s = s.replace(/\\d?frac\{([^{}]*)\}\{([^{}]*)\}/g, (_, a: string, b: string) => `${group(a)}/${group(b)}`);
  }
  s = s.replace(/√\s*([0-9]+)/g, 'sqrt($1)').replace(/\^\{([^{}]*)\}/g, (_, x: string) => `^${group(x)}`).replace(/\s+/g, '');
  if (!s || !/\d/.test(s) || /[\\{}]/.test(s)) return null;
  // Letters only as the names of functions and constants; brackets balanced.
  if (/[a-z]/i.test(s.replace(/sqrt|pi|inf|ln|log|e(?![a-z])/g, ''))) return null;
  let depth = 0;
  for (const ch of s) if ((depth += ch === '(' ? 1 : ch === ')' ? -1 : 0) < 0) return null;
  return depth === 0 && /^[-+±0-9a-z.()*/^]+$/.test(s) ? s : null;
}

/** A numerator, denominator or exponent in brackets unless it is one number or one call. */
function group(x: string): string {
  const t = x.trim();
  return /^-?[0-9.]+$|^[a-z]+\([^()]*\)$|^[a-z]+$/.test(t) ? t : `(${t})`;
}
