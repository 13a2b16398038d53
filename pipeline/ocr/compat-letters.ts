// Letters OCR reads as their compatibility twins: Tesseract's Greek model writes the micro sign
// `µ` (U+00B5, a symbol of no script) for the Greek `μ` (U+03BC) in every word (`θέµατα`,
// `τιµή`), and the word no longer matches what the paper's words are matched against (a stated
// count `περιέχει 11 θέματα`, a section's heading). A letter of no script whose compatibility form
// (NFKC) is a letter of the script the rest of its word is written in is that letter. The word's
// script is told as a page's is (text/script.ts).
import { scriptOfText } from '../text/script.ts';

/** The word with each letter of no script that stands for a letter of the word's own script (`µ` in a Greek word) made that letter. */
export function ownScriptLetters(word: string): string {
  if (!/\p{Script=Common}/u.test(word)) return word;
  const script = scriptOfText(word);
  // Japanese writes two scripts, Vietnamese is Latin with its marks.
  if (script === 'Japanese') return word;
  const own = new RegExp(`\\p{Script=${script === 'Vietnamese' ? 'Latin' : script}}`, 'u');
  return [...word].map(ch => {
    if (!/\p{L}/u.test(ch) || !/\p{Script=Common}/u.test(ch)) return ch;
    const twin = ch.normalize('NFKC');
    return [...twin].length === 1 && own.test(twin) ? twin : ch;
  }).join('');
}
