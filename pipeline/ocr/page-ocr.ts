// A page with no usable text layer, read from its pixels: rendered at OCR resolution, its rules
// found in the raster (so the body band comes out as for a born-digital page) and painted out, its
// columns found from its ink (below a head set across them), each column cut into bands of text at
// blank rows and every band recognised on its own (again in black and white where the recogniser is
// unsure of it), the running head at text size, circled option markers (①–⑤, which OCR garbles)
// told by their ring, whether the template names them or not, and the few things OCR misreads in context
// (a bracketed `[3점]` ending a line, a question number at the column's edge) read again alone. What comes out is the same kind of span
// the text layer gives, so layout and segmentation after it are one path.
import type { BBox, Column, Shape } from '../document.ts';
import { findBody } from '../text/body.ts';
import { findColumnsFromInk } from './columns.ts';
import { renderGray, scanGray, type Gray } from '../pixels/gray.ts';
import { inkRuns, offInk, type Box } from '../pixels/runs.ts';
import { rulesFromImage, withoutRules } from '../pixels/rules.ts';
import { otsuLevel } from '../pixels/threshold.ts';
import { skewAngle } from '../pixels/skew.ts';
import { cropPng } from '../pixels/crop.ts';
import { drawingsIn, joined } from '../pixels/drawings.ts';
import { framesIn, onFrameSide, withoutFrames } from '../pixels/frames.ts';
import { pageTables } from './table-cells.ts';
import { strokeWidth } from '../pixels/stroke.ts';
import { latinLabels } from './label-glyphs.ts';
import { ownScriptLetters } from './compat-letters.ts';
import { labelRows } from './label-rows.ts';
import { labelRuns } from './label-runs.ts';
import { marksAgain } from './marks-again.ts';
import { wordLines } from './word-lines.ts';
import { bracketedMark, edgeWord } from './edge-words.ts';
import { boldNumberAgain, decimalAgain, numberAtMargin, numberAtRightMargin, type MarginNumber } from './numbers-again.ts';
import { readsRtl } from '../text/direction.ts';
import { readsRtlScript } from './script-lang.ts';
import { partAtMissedSpaces } from './missed-spaces.ts';
import { allEnclosed } from '../text/enclosed.ts';
import { findRings, unaskedRings, type Ring } from './rings.ts';
import type { OcrPool, OcrWord } from '../providers/ocr.ts';
import type { PdfPage, RawSpan } from '../providers/pdf.ts';

export const OCR_FONT = 'ocr';
/** The font of a word whose strokes are bold's (the name says bold, as a PDF's font name would). */
export const OCR_BOLD_FONT = 'ocr-bold';

/** The circled digits ①–⑤ looked for where the template names no enclosed markers. */
const CIRCLED = Array.from({ length: 5 }, (_, i) => String.fromCodePoint(0x2460 + i));

/** Blank space (points) that parts two bands of a column; less keeps a formula's rows together. */
const BAND_GAP = 3;
/** The tallest run of ink (points) a body's edge is moved off: a line of display type; a taller run is no line. */
const LINE_MOST = 30;
/** Width (points) of the strips a body's edge is looked at in: narrow enough that a page 1° askew moves a line by a point or two across one. */
const EDGE_STRIP = 100;
/** Bands lower than this (points) are specks. */
const MIN_BAND = 2.5;
/** Pixels of white kept around a band for the recogniser. */
const PAD = 6;
/** Heights (points) a circled marker may have. */
const RING_MIN = 6, RING_MAX = 16;
/** A word over a ring keeps what reaches past the ring by this share of the ring's height (less is the garbled marker). */
const RING_REACH = 0.4;
/** Type size (points) a band of the running head is scaled to, at most. */
const HEAD_SIZE = 12;
/** Blank width (points) that parts pieces of the running head or foot. */
const EDGE_GAP = 18;
/** White pixels added around every piece sent to the recogniser. */
const BORDER = 10;
/** How far (points) right of the column's text edge a number read again from the pixels may start. */
const NUMBER_SLACK = 4;
/** A question number's ink stands at least this tall (points; a 6-pt digit stands 4): a speck of the scan is none. */
const NUMBER_LEAST = 4;
/** Blank width (points) that parts two words. */
const WORD_GAP = 2.5;
/** A word whose strokes are this much thicker than the page's usual word's is bold. */
const BOLD_STROKE = 1.25;
/** The least size (points) of a drawing, as a vector figure's (stages/figures.ts). */
const DRAWING_W = 36, DRAWING_H = 24;
/** A word read over a drawing this many times as tall as the page's usual word is the recogniser reading its strokes. */
const TALL_WORD = 2;
/** How far (points) past a drawing's ink its strokes' lighter edges reach, painted out with them. */
const STROKE_HALO = 0.5;
/** How far (points) from a drawing's strokes its labels stand. */
const LABEL_GAP = 4;
/** A band read with less confidence than this (0–100, the recogniser's scale) is read again in black and white. */
const SURE_BAND = 60;
/** …and its black-and-white reading kept only where the recogniser is surer of it by this much: by less, the two differ in spacing and stops as often as in letters (`A.1. 40` read `A.1.40`). */
const SURER = 15;

export interface OcrPageOptions {
  /** Circled option markers of the template (①–⑤), found as rings. */
  markers: string[];
  /** How far (points) from a column's left edge a question number may stand; none: numbers are not looked for. */
  numberIndent?: number;
  /**
   * The page will be read again with other options (register reads a scanned cover before the
   * template is known; text-layer reads it with the template's markers): keep what does not depend
   * on them (picture, rules, every band as recognised) for that one next call.
   */
  keep?: boolean;
  /** The page's stored picture where the page is a scan (providers/scan.ts): read instead of drawing the page. */
  picture?: Buffer;
  /**
   * A reader of Latin digits (English) where `pool` reads another script too: a question number its
   * model read in context is read again alone by this one. The models of other scripts misread
   * Latin digits (Hindi's reads `11.` as `44.`, `10.` as `40.`, drops the 1 of `21.`).
   */
  digits?: OcrPool;
  /**
   * A reader of Latin letters and digits where `pool` reads another script: a line of them (a
   * Japanese paper's options `A. 35  B. 36`, which Japanese's model reads `『 B. 36`) is read again
   * by this one. Where `pool`'s script writes digits of its own, a band with a letter or two of it is too.
   */
  latin?: OcrPool;
}

/** A band of text (or a piece of the head or foot) and what the recogniser found in it, in page pixels. */
interface Area {
  box: Box;
  /** Scale it was sent at (the head's display type is brought down to text size). */
  shrink: number;
  /** In the running head or foot, not a column. */
  edge: boolean;
  /** Where the text of its column starts (pixels): question numbers stand there. */
  left: number;
  /** …and where it ends: a right-to-left page's numbers stand there. */
  right: number;
  words: OcrWord[];
  /** A bracketed mark (`[3점]`) ending the band, read alone. */
  mark: { box: Box; text: string } | null;
  /** A cell of a ruled table (ocr/table-cells.ts), read alone: no question number or mark is looked for in it. */
  cell?: boolean;
}

/** What a page's pixels give whatever the template asks of them. */
interface PageReading {
  pool: OcrPool;
  dpi: number;
  g: Gray;
  /** The page bands were read from (tables left out), and its ink level (for a band read again). */
  bandsFrom: Gray;
  level: number;
  shapes: Shape[];
  columnBoxes: Box[];
  /** The page's columns (points) as its ink shows them. */
  columns: Column[];
  /** Where (points) the columns start: above it, a head set across them. */
  top: number;
  areas: Area[];
  /** The drawings (pixels) told on the first reading of the bands (readPastDrawings). */
  drawings: Box[];
  /** Where (points) the body ends: the columns' foot. */
  bodyFoot: number;
  moved: OcrPageReading['moved'];
  /** Degrees the page is askew (pixels/skew.ts), 0 where it is straight. */
  skew: number;
}

/** A page's reading: spans in points, shapes, columns and where they start (`skew`: degrees the page is askew, 0 where straight). */
export interface OcrPageReading {
  spans: RawSpan[]; shapes: Shape[]; columns: Column[]; top: number; skew: number;
  /** The body's edges (points) where they were moved off a line they cut through: the page's furniture is what lies beyond them. */
  moved: { y0?: number; y1?: number };
}

/** Readings kept for one next call on the same page (see OcrPageOptions.keep); taken, not shared. */
const kept = new WeakMap<PdfPage, PageReading>();

/** A page's pixels cut up for the recogniser: its rules found and painted out, its bands. */
interface CutPage { g: Gray; bandsFrom: Gray; level: number; shapes: Shape[]; columnBoxes: Box[]; columns: Column[]; top: number; bodyFoot: number; moved: OcrPageReading['moved']; places: Omit<Area, 'words' | 'mark'>[]; skew: number }

/** The page at OCR resolution (its stored picture where it is a scan, else drawn), rules found and painted out, cut into bands: this thread's part. */
async function cutPage(pdfPage: PdfPage, number: number, size: { width: number; height: number }, dpi: number, scan?: Buffer): Promise<CutPage> {
  const scale = dpi / 72;
  // A scan's own picture, at the size pdf.js would draw the page (a rotated page is drawn).
  const picture = pdfPage.rotate === 0 ? scan : undefined;
  const page = picture ? await scanGray(picture, Math.ceil(size.width * scale), Math.ceil(size.height * scale)) : await renderGray(pdfPage, dpi);
  // Ruled tables first, while their rules are whole (a table as wide as the page has rules as long
  // as a head rule's): read cell by cell, and out of the way of everything found after them.
  const tables = pageTables(page, scale, number);
  // A heading boxed across the page has a top and a bottom as long as a head rule: its frame is found
  // first, and its sides are no rules (painted out as rules, they would leave the frame two sides,
  // read by OCR as `|` before and after the heading).
  const boxed = framesIn(tables.cleared, scale);
  const rules = rulesFromImage(tables.cleared, scale, number).filter(r => !boxed.some(f => onFrameSide(f, r.bbox, scale)));
  // Frames round text (a boxed heading or number) are painted out too: the recogniser reads a band
  // holding one as a picture. They stay on the page as rectangles, as a born-digital page draws them.
  const unruled = withoutRules(tables.cleared, rules, scale);
  const frames = framesIn(unruled, scale);
  // What is read (tables' text kept), and what bands and columns are found in (tables left out).
  const uncut = withoutFrames(unruled, frames, scale);
  const g = tables.boxes.length ? withoutFrames(withoutRules(tables.read, rules, scale), frames, scale) : uncut;
  const shapes: Shape[] = [...rules.map(({ pieces: _, ...shape }) => shape), ...frames.map(f => ({ page: number, kind: 'rect' as const, visible: true, bbox: f.box.map(v => v / scale) as BBox }))];
  // Where no rule draws the body's edges they are shares of the page's height, which may cut through
  // a line (the first line of an A3 page's columns, read half as running head): moved out past it,
  // the body keeping the line whole (a running foot so kept is set aside as furniture later, as text).
  const ruled = findBody(size, shapes);
  const edgeAt = (y: number, way: -1 | 1) => offInk(uncut, [0, 0, uncut.width, uncut.height], Math.round(y * scale), way, { gap: Math.round(BAND_GAP * scale), most: Math.round(LINE_MOST * scale), strip: Math.round(EDGE_STRIP * scale) }) / scale;
  const body = { ...ruled, y0: edgeAt(ruled.y0, -1), y1: edgeAt(ruled.y1, 1) };

  const { top, columns } = findColumnsFromInk(uncut, size, body, shapes, scale, tables.boxes.map(b => b.map(v => v / scale) as BBox));
  const px = (v: number) => Math.max(0, Math.round(v * scale));
  // A head set across the columns (a title, an instructions box) is one block of the page's width.
  const head: Box[] = columns.length > 1 && top > body.y0 ? [[0, px(body.y0), g.width, px(top)]] : [];
  const columnBoxes = [...head, ...columns.map(c => [px(c.x0), px(top), Math.min(g.width, px(c.x1)), Math.min(g.height, px(body.y1))] as Box)];
  // Head, foot and columns band by band (blank rows of BAND_GAP points or more part them). The head's
  // display type (a 36 pt elective name) is brought down to text size, where tesseract reads it.
  const places: Omit<Area, 'words' | 'mark'>[] = [];
  const edges: Box[] = [[0, 0, g.width, Math.min(g.height, px(body.y0))], [0, Math.min(g.height - 1, px(body.y1)), g.width, g.height]];
  // The head and foot hold boxes and page numbers beside the titles: cut into pieces at wide gaps first.
  const edgePieces = edges.flatMap(e => inkRuns(g, e, px(EDGE_GAP), 'x').map(([x0, x1]) => [Math.max(0, x0 - PAD), e[1], Math.min(g.width, x1 + PAD), e[3]] as Box));
  for (const c of [...edgePieces, ...columnBoxes]) {
    const edge = edgePieces.includes(c);
    const bands = inkRuns(uncut, c, px(BAND_GAP), 'y').filter(([a, b]) => b - a >= px(MIN_BAND)).map(([y0, y1]) => [c[0], Math.max(c[1], y0 - PAD), c[2], Math.min(c[3], y1 + PAD)] as Box);
    const left = Math.min(...bands.map(b => edgeWord(g, b, px(WORD_GAP), 'left')?.[0] ?? Infinity));
    const right = Math.max(...bands.map(b => edgeWord(g, b, px(WORD_GAP), 'right')?.[2] ?? -Infinity));
    for (const box of bands) places.push({ box, shrink: edge ? Math.min(1, px(HEAD_SIZE) / (box[3] - box[1] - 2 * PAD)) : 1, edge, left, right });
  }
  const bandPlaces = places.filter(({ box: a }) => a[2] - a[0] > 20 && a[3] - a[1] > 8);
  const cells = tables.cells.map(box => ({ box, shrink: 1, edge: false, left: box[0], right: box[2], cell: true }));
  return { g, bandsFrom: uncut, level: otsuLevel(g), shapes: [...shapes, ...tables.shapes], columnBoxes, columns, top, bodyFoot: body.y1, moved: { ...(body.y0 !== ruled.y0 ? { y0: body.y0 } : {}), ...(body.y1 !== ruled.y1 ? { y1: body.y1 } : {}) }, places: [...bandPlaces, ...cells], skew: skewAngle(page) };
}

/** The recogniser's confidence in a band's reading: its words' confidences, each weighted by its length (0 where nothing was read). */
function sureness(words: OcrWord[]): number {
  let sum = 0, chars = 0;
  for (const w of words) { const n = [...w.text.trim()].length; sum += w.confidence * n; chars += n; }
  return chars ? sum / chars : 0;
}

/**
 * One band (or table cell) recognised, its words in page pixels. Read as the page shows it (the
 * recogniser's network reads grey); a band it is unsure of is read again cut to black and white at
 * the page's level, and the surer reading kept. A lone digit in a table's cell may come back empty
 * as a block; as a line, or a word, it is read.
 */
async function readBand(pool: OcrPool, from: Gray, level: number, place: Omit<Area, 'words' | 'mark'>, pageLang = pool.lang): Promise<OcrWord[]> {
  const { box: area, shrink } = place;
  let { words: found } = await pool.recognize(await cropPng(from, area, shrink, BORDER), { mode: 'block' });
  for (const mode of ['line', 'word'] as const) if (place.cell && !found.some(w => w.text.trim())) found = (await pool.recognize(await cropPng(from, area, shrink, BORDER), { mode })).words;
  if (sureness(found) < SURE_BAND) {
    const again = (await pool.recognize(await cropPng(from, area, shrink, BORDER, level), { mode: 'block' })).words;
    if (sureness(again) >= sureness(found) + SURER) found = again;
  }
  const [ox, oy] = area;
  // A band that reads right to left paints its labels stop first (missed-spaces.ts); a band of
  // digits and labels alone (`95 .1  88 .2`) reads as the page's script does (`pageLang`: the page's
  // reader, where the Latin reader reads a band again).
  const rtl = readsRtl(found.map(w => w.text).join(' ')) ?? readsRtlScript(pageLang);
  const back = (b: Box) => b.map(v => (v - BORDER) / shrink) as Box;
  const x = (v: number) => (v - BORDER) / shrink + ox;
  return found.map(w => ({
    ...w, bbox: back(w.bbox).map((v, i) => v + (i % 2 ? oy : ox)) as Box, line: back(w.line).map((v, i) => v + (i % 2 ? oy : ox)) as Box,
    rowHeight: w.rowHeight / shrink, glyphs: w.glyphs.map(c => ({ text: c.text, x0: x(c.x0), x1: x(c.x1) })),
  })).flatMap(w => partAtMissedSpaces(from, level, w, rtl));
}

/** A Latin word and a danda (`Question।`): no Devanagari sentence ends on a line's first word. */
const DANDA_ONE = /^(\p{Script=Latin}{2,})।$/u;
/** A page's lead word opens at least this many of its lines with a number after it (`प्रश्न 4`, `प्रश्न 6`). */
const LEAD_LINES = 2;

/**
 * The page's lead words: words of letters that open LEAD_LINES of its lines or more with a number
 * as the next word (`प्रश्न 4`): the question's lead as the page prints it, whatever its language.
 */
function leadWords(areas: Area[]): Set<string> {
  const counts = new Map<string, number>();
  for (const a of areas) {
    if (a.edge || a.cell) continue;
    for (const [first, next] of wordLines(a.words)) {
      const word = first.text.trim();
      if (next && /^\p{L}[\p{L}\p{M}]*$/u.test(word) && /^\d{1,3}$/.test(next.text.trim())) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  return new Set([...counts].filter(([, n]) => n >= LEAD_LINES).map(([w]) => w));
}

/** Letters of another script than Latin in a text. */
const otherLetters = (text: string) => [...text].filter(c => /\p{L}/u.test(c) && !/\p{Script=Latin}/u.test(c)).length;

/** Room (points) left round a line read again alone where another line shares its rows. */
const SIDE_ROOM = 3;

/** A band whose reading holds at most this many letters of another script than Latin is read again by the Latin reader, on a page whose script writes digits of its own. */
const LATIN_BAND_OTHER = 2;

/**
 * A band of Latin letters and digits on a page read by another script's model (an Arabic paper's
 * options `A. 623`, `C. 119` read `0019`, `E. 5` read `5 ,ع`), read again by the Latin reader; in
 * a band of several lines, each line of Latin letters and digits alone, on its own (a Japanese
 * question's options under its prompt: `C. 37  D. 45` read `87 D. 45`). The other model is sure of
 * its garbles of Latin: the Latin reading stands unless much less sure.
 *
 * `ownDigits`: the page's script writes digits of its own, and its model makes a letter of it out
 * of a Latin one: a whole band with a letter or two of its script is read again too. A model of a
 * script that writes Latin digits (Japanese, Korean) reads its own letters as Latin ones (Korean's
 * `(7)` for `(ㄱ)`): there only bands and lines without a letter of its script are read again.
 */
async function latinAgain(area: Area, reading: PageReading, latin: OcrPool, ownDigits: boolean): Promise<Area> {
  if (area.edge || area.cell) return area;
  const latinText = (text: string, allow: number) => otherLetters(text) <= allow && /[A-Za-z0-9]/.test(text);
  const surer = (again: OcrWord[], was: OcrWord[]) => sureness(again) + SURER >= sureness(was);
  if (latinText(area.words.map(w => w.text).join(' '), ownDigits ? LATIN_BAND_OTHER : 0)) {
    const words = await readBand(latin, reading.bandsFrom, reading.level, area, reading.pool.lang);
    return surer(words, area.words) ? { ...area, words } : area;
  }
  const lines = wordLines(area.words);
  let words = area.words;
  for (const line of lines) {
    const head = latinHead(line);
    if (!head) continue;
    // From the band's edge: the model may have left a letter out of its first word's box (`No.` read `0.`).
    const room = Math.round(SIDE_ROOM * reading.dpi / 72);
    const box: Box = [area.box[0], Math.max(area.box[1], head[0].line[1] - room), Math.min(area.box[2], head[head.length - 1].bbox[2] + room), Math.min(area.box[3], head[0].line[3] + room)];
    const again = await readBand(latin, reading.bandsFrom, reading.level, { ...area, box }, reading.pool.lang);
    if (again.length && surer(again, head) && latinText(again.map(w => w.text).join(' '), 0)) words = [...words.filter(w => !head.includes(w)), ...again.map(w => ({ ...w, line: head[0].line }))];
  }
  if (lines.length < 2) return words === area.words ? area : { ...area, words };
  for (const [k, line] of lines.entries()) {
    if (!latinText(line.map(w => w.text).join(' '), 0)) continue;
    // The line across the band, up to halfway to the lines above and below it; where the recogniser
    // made two lines of one row (`A.2. 2⁴` and `の値を求めよ。` beside it, the superscript raising the
    // first), its own words' box and a little room: across the band the other's letters would be read
    // as Latin too, and halfway to a line beside it is through its own letters.
    const [, y0, , y1] = line[0].line;
    const sharing = (o: OcrWord[]) => o !== line && o[0].line[1] < y1 && y0 < o[0].line[3];
    const room = Math.round(SIDE_ROOM * reading.dpi / 72);
    const box: Box = lines.some(sharing)
      ? [Math.max(area.box[0], Math.min(...line.map(w => w.bbox[0])) - room), Math.max(area.box[1], y0 - room), Math.min(area.box[2], Math.max(...line.map(w => w.bbox[2])) + room), Math.min(area.box[3], y1 + room)]
      : [area.box[0], k > 0 ? Math.round((lines[k - 1][0].line[3] + y0) / 2) : area.box[1], area.box[2], k + 1 < lines.length ? Math.round((y1 + lines[k + 1][0].line[1]) / 2) : area.box[3]];
    const again = await readBand(latin, reading.bandsFrom, reading.level, { ...area, box }, reading.pool.lang);
    if (again.length && surer(again, line)) words = [...words.filter(w => !line.includes(w)), ...again];
  }
  return words === area.words ? area : { ...area, words };
}

/** A line's head of Latin words holds at least this many words (`No. 1`, `Q. 3 (0–5)`): one alone (`1.`) is the margin's number, read again by numbersAgain. */
const LATIN_HEAD_WORDS = 2;

/**
 * The words opening a line in another script that hold no letter of it, where they are at least
 * LATIN_HEAD_WORDS, the first a short word and its stop and the next a number: a Latin lead (`No. 1
 * (0–5)` opening a Hindi question, which Hindi's model reads `0. 4 (0-5)`), read again by the Latin
 * reader. Null where the line has none.
 */
function latinHead(line: OcrWord[]): OcrWord[] | null {
  // (A line read right to left ends at its left: Latin there is a mark or an option, not a lead.)
  if (readsRtl(line.map(w => w.text).join(' '))) return null;
  const at = line.findIndex(w => otherLetters(w.text) > 0);
  if (at < LATIN_HEAD_WORDS) return null;
  const head = line.slice(0, at);
  // A lead's word apart from its number (`No.` `1`, read `0.` `4`); one run into its number (`Q.21`,
  // read `0.21`) is left to numbersAgain, which reads a block's letter and number as one.
  return LEAD_APART.test(head[0].text.trim()) && /\d/.test(head[1].text) ? head : null;
}

/**
 * A lead's word of up to three letters and its stop, standing apart from its number, or a `0.` (no
 * question or instruction is numbered 0: a letter read as a digit, `No.` as `0.`). A number's own
 * stop (`6.` of an instruction `6. 1번부터 …`) is no lead's word.
 */
const LEAD_APART = /^(?:\p{L}{1,3}|0)[.．]$/u;

/**
 * Pages are cut one at a time: two cut at once only interleave on this thread while the recogniser
 * waits for both; one after the other, the next page is cut while the last one's bands are read.
 */
let cutting: Promise<unknown> = Promise.resolve();

/** The page cut into bands (one page at a time), then every band recognised. */
async function readPage(pdfPage: PdfPage, number: number, size: { width: number; height: number }, pool: OcrPool, dpi: number, scan?: Buffer): Promise<PageReading> {
  const turn = cutting.then(() => cutPage(pdfPage, number, size, dpi, scan));
  cutting = turn.catch(() => {});
  const { g, bandsFrom, level, shapes, columnBoxes, columns, top, bodyFoot, moved, places, skew } = await turn;
  const px = (v: number) => Math.max(0, Math.round(v * dpi / 72));
  const read = (from: Gray) => async (place: Omit<Area, 'words' | 'mark'>): Promise<Area> => {
    const words = await readBand(pool, from, level, place);
    // A bracketed mark at the end of a line, which OCR in context garbles, read again alone.
    const mark = place.edge || place.cell ? null : await bracketedMark(from, place.box, pool, px(WORD_GAP));
    return { ...place, words, mark };
  };
  // A band is read off the page without its tables (a band beside a table's edge holds none of its
  // text), a cell off the page with its table's rules painted out.
  const areas = await Promise.all(places.map(place => read(place.cell ? g : bandsFrom)(place)));
  const clean = await readPastDrawings(areas, g, bandsFrom, columnBoxes, px, read);
  return { pool, dpi, g, bandsFrom: clean.from, level, shapes, columnBoxes, columns, top, bodyFoot, moved, areas: clean.areas, drawings: clean.drawings, skew };
}

/**
 * Bands in which the recogniser read a drawing's strokes as letters, read again with the strokes
 * painted out: it reads a band as lines of text, and a row of pictured options set close under
 * their prompt came back as letters of the strokes with the labels among them (`a) ieee) ees ae
 * e)`). The band, without the strokes, is cut again at its blank rows (the labels' line and the
 * pictures' feet are apart once the strokes are gone) and each piece read on its own. Drawings are
 * told from frames round text by what the first reading found inside them (pixels/drawings.ts).
 * Returns the picture later readings of bands are to be taken from.
 */
async function readPastDrawings(areas: Area[], g: Gray, from: Gray, columnBoxes: Box[], px: (v: number) => number, readAgain: (from: Gray) => (place: Omit<Area, 'words' | 'mark'>) => Promise<Area>): Promise<{ areas: Area[]; from: Gray; drawings: Box[] }> {
  const words = areas.flatMap(a => (a.edge ? [] : a.words));
  const drawings = drawingsIn(g, columnBoxes, words, px(DRAWING_W), px(DRAWING_H), px(LABEL_GAP));
  // A band the recogniser read strokes in: words lying on a drawing's strokes, or a word over a
  // drawing as tall as lines are several (a label and the strokes beside it read as one `ヤギ`).
  // Elsewhere a drawing did not trouble it (a frame round instructions, a graph set apart).
  const onStrokes = new Set([...drawings.strokes].map(i => words[i]));
  const heights = words.map(w => w.bbox[3] - w.bbox[1]).sort((a, b) => a - b);
  const tall = (heights[Math.floor(heights.length / 2)] ?? Infinity) * TALL_WORD;
  const overDrawing = (w: OcrWord) => w.bbox[3] - w.bbox[1] >= tall && drawings.boxes.some(b => b[0] < w.bbox[2] && w.bbox[0] < b[2] && b[1] < w.bbox[3] && w.bbox[1] < b[3]);
  const crossed = (a: Area) => !a.edge && !a.cell && a.words.some(w => onStrokes.has(w) || overDrawing(w));
  if (!areas.some(crossed)) return { areas, from, drawings: drawings.boxes };
  const clean = drawings.withoutStrokes(from, px(STROKE_HALO));
  const again = await Promise.all(areas.map(async a => {
    if (!crossed(a)) return [a];
    const [x0, y0, x1, y1] = a.box;
    const pieces = inkRuns(clean, a.box, px(BAND_GAP), 'y').filter(([p0, p1]) => p1 - p0 >= px(MIN_BAND));
    const read = await Promise.all(pieces.map(([p0, p1]) => readAgain(clean)({ ...a, box: [x0, Math.max(y0, p0 - PAD), x1, Math.min(y1, p1 + PAD)] })));
    // What lies inside a drawing (the numbers on the balls in a bag) is taken as first read, the
    // drawing whole round it: read without its strokes it comes back as text enough to make the
    // drawing a frame round text. What stands beside it is taken from the reading again.
    const inside = a.words.filter(w => drawings.holds(w.bbox));
    const out = read.map(r => ({ ...r, words: r.words.filter(w => !drawings.holds(w.bbox)) }));
    if (!out.length) return inside.length ? [{ ...a, words: inside }] : [];
    const home = (w: OcrWord) => out.find(r => (w.bbox[1] + w.bbox[3]) / 2 < r.box[3]) ?? out[out.length - 1];
    for (const w of inside) home(w).words.push(w);
    return out;
  }));
  return { areas: again.flat(), from: clean, drawings: drawings.boxes };
}

/**
 * The text of one page from OCR, as spans in points, the rules found in the raster, and the columns
 * its ink shows with where they start (layout takes them: OCR's words, a skewed line cut in two, a
 * title's words parted by a space where the gutter runs, say less of the gutter).
 */
export async function ocrPage(pdfPage: PdfPage, number: number, size: { width: number; height: number }, pool: OcrPool, dpi: number, { markers, numberIndent, keep, picture, digits, latin }: OcrPageOptions): Promise<OcrPageReading> {
  let reading = kept.get(pdfPage);
  kept.delete(pdfPage);
  if (!reading || reading.pool !== pool || reading.dpi !== dpi) reading = await readPage(pdfPage, number, size, pool, dpi, picture);
  if (keep) kept.set(pdfPage, reading);
  const { g, shapes, columnBoxes, columns, top, bodyFoot, moved, skew } = reading;
  const latinRead = latin && latin !== pool ? await Promise.all(reading.areas.map(a => latinAgain(a, reading, latin, !!digits && digits !== pool))) : reading.areas;
  // A mark's number (`(1 अंक)` read `( अंक)`) read again by the Latin digits reader where the page's model writes digits of its own.
  const areas = digits && digits !== pool ? await Promise.all(latinRead.map(async a => (a.edge || a.cell ? a : { ...a, words: await marksAgain(g, a.words, digits) }))) : latinRead;
  const scale = dpi / 72;
  const px = (v: number) => Math.max(0, Math.round(v * scale));
  const rings: Ring[] = [];
  // Where the template names enclosed markers, every ring is one. Where it names none (an inferred
  // template names letters), circled digits are looked for all the same, and kept only where their
  // digits run in order: a paper no template claims learns its options from what is read here.
  const asked = allEnclosed(markers);
  const ringMarkers = asked ? markers : CIRCLED;
  for (const c of columnBoxes) rings.push(...await (asked ? findRings : unaskedRings)(g, c, pool, px(RING_MIN), px(RING_MAX), ringMarkers.length));
  const spans: RawSpan[] = rings.filter(r => ringMarkers[r.index - 1]).map(r => {
    const h = (r.box[3] - r.box[1]) / scale;
    return { text: ringMarkers[r.index - 1], bbox: [r.box[0] / scale, r.box[1] / scale, r.box[2] / scale, r.box[3] / scale], baseline: r.box[3] / scale - h * 0.1, size: h, font: OCR_FONT };
  });
  const overlaps = (a: Box, b: Box) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
  // A question number at the column's margin that OCR in context did not read as one, or misread, read again alone.
  // A band whose words read right to left has its number at its right end.
  const numbers = await Promise.all(areas.map(({ box: area, edge, left, right, words, cell }) => {
    if (edge || cell || numberIndent === undefined) return null;
    const read = words.filter(w => w.text.trim()).sort((a, b) => a.bbox[0] - b.bbox[0]);
    const slack = px(Math.min(numberIndent, NUMBER_SLACK));
    if (readsRtl(read.map(w => w.text).join(' '))) return digits && digits !== pool ? numberAtRightMargin(g, area, read[read.length - 1], px(WORD_GAP), right - slack, digits, read[read.length - 2]) : null;
    return numberAtMargin(g, area, read[0], px(WORD_GAP), left + slack, px(NUMBER_LEAST), pool, digits);
  }));
  // Drawings (a graph, a triangle) as the page's vector paths would give them, those told on the
  // first reading among them; what OCR read out of their strokes is no text.
  const bodyWords = areas.flatMap(a => (a.edge ? [] : a.words));
  // Bold is told by stroke width against the page's own text (a scan has no font names).
  const boldAt = boldTest(g, areas.flatMap(a => a.words.map(w => w.bbox)));
  const drawings = drawingsIn(g, columnBoxes, bodyWords, px(DRAWING_W), px(DRAWING_H), px(LABEL_GAP));
  const strokes = new Set([...drawings.strokes].map(i => bodyWords[i]));
  const drawingBoxes = joined([...drawings.boxes, ...reading.drawings]);
  const leads = leadWords(areas);
  for (const [i, { words, mark }] of areas.entries()) {
    const wordBoxes = words.map(o => o.bbox);
    const marks = [mark, numbers[i]].filter((m): m is MarginNumber => m !== null);
    for (const m of marks) {
      const h = (m.box[3] - m.box[1]) / scale;
      // Sized as the words of its line are (by the line's box), where it stands for a word OCR read:
      // a number's digits alone are shorter than a Thai or Devanagari line with its marks.
      const under = words.find(w => overlaps(m.box, w.bbox));
      const size = Math.max(h / 1.05, under ? (under.line[3] - under.line[1]) / scale / 1.05 : 0);
      spans.push({ text: m.text, bbox: m.box.map(v => v / scale) as BBox, baseline: m.box[3] / scale - h * 0.15, size, font: boldAt(m.box) ? OCR_BOLD_FONT : OCR_FONT });
    }
    // The other words of a word's line (by OCR's line box); whether most of a line's words are bold.
    const inLine = (w: OcrWord) => words.filter(o => o !== w && o.text.trim() && o.line.every((v, k) => v === w.line[k]));
    const boldLine = (w: OcrWord) => {
      const line = [w, ...inLine(w)];
      return line.filter(o => boldAt(o.bbox)).length * 2 > line.length;
    };
    const opensLine = (w: OcrWord) => !inLine(w).some(o => o.bbox[0] < w.bbox[0]);
    for (const w of words) {
      if (!w.text.trim() || strokes.has(w)) continue;
      let x0 = w.bbox[0], x1 = w.bbox[2];
      const [, y0, , y1] = w.bbox;
      // A word whose head a number read again stands for (`Q.418+4x5`, its `Q.4` read alone up to a
      // gap in the ink): the rest of it, a word's gap on (the recogniser's glyph boxes are rough).
      const head = marks.find(m => m.headOf === w);
      if (!head && marks.some(m => overlaps(m.box, [(x0 + x1) / 2, y0, (x0 + x1) / 2 + 1, y1]))) continue;
      let text = ownScriptLetters(w.text);
      if (head && w.glyphs.length) {
        const rest = w.glyphs.filter(c => (c.x0 + c.x1) / 2 > head.box[2]);
        if (!rest.length) continue;
        text = ownScriptLetters(rest.map(c => c.text).join(''));
        x0 = Math.max(rest[0].x0, head.box[2] + px(WORD_GAP));
      }
      // A danda after a Latin word opening its line (`Question।`, as one word or two), or opening the
      // word after the page's lead word (`प्रश्न ।`, `प्रश्न ।002` for `प्रश्न 1 log₂`): a number 1 the
      // Devanagari model read as its full stop.
      if (DANDA_ONE.test(text) && opensLine(w)) text = text.replace(DANDA_ONE, '$1 1');
      else if (text.trimStart().startsWith('।')) {
        const before = inLine(w).filter(o => o.bbox[2] <= w.bbox[0] + 1).sort((a, b) => b.bbox[2] - a.bbox[2])[0];
        const lead = before && opensLine(before) && (/^\p{Script=Latin}{2,}$/u.test(before.text.trim()) ? text === '।' : leads.has(before.text.trim()));
        if (lead) text = text.replace(/^\s*।\s*/u, '1 ').trim();
      }
      // A decimal another script's model read (`7.5`, `.5` for `1.5`), read again by the Latin digits reader.
      const decimal = digits && digits !== pool ? await decimalAgain(g, w.bbox, text, wordBoxes, px(WORD_GAP), digits) : null;
      if (decimal) { text = decimal.text; x0 = decimal.box[0]; }
      // …and a whole number in a bold line (a heading's `1` read `4`; a digit alone is too short to tell its weight).
      else if (digits && digits !== pool && /^\d{1,2}$/.test(text) && boldLine(w)) text = (await boldNumberAgain(g, w.bbox, text, px(WORD_GAP), digits)) ?? text;
      // A word over a ring: the garbled marker is dropped; what reaches past the ring is kept.
      const ring = rings.find(r => overlaps(r.box, [x0, y0, x1, y1]));
      if (ring) {
        const reach = (ring.box[3] - ring.box[1]) * RING_REACH;
        if (x1 - ring.box[2] >= reach) {
          // The value's letters are those OCR placed right of the ring's middle (`@59`: the ring read
          // `@`, the value 59 whole). Without their places, the ring read as a mark and perhaps a
          // digit (`©3`, `@x`); where that leaves nothing, the digit was the option's own (`@5`).
          const middle = (ring.box[0] + ring.box[2]) / 2;
          const after = ownScriptLetters(w.glyphs.filter(c => (c.x0 + c.x1) / 2 > middle + reach / 2).map(c => c.text).join('')).trim();
          text = after || text.replace(/^[^0-9A-Za-z가-힣]*[0-9]?[^0-9A-Za-z가-힣]*/, '') || text.replace(/^[^\p{L}\p{N}]*/u, '') || text;
          x0 = ring.box[2] + 1;
        } else if (ring.box[0] - x0 >= reach) {
          // A ring after its option's value (a right-to-left row, `48 ⑤`, read `48©`): the value's
          // letters are those OCR placed left of the ring's middle (a glyph's box may reach into it).
          const middle = (ring.box[0] + ring.box[2]) / 2;
          const before = w.glyphs.filter(c => (c.x0 + c.x1) / 2 < middle - reach / 2).map(c => c.text).join('');
          text = (w.glyphs.length ? before : text.replace(/[^\p{L}\p{N}]+$/u, '')).trim();
          if (!text) continue;
          x1 = ring.box[0] - 1;
        } else continue;
      }
      const bbox: BBox = [x0 / scale, y0 / scale, x1 / scale, y1 / scale];
      const sz = Math.max(4, (w.line[3] - w.line[1]) / scale / 1.05);
      spans.push({ text, bbox, baseline: w.line[3] / scale - sz * 0.2, size: sz, font: boldAt([x0, y0, x1, y1]) ? OCR_BOLD_FONT : OCR_FONT });
    }
  }
  const drawn = drawingBoxes.map(b => ({ page: number, kind: 'path' as const, visible: true, bbox: b.map(v => v / scale) as BBox }));
  return leaning({ spans: labelRows(labelRuns(latinLabels(spans), columns), columns), shapes: [...shapes, ...drawn], columns, top, moved }, skew, bodyFoot);
}

/**
 * A page scanned askew leans its columns' edges by its skew: each column says where they pass (its
 * words' furthest starts left and right, carried along the lean to the columns' top) and by how
 * much they lean (Column.lean), and where its lines start is measured along them (text/direction.ts
 * `inset`). The words stay where the picture has them: crops are cut from it as it is.
 */
function leaning(read: Omit<OcrPageReading, 'skew'>, degrees: number, foot: number): OcrPageReading {
  if (!degrees) return { ...read, skew: 0 };
  const tan = Math.tan((degrees * Math.PI) / 180);
  const y = read.top;
  const columns = read.columns.map(c => {
    // Words of the column's body (letters or digits: a speck read as `.` marks no edge), each start
    // carried to height y along the lean.
    const words = read.spans.filter(s => s.bbox[0] >= c.x0 - 1 && s.bbox[2] <= c.x1 + 1 && (s.bbox[1] + s.bbox[3]) / 2 >= y && (s.bbox[1] + s.bbox[3]) / 2 <= foot && /[\p{L}\p{N}]/u.test(s.text));
    if (!words.length) return c;
    const along = (x: number, s: RawSpan) => x + tan * ((s.bbox[1] + s.bbox[3]) / 2 - y);
    return { ...c, lean: { tan, y, x0: Math.min(...words.map(s => along(s.bbox[0], s))), x1: Math.max(...words.map(s => along(s.bbox[2], s))) } };
  });
  return { ...read, columns, skew: degrees };
}

/** Whether a box's ink is bold: its strokes thicker than the median word's of the page by BOLD_STROKE. */
function boldTest(g: Gray, words: Box[]): (box: Box) => boolean {
  // Each word's width is measured once: for the median, and again when its span is made.
  const measured = new Map<string, number | null>();
  const width = (b: Box) => {
    const key = b.join(',');
    if (!measured.has(key)) measured.set(key, strokeWidth(g, b));
    return measured.get(key)!;
  };
  const widths = words.map(width).filter((w): w is number => w !== null).sort((a, b) => a - b);
  if (!widths.length) return () => false;
  const usual = widths[Math.floor(widths.length / 2)];
  return box => (width(box) ?? 0) >= usual * BOLD_STROKE;
}
