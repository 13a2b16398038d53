// The script a text is written in (Hangul, Han, Japanese, Cyrillic, … Latin, Vietnamese): what an OCR
// language is chosen by (ocr/paper-language.ts), and what tells a line from its translation printed
// under it (structure/question.ts).
/** A script other than Latin decides where it writes at least this share of the letters read (a bilingual page prints the paper's own language beside English). */
const SCRIPT_SHARE = 0.2;
/** Latin text is Vietnamese where this share of its letters carry Vietnamese's stacked marks (ơ ư đ, ạ ả ế…). */
const VIETNAMESE_SHARE = 0.05;

const SCRIPTS: [name: string, re: RegExp][] = [
  ['Hangul', /\p{Script=Hangul}/u], ['Han', /\p{Script=Han}/u], ['Kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u], ['Greek', /\p{Script=Greek}/u], ['Arabic', /\p{Script=Arabic}/u],
  ['Devanagari', /\p{Script=Devanagari}/u], ['Thai', /\p{Script=Thai}/u], ['Latin', /\p{Script=Latin}/u],
];

/** The script a text is written in, as the keys of config.ts `ocrScripts` name it (Latin where no other writes enough of it). */
export function scriptOfText(text: string): string {
  const counts = new Map<string, number>();
  let letters = 0;
  for (const ch of text) {
    if (!/\p{L}/u.test(ch)) continue;
    letters++;
    const s = SCRIPTS.find(([, re]) => re.test(ch))?.[0];
    if (s) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  const n = (s: string) => counts.get(s) ?? 0;
  // Japanese writes kana between its Han; Chinese none (a stray kana of a misread is not enough).
  if (n('Kana') > 0 && n('Kana') >= SCRIPT_SHARE * (n('Kana') + n('Han')) / 2 && n('Kana') + n('Han') >= letters * SCRIPT_SHARE) return 'Japanese';
  const best = [...counts].filter(([s]) => s !== 'Latin' && s !== 'Kana').sort((a, b) => b[1] - a[1])[0];
  if (best && best[1] >= letters * SCRIPT_SHARE) return best[0];
  const latin = [...text].filter(ch => /\p{Script=Latin}/u.test(ch));
  const marked = latin.filter(ch => /[\u1EA0-\u1EF9ơưđƠƯĐ]/u.test(ch)).length;
  return latin.length && marked >= latin.length * VIETNAMESE_SHARE ? 'Vietnamese' : 'Latin';
}

/** An Indic virama (Devanagari to Malayalam) and the space a PDF's text layer may put after it (`प्रश् न` for `प्रश्न`). */
const VIRAMA_SPACE = /([\u094D\u09CD\u0A4D\u0ACD\u0B4D\u0BCD\u0C4D\u0CCD\u0D4D])\s+(?=\p{L})/gu;

/** A text with the spaces a text layer puts after a virama left out: the word as printed. */
export const closeViramaSpaces = (text: string) => text.replace(VIRAMA_SPACE, '$1');

/** Scripts written without spaces between words (and their punctuation): a line break between two of their characters is no space. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\u3000-\u303F\uFF00-\uFF60]/u;

/** Two lines of one sentence set as one text: a space between, except where the line broke inside a word of an unspaced script (`問5か` / `ら問6は…`). */
export function joinWrapped(a: string, b: string): string {
  const last = [...a.trimEnd()].pop() ?? '', first = [...b.trimStart()][0] ?? '';
  return UNSPACED.test(last) && UNSPACED.test(first) ? `${a.trimEnd()}${b.trimStart()}` : `${a} ${b}`;
}
