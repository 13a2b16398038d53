// CJK text printed with radical code points: fonts that share one glyph between a Kangxi radical
// (U+2F00–U+2FDF) or a CJK radical supplement form (U+2E80–U+2EFF) and the ideograph it looks like
// let a PDF's text layer name the radical (⼤ U+2F24 where the page shows 大). Each is read as its
// unified ideograph through glossary/unicode/cjk-radicals.json (the Unicode Character Database's
// Equivalent_Unified_Ideograph: NFKC agrees for the Kangxi block, the supplement has no
// decomposition); a radical with no equivalent is left, and the lint flags it.
import fs from 'node:fs';
import path from 'node:path';

/** The two radical blocks. */
export const RADICAL = /[\u2E80-\u2EFF\u2F00-\u2FDF]/u;
const RADICALS = /[\u2E80-\u2EFF\u2F00-\u2FDF]/gu;

const cache = new Map<string, Map<string, string>>();

/** The table, read once per root: radical → ideograph. */
export function radicalTable(root: string): Map<string, string> {
  let table = cache.get(root);
  if (!table) {
    const raw = JSON.parse(fs.readFileSync(path.join(root, 'glossary/unicode/cjk-radicals.json'), 'utf8')) as { map: Record<string, string> };
    table = new Map(Object.entries(raw.map).map(([k, v]) => [String.fromCodePoint(parseInt(k.replace(/^U\+/, ''), 16)), v]));
    cache.set(root, table);
  }
  return table;
}

/** The text with every radical that has an equivalent ideograph read as it, and how many were. */
export function unifyRadicals(text: string, table: ReadonlyMap<string, string>): { text: string; replaced: number } {
  if (!RADICAL.test(text)) return { text, replaced: 0 };
  let replaced = 0;
  const out = text.replace(RADICALS, c => {
    const u = table.get(c);
    if (u === undefined) return c;
    replaced++;
    return u;
  });
  return { text: out, replaced };
}
