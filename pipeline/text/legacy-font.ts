// Text in a legacy 8-bit font: fonts made before Unicode for Devanagari (Kruti Dev, DevLys), Tamil,
// Bengali, Gurmukhi … draw that script's glyphs at the code points of Latin letters and signs, so a
// PDF's text layer holds `fuEufyf[kr esa ls dkSu` where the page shows निम्नलिखित में से कौन. Such
// a font is told by what its text is, not by its name: words of no language written in Latin
// letters — signs inside words (`la[;k`, `{ks=kQy`), a capital after a small letter (`dkSu`, `gS`),
// words of two letters or more with no vowel (`ls`, `lh`) — make most of its words, where in any
// real language, formulas and units included, they are a small share.

/** At least this many words of a font are weighed before it is judged (a heading alone is too little). */
export const LEGACY_MIN_WORDS = 20;
/** A font whose words are odd at least this often sets no language: a legacy 8-bit font. */
export const LEGACY_SHARE = 0.4;
/** One text alone (a stored record's stem) is judged on fewer words: at least this many odd ones… */
export const TEXT_MIN_ODD = 3;
/** …making at least this share of its words (a question printed in English and in a legacy font is half of each). */
export const TEXT_SHARE = 0.3;

/** Punctuation a sentence puts around a word in Latin-script languages (taken off before a word is read). */
const AROUND = /^[("'‘“«¿¡[]+|[)"'’”».,:;!?\]]+$/gu;
/** A sign inside a word, between letters, that no language's spelling puts there (hyphens, apostrophes and stops aside). */
const INNER_SIGN = /\p{L}[^\p{L}\p{N}\p{M}\s'’´.\-‐]+\p{L}/u;
/** An apostrophe inside a word that is neither an English contraction nor a Romance elision (l'eau, dell'area). */
const ODD_APOSTROPHE = /\p{L}['’´]\p{L}/u;
const CONTRACTION = /['’´](?:s|t|d|m|ll|re|ve)$/iu;
const ELISION = /^\p{L}{1,6}['’´][aeiouhyàâäáéèêëíîïóôöúûüœ]/iu;
/**
 * A word as a legacy font's codes can make it: a run of ASCII and Latin-1/Latin Extended
 * characters. Text of other scripts (CJK, Hangul, Devanagari in Unicode) is no part of it, so
 * `元素铬（Cr）` gives `Cr` alone.
 */
const LATIN_RUN = /[\u0021-\u007E\u00A1-\u024F\u2018\u2019]+/gu;
/** A capital right after a small letter inside a word. */
const CASE_FLIP = /\p{Ll}\p{Lu}/u;
/** Letters Latin-script languages count as vowels (y included: by, my, rhythm). */
const VOWEL = /[aeiouyàâäáãåéèêëíìîïóòôöõúùûüýÿæœ]/iu;

export interface LegacyEvidence {
  /** Words weighed: two Latin letters or more, four characters or more, no formula. */
  words: number;
  /** Of those, words that no language spells so. */
  odd: number;
  /** A few of them, to quote. */
  examples: string[];
}

/** Words this short (characters) say too little: units, function names, symbols (dx, ln, kg, Cl). */
const MIN_LENGTH = 4;
/**
 * Words with digits, brackets or operators are formulas (f(x)=2x, ln5, Ca(OH)2, x+y), not words;
 * nor are addresses (https://…, www.…, a@b) or LaTeX commands (\frac).
 */
const FORMULA = /[0-9²³¹\u2070-\u209f()+<>^×·−∠√@\u2200-\u22ff\u{1D400}-\u{1D7FF}]|^(?:https?:|www\.)|\\[A-Za-z]{2,}/u;
/** Unit symbols (SI and the common ones of exam papers) a notation is made of. */
const UNIT = '(?:mol|min|cm|mm|km|nm|pm|µm|kg|mg|mL|ml|kPa|Pa|kJ|kW|Hz|eV|L|J|W|K|N|V|A|g|m|s|h)';
/**
 * Notation, not a word: element symbols and units run together or joined by bonds and slashes
 * (NaCl, KMnO, CH=CH, =MnO, C-Br, molFe, cm/pm, AB/BC) — chemistry, whose capitals follow small
 * letters and whose words have no vowel.
 */
const NOTATION = new RegExp(`^[=\\-≡·/]?(?:(?:[A-Z][a-z]?|${UNIT})[=\\-≡·/]?)+$`, 'u');

/** Whether a word is weighed at all: two Latin letters or more, long enough, not a formula. */
function weighed(w: string): boolean {
  return (w.match(/[A-Za-z]/g) ?? []).length >= 2 && [...w].length >= MIN_LENGTH && !FORMULA.test(w);
}

/** Whether one word (surrounding punctuation taken off) is spelled as no language spells. */
export function oddWord(w: string): boolean {
  if (NOTATION.test(w)) return false;
  if (INNER_SIGN.test(w)) return true;
  if (ODD_APOSTROPHE.test(w) && !CONTRACTION.test(w) && !ELISION.test(w)) return true;
  if (CASE_FLIP.test(w)) return true;
  const letters = w.replace(/[^\p{L}]/gu, '');
  return letters !== letters.toUpperCase() && /^[A-Za-z]+$/.test(letters) && !VOWEL.test(letters);
}

/** The evidence of a text: its Latin words and how many of them are odd. */
export function legacyEvidence(text: string): LegacyEvidence {
  const e: LegacyEvidence = { words: 0, odd: 0, examples: [] };
  for (const raw of text.match(LATIN_RUN) ?? []) {
    const w = raw.replace(AROUND, '');
    if (!weighed(w)) continue;
    e.words++;
    if (!oddWord(w)) continue;
    e.odd++;
    if (e.examples.length < 4) e.examples.push(raw);
  }
  return e;
}

/** Whether evidence shows a legacy font: enough words, most of them odd. */
export function isLegacy(e: LegacyEvidence): boolean {
  return e.words >= LEGACY_MIN_WORDS && e.odd / e.words >= LEGACY_SHARE;
}

/** Whether one text (not a whole font) holds legacy-font text: a few odd words, a large share of its words. */
export function holdsLegacyText(e: LegacyEvidence): boolean {
  return e.odd >= TEXT_MIN_ODD && e.odd / e.words >= TEXT_SHARE;
}

/**
 * The fonts of a paper's runs whose text is no language (a legacy 8-bit font), each with its
 * evidence. Every run of a font counts, over all pages: one font is one encoding.
 */
export function legacyFonts(runs: readonly { text: string; font: string }[]): Map<string, LegacyEvidence> {
  const text = new Map<string, string[]>();
  for (const r of runs) {
    const list = text.get(r.font) ?? [];
    list.push(r.text);
    text.set(r.font, list);
  }
  const out = new Map<string, LegacyEvidence>();
  for (const [font, list] of text) {
    const e = legacyEvidence(list.join(' '));
    if (isLegacy(e)) out.set(font, e);
  }
  return out;
}
