// One page's text layer as the text-layer stage reads it before it looks at any other page: the
// page's shapes, its text runs (formula fonts glyph by glyph), what was set apart as hidden, and
// whether it has to be read by OCR instead. It depends on the page and on the template's formula
// fonts only, so any process can read it (pages of one paper are read across the WORKERS lanes:
// pipeline/pages/) and the paper's lane gets the same value whichever did. It also gives the page's
// fingerprint, by which a page that repeats an earlier one is told (stages/repeats.ts).
import crypto from 'node:crypto';
import type { Shape } from '../document.ts';
import { pageGraphics, pageSpans, type PdfPage, type RawSpan } from '../providers/pdf.ts';
import { splitAcrossLines } from './run-lines.ts';
import { isScan, scanImage } from '../providers/scan.ts';
import { decodeGlyphIds, glyphIdFonts, glyphIdTable } from './glyph-ids.ts';
import { drawnRules } from './drawn-rules.ts';
import { dropHidden, markStroked } from './hidden.ts';

/** Fewer non-space characters than this on a page: its text layer is not usable and OCR reads it. */
export const MIN_TEXT = 20;
/** Non-space characters of some runs of text. */
export const textLength = (runs: readonly { text: string }[]) => runs.reduce((n, r) => n + r.text.replace(/\s/g, '').length, 0);

/** Fonts of a page's runs that set Mathematical Alphanumeric Symbols (at least 3) more than Latin letters. */
export function unicodeMathFonts(runs: readonly { text: string; font: string }[]): Set<string> {
  const count = new Map<string, { math: number; latin: number }>();
  for (const r of runs) {
    const c = count.get(r.font) ?? { math: 0, latin: 0 };
    for (const ch of r.text) {
      const cp = ch.codePointAt(0)!;
      if (cp >= 0x1d400 && cp <= 0x1d7ff) c.math++;
      else if (/[A-Za-z]/.test(ch)) c.latin++;
    }
    count.set(r.font, c);
  }
  return new Set([...count].filter(([, c]) => c.math >= 3 && c.math > c.latin).map(([font]) => font));
}

/** Fewer non-space characters than this and a page's text is no fingerprint (a blank page, "this page is left blank"). */
export const MIN_REPEAT_TEXT = 100;

/**
 * A page's fingerprint: its text with the boxes of what is drawn on it, or for a scan (little text,
 * one picture) the picture's bytes as stored; null where it has neither (too little text and no
 * scan picture). Two pages with one fingerprint are the same page printed twice.
 */
export function pageFingerprint(text: string, shapes: readonly Shape[], scanPicture: Buffer | null): string | null {
  if (text.length >= MIN_REPEAT_TEXT) {
    const drawn = shapes.map(s => `${s.kind}:${s.bbox.map(v => Math.round(v)).join(',')}`).sort().join(';');
    return crypto.createHash('sha256').update(text).update('\0').update(drawn).digest('hex');
  }
  return scanPicture ? `scan:${crypto.createHash('sha256').update(scanPicture).digest('hex')}` : null;
}

export interface PageText {
  shapes: Shape[];
  /** The runs to read: text runs outside formula fonts, formula fonts' glyphs, drawn fraction bars. */
  raw: RawSpan[];
  /** Fonts of the page that are Unicode math fonts (Cambria Math and the like). */
  unicodeMath: string[];
  /** Texts of runs left out because no glyph of theirs is painted (reported by the stage). */
  hiddenTexts: string[];
  /** The page's stored picture, where it has no usable text and is one picture filling the page (a scan). */
  picture: Buffer | null;
  /** Texts of runs set at an angle (a margin notice turned upright, an axis label): no line of the body. */
  turned: string[];
  /** pageFingerprint of the page. */
  fingerprint: string | null;
}

/**
 * Reads a page's text layer. `mathFonts` are the template's formula fonts; `root` is where the
 * glyph-code table is. `file` is what a scan's picture is taken from by pdfimages (the stages have
 * always given the paper's name: pages/task.ts), `path` the PDF on disk (the fingerprint's picture).
 */
export async function readPageText(p: PdfPage, number: number, size: { width: number; height: number }, mathFonts: readonly string[], root: string, file: string, path = file): Promise<PageText> {
  // The operators first, then the text: pdf.js's fonts are loaded in that order, and the
  // glyphs of formula fonts come out of it as read here (the other order decodes some otherwise).
  const graphics = await pageGraphics(p, number);
  // Formula fonts come glyph by glyph (positions, sizes and rises intact); text as pdf.js's runs.
  // Text set at an angle is no line of the body (a margin notice turned upright, an axis label).
  // (A run pdf.js joined across two lines is cut where its glyphs change line.)
  const all = splitAcrossLines(await pageSpans(p), graphics.glyphs);
  const runs = dropHidden(markStroked(all.filter(r => !r.rotated), graphics.stroked), graphics.hidden);
  // A font that sets Mathematical Alphanumeric Symbols (𝑥, 𝐴) more than Latin letters is a
  // Unicode math font (Cambria Math, often under a hidden name): a formula font like the template's.
  const unicodeMath = unicodeMathFonts(runs.kept);
  const mathFont = (font: string) => mathFonts.some(f => font.includes(f)) || unicodeMath.has(font);
  // A Unicode math font's glyphs pass the same check for visibility as text runs (Word leaves
  // unpainted placeholder glyphs in its equations).
  const glyphsOf = graphics.glyphs.filter(r => mathFont(r.font));
  const shown = unicodeMath.size ? dropHidden(glyphsOf, graphics.hidden.filter(h => unicodeMath.has(h.font))).kept : glyphsOf;
  let raw = [...runs.kept.filter(r => !mathFont(r.font)), ...shown];
  // Its fraction bars are drawn, not set: they become rule glyphs of the font.
  if (unicodeMath.size) raw.push(...drawnRules(graphics.shapes, graphics.glyphs, f => unicodeMath.has(f)));
  // A math font's glyph codes in Indic blocks (Word's Cambria Math) read as their characters.
  const table = glyphIdTable(root);
  const ids = glyphIdFonts(raw, table);
  if (ids.size) raw = raw.map(r => (ids.has(r.font) ? { ...r, text: decodeGlyphIds(r.text, table) } : r));
  // A page with no text that is one picture filling it (a scan) is read from that picture as stored.
  const picture = textLength(raw) < MIN_TEXT && isScan(graphics.shapes, size) ? await scanImage(file, number) : null;
  const text = all.map(r => r.text).join('').replace(/\s+/g, '');
  const scanned = text.length < MIN_REPEAT_TEXT && isScan(graphics.shapes, size) ? (file === path && picture ? picture : await scanImage(path, number)) : null;
  return {
    shapes: graphics.shapes, raw, unicodeMath: [...unicodeMath], hiddenTexts: runs.dropped.map(r => r.text), picture,
    turned: all.filter(r => r.rotated).map(r => r.text), fingerprint: pageFingerprint(text, graphics.shapes, scanned),
  };
}
