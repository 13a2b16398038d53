// Option labels OCR reads in the page's other alphabet. A Russian or Greek page is recognised with
// its own language's letters first, so a Latin label `(A)` `(B)` `(C)` `(E)` comes out as the
// Cyrillic or Greek capital drawn the same (`(А)` `(В)` `(С)` `(Е)`), and `(D)`, drawn round, as
// `(0)`: the run of labels is broken and the question reads as having no options. Whether a page's
// labels are Latin is one decision over all its bracketed capitals, and its capitals with a stop
// (`Α. 42  Β. 32`) that stand in a row, or stacked one per line, next to the next letter of their
// alphabet (an initial, `А. С. Пушкин`, stands beside no such letter): where none is a letter only
// the other alphabet has (Б, Г, Δ, Λ), its labels are Latin and the look-alikes are read as Latin.
import type { RawSpan } from '../providers/pdf.ts';
import { spansInRows } from './column-spans.ts';

/** Cyrillic and Greek capitals drawn as a Latin capital is. */
const LOOK_ALIKE: Readonly<Record<string, string>> = {
  А: 'A', В: 'B', С: 'C', Е: 'E', Н: 'H', К: 'K', М: 'M', О: 'O', Р: 'P', Т: 'T', Х: 'X',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
};

/** A word that is a label: one capital (or the `0` a round `D` is read as) in brackets, or before a bracket or stop, and what follows it. */
const LABEL = /^([(（［[]?)(\p{Lu}|0)([)）］\].．])(.*)$/u;

/** A label as read: its opening bracket, its capital (its marks left off: OCR puts a breathing on a round `Ο` now and then, `Ὀ`), its stop and what follows. */
interface Read { open: string; letter: string; stop: string; rest: string }

/** A label in brackets or closed by one (`(А)`, `Α)`). */
const bracketed = (l: Read) => l.open !== '' || l.stop === ')' || l.stop === '）';
/** A capital and a stop, a value or nothing after it but no letters (`Α.`, `Β.8`): a label in a row of them, or an initial. */
const stopped = (l: Read) => !bracketed(l) && l.letter !== '0' && !/\p{L}/u.test(l.rest);
/** A round capital (or `0`) where a `D` may stand: OCR reads a round `D` as `O`, `О`, `Ο` or `0`. */
const round = (c: string) => c === '0' || (LOOK_ALIKE[c] ?? c) === 'O';
/** Two labels' letters that follow each other, in their own alphabet or as the Latin they look like (`Α.` `Β.`, `C.` `D.`). */
const follows = (a: string, b: string) => b.codePointAt(0)! - a.codePointAt(0)! === 1 || (LOOK_ALIKE[b] ?? b).charCodeAt(0) - (LOOK_ALIKE[a] ?? a).charCodeAt(0) === 1;
/** A round letter after a C (`С.` `О.`): a D read round, where the C follows a B itself (an initial `С. О.` does not). */
const roundAfterC = (a: string, b: string) => (LOOK_ALIKE[a] ?? a) === 'C' && round(b);

/** Labels stacked one under another stand with their left edges within this share of their height… */
const STACK_ALIGN = 0.5;
/** …the next at most this many of their heights below (a line's pitch, not a paragraph away). */
const STACK_PITCH = 2.5;

/** Each label with the label stacked right under it (options set one per line), where there is one. */
function stackedPairs(labels: RawSpan[]): [RawSpan, RawSpan][] {
  const out: [RawSpan, RawSpan][] = [];
  for (const a of labels) {
    const h = a.bbox[3] - a.bbox[1];
    const below = labels.filter(b => Math.abs(b.bbox[0] - a.bbox[0]) <= h * STACK_ALIGN && b.baseline > a.baseline && b.baseline - a.baseline <= h * STACK_PITCH)
      .sort((p, q) => p.baseline - q.baseline)[0];
    if (below) out.push([a, below]);
  }
  return out;
}

/** The spans with the page's option labels read in the alphabet they are drawn in (see above). */
export function latinLabels(spans: RawSpan[]): RawSpan[] {
  const read = new Map<RawSpan, Read>();
  for (const s of spans) {
    const m = LABEL.exec(s.text.trim());
    if (m) read.set(s, { open: m[1], letter: m[2].normalize('NFD').replace(/\p{M}/gu, ''), stop: m[3], rest: m[4] });
  }
  // A capital with a stop counts where it stands right before or after the next letter, in a row or
  // stacked one under the other (options set one per line).
  const inRow = new Set<RawSpan>();
  const candidates = spans.filter(s => read.has(s) && (stopped(read.get(s)!) || (read.get(s)!.letter === '0' && !bracketed(read.get(s)!))));
  const pairs = [...spansInRows(candidates).flatMap(row => row.slice(1).map((b, k) => [row[k], b] as [RawSpan, RawSpan])), ...stackedPairs(candidates)];
  for (const [a, b] of pairs) if (follows(read.get(a)!.letter, read.get(b)!.letter)) inRow.add(a).add(b);
  for (const [a, b] of pairs) if (inRow.has(a) && roundAfterC(read.get(a)!.letter, read.get(b)!.letter)) inRow.add(b);
  const labels = [...read].filter(([s, l]) => bracketed(l) || inRow.has(s)).map(([, l]) => l);
  const letters = labels.map(l => l.letter).filter(c => c !== '0');
  const lookAlike = letters.filter(c => LOOK_ALIKE[c]);
  // A letter only the other alphabet has: the page's labels are that alphabet's (А Б В Г).
  if (!lookAlike.length || letters.some(c => !/[A-Z]/.test(c) && !LOOK_ALIKE[c])) return spans;
  const latin = new Set(letters.map(c => LOOK_ALIKE[c] ?? c));
  // A round letter stands for D only in a run that has the letters round it.
  const roundIsD = latin.has('C') && !latin.has('D');
  // Every label so read takes the Latin letter: those with a stop too, in a row of them or not (`Ε. 8`
  // alone on a grid's last row), as a value or nothing follows them.
  return spans.map(s => {
    const l = read.get(s);
    if (!l || (!bracketed(l) && !stopped(l) && !inRow.has(s))) return s;
    const letter = round(l.letter) && roundIsD && (bracketed(l) || inRow.has(s)) ? 'D' : l.letter === '0' ? null : LOOK_ALIKE[l.letter];
    return letter ? { ...s, text: `${l.open}${letter}${l.stop}${l.rest}` } : s;
  });
}
