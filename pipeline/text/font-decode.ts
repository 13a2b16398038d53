// A run's text through its font's table: fonts that draw their letters and symbols at Private Use
// Area (or other borrowed) code points say what they mean only through a table the template gives.
import type { RawSpan } from '../providers/pdf.ts';
import type { Template } from '../template.ts';

const isControl = (cp: number) => cp < 0x20 && cp !== 0x09 && cp !== 0x0a;
const isPrivateUse = (cp: number) => (cp >= 0xe000 && cp <= 0xf8ff) || cp >= 0xf0000;

/** Decode a run's text through the table of its font, if the template has one for it. */
export function decodeSpan(raw: RawSpan, t: Template): { text: string; math: boolean; unknown: number[] } {
  const math = t.mathFonts.some(f => raw.font.includes(f));
  let table: Map<number, string> | undefined;
  for (const [font, map] of t.fontMaps) if (raw.font.includes(font)) table = map;
  const unknown: number[] = [];
  let text = '';
  for (const ch of raw.text) {
    const cp = ch.codePointAt(0)!;
    // Outside the Private Use Area a table entry still wins: custom-encoded fonts put their symbols
    // at ASCII and control code points (Cambridge's NewMathExtn draws its brackets at U+0000/U+0001).
    // A control character no table claims prints as a space (Chromium's NanumGothic subsets map
    // their space glyph to U+0001): no reader sees a control character on a page.
    if (!isPrivateUse(cp)) { text += table?.get(cp) ?? (isControl(cp) ? ' ' : ch); continue; }
    const mapped = table?.get(cp);
    if (mapped === undefined) { unknown.push(cp); text += '\uFFFD'; } else text += mapped;
  }
  return { text, math, unknown };
}
