// Which tesseract language reads a text's script: the script most of its letters are written in,
// beside English (numbers, Latin letters). Only languages whose data is installed are named; a
// script with none falls back to English, which reads digits and Latin letters.
import fs from 'node:fs';
import { TESSDATA } from '../providers/ocr.ts';

/** Unicode scripts and the tesseract language data that reads them (Debian package tesseract-ocr-<lang>). */
const SCRIPT_LANGUAGE: [script: string, lang: string][] = [
  ['Hangul', 'kor'], ['Hiragana', 'jpn'], ['Katakana', 'jpn'], ['Han', 'chi_sim'], ['Cyrillic', 'rus'],
  ['Greek', 'ell'], ['Devanagari', 'hin'], ['Arabic', 'ara'], ['Thai', 'tha'],
];
/** A script counts where it writes at least this share of the letters (kana: any, as Japanese mixes it with Han). */
const SCRIPT_SHARE = 0.2;

/** Whether tesseract's data for a language is installed. */
export const installed = (lang: string) => fs.existsSync(`${TESSDATA}/${lang}.traineddata`);

/** The tesseract language set for a text (`rus+eng`, `jpn+eng`, `eng`). */
export function ocrLanguageOf(text: string): string {
  const letters = [...text].filter(c => /\p{L}/u.test(c));
  if (!letters.length) return 'eng';
  const count = (script: string) => letters.filter(c => new RegExp(`\\p{Script=${script}}`, 'u').test(c)).length;
  const kana = count('Hiragana') + count('Katakana');
  let best: string | null = kana > 0 && kana + count('Han') >= letters.length * SCRIPT_SHARE ? 'jpn' : null;
  if (!best) {
    const ranked = SCRIPT_LANGUAGE.map(([s, l]) => ({ l, n: count(s) })).sort((a, b) => b.n - a.n);
    if (ranked[0].n >= letters.length * SCRIPT_SHARE) best = ranked[0].l;
  }
  return best && installed(best) ? `${best}+eng` : 'eng';
}

/** Scripts of SCRIPT_LANGUAGE written right to left. */
const RTL_SCRIPTS = new Set(['Arabic']);

/** Whether a language set reads a script written right to left (`ara+eng`). */
export const readsRtlScript = (lang: string) => SCRIPT_LANGUAGE.some(([s, l]) => RTL_SCRIPTS.has(s) && lang.split('+').includes(l));

/** Whether a language set reads a script other than Latin (`jpn+eng`, `hin+eng`; not `eng` or `vie`): its pages' lines of Latin letters are better read by the Latin reader. */
export const readsOtherScript = (lang: string) => SCRIPT_LANGUAGE.some(([, l]) => lang.split('+').includes(l));

/** Every decimal digit Unicode knows (ASCII's, fullwidth, Devanagari's ०–९, Arabic's ٠–٩, Thai's ๐–๙…), found once. */
let decimalDigits: string[] | null = null;

/**
 * Whether the script a language set reads (`hin+eng` reads Devanagari) writes decimal digits of its
 * own. A model trained on such a script reads Latin digits as its own digits' look-alikes (Hindi's
 * reads `10.` as `40.`, drops the `1` of `1.5`): numbers on its pages are read again by the Latin
 * reader. Korean's, Chinese's, Russian's or Greek's models read the Latin digits their scripts use.
 */
export function writesOwnDigits(lang: string): boolean {
  decimalDigits ??= Array.from({ length: 0x20000 }, (_, cp) => String.fromCodePoint(cp)).filter(c => /\p{Nd}/u.test(c));
  const scripts = SCRIPT_LANGUAGE.filter(([, l]) => lang.split('+').includes(l)).map(([script]) => new RegExp(`\\p{Script=${script}}`, 'u'));
  return scripts.some(re => decimalDigits!.some(c => re.test(c)));
}
