// Whether a span is set bold. A font's name says so for a face of its own (`Arial-BoldMT`,
// `NanumGothicBold`, OCR's `ocr-bold`); a writer who emboldened a font with no bold face says so
// only in how it painted the glyphs, and the text layer marks those spans (`Span.bold`).
import type { Span } from '../document.ts';

/** Font names of bold faces (and of heavier ones: black, heavy, semibold, demi). */
const BOLD_NAME = /bold|black|heavy|semibold|demi|-bd\b|,b\b/i;

export function isBold(span: Pick<Span, 'font' | 'bold'>): boolean {
  return span.bold === true || BOLD_NAME.test(span.font);
}
