// Whether a span is set bold. A font's name says so for a face of its own (`Arial-BoldMT`,
// `NanumGothicBold`, OCR's `ocr-bold`); a writer who emboldened a font with no bold face says so
// only in how it painted the glyphs, and the text layer marks those spans (`Span.bold`).
import type { Span } from '../document.ts';

/** Font names of bold faces (and of heavier ones: black, heavy, semibold, demi). */
const BOLD_NAME = /bold|black|heavy|semibold|demi|-bd\b|,b\b/i;

export function isBold(span: Pick<Span, 'font' | 'bold'>): boolean {
  return span.bold === true || BOLD_NAME.test(span.font);
}

/** An OCR line is bold where at least this share of its letters and digits are in bold words. */
const OCR_BOLD_SHARE = 0.6;
/**
 * …and bold from end to end where this share is: a short word's strokes are misjudged here and
 * there (a Thai line comes as pieces of a letter or two, `อ`, `ะ`, a digit).
 */
const OCR_ALL_BOLD_SHARE = 0.8;

/**
 * Most of the spans' letters are bold: how a line read by OCR is told bold, where a thin stroke
 * (a dash, `一`, `|`) reads lighter than the words around it.
 */
export function mostlyBold(spans: readonly Pick<Span, 'font' | 'bold' | 'text'>[], share = OCR_BOLD_SHARE): boolean {
  let all = 0, bold = 0;
  for (const s of spans) {
    const n = [...s.text].filter(c => /[\p{L}\p{N}]/u.test(c)).length;
    all += n;
    if (isBold(s)) bold += n;
  }
  return all > 0 && bold / all >= share;
}

/** An OCR line set bold from end to end (a heading that runs on into what it states): nearly all its letters are in bold words. */
export function boldThroughout(spans: readonly Pick<Span, 'font' | 'bold' | 'text'>[]): boolean {
  return mostlyBold(spans, OCR_ALL_BOLD_SHARE);
}
