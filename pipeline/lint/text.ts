// What the lint rules read of a record's text: its prose, each formula replaced by a mark of its
// own, so words around two different formulas never read as a repeat and a formula's own
// brackets and pieces are not the prose's.
const FORMULA = /\$\$[\s\S]+?\$\$|\$[^$]+?\$/g;

/** The texts of a piece of Markdown outside its `$…$` formulas, each formula a distinct mark. */
export function proseOf(texts: string[]): string[] {
  let k = 0;
  return texts.map(t => t.replace(FORMULA, () => ` «${k++}» `));
}

/** C0 controls a reader would see as broken (tab, line feed and carriage return are layout). */
export const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/u;
/** Private Use Area code points: a font's own encoding that no table decoded. */
export const PRIVATE_USE = /[\uE000-\uF8FF\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}]/u;
/** Pieces of tall brackets and braces (U+239B–U+23AD): outside a formula they are ink, not text. */
export const BRACKET_PIECE = /[\u239B-\u23AD]/u;
/** The same run of at least four characters, starting and ending with a letter, twice in a row. */
export const DOUBLED = /(?<!\p{L})(\p{L}[^\n]{2,}?\p{L})\1(?!\p{L})/u;

/** Each character of `text` that `re` matches, as U+XXXX, once. */
export function codePoints(text: string, re: RegExp): string[] {
  return [...new Set([...text].filter(c => re.test(c)).map(c => 'U+' + c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')))];
}
