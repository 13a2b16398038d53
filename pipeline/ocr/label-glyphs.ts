// Option labels OCR reads in the page's other alphabet. A Russian or Greek page is recognised with
// its own language's letters first, so a Latin label `(A)` `(B)` `(C)` `(E)` comes out as the
// Cyrillic or Greek capital drawn the same (`(А)` `(В)` `(С)` `(Е)`), and `(D)`, drawn round, as
// `(0)`: the run of labels is broken and the question reads as having no options. Whether a page's
// labels are Latin is one decision over all its bracketed capitals: where none is a letter only the
// other alphabet has (Б, Г, Δ, Λ), its labels are Latin and the look-alikes are read as Latin.
import type { RawSpan } from '../providers/pdf.ts';

/** Cyrillic and Greek capitals drawn as a Latin capital is. */
const LOOK_ALIKE: Readonly<Record<string, string>> = {
  А: 'A', В: 'B', С: 'C', Е: 'E', Н: 'H', К: 'K', М: 'M', О: 'O', Р: 'P', Т: 'T', Х: 'X',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
};

/** A word that is a label: one capital (or the `0` a round `D` is read as) in brackets, or before a bracket or stop, and what follows it. */
const LABEL = /^([(（［[]?)(\p{Lu}|0)([)）］\].．])(.*)$/u;

/** The spans with the page's option labels read in the alphabet they are drawn in (see above). */
export function latinLabels(spans: RawSpan[]): RawSpan[] {
  const labels = spans.map(s => LABEL.exec(s.text.trim())).filter((m): m is RegExpExecArray => m !== null && (m[1] !== '' || m[3] === ')' || m[3] === '）'));
  const letters = labels.map(m => m[2]).filter(c => c !== '0');
  const lookAlike = letters.filter(c => LOOK_ALIKE[c]);
  // A letter only the other alphabet has: the page's labels are that alphabet's (А Б В Г).
  if (!lookAlike.length || letters.some(c => !/[A-Z]/.test(c) && !LOOK_ALIKE[c])) return spans;
  const latin = new Set(letters.map(c => LOOK_ALIKE[c] ?? c));
  // A `0` stands for D only in a run that has the letters round it.
  const zeroIsD = latin.has('C') && !latin.has('D');
  return spans.map(s => {
    const m = LABEL.exec(s.text.trim());
    if (!m || (m[1] === '' && m[3] !== ')' && m[3] !== '）')) return s;
    const letter = m[2] === '0' ? (zeroIsD ? 'D' : null) : LOOK_ALIKE[m[2]];
    return letter ? { ...s, text: `${m[1]}${letter}${m[3]}${m[4]}` } : s;
  });
}
