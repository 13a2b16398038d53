// Conventions learned from a paper's own question blocks, once a first reading has found them: the
// labels its options are printed with (any alphabet — A B C, α β γ, а б в, क ख ग, ア イ ウ, ①, (1) —
// in any shape around it), and how it prints marks (a number in brackets with the word it recurs
// with: `(2 marks)`, `[3 punti]`, `(2 P.)`, `[4]`, `(0–2)`). Nothing here names a language: the
// alphabets are data (glossary/labels/alphabets.json), and what a paper uses is what recurs in it.
import fs from 'node:fs';
import path from 'node:path';
import type { Line, Span } from '../document.ts';
import { rawText } from '../text/line-text.ts';
import { escapeRegExp } from '../template.ts';
import { misreadMarks } from './marks.ts';

export interface OptionScheme { id: string; markers: string[]; pattern?: string }

interface AlphabetData { alphabets: Record<string, string[]>; shapes: Record<string, string>; bare: string[] }

/** How many labels of an alphabet an option scheme counts with. */
const SCHEME_LABELS = 5;

let schemes: OptionScheme[] | null = null;
let alphabetData: AlphabetData | null = null;

/** glossary/labels/alphabets.json, read once. */
function readAlphabets(root: string): AlphabetData {
  return (alphabetData ??= JSON.parse(fs.readFileSync(path.join(root, 'glossary', 'labels', 'alphabets.json'), 'utf8')) as AlphabetData);
}

/** Every option scheme the alphabets and shapes make: `latin-upper-paren` is `(A)` … `(E)`. */
export function optionSchemes(root: string): OptionScheme[] {
  if (schemes) return schemes;
  const data = readAlphabets(root);
  const out: OptionScheme[] = [];
  for (const [name, letters] of Object.entries(data.alphabets)) {
    const markers = letters.slice(0, SCHEME_LABELS);
    const alternation = [...markers].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|');
    for (const [shape, source] of Object.entries(data.shapes)) {
      if ((shape === 'bare') !== data.bare.includes(name)) continue;
      out.push({ id: `${name}-${shape}`, markers, pattern: source.replace('{L}', alternation) });
    }
  }
  return (schemes = out);
}

/** The label alphabets (each in order), and what OCR misreads each label as on a scan (glossary/labels/ocr-look-alikes.json). */
export interface LabelAlphabets { alphabets: Record<string, string[]>; lookAlikes: Record<string, string[]> }

let labelData: LabelAlphabets | null = null;

export function labelAlphabets(root: string): LabelAlphabets {
  if (labelData) return labelData;
  const { $comment: _, ...lookAlikes } = JSON.parse(fs.readFileSync(path.join(root, 'glossary', 'labels', 'ocr-look-alikes.json'), 'utf8')) as Record<string, string[]>;
  return (labelData = { alphabets: readAlphabets(root).alphabets, lookAlikes });
}

/** A block of lines to learn from, and the spans of it that are not its text (the question's number). */
export interface Block { lines: Line[]; skip: Set<Span> }

const blockText = (b: Block) => b.lines.map(l => rawText(l.spans.filter(s => !b.skip.has(s) && !s.math)));

/**
 * A run may step over one label OCR garbled (`(1)26 (241 (3)46 (4) 36`) where it shows at least this
 * many labels in order all the same: a lone later label after the first (`(1) … f(3)`) is no run.
 */
const GARBLED_RUN = 3;

/** The longest run of a scheme's labels in order (first, second, …) in a block's text: the labels it shows. */
function longestRun(texts: string[], scheme: OptionScheme, re: RegExp): number {
  let best = 0, run = 0, seen = 0, gap = false;
  for (const text of texts) {
    for (const m of text.matchAll(re)) {
      const i = scheme.markers.indexOf(m[1]);
      if (i === 0) { run = 1; seen = 1; gap = false; }
      else if (run > 0 && i === run) { run++; seen++; }
      else if (run > 0 && !gap && i === run + 1) { run += 2; seen++; gap = true; }
      if (!gap || seen >= GARBLED_RUN) best = Math.max(best, seen);
    }
  }
  return best;
}

/**
 * The option scheme the paper's questions print, or null: the one whose labels run in order (A then
 * B then C…) in the most question blocks. Blocks are the first reading's questions less their numbers,
 * so a numbering `1.` `2.` never counts as options `1.` `2.`.
 */
export function learnOptions(blocks: Block[], root: string): (OptionScheme & { blocks: number }) | null {
  const texts = blocks.map(blockText);
  let best: (OptionScheme & { blocks: number }) | null = null, bestScore = 0;
  for (const scheme of optionSchemes(root)) {
    const re = new RegExp(scheme.pattern ?? `(${scheme.markers.map(escapeRegExp).join('|')})`, 'gu');
    let found = 0, labels = 0;
    for (const t of texts) {
      const run = longestRun(t, scheme, re);
      if (run >= 2) { found++; labels += run; }
    }
    // Blocks with options count most; longer runs break ties (a figure's panels (a) (b) are two).
    const score = found * 10 + labels;
    if (found >= 2 && score > bestScore) { bestScore = score; best = { ...scheme, blocks: found }; }
  }
  return best;
}

/** Another scheme counts where it runs in at least this many of the questions the paper's first scheme leaves without a run. */
const OTHER_SCHEME_BLOCKS = 2;
/** A paper prints at most this many label schemes besides its first (choices in one section, parts in another). */
const OTHER_SCHEMES_MOST = 2;

/**
 * The label schemes a paper prints besides `first` (its scheme over most questions): a section that
 * chooses with `A.`–`D.` where the rest open parts `(a)`, `(b)`. Each is the scheme that runs in order
 * in the most of the questions no scheme found so far runs in.
 */
export function learnOtherOptions(blocks: Block[], root: string, first: { markers: string[]; pattern?: string }): OptionScheme[] {
  const texts = blocks.map(blockText);
  const runs = (scheme: { markers: string[]; pattern?: string }) => {
    const re = new RegExp(scheme.pattern ?? `(${scheme.markers.map(escapeRegExp).join('|')})`, 'gu');
    return texts.map(t => longestRun(t, { id: '', ...scheme }, re) >= 2);
  };
  let open = runs(first).map(r => !r);
  const out: OptionScheme[] = [];
  while (out.length < OTHER_SCHEMES_MOST) {
    let best: { scheme: OptionScheme; found: boolean[]; count: number } | null = null;
    for (const scheme of optionSchemes(root)) {
      if (scheme.markers.join() === first.markers.join() && scheme.pattern === first.pattern) continue;
      const found = runs(scheme).map((r, i) => r && open[i]);
      const count = found.filter(Boolean).length;
      if (count >= OTHER_SCHEME_BLOCKS && count > (best?.count ?? 0)) best = { scheme, found, count };
    }
    if (!best) break;
    out.push(best.scheme);
    open = open.map((o, i) => o && !best!.found[i]);
  }
  return out;
}

/** Where a formula stood in a line's text as marks are learned from it. */
const FORMULA = '\uFFFC';

/**
 * A block's lines as marks are learned from them: a formula as one placeholder, so that a bracket
 * right after one (`f(2)` with `f` set as a formula) is seen to follow it, not to stand alone; OCR's
 * misreadings of a mark's brackets undone, as marks are read (marks.ts misreadMarks: `《2分)`).
 */
const markBlockText = (b: Block) => b.lines.map(l => misreadMarks(rawText(l.spans.filter(s => !b.skip.has(s)).map(s => (s.math ? { ...s, text: FORMULA } : s)))));

/**
 * A mark as printed: a number in brackets, perhaps a range from 0 (its dash read by OCR as two:
 * `(0--3)`; or lost: a font whose dash glyph maps to a space in the text layer gives `(0 4)`),
 * perhaps with a word after it.
 */
/**
 * A mark in brackets: the bracket, a range's `0–` (or its `–0` after the value: a range `(0–3)` in a
 * line set right to left after a Latin label reads `(3–0)` in spans' order), the value, a word.
 */
const MARK_TOKEN = /([(（\[【])\s*(0\s*[\p{Pd}~～]{1,2}\s*|0\s+(?=\d))?(\d{1,3}(?:[.,]\d{1,2})?)(\s*[\p{Pd}~～]{1,2}\s*0(?![\d.,]))?\s*((?:[\p{L}\p{M}]+\.?)(?:\s[\p{L}\p{M}]+\.?)?)?\s*([)）\]】])/gu;
/** A mark stands at the end of its line (or right after a part's label): this share of a shape's uses at least. */
const MARK_PLACE = 0.6;
/** A shape recurs at least this many times to be the paper's way of printing marks. */
const MARK_USES = 2;
/** Marks are small numbers. */
const MARK_MAX = 100;

export interface MarkShape { open: string; range: boolean; word: string; uses: number; /** The values read in this shape, as printed (`1.25`). */ values?: string[] }

/**
 * How the paper prints marks, learned from its question blocks: the bracketed-number shapes (bracket,
 * a range from 0 or not, the word after the number) that recur, standing at a line's end or at its
 * head. A bare number in round brackets counts only where it stands alone at the line's end (a
 * right-aligned `(3)`), never inside the text (`f(1)`).
 */
export function learnMarks(blocks: Block[]): MarkShape[] {
  const shapes = new Map<string, MarkShape & { placed: number }>();
  for (const b of blocks) {
    for (const text of markBlockText(b)) {
      for (const m of text.matchAll(MARK_TOKEN)) {
        const value = Number(m[3].replace(',', '.'));
        if (!(value <= MARK_MAX)) continue;
        const word = m[5] ?? '';
        const range = !!(m[2] || m[4]);
        // `(2x)`: a formula; a unit written in one letter has no case (`[3 点]`, `(5分)`, `[4점]`).
        if ([...word].length === 1 && /[\p{Lu}\p{Ll}]/u.test(word)) continue;
        const open = m[1] === '[' || m[1] === '【' ? '[' : '(';
        // A bare `(2)` right after a letter, a digit or a formula is its argument (`f(2)`), not a mark.
        if (open === '(' && !word && !range && /[\p{L}\p{N}\uFFFC]$/u.test(text.slice(0, m.index!))) continue;
        const key = `${open}|${range}|${word.toLocaleLowerCase()}`;
        const end = m.index! + m[0].length;
        const atEnd = /^[\s.,;:：。]*$/u.test(text.slice(end));
        const atHead = m.index! <= 12;
        if (!shapes.has(key)) shapes.set(key, { open, range, word, uses: 0, placed: 0, values: [] });
        const s = shapes.get(key)!;
        s.uses++;
        if (!s.values!.includes(m[3])) s.values!.push(m[3]);
        // A bare `(3)` is a mark only at the line's end: at its head it is a label (`(1) 8`, a part's `(2)`).
        const bare = open === '(' && !word && !range;
        if (atEnd || (atHead && !bare)) s.placed++;
      }
    }
  }
  return [...shapes.values()]
    .filter(s => s.uses >= MARK_USES && s.placed / s.uses >= MARK_PLACE && (s.word || s.open === '[' || s.range || s.placed === s.uses))
    .map(({ placed: _, ...s }) => s);
}

/** How many digits OCR makes of a mark's unit at most (`分` read `4`, `57`). */
const UNIT_DIGITS = 2;

/**
 * On a scanned paper, a mark whose unit OCR read as digits (`(1.25分)` read `(1.2577)`, `(4分)` read
 * `(44)`): a bracket ending its line that holds one of the values the paper prints with its unit,
 * then at most UNIT_DIGITS digits, the whole being no value it prints. A pattern whose group holds
 * the value, or null where the paper prints no unit after its marks.
 */
export function unitReadAsDigits(shapes: MarkShape[]): string | null {
  const values = [...new Set(shapes.filter(s => s.word && !s.range).flatMap(s => s.values ?? []))]
    .map(v => v.replace(',', '.'))
    .sort((a, b) => b.length - a.length);
  if (!values.length) return null;
  // Longest first: `(3.2594)` is 3.25 and `94`, not 3 and `.2594`.
  const printed = values.map(v => v.split('.').map(escapeRegExp).join('[.,]')).join('|');
  return `(?<![\\p{L}\\p{N}\uFFFC)])[(（]\\s*(?!(?:${printed})\\s*[)）])(${printed})\\s*\\d{1,${UNIT_DIGITS}}\\s*[)）](?=[\\s.,;:。]*$)`;
}

/** What OCR leaves of a mark's unit at most (`点` read `A`, `分` read `分|`'s `|` aside): this many characters. */
const UNIT_GARBLED = 3;

/**
 * On a scanned paper, a mark whose unit or closing bracket OCR garbled (`[2 分]` read `[2 4]`,
 * `[3 分|`, `(3点)` read `(3A)`, `[1.25 점|`): a bracket the paper opens its marks with where it
 * prints a unit, ending its line, holding a number, then what is left of the unit — at most
 * UNIT_GARBLED characters that are no digit, or one digit set apart by a space (`[24]` is
 * twenty-four) — and a closing bracket, a `|` (OCR's `]`) or none. Not after a letter or a digit
 * (`f(2x)` is a formula). A pattern whose group holds the value, or null where the paper prints no
 * unit after its marks.
 */
export function unitGarbled(shapes: MarkShape[]): string | null {
  const opens = [...new Set(shapes.filter(s => s.word && !s.range).map(s => s.open))];
  if (!opens.length) return null;
  const open = opens.map(o => (o === '[' ? '\\[【' : '(（')).join('');
  const close = '[)）\\]】|]';
  const rest = `[^\\s\\d)）\\]】|(（\\[【]{1,${UNIT_GARBLED}}`;
  return `(?<![\\p{L}\\p{N}\uFFFC)])[${open}]\\s*(\\d{1,3}(?:[.,]\\d{1,2})?)(?:\\s+\\d|\\s*${rest})\\s*${close}?(?=[\\s.,;:。]*$)`;
}

/** The shapes as one pattern (each alternative's group holds the value), or null where there are none. */
export function marksPattern(shapes: MarkShape[]): string | null {
  if (!shapes.length) return null;
  return shapes.map(s => {
    const open = s.open === '[' ? '[\\[【]' : '[(（]', close = s.open === '[' ? '[\\]】]' : '[)）]';
    const word = s.word ? `\\s*${escapeRegExp(s.word)}` : '';
    // A bare `(n)` only at the end of its line.
    const tail = !s.word && s.open === '(' && !s.range ? '(?=[\\s.,;:]*$)' : '';
    const value = '(\\d{1,3}(?:[.,]\\d{1,2})?)';
    // A range from 0, in either order (MARK_TOKEN).
    const body = s.range ? `(?:0(?:\\s*[\\p{Pd}~～]{1,2}|\\s)\\s*${value}|${value}\\s*[\\p{Pd}~～]{1,2}\\s*0(?![\\d.,]))` : value;
    return `${open}\\s*${body}${word}\\s*${close}${tail}`;
  }).join('|');
}
