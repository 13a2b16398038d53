// A key's answer named as one of the options a question prints. Keys write an option by its label
// (`D`, `б`, `ウ`, `③`, two letters `CD` for two), by its place (`3` for the third), or, read by OCR,
// as a look-alike of the label (Latin `a` for Cyrillic `а`); the question prints its own labels
// (`(a)`, `Ａ．`, `①`). The answer recorded is the question's own label.

import { asLatinLookAlike } from '../text/look-alike.ts';

const CIRCLED = '①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳';

/**
 * Option letters in their order, per script: where a key gives a letter past the options a
 * question was read with (E where A–D were read), its place in this order says which option it is.
 */
const ALPHABETS: string[][] = [
  [...'abcdefgh'], [...'абвгдежз'], [...'αβγδεζηθ'], [...'ㄱㄴㄷㄹㅁㅂㅅㅇ'], [...'가나다라마바사아'],
  [...'アイウエオカキク'], [...'あいうえおかきく'], [...'कखगघङचछज'], [...'กขคงจฉชซ'], ['أ', 'ب', 'ج', 'د', 'ه', 'و', 'ز', 'ح'],
];

/**
 * The option letters of a paper's own script where its options are labelled in them (а б в г д),
 * null where they are Latin letters, digits or circled: by the labels its questions were read
 * with, else by how often the text prints a letter as a label, `(а)` or `а)`, against `(A)` / `A)`.
 */
export function optionAlphabetOf(labels: string[], text: string): string[] | null {
  const count = (letters: string[]) => {
    const fromLabels = labels.filter(l => letters.includes(labelKey(l))).length;
    const re = new RegExp(`(?:^|[\\s(（])(?:${letters.map(l => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})[)）.]`, 'gu');
    return fromLabels * 10 + (text.toLowerCase().match(re) ?? []).length;
  };
  const latin = count(ALPHABETS[0].slice(0, 5));
  const best = ALPHABETS.slice(1).map(a => ({ a, n: count(a.slice(0, 5)) })).sort((x, y) => y.n - x.n)[0];
  return best.n > latin && best.n >= 3 ? best.a.slice(0, 5) : null;
}

/** Glyphs OCR reads for an option letter of another script or form that looks the same (katakana エ as the ideograph 工; Hangul ㄹ, alone in a cell, as the syllable 근). */
const MISREAD_AS: Record<string, string> = { '工': 'エ', '才': 'オ', '力': 'カ', '口': 'ロ', '근': 'ㄹ' };

/**
 * What OCR may return for an answer written in these option letters (with digits and what a
 * value holds), and how its reading is folded back onto the letters.
 */
export function answerCharacters(letters: string[]): { whitelist: string; fold: (text: string) => string } {
  const misread = Object.entries(MISREAD_AS).filter(([, to]) => letters.includes(to)).map(([from]) => from);
  return {
    whitelist: `0123456789-./${letters.join('')}${misread.join('')}`,
    fold: text => [...text].map(c => (misread.includes(c) ? MISREAD_AS[c] : c)).join(''),
  };
}

/** A label or answer for comparing: circled as its digit, width and case folded, brackets, dots and the Arabic joining stroke dropped. */
export function labelKey(s: string): string {
  const t = [...s.trim()].map(c => (CIRCLED.includes(c) ? String(CIRCLED.indexOf(c) + 1) : c)).join('');
  return t.normalize('NFKC').toLowerCase().replace(/[\s()（）[\]【】.．:：、)\u0640]/gu, '').replace(/ـ/gu, '');
}

/** The place of a letter in its script's option order, and that order; null for anything else. */
function placeIn(key: string): { alphabet: string[]; at: number } | null {
  for (const alphabet of ALPHABETS) {
    const at = alphabet.indexOf(key);
    if (at >= 0) return { alphabet, at };
  }
  return null;
}

/** Whether a key's answer is one letter of an option order (`D`, `б`, `ㄷ`): a choice, where a word or a later letter (`x`) may be a value. */
export const isOptionLetter = (value: string) => [...value.trim()].length === 1 && placeIn(labelKey(value)) !== null;

/** The label recorded for an option: as printed, less brackets and dots (a circled label kept circled). */
export function shownLabel(label: string): string {
  const t = label.trim();
  if ([...t].length === 1 && CIRCLED.includes(t)) return t;
  // Folded as NFKC does (full-width `Ａ` as `A`, `⑴` as `(1)`), but a Hangul letter as printed: NFKC
  // takes the compatibility jamo a paper labels its options with (ㄱ ㄴ ㄷ ㄹ) to the conjoining ones.
  return [...t].map(c => (HANGUL_LETTER.test(c) ? c : c.normalize('NFKC'))).join('').replace(/^[(（[]+|[)）\].．:：、]+$/gu, '');
}

/** Hangul compatibility jamo (U+3131–U+318E): option labels ㄱ ㄴ ㄷ ㄹ. */
const HANGUL_LETTER = /[\u3131-\u318E]/u;

export type OptionAnswer =
  /** The options the answer names (one, or several for a multiple-answer key). */
  | { labels: string[] }
  /** The answer names an option past those the question was read with (⑤ where ①② were read): its label. */
  | { beyond: string }
  | null;

/** The options of a question (by their printed labels) that a key's answer names. */
export function optionAnswer(value: string, labels: string[]): OptionAnswer {
  if (!labels.length) return null;
  const keys = labels.map(labelKey);
  const v = labelKey(value);
  if (!v) return null;
  const exact = keys.indexOf(v);
  if (exact >= 0) return { labels: [labels[exact]] };
  const near = keys.map(asLatinLookAlike).indexOf(asLatinLookAlike(v));
  if (near >= 0) return { labels: [labels[near]] };
  // By place: a digit where the labels are letters or circled (3 for the third).
  if (/^\d+$/.test(v) && !keys.some(k => /^\d+$/.test(k))) {
    const i = Number(v) - 1;
    if (i >= 0 && i < labels.length) return { labels: [labels[i]] };
  }
  // Several letters, each an option (`CD`).
  const chars = [...v];
  if (chars.length > 1) {
    const each = chars.map(c => keys.indexOf(c));
    if (each.every(i => i >= 0) && new Set(each).size === each.length) return { labels: each.sort((a, b) => a - b).map(i => labels[i]) };
  }
  // Past the options read: the key's letter in the labels' own order (E after A–D, ⑤ after ①②).
  if (/^\d+$/.test(v) && keys.every((k, i) => k === String(i + 1))) {
    const n = Number(v);
    if (n > labels.length && n <= 10) return { beyond: labels.every(l => CIRCLED.includes(l.trim())) ? CIRCLED[n - 1] : String(n) };
    return null;
  }
  const first = placeIn(keys[0]);
  const at = placeIn(v) ?? placeIn(asLatinLookAlike(v));
  if (first && first.at === 0 && at && at.alphabet === first.alphabet && at.at >= labels.length && keys.every((k, i) => k === first.alphabet[i])) {
    const letter = first.alphabet[at.at];
    const shown = shownLabel(labels[0]);
    return { beyond: shown !== shown.toLowerCase() ? letter.toUpperCase() : letter };
  }
  return null;
}
