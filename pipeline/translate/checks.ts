// What people miss when they check a translation, checked by script: each failed check is a
// diagnostic on the item (rule `translate/<check>`). The checks read only the source and the
// translation, so they run the same on a model's reply and on a reviewer's edit.
import { formulas, katexError } from '../stages/math.ts';
import { termsIn, translationUsed, type Glossary } from './glossary.ts';
import { protect } from './placeholders.ts';
import { untranslatedWords } from './scripts.ts';

export interface ItemText {
  stem: string;
  options: { label: string; text: string }[];
}

export interface Check {
  /** `translate/katex`, `translate/formulas`, `translate/untranslated`, `translate/glossary`, `translate/numbers`, `translate/options`, … */
  rule: string;
  severity: 'warning' | 'error';
  message: string;
}

const fieldsOf = (t: ItemText) => [t.stem, ...t.options.map(o => o.text)];

/** The prose of a text: formulas, figures, labels and numbers (everything protection takes out) removed. */
export function proseOf(t: ItemText): string {
  return protect(fieldsOf(t)).fields.join('\n').replace(/⟦[MFLN]\d+⟧/g, ' ');
}

/** Elements of `a` missing from `b`, counted as multisets. */
function missing(a: readonly string[], b: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const x of b) left.set(x, (left.get(x) ?? 0) + 1);
  const out: string[] = [];
  for (const x of a) {
    const n = left.get(x) ?? 0;
    if (n) left.set(x, n - 1);
    else out.push(x);
  }
  return out;
}

const list = (xs: readonly string[], n = 4) => xs.slice(0, n).map(x => `"${x}"`).join(', ') + (xs.length > n ? ` and ${xs.length - n} more` : '');

// A number, and the unit written after it where it is one of these (Korean counters are words and
// are translated; these are symbols and are not).
const NUMBER = /(\d+(?:\.\d+)?)(?:\s*(%|°C|℃|°|cm|mm|km|kg|mg|mL|m|g|L)(?![A-Za-z]))?/g;

/** Every number of a text with its unit, formulas included (their `$` taken off so `$95$ %` reads 95 %). */
export function numbersOf(t: ItemText): string[] {
  return [...fieldsOf(t).join('\n').replace(/\$/g, '').matchAll(NUMBER)].map(m => (m[2] ? `${m[1]} ${m[2]}` : m[1]));
}

/** The checks of one translation against its source; an empty list when it passes them all. */
export function checkTranslation(source: ItemText, target: ItemText, from: string, to: string, glossary: Glossary): Check[] {
  const checks: Check[] = [];
  const add = (rule: string, message: string, severity: Check['severity'] = 'warning') => checks.push({ rule: `translate/${rule}`, severity, message });

  const targetFormulas = fieldsOf(target).flatMap(formulas);
  const broken = targetFormulas.map(f => ({ f, error: katexError(f) })).filter(x => x.error);
  for (const b of broken) add('katex', `a formula of the translation does not typeset in KaTeX (${b.error!.split('\n')[0]}): ${b.f}`, 'error');

  const sourceFormulas = fieldsOf(source).flatMap(formulas);
  const lost = missing(sourceFormulas, targetFormulas), extra = missing(targetFormulas, sourceFormulas);
  if (lost.length || extra.length) add('formulas', `the formulas differ from the source's: ${lost.length ? `missing ${list(lost)}` : ''}${lost.length && extra.length ? '; ' : ''}${extra.length ? `not in the source ${list(extra)}` : ''}`, 'error');

  const left = untranslatedWords(proseOf(target), from, to);
  if (left.length) add('untranslated', `${left.length} word(s) of the source language left in the translation: ${list(left)}`);

  const targetProse = proseOf(target);
  const unused = termsIn(proseOf(source), glossary).filter(t => !translationUsed(t, targetProse));
  if (unused.length) add('glossary', `glossary terms not translated as the glossary says: ${unused.map(t => `${t.term} → ${t.translations.join(' / ')}`).join('; ')}`);

  const sn = numbersOf(source), tn = numbersOf(target);
  const numLost = missing(sn, tn), numExtra = missing(tn, sn);
  if (numLost.length || numExtra.length) add('numbers', `numbers or units differ from the source's: ${numLost.length ? `missing ${list(numLost)}` : ''}${numLost.length && numExtra.length ? '; ' : ''}${numExtra.length ? `not in the source ${list(numExtra)}` : ''}`, 'error');

  const sl = source.options.map(o => o.label), tl = target.options.map(o => o.label);
  if (sl.length !== tl.length) add('options', `${tl.length} options where the source has ${sl.length}`, 'error');
  else if (sl.join('\u0000') !== tl.join('\u0000')) add('options', `option labels ${tl.join(' ')} where the source has ${sl.join(' ')}`, 'error');
  return checks;
}

/**
 * Glossary consistency over every translation of a pass (one store, one target language): a source
 * term that got two of its accepted translations is reported on the items that used the less
 * common one, naming the other. Items keyed by id.
 */
export function glossaryConsistency(items: readonly { id: string; source: ItemText; target: ItemText }[], glossary: Glossary): Map<string, Check[]> {
  const uses = new Map<string, Map<string, string[]>>(); // term → translation used → item ids
  for (const it of items) {
    const prose = proseOf(it.target);
    for (const term of termsIn(proseOf(it.source), glossary)) {
      const used = translationUsed(term, prose);
      if (!used) continue;
      const byTranslation = uses.get(term.term) ?? new Map<string, string[]>();
      byTranslation.set(used, [...(byTranslation.get(used) ?? []), it.id]);
      uses.set(term.term, byTranslation);
    }
  }
  const out = new Map<string, Check[]>();
  for (const [term, byTranslation] of uses) {
    if (byTranslation.size < 2) continue;
    // The majority stands; ties go to the glossary's preferred order.
    const preferred = glossary.terms.find(t => t.term === term)?.translations ?? [];
    const ranked = [...byTranslation.entries()].sort((a, b) => b[1].length - a[1].length || preferred.indexOf(a[0]) - preferred.indexOf(b[0]));
    const [major] = ranked[0];
    for (const [minor, ids] of ranked.slice(1)) {
      for (const id of ids) {
        const message = `"${term}" is "${minor}" here but "${major}" in ${byTranslation.get(major)!.length} other item(s) of this set (e.g. ${byTranslation.get(major)![0]}): one translation per term`;
        out.set(id, [...(out.get(id) ?? []), { rule: 'translate/glossary', severity: 'warning', message }]);
      }
    }
  }
  return out;
}
