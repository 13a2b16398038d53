// Arabic printed with presentation-form code points: a PDF whose font shapes each letter by hand
// (Chromium's and word processors' output for some fonts) names the shaped glyph (ﺣ U+FEA3 where
// the text is ح U+062D, ﻻ for لا). Readers, search and models want the letters: each form is read as
// its compatibility decomposition (NFKC), which Unicode defines for every form in the two blocks.

/** Arabic Presentation Forms-A (U+FB50–U+FDFF) and -B (U+FE70–U+FEFC; U+FEFF is the byte-order mark). */
const FORMS = /[\uFB50-\uFDFF\uFE70-\uFEFC]+/gu;

/** The text with every presentation form read as the letters it shapes, and how many were. */
export function unshapeArabic(text: string): { text: string; replaced: number } {
  let replaced = 0;
  const out = text.replace(FORMS, run => {
    replaced += [...run].length;
    return run.normalize('NFKC');
  });
  return { text: out, replaced };
}
