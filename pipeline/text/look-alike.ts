// Cyrillic and Greek letters drawn as a Latin letter is. OCR run with a Russian or Greek page's own
// language reads a Latin `(a)` or `c` in it as the Cyrillic or Greek letter drawn the same, and a
// key's `a` may stand for a Cyrillic `а`: compared as the Latin they look like, they are one letter.

/** Lower-case Cyrillic and Greek letters and the Latin letter each is drawn as. */
const LATIN_LOOK_ALIKE: Readonly<Record<string, string>> = {
  а: 'a', в: 'b', е: 'e', і: 'i', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x',
  α: 'a', β: 'b', ε: 'e', ι: 'i', κ: 'k', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x',
};

/** A text with each Cyrillic or Greek letter that is drawn as a Latin one written as that Latin letter. */
export const asLatinLookAlike = (s: string) => [...s].map(c => LATIN_LOOK_ALIKE[c] ?? c).join('');
