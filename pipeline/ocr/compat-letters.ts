// Letters OCR reads as their compatibility twins: Tesseract's Greek model writes the micro sign
// `µ` (U+00B5, a symbol of no script) for the Greek `μ` (U+03BC) in every word (`θέµατα`,
// `τιµή`), and the word no longer matches what the paper's words are matched against (a stated
// count `περιέχει 11 θέματα`, a section's heading). A letter of no script whose compatibility form
// (NFKC) is a letter of the script the rest of its word is written in is that letter.

const SCRIPTS = ['Greek', 'Cyrillic', 'Latin', 'Arabic', 'Hebrew', 'Armenian'].map(s => [s, new RegExp(`\\p{Script=${s}}`, 'u')] as const);

/** The script (of those with twins of no script) most of a word's letters are written in, or null. */
function wordScript(word: string): RegExp | null {
  let best: RegExp | null = null, most = 0;
  for (const [, re] of SCRIPTS) {
    const n = [...word].filter(ch => re.test(ch)).length;
    if (n > most) { best = re; most = n; }
  }
  return best;
}

/** The word with each letter of no script that stands for a letter of the word's own script (`µ` in a Greek word) made that letter. */
export function ownScriptLetters(word: string): string {
  if (!/\p{Script=Common}/u.test(word)) return word;
  const own = wordScript(word);
  if (!own) return word;
  return [...word].map(ch => {
    if (!/\p{L}/u.test(ch) || !/\p{Script=Common}/u.test(ch)) return ch;
    const twin = ch.normalize('NFKC');
    return [...twin].length === 1 && own.test(twin) ? twin : ch;
  }).join('');
}
