// The one document model every stage reads and enriches. Coordinates are PDF points with a
// top-left origin (y grows downwards), as the item-record contract asks.
import type { Diagnostics } from './diagnostics.ts';
import type { Marking } from './structure/marking.ts';
import type { QuestionType, Template } from './template.ts';

export type BBox = [number, number, number, number];

export interface ExamInfo {
  family: string;
  language: string;
  /** School year the paper names (학년도), e.g. 2024. */
  year: number | null;
  /** e.g. `csat`, `june-mock`, `september-mock`. */
  sitting: string | null;
  /**
   * When the paper was sat, as its template reads the cover: the printed year moved by the family's
   * offset (KICE's 학년도 N is sat in N − 1), the month where the sitting fixes one. Absent on records
   * written before it was kept (exam-date.ts then takes the printed year).
   */
  sat?: { year: number; month: number | null } | null;
  /** Session (교시), e.g. 2. */
  session: number | null;
  subject: string | null;
  /** Form marker, e.g. 홀수형 → `odd`. */
  form: string | null;
  /** Elective sections this booklet carries, in order of appearance. */
  electives: string[];
  /** What the paper was found to follow where no family template claims it (structure/conventions.ts). */
  conventions?: Conventions;
}

/** Conventions inferred from a paper: what a template for it would say. */
export interface Conventions {
  /**
   * The numbering candidate chosen (its id and pattern): how many numbers ran on in sequence, and
   * how many of the blocks they open carry options or marks.
   */
  numbering: { id: string; pattern: string; inSequence: number; carrying: number };
  /** The option scheme chosen, and how many labels followed their predecessor; null when none fits (or its labels open parts). */
  options: { id: string; markers: string[]; pattern?: string; inOrder: number } | null;
  /** Where the paper's lettered labels open parts, not options: the part levels read, outermost first. */
  parts?: string[];
}

/** One run of text from the PDF text layer (or OCR), positioned on its page. */
export interface Span {
  page: number;
  text: string;
  bbox: BBox;
  /** Baseline y (top-left origin). */
  baseline: number;
  size: number;
  font: string;
  /** Set in the equation font (formula material). */
  math: boolean;
  /**
   * Set in a legacy 8-bit font: its Latin codes stand for another script's glyphs, so `text` is
   * not what the page shows (text-layer, pipeline/text/legacy-font.ts).
   */
  legacy?: boolean;
  /**
   * Emboldened by its writer where the font has no bold face (a browser's thickened copy of the
   * font, a word processor's filled-and-stroked glyphs): bold though its font's name does not say so
   * (text-layer; pipeline/text/bold.ts reads both).
   */
  bold?: boolean;
}

export type ShapeKind = 'image' | 'line' | 'rect' | 'path';

/** A painted image or a vector path, with its box on the page. */
export interface Shape {
  page: number;
  kind: ShapeKind;
  bbox: BBox;
  /** Stroked or filled with something other than white. */
  visible: boolean;
}

export interface Column {
  x0: number;
  x1: number;
  /**
   * On a page scanned askew (pixels/skew.ts), the column's edges as its lines show them: where they
   * pass at height y (its text's furthest start left and right, each carried along the lean to that
   * height) and the tangent of the skew (clockwise positive) they lean by (text/direction.ts `edgesAt`).
   */
  lean?: { tan: number; y: number; x0: number; x1: number };
}

export interface PageInfo {
  number: number;
  width: number;
  height: number;
  image?: string;
  /** Body band between running head and footer, where questions live. */
  body: { y0: number; y1: number };
  columns: Column[];
  /**
   * Where (points) the columns start, on a page whose OCR found them under a head set across them
   * (a title, an instructions box): the head's words are one block, whatever gutter their spaces fall on.
   */
  columnsTop?: number;
  /** Section named by this page's own heading (e.g. the elective), or null for the common part. */
  section: string | null;
  spans: Span[];
  shapes: Shape[];
  /** Spans removed as page furniture (running heads, page numbers, copyright lines). */
  furniture: Span[];
  /** The page's text came from OCR (it had no usable text layer). */
  ocr?: boolean;
  /** On a page read by OCR, the body's edges where its pixels moved them off a line they cut through (ocr/page-ocr.ts): what lies beyond is furniture. */
  inkBody?: { y0?: number; y1?: number };
  /** This page is an earlier page again (the number of that page): it is neither rendered nor read (stages/repeats.ts). */
  repeatOf?: number;
}

/** A line of text: spans in one column whose vertical extents overlap. */
export interface Line {
  page: number;
  column: number;
  bbox: BBox;
  /** In reading order: from the right where the line reads right to left (text/direction.ts). */
  spans: Span[];
  /** The line reads right to left: it starts at its right end. */
  rtl?: boolean;
  /**
   * The line prints the question it follows again, in another language, in the column beside it (a
   * paper printed twice side by side, structure/twin-columns.ts): its text is the question's, its
   * marks, options and parts are not read a second time.
   */
  twin?: boolean;
}

export interface Region {
  page: number;
  column: number;
  bbox: BBox;
}

export interface Figure {
  page: number;
  bbox: BBox;
  kind: 'image' | 'drawing' | 'table';
  path?: string;
}

export interface Option {
  label: string;
  text: string;
  /** An option printed as a picture (a graph, a table): its own crop, relative to the year folder. */
  image?: string;
}

/** A sub-part of a structured question, `(b)(ii)`, with the marks printed for it. */
export interface Part {
  label: string;
  marks: number | null;
  /** On a paper read by inferred conventions: `short` where the part's prompt asks for a value, else `free`. */
  type?: QuestionType;
  /** A part's own answer, where a key gives one per part (a worked key's final value). */
  answer?: string | null;
}

export interface Question {
  id: string;
  section: string | null;
  number: number;
  type: QuestionType;
  points: number | null;
  /** The marking scheme of the question's section (JEE: full, partial, zero and negative marks), where the paper states one. */
  marking: Marking | null;
  parts: Part[];
  /** What the key says of the item beyond its answer: `pilot` (not scored), `annulled`. */
  flags: string[];
  page: number;
  lines: Line[];
  /** The spans of the printed number that opens the question. */
  anchor: Span[];
  /** How many of `lines` come before the options: the stem's lines. */
  stemLines: number;
  regions: Region[];
  stem: string;
  options: Option[];
  figures: Figure[];
  /** From the answer key: the option label (mcq) or the value; null when no key gives it. */
  answer: string | null;
  /** Read unsurely: a reading without it scores little worse (structure/judge.ts); unset where not judged question by question. */
  unsure?: boolean;
  /** Published human error rate in percent, and its difficulty bin. */
  errorRate: number | null;
  difficulty: 'easy' | 'medium' | 'hard' | null;
}

export interface PaperDocument {
  file: string;
  path: string;
  sha256: string;
  bytes: Uint8Array;
  pageCount: number;
  exam: ExamInfo;
  /** The cover's text, as register read it (sections and counts some papers state there). */
  cover: string;
  /**
   * The language data pages without text are read with where no template names one: chosen from
   * the script a band of the first such page is written in (ocr/paper-language.ts).
   */
  ocrLanguage?: { lang: string; script: string };
  template: Template;
  pages: PageInfo[];
  /** Body lines of the whole paper in reading order (page, column, top to bottom). */
  lines: Line[];
  /** Lines after the questions end (an appended answer section, a repeat with worked solutions). */
  tail: Line[];
  questions: Question[];
  /** The entries of the answer key joined to the paper (section, number), or null where no key was read. */
  keyEntries: { section: string | null; number: number; again?: true }[] | null;
  messages: Diagnostics;
  /**
   * How sure the structural reading is (structure/judge.ts): the share of the body text it explains,
   * the numbers of questions read unsurely, and the reasons the paper needs review (none: sure).
   */
  reading?: { coverage: number; unsure: number[]; reasons: string[]; endReason: string | null };
  /** What each stage did (e.g. pages rendered vs taken from cache), for the run summary. */
  counters: Record<string, number>;
}

export function bboxUnion(boxes: BBox[]): BBox {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const b of boxes) {
    x0 = Math.min(x0, b[0]); y0 = Math.min(y0, b[1]);
    x1 = Math.max(x1, b[2]); y1 = Math.max(y1, b[3]);
  }
  return [x0, y0, x1, y1];
}

export const centerY = (b: BBox) => (b[1] + b[3]) / 2;
export const centerX = (b: BBox) => (b[0] + b[2]) / 2;
export const width = (b: BBox) => b[2] - b[0];
export const height = (b: BBox) => b[3] - b[1];

export function intersects(a: BBox, b: BBox, pad = 0): boolean {
  return a[0] - pad < b[2] && b[0] - pad < a[2] && a[1] - pad < b[3] && b[1] - pad < a[3];
}

export function contains(outer: BBox, inner: BBox, pad = 0): boolean {
  return inner[0] >= outer[0] - pad && inner[1] >= outer[1] - pad && inner[2] <= outer[2] + pad && inner[3] <= outer[3] + pad;
}

export function round(b: BBox, digits = 1): BBox {
  const f = 10 ** digits;
  return b.map(v => Math.round(v * f) / f) as BBox;
}
