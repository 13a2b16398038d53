// The text a PDF's writer gave its marked-content spans (`/Span <</ActualText (…)>> BDC … EMC`):
// Chromium and word processors write it where the glyphs do not spell the text — a Thai tone mark or
// a Devanagari vowel sign drawn as a positioned variant with no character of its own (pdf.js reads
// `สี\0` for สี่, `ग ण त` for गणित), an Arabic ligature whose characters a right-to-left run
// reverses (`إىل` for إلى). pdf.js gives the spans' boundaries in its text but not their
// properties: the properties are read here from the page's content stream, in the order the spans
// open, and the caller pairs them with pdf.js's boundaries one for one.
import { PdfLexer, PdfObjects, PdfString, textString, type PdfValue } from './pdf-objects.ts';

/** The marked-content sequences of a content stream in the order they open (BMC, BDC): each one's ActualText, or null. */
export function markedSequences(content: string): (string | null)[] {
  const out: (string | null)[] = [];
  const lex = new PdfLexer(content);
  const operands: PdfValue[] = [];
  for (;;) {
    const at = lex.pos;
    const v = lex.value();
    if (v !== undefined) { operands.push(v); continue; }
    lex.pos = at;
    const t = lex.token();
    if (t === undefined) break;
    if (typeof t !== 'object' || t === null || !('op' in t)) continue;
    if (t.op === 'BMC') out.push(null);
    else if (t.op === 'BDC') {
      const props = operands[operands.length - 1];
      const actual = props instanceof Map ? props.get('ActualText') : undefined;
      out.push(actual instanceof PdfString ? textString(actual) : null);
    } else if (t.op === 'BI') {
      // An inline image's data is binary up to `EI`: stepped over, not read as operators.
      const id = content.indexOf('ID', lex.pos);
      const ei = id < 0 ? -1 : content.slice(id + 3).search(/[\s]EI(?=[\s]|$)/);
      lex.pos = ei < 0 ? content.length : id + 3 + ei + 3;
    }
    operands.length = 0;
  }
  return out;
}

const documents = new WeakMap<Uint8Array, { objects: PdfObjects; pages: Map<string, PdfValue>[] } | null>();

/**
 * The ActualText of each marked-content sequence on a page (1-based) of the PDF in `bytes`, in the
 * order the sequences open; null where the page has none or its content cannot be read here.
 */
export function pageActualText(bytes: Uint8Array, pageNumber: number): (string | null)[] | null {
  let doc = documents.get(bytes);
  if (doc === undefined) {
    try {
      const objects = new PdfObjects(bytes);
      doc = { objects, pages: objects.pages() };
    } catch {
      doc = null;
    }
    documents.set(bytes, doc);
  }
  const page = doc?.pages[pageNumber - 1];
  if (!doc || !page) return null;
  try {
    const content = doc.objects.content(page);
    if (content === null || !content.includes('ActualText')) return null;
    const seq = markedSequences(content);
    return seq.some(s => s !== null) ? seq : null;
  } catch {
    return null;
  }
}
