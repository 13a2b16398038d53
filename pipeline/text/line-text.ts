// Turning positioned spans back into text: spaces from gaps, formula runs as `$…$` with a
// geometric best effort at fractions, radicals and scripts. (Exact LaTeX is the math stage's job.)
import type { Span } from '../document.ts';
import { toGlyphs } from '../math/glyphs.ts';
import { formulaLatex } from '../math/latex.ts';
import { plainText as plain, scriptPieces } from '../math/scripts.ts';

/** A prime set in the text font right after a formula glyph belongs to the formula (g′(x)). */
const PRIME = /^[′″]+$/;

/** Told of a formula the builder rebuilt with doubts (the formula stays; the caller reports it). */
export type OnDoubt = (doubt: string, latex: string) => void;

/** LaTeX for one run of equation-font spans on one line. */
export function mathRun(spans: Span[], onDoubt?: OnDoubt): string {
  const built = formulaLatex(spans.flatMap(toGlyphs));
  for (const d of built.doubts) onDoubt?.(d, built.latex);
  return built.latex;
}

/** One line's spans (already in x order) as Markdown text with `$…$` formulas. */
export function lineText(spans: Span[], onDoubt?: OnDoubt): string {
  const parts: string[] = [];
  for (let i = 0; i < spans.length;) {
    let j = i;
    const isMath = (k: number) => spans[k].math || (PRIME.test(spans[k].text.trim()) && k > 0 && spans[k - 1].math);
    const kind = isMath(i);
    // A wide gap ends a formula even inside the equation font (cells of a table set in it).
    const apart = (k: number) => kind && spans[k].bbox[0] - spans[k - 1].bbox[2] > Math.max(spans[k].size, spans[k - 1].size) * 1.5;
    while (j < spans.length && isMath(j) === kind && (j === i || !apart(j))) j++;
    const run = spans.slice(i, j);
    if (kind) {
      const tex = mathRun(run, onDoubt);
      if (tex) parts.push(`$${tex}$`);
    } else {
      // Text-font runs may hold scripted formulas of their own (Cu²⁺, mol·L⁻¹).
      for (const p of scriptPieces(run)) parts.push('latex' in p ? `$${p.latex}$` : p.text);
    }
    i = j;
  }
  return parts.filter(Boolean).join(' ').replace(/\s+([,.?)\]])/g, '$1').trim();
}

/** The plain characters of spans, for pattern matching (no formula markup). */
export function rawText(spans: Span[]): string {
  return plain(spans);
}
