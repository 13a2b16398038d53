// Code points a math font's export gives its glyphs in place of their characters: Word writes
// Cambria Math's script-size digits and letters, its signs and its display-size ∫ and { at code
// points of the Oriya, Tamil, Malayalam, Sinhala, Hangul Jamo and Ethiopic blocks (2ଷସ for 2³⁴,
// ൅4 for +4), often under
// a hidden font name. The table (glossary/fonts/unicode-math-glyph-ids.json) is applied to a font
// only where every character it sets in those blocks is in the table: a paper in Odia or Tamil
// uses many other letters of its script, and keeps them.
import fs from 'node:fs';
import path from 'node:path';

/** Indic blocks, Hangul Jamo and Ethiopic: where the export puts them (ଶ for ², ᇱ for ′, ቆ for a tall bracket). */
const BLOCKS = /[\u0900-\u0dff\u1100-\u137f]/u;
const cache = new Map<string, Map<number, string>>();

/** The table, read once per root. */
export function glyphIdTable(root: string): Map<number, string> {
  let table = cache.get(root);
  if (!table) {
    const raw = JSON.parse(fs.readFileSync(path.join(root, 'glossary/fonts/unicode-math-glyph-ids.json'), 'utf8')) as { map: Record<string, string> };
    table = new Map(Object.entries(raw.map).map(([k, v]) => [parseInt(k.replace(/^U\+/, ''), 16), v]));
    cache.set(root, table);
  }
  return table;
}

/** The fonts whose characters in those blocks are all glyph codes of the table (and that set at least one). */
export function glyphIdFonts(runs: readonly { text: string; font: string }[], table: ReadonlyMap<number, string>): Set<string> {
  const seen = new Map<string, boolean>();
  for (const r of runs) {
    for (const ch of r.text) {
      if (!BLOCKS.test(ch)) continue;
      const known = table.has(ch.codePointAt(0)!);
      seen.set(r.font, (seen.get(r.font) ?? true) && known);
    }
  }
  return new Set([...seen].filter(([, all]) => all).map(([font]) => font));
}

/** The text with the table's glyph codes read as their characters. */
export function decodeGlyphIds(text: string, table: ReadonlyMap<number, string>): string {
  return BLOCKS.test(text) ? [...text].map(ch => table.get(ch.codePointAt(0)!) ?? ch).join('') : text;
}
