// math: every formula the pipeline emits must typeset. Each `$…$` in stems and options is parsed
// with KaTeX (what the review page renders with); one that does not parse, or that the builder
// rebuilt with doubts, is reported, and a failing one is replaced by its characters as text so
// no broken string leaves the pipeline.
import { katex } from '../providers/lazy.ts';
import type { PaperDocument, Question } from '../document.ts';
import type { Stage } from '../stage.ts';

/** `$…$` and `$$…$$`; an escaped `\$` (a printed dollar sign) opens and closes nothing. */
const FORMULA = /(?<!\\)\$\$([\s\S]+?)(?<!\\)\$\$|(?<!\\)\$((?:\\.|[^$\\])+?)\$/g;

export function katexError(latex: string): string | null {
  try {
    katex().renderToString(latex, { throwOnError: true, strict: 'ignore', output: 'mathml' });
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Formulas of a piece of Markdown. */
export function formulas(text: string): string[] {
  return [...text.matchAll(FORMULA)].map(m => m[1] ?? m[2]);
}

/** A formula KaTeX cannot parse, as escaped upright text that it can. */
function asText(latex: string): string {
  return `\\text{${latex.replace(/[\\{}$&#%_^~]/g, c => (c === '\\' ? '' : `\\${c}`))}}`;
}

function check(doc: PaperDocument, q: Question, text: string, where: string): string {
  return text.replace(FORMULA, (whole, display: string | undefined, inline: string | undefined) => {
    const latex = display ?? inline ?? '';
    const error = katexError(latex);
    if (!error) return whole;
    doc.messages.warn('math/katex', `${where}: a formula KaTeX cannot parse was kept as text (${error.split('\n')[0]}): ${latex}`, { page: q.page, item: q.id, stage: 'math' });
    return display !== undefined ? `$$${asText(latex)}$$` : `$${asText(latex)}$`;
  });
}

export function mathStage(): Stage {
  return {
    name: 'math',
    kind: 'processor',
    run(doc) {
      for (const q of doc.questions) {
        q.stem = check(doc, q, q.stem, 'stem');
        for (const o of q.options) o.text = check(doc, q, o.text, `option ${o.label}`);
      }
    },
  };
}
