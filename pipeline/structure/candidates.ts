// One flat record of features per body line, before any decision (GROBID's segmentation features):
// the numbered lead it opens with, where it stands in its column, its font, whether it is a heading,
// and what it carries (option labels, marks, part labels). The decoder (decode.ts) reads only these.
import type { BBox, Column, Line, PaperDocument, Span } from '../document.ts';
import { contains } from '../document.ts';
import { rawText } from '../text/line-text.ts';
import { isBold, mostlyBold, boldThroughout } from '../text/bold.ts';
import { inset, lineInset, lineStart, readingGaps, startsBefore } from '../text/direction.ts';
import type { QuestionType, Template } from '../template.ts';
import { pointsPattern } from '../template.ts';
import { labelRow, readLead, wordStyle, type Lead } from './lead.ts';
import { beforeMarks, markText } from './marks.ts';
import { framedLines } from './framed.ts';
import { BOLD_LONGER, capitalsShare, numberedHeadingName } from './numbered-heading.ts';

/** What a line is, beyond the text it holds. */
export type HeadingKind = 'section' | 'type' | 'instructions' | 'end' | 'marking' | 'plain';

export interface LineFeatures {
  index: number;
  line: Line;
  text: string;
  /** The numbered lead the line opens with (any style), or null. */
  lead: Lead | null;
  /** Points from the column's starting edge (its right edge for a right-to-left line) to the line's first glyph. */
  indent: number;
  /** The line starts at its column's edge (within the template's tolerance). */
  atEdge: boolean;
  /** The line starts further out than the lines under it (a hanging number) or level with them. */
  leftmost: boolean;
  bold: boolean;
  /** Size of the line's first run against the paper's body size. */
  sizeRatio: number;
  /** The lead's number sits in a drawn box (SAT's white-on-black boxes). */
  boxed: boolean;
  /** The lead stands alone on its line (nothing after the number). */
  alone: boolean;
  /**
   * A bare number hung in the margin: the question's text starts a tab after it (a gap of an em or
   * more), not a word space (`1      Wie viel sind …`), the way a number is set apart as a label.
   */
  hanging: boolean;
  /** A heading line: a section or type heading of the template, instructions, the end of the questions, a marking rule, or a short bold/large/capitals line. */
  heading: HeadingKind | null;
  /** The section a template heading names (its id), the type a type heading sets. */
  headingId: string | null;
  headingType: QuestionType | null;
  /** Option labels of the paper's scheme on the line, by index in the scheme (0 = A / ①). */
  optionLabels: number[];
  /**
   * The first option label opens the line: on a question's own line that is its number read as a
   * label (`1. 本试卷共22题` where options are `1.`–`4.`), none of its options.
   */
  labelOpens: boolean;
  /** The line holds a mark (`[3점]`, `[4 marks]`, `(2 puntos)`). */
  marks: boolean;
  /** The line opens a part (`(a)`, `(i)`). */
  part: boolean;
  /** The line reads like a key: several `n. X` pairs, or a lead with a one-letter answer after it. */
  keyLike: boolean;
  /** The line goes on to print its lead's next numbers in the lead's shape (`(1) 56 (2) 64 (3) 54`): a row of labels (lead.ts labelRow). */
  labelRow: boolean;
  /** The line is on a page read by OCR. */
  ocr: boolean;
  /** The template's own numbering pattern matches the line (a prior, not a gate). */
  templateLead: boolean;
  /** The line's page names another section than the line before (a page's running head: KICE's electives). */
  sectionChange: boolean;
  /** A line with a lead set as a heading (`Часть 2 — Физика`): the name it gives a section, else null. The decoder decides whether it heads a section or opens a question. */
  numberedHeading: string | null;
  /** After its number the line says the question goes on from an earlier page (`Question 27 (continued)`; the template's `numbering.continued`). */
  continued: boolean;
  /**
   * The line states marks for a run of questions from its own number on (`問1から問8は各4点。` in the
   * instructions, by the template's `points.range` and `points.head`): the paper's marking, not a question.
   */
  statesMarks: boolean;
}

/** A heading is a short line: at most this many characters. */
const HEADING_MAX_CHARS = 70;
/** …set at least this much larger than the body, or bold, or mostly capitals. */
const HEADING_SIZE = 1.15;
const CAPITALS_SHARE = 0.7;
/** A key line: `1.D 2.A`, `1) B 2) C`, `1 ④ 2 ③` — two such pairs or more on one line. */
const KEY_PAIR = /(?:^|\s)\d{1,3}\s*[.．:)）]?\s*(?:[A-E]|[①-⑤]|\([A-E]\))(?=\s|$|[,;，；])/gu;

/** How far an OCR line's box height strays from its type size (a line with diacritics and descenders against one without). */
export const OCR_SIZE_SPREAD = 1.3;

/**
 * OCR reads a label's stop as a comma now and then (`A, 28 B. 41`): a lone option letter of the
 * template's, opening the line or standing after a space, with a comma and a space after it, is read
 * with its stop.
 */
function ocrLabelStops(text: string, markers: readonly string[]): string {
  return text.replace(/(^|\s)(\p{Lu}),(?=\s)/gu, (m, before: string, letter: string) => (markers.includes(letter) ? `${before}${letter}.` : m));
}

/** Whether a line opens with a range of question numbers from its lead's that it gives marks (see LineFeatures.statesMarks). */
function statesMarks(text: string, lead: Lead | null, t: Template): boolean {
  if (!lead || !t.re.pointsHead) return false;
  const folded = markText(text);
  const restAt = folded.length - markText(lead.rest).length;
  return t.re.pointsRange.some(re => {
    const m = re.exec(folded);
    return !!m && Number(m.groups?.from) === lead.number && m.index! <= restAt && t.re.pointsHead!.test(folded.slice(m.index! + m[0].length - 1));
  });
}

/** Option labels of a scheme on a line's text, by index, and whether the first opens the line. */
function labelsOn(text: string, t: Template): { labels: number[]; atStart: boolean } {
  const markers = t.options.markers;
  if (!markers.length) return { labels: [], atStart: false };
  const opening = text.length - text.trimStart().length;
  const found: { i: number; at: number }[] = [];
  if (t.re.option) {
    for (const m of text.matchAll(new RegExp(t.re.option.source, 'gu'))) {
      const i = markers.indexOf(m[1]);
      if (i >= 0) found.push({ i, at: m.index + m[0].indexOf(m[1]) });
    }
  } else {
    [...text].forEach((c, at) => { const i = markers.indexOf(c); if (i >= 0) found.push({ i, at }); });
  }
  return { labels: found.map(x => x.i), atStart: found.length > 0 && found[0].at <= opening };
}

/**
 * The option labels a line carries: all but one that opens it as the label before a question's
 * number (`B.1.` where options are lettered: a block's letter, not its second option).
 */
export function carriedLabels(f: LineFeatures): number[] {
  return f.labelOpens && f.lead?.major ? f.optionLabels.slice(1) : f.optionLabels;
}

/** The small frame a span is printed in (a boxed number: at most 4 of its type sizes wide and 3 tall), or null. */
export function frameAround(s: Span, doc: PaperDocument): BBox | null {
  const page = doc.pages[s.page - 1];
  return page.shapes.find(sh => (sh.kind === 'rect' || sh.kind === 'path') && sh.bbox[2] - sh.bbox[0] < s.size * 4 && sh.bbox[3] - sh.bbox[1] < s.size * 3 && contains(sh.bbox, s.bbox, 2))?.bbox ?? null;
}

/** The features of every body line of the paper, in reading order. */
/** Lines of at least this many characters say where a column's text starts (a page number or a lone mark does not). */
const EDGE_LINE_CHARS = 6;
/** The column's edge is where this share of its text lines start or further left (a stray line set outside it does not move it). */
const EDGE_PERCENTILE = 0.1;

/**
 * Where each page column's text starts: a low percentile of its text lines' left ends, or for lines
 * that read right to left, a high one of their right ends (keyed by page, column and direction).
 */
function columnEdges(doc: PaperDocument): Map<string, number> {
  const starts = new Map<string, number[]>();
  for (const l of doc.lines) {
    // A heading or footer set across the gutter starts outside the column: it says nothing of its edge.
    const column = doc.pages[l.page - 1].columns[l.column];
    if (rawText(l.spans).length < EDGE_LINE_CHARS || lineInset(l, column) < -2) continue;
    const key = `${l.page}:${l.column}:${l.rtl ? 'rtl' : ''}`;
    if (!starts.has(key)) starts.set(key, []);
    starts.get(key)!.push(uprightStart(l, column));
  }
  const edges = new Map<string, number>();
  for (const [key, xs] of starts) edges.set(key, xs.sort((a, b) => (key.endsWith('rtl') ? b - a : a - b))[Math.floor(xs.length * EDGE_PERCENTILE)]);
  return edges;
}

/**
 * Where a line starts, as it would on its column's edge at the column's box (x0, x1): itself, but
 * on a page scanned askew, moved back along the column's lean (lines low on a page leaning
 * clockwise start left of those high on it, and are no less at the edge).
 */
function uprightStart(line: Line, column: Column): number {
  return line.rtl ? column.x1 - lineInset(line, column) : column.x0 + lineInset(line, column);
}

/** A gap of at least this many ems between a number and its text is a tab, not a word space. */
const HANGING_GAP_EMS = 1;

/** The lead is one span and the next span starts at least an em away from it (see LineFeatures.hanging). */
function hangingNumber(line: Line, lead: Lead): boolean {
  const [number, next] = line.spans;
  if (lead.spans.length !== 1 || lead.spans[0] !== number || lead.cut < number.text.length || !next) return false;
  return readingGaps(line.spans.slice(0, 2))[1] >= number.size * HANGING_GAP_EMS;
}

export function lineFeatures(doc: PaperDocument, bodySize: number, t: Template): LineFeatures[] {
  const marksRe = t.re.points ? new RegExp(t.re.points.source, 'u') : pointsPattern(t);
  const lines = doc.lines;
  const edges = columnEdges(doc);
  const framed = framedLines(doc);
  const features = lines.map((line, index) => {
    const page = doc.pages[line.page - 1];
    const column = page.columns[line.column];
    const first = line.spans[0];
    const text = rawText(line.spans);
    // Option labels are never formula glyphs (a formula's `A` or `(1)` is no label).
    const prose = rawText(line.spans.filter(s => !s.math));
    const lead = readLead(line, !!page.ocr);
    const edge = edges.get(`${line.page}:${line.column}:${line.rtl ? 'rtl' : ''}`);
    // Measured from where the line starts on the page, not from its first run in reading order: a
    // Latin label opening an Arabic line (`Question 11 لتكن …`) is read first but stands left of the
    // line's right end by its number's width.
    const indent = edge === undefined ? lineInset(line, column) : inset(uprightStart(line, column), { x0: edge, x1: edge }, line.rtl);
    // The lines under it in the same column: a question's number hangs out of them (left of them,
    // right of them where it reads right to left) or is level. Measured in from the column's edge,
    // along it where the page was scanned askew: lower lines of a leaning page start further over.
    const below = lines.slice(index + 1, index + 4).filter(l => l.page === line.page && l.column === line.column);
    const leftmost = below.every(l => line.rtl === l.rtl ? lineInset(line, column) <= lineInset(l, column) + 2 : startsBefore(lineStart(line), lineStart(l), line.rtl, 2));
    const sizeRatio = bodySize ? first.size / bodySize : 1;
    // A line read by OCR is bold where most of its words are (its number alone may be set bold).
    const bold = page.ocr ? mostlyBold(line.spans) : isBold(first);
    // How much larger than the body the line is set, as a heading is: on an OCR page a line's size is
    // its box's, which diacritics and descenders stretch by up to a third, so only more says so.
    const setLarger = page.ocr ? sizeRatio / OCR_SIZE_SPREAD : sizeRatio;
    // Set bold from end to end: a heading that runs on into what it states (`भौतिकी  प्रश्न संख्या 1 से 4 तक …`,
    // `Hóa học Từ câu 1 đến câu 2, mỗi câu 4 điểm. …`); on an OCR page, the strokes of nearly all its words say so.
    const allBold = page.ocr ? boldThroughout(line.spans) : line.spans.every(s => isBold(s) || !/\p{L}/u.test(s.text));
    // A line alone in its frame is set apart as a bold one is.
    const heading = headingOf(text, t, lead, bold || framed.has(line), setLarger, allBold);
    const compact = text.replace(/\s+/g, '');
    const states = statesMarks(text, lead, t);
    const { labels, atStart: labelOpens } = labelsOn(page.ocr ? ocrLabelStops(prose, t.options.markers) : prose, t);
    return {
      index,
      line,
      text,
      lead,
      indent,
      atEdge: indent <= t.numbering.indentTolerance,
      leftmost,
      bold: lead ? lead.spans.some(isBold) : bold,
      sizeRatio,
      boxed: lead !== null && lead.spans.some(s => frameAround(s, doc) !== null),
      alone: lead !== null && !lead.rest,
      hanging: lead !== null && hangingNumber(line, lead),
      heading: heading?.kind ?? null,
      headingId: heading?.id ?? null,
      // A section heading may set its questions' type too (非选择题).
      headingType: t.re.typeHeadings.find(h => h.re.test(text))?.type ?? null,
      optionLabels: labels,
      labelOpens,
      marks: marksRe.test(text) || marksRe.test(compact),
      part: t.re.parts.some(re => re.test(text)),
      keyLike: [...text.matchAll(KEY_PAIR)].length >= 2 || (lead !== null && /^[A-E①-⑤]$/u.test(lead.rest.trim())),
      labelRow: lead !== null && labelRow(lead),
      ocr: !!page.ocr,
      // A paper no family claims has no numbering of its own to prefer.
      templateLead: !t.infer && t.re.numbering.test(text),
      sectionChange: index > 0 && page.section !== doc.pages[lines[index - 1].page - 1].section,
      numberedHeading: numberedHeadingName(line, text, lead, setLarger, labels.length, rest => beforeMarks(rest, t), framed.has(line), states),
      continued: lead !== null && t.re.continued.some(re => re.test(lead.rest)),
      statesMarks: states,
    };
  });
  // A question's word alone on an OCR line is its lead with the number lost, not a heading.
  const words = leadWords(features);
  return features.map(f => (wordAlone(f, words) ? { ...f, heading: null, headingId: null } : f));
}

/** A word leads this many numbered lines or more before it is the paper's own lead (`प्रश्न 1`, `Question 2`). */
const LEAD_WORD_LINES = 3;

/** The words that lead the paper's numbered lines (wordStyle form). */
export function leadWords(features: readonly LineFeatures[]): Set<string> {
  const count = new Map<string, number>();
  for (const f of features) if (f.lead?.word) count.set(f.lead.word, (count.get(f.lead.word) ?? 0) + 1);
  return new Set([...count].filter(([, n]) => n >= LEAD_WORD_LINES).map(([w]) => w));
}

/**
 * An OCR line that holds nothing but a word the paper leads its questions with (`प्रश्न` where the
 * paper prints `प्रश्न 11`, the number lost to OCR, or read as letters: `प्रश्न I`): a question's
 * lead whose number is the decoder's to give, not a heading (taken for one, the questions after it
 * were read as a new section numbered from 1).
 */
export function wordAlone(f: LineFeatures, words: ReadonlySet<string>): boolean {
  return f.ocr && f.lead === null && (words.has(wordStyle(f.text)) || words.has(wordStyle(f.text.replace(LETTER_NUMBER, ''))));
}

/** A number OCR read as letters drawn like digits after the word (`प्रश्न I` for `प्रश्न 1`, its space lost or not). */
const LETTER_NUMBER = /\s*[Ii|Oo]{1,2}\s*$/u;

/** A form's row of fields: a blank to fill (`____`), or two labels each closed by a colon (`Ονοματεπώνυμο: … Διάρκεια: 45 λεπτά`, the blank a rule OCR reads as nothing). */
export const FORM_ROW = /_{3,}|\p{L}[:：].*\p{L}[:：]/u;

function headingOf(text: string, t: Template, lead: Lead | null, bold: boolean, sizeRatio: number, allBold: boolean): { kind: HeadingKind; id: string | null; type: QuestionType | null } | null {
  if (t.re.endOfQuestions.some(re => re.test(text))) return { kind: 'end', id: null, type: null };
  if (t.re.instructions.some(re => re.test(text))) return { kind: 'instructions', id: null, type: null };
  const section = t.sections.headingWhere === 'body' ? t.re.sections.find(h => h.re.test(text)) : undefined;
  if (section) return { kind: 'section', id: section.id, type: null };
  const type = t.re.typeHeadings.find(h => h.re.test(text));
  if (type) return { kind: 'type', id: null, type: type.type };
  // A number run straight into a word (`5지선다형`, `3D`) leads no question: the line may be a heading.
  if (lead && !(lead.open === '' && lead.word === '' && lead.close === '' && /^\s*\d+[\p{L}]/u.test(text))) return null;
  // A form's row of fields names nothing, however large OCR measures it (a blank's rule under it).
  if (FORM_ROW.test(text)) return null;
  // Letters enough to name something: three, or two ideographs or syllables (物理, 수학).
  const letters = [...text].filter(c => /\p{L}/u.test(c)).length;
  const named = letters >= 3 || (letters >= 2 && /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text));
  if (text.length <= HEADING_MAX_CHARS && named && (bold || sizeRatio >= HEADING_SIZE || capitalsShare(text) >= CAPITALS_SHARE)) return { kind: 'plain', id: null, type: null };
  if (text.length <= HEADING_MAX_CHARS * BOLD_LONGER && named && allBold) return { kind: 'plain', id: null, type: null };
  return null;
}
