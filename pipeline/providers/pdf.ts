// The outside world for PDFs: pdfjs-dist (legacy build, the one that runs on Node 20) and its
// @napi-rs/canvas for rendering. Everything returned is in PDF points with a top-left origin.
// Both are loaded on first use (pdf.js is some 3 MB of JavaScript, its worker as much again): a
// command that opens no PDF (--help, a re-run with nothing new, make tag) never pays for them.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Canvas } from '@napi-rs/canvas';
import type { BBox, Shape, ShapeKind } from '../document.ts';
import { encodePagePng } from './png.ts';
import { pageActualText } from './actual-text.ts';
import { CanvasPool } from './canvas-pool.ts';

const require = createRequire(import.meta.url);
const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));
type Matrix = [number, number, number, number, number, number];

export type PdfDocument = Pdfjs.PDFDocumentProxy;
export type PdfPage = Pdfjs.PDFPageProxy;

/**
 * Built-ins pdf.js's legacy build replaces with core-js polyfills for every module of the process,
 * though Node 20's own are correct for anything this project does: JSON.stringify becomes some 20
 * times slower (every record is stringified), JSON.parse and Array.prototype.push slower too. They
 * are put back once pdf.js (and its worker, which pdf.js imports when the first PDF is opened) is
 * loaded. The polyfills that add what Node 20 lacks (Map.prototype.getOrInsertComputed,
 * Promise.withResolvers …) stay: pdf.js needs those.
 */
const NATIVE = { push: Array.prototype.push, parse: JSON.parse, stringify: JSON.stringify };
function restoreNatives(): void {
  if (Array.prototype.push !== NATIVE.push) Object.defineProperty(Array.prototype, 'push', { value: NATIVE.push, writable: true, configurable: true, enumerable: false });
  if (JSON.parse !== NATIVE.parse) JSON.parse = NATIVE.parse;
  if (JSON.stringify !== NATIVE.stringify) JSON.stringify = NATIVE.stringify;
}

let pdfjsLoaded: Promise<typeof Pdfjs> | undefined;
let canvasLoaded: Promise<typeof import('@napi-rs/canvas')> | undefined;
const loadPdfjs = () => (pdfjsLoaded ??= import('pdfjs-dist/legacy/build/pdf.mjs').then(m => { restoreNatives(); return m; }));
const loadCanvas = () => (canvasLoaded ??= import('@napi-rs/canvas'));

/** pdf.js's operator codes the operator walk needs, once pdf.js is loaded. */
interface OpCodes { OPS: typeof Pdfjs.OPS; paint: Set<number>; fillOnly: Set<number>; image: Set<number> }
let opCodes: OpCodes | undefined;
async function ops(): Promise<OpCodes> {
  if (opCodes) return opCodes;
  const { OPS } = await loadPdfjs();
  return (opCodes = {
    OPS,
    paint: new Set<number>([OPS.stroke, OPS.closeStroke, OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]),
    fillOnly: new Set<number>([OPS.fill, OPS.eoFill]),
    image: new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject, OPS.paintSolidColorImageMask, OPS.paintImageXObjectRepeat]),
  });
}

/**
 * A 2D context whose `drawImage(canvas, x, y)` goes through @napi-rs/canvas's `drawCanvas`. pdf.js
 * draws each transparency group on a scratch canvas the size of the page and composites it with
 * `drawImage(scratch, 0, 0)`; @napi-rs/canvas 0.1.x takes some 0.5 s for that call on an A3 page
 * at 144 dpi (a slow copy of the whole surface), `drawCanvas` under a millisecond, with the same
 * pixels (measured on the KICE booklets, three page-sized groups a page: half the time of a render).
 * Pictures, and every call with a size or a source box, keep drawImage.
 */
type Ctx2D = ReturnType<Canvas['getContext']>;
function fastComposite<T extends Ctx2D>(ctx: T): T {
  const draw = ctx.drawImage;
  ctx.drawImage = function (this: Ctx2D, image: unknown, ...args: number[]) {
    if (args.length === 2 && image && typeof (image as Canvas).getContext === 'function') return this.drawCanvas(image as Canvas, args[0], args[1]);
    return (draw as (...a: unknown[]) => void).call(this, image, ...args);
  } as Ctx2D['drawImage'];
  return ctx;
}

/** The canvases pdf.js makes for itself (transparency groups, masks, patterns): as pdf.js's own Node factory makes them, with fastComposite. */
class CanvasFactory {
  private readonly createCanvas: typeof import('@napi-rs/canvas').createCanvas;
  constructor(_options: unknown) {
    // Loaded by openPdf before any document (and so any factory) exists.
    this.createCanvas = loadedCanvas!.createCanvas;
  }

  create(width: number, height: number) {
    if (width <= 0 || height <= 0) throw new Error('Invalid canvas size');
    const kept = scratchCanvases.take(width, height);
    if (kept) return kept;
    const canvas = this.createCanvas(width, height);
    return { canvas, context: fastComposite(canvas.getContext('2d', { willReadFrequently: true } as never)) };
  }

  reset(cc: { canvas: Canvas | null }, width: number, height: number) {
    if (!cc.canvas) throw new Error('Canvas is not specified');
    if (width <= 0 || height <= 0) throw new Error('Invalid canvas size');
    cc.canvas.width = width;
    cc.canvas.height = height;
  }

  destroy(cc: { canvas: Canvas | null; context: Ctx2D | null }) {
    if (!cc.canvas) throw new Error('Canvas is not specified');
    // Not shrunk to 0×0 as pdf.js's own factory does (that reallocates the surface: 0.1 s a page
    // here): kept for the next page's scratch canvas of its size (canvas-pool.ts).
    if (cc.context) scratchCanvases.give(cc.canvas, cc.context);
    cc.canvas = null;
    cc.context = null;
  }
}
/** Canvases let go of (pdf.js's scratch canvases, pages' own once encoded), for the next page: canvas-pool.ts. */
const scratchCanvases = new CanvasPool<Canvas, Ctx2D>();
let loadedCanvas: typeof import('@napi-rs/canvas') | undefined;

export class PdfOpenError extends Error {
  constructor(readonly reason: 'password' | 'invalid' | 'empty', message: string) {
    super(message);
    this.name = 'PdfOpenError';
  }
}

export async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  if (bytes.length === 0) throw new PdfOpenError('empty', 'the file is empty');
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (!head.includes('%PDF-')) throw new PdfOpenError('invalid', 'not a PDF (no %PDF- header)');
  const [pdfjs, canvas] = await Promise.all([loadPdfjs(), loadCanvas()]);
  loadedCanvas = canvas;
  try {
    const doc = await pdfjs.getDocument({
      CanvasFactory,
      // pdfjs takes ownership of (and detaches) the buffer it is given: pass a copy.
      data: new Uint8Array(bytes),
      cMapUrl: path.join(PDFJS_DIR, 'cmaps') + '/',
      cMapPacked: true,
      standardFontDataUrl: path.join(PDFJS_DIR, 'standard_fonts') + '/',
      wasmUrl: path.join(PDFJS_DIR, 'wasm') + '/',
      verbosity: 0,
      isEvalSupported: false,
      stopAtErrors: false,
    }).promise.finally(restoreNatives);
    // Each page knows the file it came from: its text reads the properties of its marked content
    // from the file's bytes (actual-text.ts), which pdf.js does not give.
    const getPage = doc.getPage.bind(doc);
    doc.getPage = async (n: number) => {
      const page = await getPage(n);
      pageFile.set(page, bytes);
      return page;
    };
    return doc;
  } catch (e) {
    const err = e as Error & { name?: string; code?: number };
    if (err.name === 'PasswordException') throw new PdfOpenError('password', 'the PDF is password-protected');
    throw new PdfOpenError('invalid', `pdf.js cannot read it (${err.message})`);
  }
}

export interface RawSpan {
  text: string;
  bbox: BBox;
  baseline: number;
  size: number;
  font: string;
  /** Set at an angle (a margin's `Do NOT write in this area`, an axis label turned upright): not a line of the body. */
  rotated?: boolean;
  /**
   * Painted heavier than its font draws: emboldened by the writer for a font with no bold face (see
   * `readSpans` and `pageGraphics`). Its font's name does not say so.
   */
  bold?: boolean;
}

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1], m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3], m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4], m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

function boxOf(m: Matrix, x0: number, y0: number, x1: number, y1: number): BBox {
  const pts = [apply(m, x0, y0), apply(m, x1, y0), apply(m, x0, y1), apply(m, x1, y1)];
  return [Math.min(...pts.map(p => p[0])), Math.min(...pts.map(p => p[1])), Math.max(...pts.map(p => p[0])), Math.max(...pts.map(p => p[1]))];
}

const spansRead = new WeakMap<PdfPage, Promise<RawSpan[]>>();
/** The bytes of the file each page was read from (openPdf). */
const pageFile = new WeakMap<PdfPage, Uint8Array>();

/**
 * The page's text runs with their real (embedded) font names. Call after `pageShapes` so fonts are
 * loaded. pdf.js keeps a page's operator list but extracts its text content anew on every call:
 * the runs are kept with the page, so the cover register reads is not read again by text-layer.
 */
export function pageSpans(page: PdfPage): Promise<RawSpan[]> {
  let read = spansRead.get(page);
  if (!read) spansRead.set(page, read = readSpans(page));
  return read;
}

/**
 * A page's fonts by pdf.js's id: the font's name without its subset tag (`ABCDEF+`), and whether it is
 * a Type 3 font; the id itself where pdf.js has not resolved the font. Looked up once each.
 */
function fontLookup(page: PdfPage): (id: string) => { name: string; type3: boolean } {
  const fonts = new Map<string, { name: string; type3: boolean }>();
  return (id: string) => {
    if (!fonts.has(id)) {
      let name = id, type3 = false;
      try {
        const f = page.commonObjs.get(id) as { name?: string; isType3Font?: boolean } | undefined;
        if (f?.name) name = f.name.replace(/^[A-Z]{6}\+/, '');
        type3 = !!f?.isType3Font;
      } catch { /* font not resolved: keep pdf.js's id */ }
      fonts.set(id, { name, type3 });
    }
    return fonts.get(id)!;
  };
}

async function readSpans(page: PdfPage): Promise<RawSpan[]> {
  const viewport = page.getViewport({ scale: 1 });
  const vt = viewport.transform as Matrix;
  const file = pageFile.get(page);
  const actual = file ? pageActualText(file, page.pageNumber) : null;
  const content = await page.getTextContent({ includeMarkedContent: actual !== null });
  const fontOf = fontLookup(page);
  const realName = (id: string) => fontOf(id).name;
  // A browser (Chromium's Skia) prints the bold of a font that has no bold face as a Type 3 copy of
  // that font, its glyphs' outlines thickened, under the same name as the embedded font it copies
  // (`WenQuanYiMicroHei`, a Vietnamese letter taken from a fallback font inside a bold word). A Type 3
  // font with no such twin is a whole font the printer could not embed: its weight is its name's.
  const embedded = new Set(content.items.filter(i => 'fontName' in i && i.str?.trim()).map(i => fontOf((i as { fontName: string }).fontName)).filter(f => !f.type3).map(f => f.name));
  const emboldened = (id: string) => fontOf(id).type3 && embedded.has(fontOf(id).name);
  const out: RawSpan[] = [];
  // The marked-content sequences open, each with where its runs start in `out` and its ActualText.
  const opened = content.items.filter(i => 'type' in i && (i.type === 'beginMarkedContent' || i.type === 'beginMarkedContentProps')).length;
  const texts = actual && opened === actual.length ? actual : null;
  const open: { from: number; text: string | null }[] = [];
  let next = 0;
  for (const item of content.items) {
    if ('type' in item) {
      if (item.type === 'beginMarkedContent' || item.type === 'beginMarkedContentProps') open.push({ from: out.length, text: texts?.[next++] ?? null });
      else if (item.type === 'endMarkedContent') {
        const seq = open.pop();
        if (seq?.text) spellAs(out, seq.from, seq.text);
      }
      continue;
    }
    // A run of control characters is kept: a font table may draw its symbols there (NewMathExtn's
    // brackets at U+0000/U+0001); text/font-decode.ts reads one no table claims as a space.
    if (!('str' in item) || !item.str || !item.str.trim()) continue;
    const t = item.transform as Matrix;
    // The type size is the glyphs' height across the baseline: a slanted run (a synthetic italic, its
    // matrix sheared) is no larger than an upright one.
    const along = Math.hypot(t[0], t[1]);
    const size = (along ? Math.abs(t[0] * t[3] - t[1] * t[2]) / along : 0) || Math.hypot(t[2], t[3]) || along;
    const m = multiply(vt, t);
    const [x, baseline] = apply(m, 0, 0);
    const w = item.width;
    // Glyph extents from the font size: ascent ~0.85 em, descent ~0.2 em.
    const bbox: BBox = [x, baseline - size * 0.85, x + w, baseline + size * 0.2];
    // A run whose baseline is not horizontal on the page (the text matrix turns it). A shear alone
    // slants the glyphs on a level baseline: italic letters a browser slants for a font with none.
    const rotated = Math.abs(m[1]) > Math.abs(m[0]) * 0.05;
    out.push({ text: item.str, bbox, baseline, size, font: realName(item.fontName), ...(rotated ? { rotated } : {}), ...(emboldened(item.fontName) ? { bold: true } : {}) });
  }
  return out;
}

/** Classify a pdf.js path (DrawOPS: 0 moveTo, 1 lineTo, 2 curveTo, 3 quadraticCurveTo, 4 closePath). */
function pathKind(data: ArrayLike<number> | undefined): ShapeKind {
  if (!data) return 'path';
  let moves = 0, lines = 0, curves = 0;
  const xs: number[] = [], ys: number[] = [];
  for (let i = 0; i < data.length;) {
    const op = data[i++];
    if (op === 0 || op === 1) { op === 0 ? moves++ : lines++; xs.push(data[i]); ys.push(data[i + 1]); i += 2; }
    else if (op === 2) { curves++; i += 6; }
    else if (op === 3) { curves++; i += 4; }
    else if (op === 4) { /* close */ }
    else break;
  }
  if (curves) return 'path';
  if (moves === 1 && lines === 1) return 'line';
  if (moves === 1 && (lines === 3 || lines === 4)) {
    const axis = xs.every((x, k) => k === 0 || x === xs[k - 1] || ys[k] === ys[k - 1]);
    if (axis) return 'rect';
  }
  return 'path';
}

const isWhite = (c: string) => /^#f[a-f0-9]f[a-f0-9]f[a-f0-9]$/i.test(c);

/** A glyph as painted: its own position, so text rise and script sizes survive (pdf.js's text items merge them). */
/** How far apart (in type sizes) the runs of one marked-content sequence may stand on their baselines and still be one span of text. */
const ONE_LINE = 0.5;

/**
 * The runs from `from` on, one marked-content sequence whose writer gave it `text`, read as that
 * text: one run over their boxes. Only text with letters or marks in it (a writer's ActualText of a
 * tab or a space says nothing of the letters drawn), and only where the runs stand on one line.
 */
function spellAs(out: RawSpan[], from: number, text: string): void {
  const runs = out.slice(from);
  if (!runs.length || !/[\p{L}\p{M}]/u.test(text) || runs.map(r => r.text).join('') === text) return;
  const first = runs[0];
  if (runs.some(r => Math.abs(r.baseline - first.baseline) > first.size * ONE_LINE)) return;
  const bbox: BBox = [Math.min(...runs.map(r => r.bbox[0])), Math.min(...runs.map(r => r.bbox[1])), Math.max(...runs.map(r => r.bbox[2])), Math.max(...runs.map(r => r.bbox[3]))];
  out.splice(from, runs.length, { ...first, text, bbox, ...(runs.some(r => r.rotated) ? { rotated: true } : {}) });
}

export type RawGlyph = RawSpan;

export interface PageGraphics {
  shapes: Shape[];
  /** Every painted glyph a reader can see, one per character, with the real font name. */
  glyphs: RawGlyph[];
  /**
   * Glyphs in the text layer that paint nothing a reader sees: invisible render mode (a scan's
   * OCR layer, hidden text) or clipped almost entirely away (a word processor's stray character
   * scaled up inside a tiny clip). Their text must not be read.
   */
  hidden: RawGlyph[];
  /**
   * Glyphs filled and stroked over their outline (render mode 2 or 6): a word processor's bold for a
   * font with no bold face (Word's simulated bold of SimSun or Batang).
   */
  stroked: RawGlyph[];
}

interface TextState { tm: Matrix; tlm: Matrix; font: string; fs: number; tc: number; tw: number; th: number; rise: number; leading: number; mode: number }

/** Less than this share of a glyph's box inside the clip: the reader sees no glyph. */
const VISIBLE_SHARE = 0.3;
/** Text render modes that paint nothing (PDF 32000-1 §9.3.6: 3 invisible, 7 clip only). */
const INVISIBLE_MODES = new Set([3, 7]);
/** Text render modes that fill the glyph and stroke its outline (§9.3.6: 2, and 6 adding it to the clip). */
const FILL_STROKE_MODES = new Set([2, 6]);

function shareInside(b: BBox, clip: BBox | null): number {
  if (!clip) return 1;
  const w = Math.min(b[2], clip[2]) - Math.max(b[0], clip[0]), h = Math.min(b[3], clip[3]) - Math.max(b[1], clip[1]);
  const area = (b[2] - b[0]) * (b[3] - b[1]);
  if (area <= 0) return w >= 0 && h >= 0 ? 1 : 0;
  return w <= 0 || h <= 0 ? 0 : (w * h) / area;
}

function intersect(a: BBox | null, b: BBox): BBox {
  return a ? [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])] : b;
}

/**
 * Painted images, vector paths and glyphs of a page, from its operator list with the transform
 * stack and the text state applied (PDF 32000-1 §9.4.4: Trm = [Tfs·Th 0 0 Tfs 0 Trise] × Tm × CTM).
 */
export async function pageGraphics(page: PdfPage, pageNumber: number): Promise<PageGraphics> {
  const { OPS, paint: PAINT_OPS, fillOnly: FILL_ONLY, image: IMAGE_OPS } = await ops();
  const viewport = page.getViewport({ scale: 1 });
  const list = await operatorList(page);
  let ctm = viewport.transform.slice() as Matrix;
  const stack: Matrix[] = [];
  // The clip region as a box (paths cut it down; save/restore bring it back), and whether the next
  // path sets it (pdf.js lists the clip operator before the path it applies to).
  let clip: BBox | null = null, clipNext = false;
  const clipStack: (BBox | null)[] = [];
  const hidden: RawGlyph[] = [];
  const stroked: RawGlyph[] = [];
  let fill = '#000000', stroke = '#000000';
  const colorStack: [string, string][] = [];
  const shapes: Shape[] = [];
  const glyphs: RawGlyph[] = [];
  const I: Matrix = [1, 0, 0, 1, 0, 0];
  const t: TextState = { tm: I, tlm: I, font: '', fs: 1, tc: 0, tw: 0, th: 1, rise: 0, leading: 0, mode: 0 };
  const fontOf = fontLookup(page);
  const moveLine = (tx: number, ty: number) => { t.tlm = multiply(t.tlm, [1, 0, 0, 1, tx, ty]); t.tm = t.tlm; };
  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i];
    const args = list.argsArray[i] as unknown[];
    switch (fn) {
      case OPS.save: stack.push(ctm); colorStack.push([fill, stroke]); clipStack.push(clip); break;
      case OPS.restore: ctm = stack.pop() ?? ctm; [fill, stroke] = colorStack.pop() ?? [fill, stroke]; clip = clipStack.length ? clipStack.pop()! : clip; break;
      case OPS.transform: ctm = multiply(ctm, args as Matrix); break;
      case OPS.paintFormXObjectBegin: stack.push(ctm); clipStack.push(clip); if (Array.isArray(args[0])) ctm = multiply(ctm, args[0] as Matrix); break;
      case OPS.paintFormXObjectEnd: ctm = stack.pop() ?? ctm; clip = clipStack.length ? clipStack.pop()! : clip; break;
      case OPS.clip: case OPS.eoClip: clipNext = true; break;
      case OPS.setTextRenderingMode: t.mode = Number(args[0]); break;
      case OPS.setFillRGBColor: fill = String(args[0]); break;
      case OPS.setStrokeRGBColor: stroke = String(args[0]); break;
      case OPS.beginText: t.tm = I; t.tlm = I; break;
      case OPS.setFont: t.font = String(args[0]); t.fs = Number(args[1]); break;
      case OPS.setCharSpacing: t.tc = Number(args[0]); break;
      case OPS.setWordSpacing: t.tw = Number(args[0]); break;
      case OPS.setHScale: t.th = Number(args[0]) / 100; break;
      case OPS.setTextRise: t.rise = Number(args[0]); break;
      case OPS.setLeading: t.leading = Number(args[0]); break;
      case OPS.setTextMatrix: { const m = args[0] as ArrayLike<number>; t.tm = t.tlm = [m[0], m[1], m[2], m[3], m[4], m[5]]; break; }
      case OPS.moveText: moveLine(Number(args[0]), Number(args[1])); break;
      case OPS.setLeadingMoveText: t.leading = -Number(args[1]); moveLine(Number(args[0]), Number(args[1])); break;
      case OPS.nextLine: moveLine(0, -t.leading); break;
      case OPS.showText: {
        const name = fontOf(t.font).name;
        for (const g of args[0] as (number | { unicode: string; width: number; isSpace: boolean })[]) {
          if (typeof g === 'number') { t.tm = multiply(t.tm, [1, 0, 0, 1, (-g / 1000) * t.fs * t.th, 0]); continue; }
          const trm = multiply(multiply(ctm, t.tm), [t.fs * t.th, 0, 0, t.fs, 0, t.rise]);
          const [x, baseline] = apply(trm, 0, 0);
          const size = Math.hypot(trm[2], trm[3]);
          const w = (g.width / 1000) * Math.hypot(trm[0], trm[1]);
          if (g.unicode && g.unicode.trim()) {
            const glyph: RawGlyph = { text: g.unicode, bbox: [x, baseline - size * 0.85, x + w, baseline + size * 0.2], baseline, size, font: name };
            (INVISIBLE_MODES.has(t.mode) || shareInside(glyph.bbox, clip) < VISIBLE_SHARE ? hidden : glyphs).push(glyph);
            if (FILL_STROKE_MODES.has(t.mode)) stroked.push(glyph);
          }
          t.tm = multiply(t.tm, [1, 0, 0, 1, ((g.width / 1000) * t.fs + t.tc + (g.isSpace ? t.tw : 0)) * t.th, 0]);
        }
        break;
      }
      case OPS.constructPath: {
        const [op, data, minMax] = args as [number, [ArrayLike<number>?], ArrayLike<number> | null];
        if (clipNext && minMax && Number.isFinite(minMax[0]) && Number.isFinite(minMax[2])) clip = intersect(clip, boxOf(ctm, minMax[0], minMax[1], minMax[2], minMax[3]));
        clipNext = false;
        if (!PAINT_OPS.has(op) || !minMax || !Number.isFinite(minMax[0]) || !Number.isFinite(minMax[2])) break;
        const color = FILL_ONLY.has(op) ? fill : stroke;
        shapes.push({ page: pageNumber, kind: pathKind(data?.[0]), bbox: boxOf(ctm, minMax[0], minMax[1], minMax[2], minMax[3]), visible: !isWhite(color) });
        break;
      }
      default:
        if (IMAGE_OPS.has(fn)) shapes.push({ page: pageNumber, kind: 'image', bbox: boxOf(ctm, 0, 0, 1, 1), visible: true });
    }
  }
  return { shapes, glyphs, hidden, stroked };
}

/** Painted images and vector paths of a page. */
export async function pageShapes(page: PdfPage, pageNumber: number): Promise<Shape[]> {
  return (await pageGraphics(page, pageNumber)).shapes;
}

/** What pdf.js keeps of a page per rendering intent (PDFPageProxy's `_intentStates`; not public). */
interface IntentState { displayReadyCapability?: { promise: Promise<boolean>; resolve: (v: boolean) => void; reject: (e: unknown) => void }; operatorList?: unknown }
interface PageInternals {
  _transport?: { getRenderingIntent?: (intent: string, annotationMode: number, print: null, editing: boolean, opList?: boolean) => { cacheKey: string } };
  _intentStates?: Map<string, IntentState>;
}

/**
 * The page's operator list (every operator as the content stream has it, none merged), and the
 * page drawn from that same list. pdf.js otherwise parses a page twice: once for getOperatorList
 * (the "oplist" intent, unoptimised) and again for render (the "display" intent), fonts and images
 * decoded anew. The list is fetched once and filed under the display intent too, with the
 * transparency flag the worker sends as it starts, so render() finds it complete; it draws the same
 * pixels (every operator the optimiser would merge is drawn as itself). Where pdf.js's internals are
 * not as expected (another version), the page is simply parsed twice.
 */
function operatorList(page: PdfPage): ReturnType<PdfPage['getOperatorList']> {
  const internals = page as unknown as PageInternals;
  const transport = internals._transport, states = internals._intentStates;
  const keys = transport?.getRenderingIntent && states
    ? { list: transport.getRenderingIntent('display', ANNOTATIONS_ENABLE, null, false, true).cacheKey, display: transport.getRenderingIntent('display', ANNOTATIONS_ENABLE, null, false).cacheKey }
    : null;
  const fresh = keys !== null && !states!.has(keys.list) && !states!.has(keys.display) && keys.list !== keys.display;
  const list = page.getOperatorList();
  const state = fresh ? states!.get(keys.list) : undefined;
  if (state && !state.displayReadyCapability) {
    // The worker's "StartRenderPage", sent as it begins the list, resolves this with the page's transparency.
    let resolve!: (v: boolean) => void, reject!: (e: unknown) => void;
    const promise = new Promise<boolean>((res, rej) => { resolve = res; reject = rej; });
    state.displayReadyCapability = { promise, resolve, reject };
    states!.set(keys!.display, state);
  }
  return list;
}
/** AnnotationMode.ENABLE, render()'s and getOperatorList()'s default. */
const ANNOTATIONS_ENABLE = 1;

/** A page drawn by pdf.js on a white canvas at the given resolution. */
export async function drawPage(page: PdfPage, dpi: number): Promise<Canvas> {
  return (await drawOn(page, dpi, false)).canvas;
}

/** Draws the page on a new canvas, or with `reuse` on one let go of before (given back with scratchCanvases.give). */
async function drawOn(page: PdfPage, dpi: number, reuse: boolean): Promise<{ canvas: Canvas; ctx: Ctx2D }> {
  const { createCanvas } = await loadCanvas();
  const viewport = page.getViewport({ scale: dpi / 72 });
  const [width, height] = [Math.ceil(viewport.width), Math.ceil(viewport.height)];
  const kept = reuse ? scratchCanvases.take(width, height) : null;
  const canvas = kept?.canvas ?? createCanvas(width, height);
  const ctx = kept?.context ?? fastComposite(canvas.getContext('2d'));
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  // The context, not the canvas: given the canvas, pdf.js asks it for an opaque context
  // ({ alpha: false }), which @napi-rs/canvas makes by allocating a new surface (0.1 s a page at
  // 144 dpi); on this one, drawn on white, the pixels are the same. pdf.js's types name the DOM's
  // context; @napi-rs/canvas's is the Node implementation it expects.
  await page.render({ canvasContext: ctx as unknown as CanvasRenderingContext2D, canvas: null, viewport }).promise;
  return { canvas, ctx };
}

/** A drawn page's pixels, RGBA, opaque (drawn on white). getImageData gives the same bytes at ten times the cost. */
export function canvasPixels(canvas: Canvas): { data: Buffer; width: number; height: number } {
  return { data: canvas.data(), width: canvas.width, height: canvas.height };
}

/** Render a page to PNG bytes at the given resolution (the encoding: providers/png.ts). */
export async function renderPage(page: PdfPage, dpi: number): Promise<Buffer> {
  const { canvas, ctx } = await drawOn(page, dpi, true);
  // Encoded by sharp on libuv's thread pool: a caller can draw the next page meanwhile. The canvas
  // is held until the encoder is done with its pixels (they may be the canvas's own memory), then
  // kept for the next page of its size.
  try {
    return await encodePagePng(canvasPixels(canvas), dpi);
  } finally {
    scratchCanvases.give(canvas, ctx);
  }
}

/**
 * Lets pdf.js drop what it keeps of a page once it has been read (operator lists of both intents,
 * decoded images, the text runs kept here): a long paper's pages do not all stay in memory. Fonts
 * are the document's and stay. The page can be read again (parsed anew).
 */
export function releasePage(page: PdfPage): void {
  spansRead.delete(page);
  page.cleanup();
}

export function pageSize(page: PdfPage): { width: number; height: number } {
  const v = page.getViewport({ scale: 1 });
  return { width: v.width, height: v.height };
}
