// Turning positioned spans back into text: spaces from gaps, formula runs as `$…$` with a
// geometric best effort at fractions, radicals and scripts. (Exact LaTeX is the math stage's job.)
import type { Span } from '../document.ts';
import { toGlyphs } from '../math/glyphs.ts';
import { formulaLatex } from '../math/latex.ts';
import { plainText as plain, scriptPieces } from '../math/scripts.ts';
import { readingGaps } from './direction.ts';

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

/**
 * One line's spans (in reading order) as Markdown text with `$…$` formulas. A line that reads right
 * to left (text/direction.ts) comes from the right: its left-to-right runs (spans that each start
 * right of the one before: a Latin phrase, a formula) are read as any line is, what runs leftwards
 * as plain text, and the pieces joined in that order.
 */
export function lineText(spans: Span[], onDoubt?: OnDoubt): string {
  if (!spans.some((s, k) => k > 0 && s.bbox[0] < spans[k - 1].bbox[0])) return forwardText(spans, onDoubt);
  let out = '';
  const gaps = readingGaps(spans);
  for (const { spans: run, forward } of directionRuns(spans)) {
    const text = forward ? forwardText(run, onDoubt) : plain(run);
    if (!text) continue;
    const k = spans.indexOf(run[0]);
    out += (out && k > 0 && gaps[k] > Math.min(spans[k - 1].size, run[0].size) * 0.2 ? ' ' : '') + text;
  }
  return out.replace(/\s+/g, ' ').replace(/\s+([,.?)\]])/g, '$1').trim();
}

/**
 * Spans in reading order cut where the order turns: runs whose spans each start right of the one
 * before (left to right), and what is left between them (read leftwards, one span after another).
 */
function directionRuns(spans: Span[]): { spans: Span[]; forward: boolean }[] {
  const runs: { spans: Span[]; forward: boolean }[] = [];
  for (let k = 0; k < spans.length; k++) {
    const forward = (k > 0 && spans[k].bbox[0] >= spans[k - 1].bbox[0]) || (k + 1 < spans.length && spans[k + 1].bbox[0] >= spans[k].bbox[0]);
    const last = runs[runs.length - 1];
    // Two left-to-right runs in a row are two runs (a step leftwards parts them).
    if (last && last.forward === forward && (!forward || spans[k].bbox[0] >= spans[k - 1].bbox[0])) last.spans.push(spans[k]);
    else runs.push({ spans: [spans[k]], forward });
  }
  return runs;
}

/** Spans in x order as Markdown text with `$…$` formulas. */
function forwardText(spans: Span[], onDoubt?: OnDoubt): string {
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
