// The language of a text a paper's template does not name (the generic template says `und`): the
// script where it decides (Hangul, Han, kana), else the language whose commonest short words
// occur most often. Enough to choose curriculum trees for an educator's upload, nothing more.
const STOPWORDS: Record<string, string[]> = {
  en: ['the', 'of', 'and', 'is', 'to', 'in', 'that', 'which', 'what', 'find', 'with', 'are', 'for'],
  es: ['el', 'la', 'de', 'que', 'y', 'los', 'las', 'en', 'del', 'se', 'una', 'es', 'cuál', 'por'],
  pt: ['o', 'a', 'de', 'que', 'e', 'os', 'as', 'do', 'da', 'em', 'um', 'uma', 'não', 'é', 'qual', 'pelo'],
  fr: ['le', 'la', 'les', 'de', 'des', 'et', 'est', 'une', 'un', 'du', 'que', 'dans', 'pour', 'quelle'],
  vi: ['của', 'và', 'là', 'các', 'có', 'một', 'cho', 'trong', 'được', 'với', 'số', 'hàm', 'bằng'],
  // German has no tree: it is told so that a German paper is not taken for another language's and tagged from that tree.
  de: ['der', 'die', 'das', 'und', 'ist', 'von', 'mit', 'den', 'dem', 'ein', 'eine', 'einer', 'für', 'zu', 'auf', 'nicht', 'sie', 'wie', 'bei', 'sich'],
};

/** Hangul or Han writing this share of the letters decides the language (Korean, Chinese)… */
const SCRIPT_SHARE = 0.2;
/** …and kana this share, Japanese (which writes Han besides). */
const KANA_SHARE = 0.1;
/** A language needs at least this many of its common words in the text to be told. */
const MIN_HITS = 2;

export function guessLanguage(text: string): string {
  const count = (re: RegExp) => (text.match(re) ?? []).length;
  const hangul = count(/\p{Script=Hangul}/gu), han = count(/\p{Script=Han}/gu), kana = count(/[\p{Script=Hiragana}\p{Script=Katakana}]/gu);
  const letters = count(/\p{L}/gu) || 1;
  if (hangul / letters > SCRIPT_SHARE) return 'ko';
  if (kana / letters > KANA_SHARE) return 'ja';
  if (han / letters > SCRIPT_SHARE) return 'zh';
  const words = text.toLowerCase().split(/[^\p{L}]+/u).filter(Boolean);
  let best = 'und', bestHits = 0;
  for (const [lang, list] of Object.entries(STOPWORDS)) {
    const set = new Set(list);
    const hits = words.filter(w => set.has(w)).length;
    if (hits > bestHits) { best = lang; bestHits = hits; }
  }
  return bestHits >= MIN_HITS ? best : 'und';
}

/**
 * The language of a paper: what its template declares, else what its text reads as (the generic
 * template says `und`); null when neither tells.
 */
export function paperLanguage(declared: string | null | undefined, text: () => string): string | null {
  if (declared && declared !== 'und') return declared;
  const guessed = guessLanguage(text());
  return guessed === 'und' ? null : guessed;
}

/** Languages written right to left (ISO 639-1, and the Kurdish of ckb). */
const RTL = new Set(['ar', 'he', 'fa', 'ur', 'yi', 'ps', 'sd', 'ug', 'dv', 'ckb']);

/** The direction a language's text runs in, for an HTML `dir` attribute. */
export function textDirection(language: string | null | undefined): 'rtl' | 'ltr' {
  return language && RTL.has(language.split('-')[0].toLowerCase()) ? 'rtl' : 'ltr';
}
