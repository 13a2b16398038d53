// Which language a record is in, and what of the source language's script a translation must
// not keep: the `translate/untranslated` check is script detection, not a language model.

/** A script's letters, by the languages written in it. */
const SCRIPTS: { langs: readonly string[]; word: RegExp }[] = [
  { langs: ['ko'], word: /[\uAC00-\uD7A3\u1100-\u11FF\u3130-\u318F]+/gu },
  { langs: ['ja'], word: /[\u3040-\u30FF\u4E00-\u9FFF]+/gu },
  { langs: ['zh'], word: /[\u4E00-\u9FFF]+/gu },
  // Latin letters: a word of three or more (single letters are names of points and variables).
  { langs: ['en', 'es', 'pt', 'fr', 'de', 'vi', 'it'], word: /[A-Za-zÀ-ɏ]{3,}/gu },
];

const scriptOf = (lang: string) => SCRIPTS.find(s => s.langs.includes(lang)) ?? null;

/** The record's language: its exam's where known, else the script most of its prose is in. */
export function recordLanguage(exam: { language?: string } | undefined, prose: string): string {
  const given = exam?.language;
  if (given && given !== 'und' && /^[a-z]{2}$/.test(given)) return given;
  if (/[\uAC00-\uD7A3]/u.test(prose)) return 'ko';
  if (/[\u3040-\u30FF]/u.test(prose)) return 'ja';
  if (/[\u4E00-\u9FFF]/u.test(prose)) return 'zh';
  return 'und';
}

/**
 * Words of the source language's script left in a translation's prose (formulas and labels already
 * taken out by the caller). Nothing where both languages share a script (es → en): script
 * detection cannot tell them apart.
 */
export function untranslatedWords(prose: string, from: string, to: string): string[] {
  const source = scriptOf(from), target = scriptOf(to);
  if (!source || source === target) return [];
  // Japanese writes Han characters too: between Chinese and Japanese the script says nothing.
  if (['ja', 'zh'].includes(from) && ['ja', 'zh'].includes(to)) return [];
  return [...prose.matchAll(source.word)].map(m => m[0]);
}
