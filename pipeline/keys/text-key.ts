// Answer keys with a text layer (PAES clavijeros): the key's lines read in order, every match of
// the template's entry pattern one item — number, a flag mark (`*` pilot), the answer.
import type { PdfDocument } from '../providers/pdf.ts';
import { pageSpans } from '../providers/pdf.ts';
import { buildLines } from '../stages/layout.ts';
import { rawText } from '../text/line-text.ts';
import type { Template } from '../template.ts';

export interface TextKeyEntry {
  number: number;
  answer: string;
  flags: string[];
}

/** The key's text, line by line, from every page; empty when the PDF carries no text layer. */
export async function keyLines(pdf: PdfDocument): Promise<string[]> {
  const out: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const spans = (await pageSpans(await pdf.getPage(n))).map(r => ({ page: n, text: r.text, bbox: r.bbox, baseline: r.baseline, size: r.size, font: r.font, math: false }));
    out.push(...buildLines(spans, n, 0).map(l => rawText([...l.spans].sort((a, b) => a.bbox[0] - b.bbox[0]))));
  }
  return out;
}

/** Entries read from the lines; the first reading of a number wins (a later table repeats it). */
export function parseTextKey(lines: string[], t: Template): TextKeyEntry[] {
  const spec = t.answers?.keyText;
  if (!spec) return [];
  const re = new RegExp(spec.entry, 'gu');
  const seen = new Map<number, TextKeyEntry>();
  for (const line of lines) {
    for (const m of line.matchAll(re)) {
      const number = Number(m[1]);
      if (seen.has(number)) continue;
      const flag = spec.flags?.[m[2] ?? ''];
      seen.set(number, { number, answer: m[3], flags: flag ? [flag] : [] });
    }
  }
  return [...seen.values()].sort((a, b) => a.number - b.number);
}
