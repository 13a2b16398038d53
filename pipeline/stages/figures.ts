// figures: embedded images and vector drawings inside a question's regions, clustered into
// figures and cropped from the page image with sharp. A lone frame around text (a condition box)
// is not a figure; a ruled grid is a table; curves, diagonals and images are drawings.
import fs from 'node:fs';
import path from 'node:path';
import type { BBox, Figure, Line, PaperDocument, Question, Shape, Span } from '../document.ts';
import { bboxUnion, centerX, centerY, contains, height, intersects, width } from '../document.ts';
import { inCell, optionCells, pictureSpans, textOutside, type OptionCell } from '../figures/option-cells.ts';
import { figureName, optionImageName } from '../ids.ts';
import { uprightRule } from '../text/body.ts';
import { cropPng, loadPageImage, type PageImage } from '../providers/image.ts';
import type { Stage } from '../stage.ts';

export const FIGURES_DIR = 'figures';
/** A figure is at least this wide and tall (points): smaller drawings are a formula's bars, a box's corner. */
const MIN_W = 36;
const MIN_H = 24;
/** Shapes this close (points) are one figure. */
const JOIN = 8;
/** A frame holds text where its words cover at least this share of it (a drawing's labels cover less). */
const FRAME_TEXT = 0.08;
/** A stroke within this many points of a box's edge lies on it (a frame drawn around text). */
const FRAME_EDGE = 4;
/** A rounded corner of a frame: an arc at most this many points wide and tall. */
const CORNER_ARC = 15;
/** An image under running text whose words cover this share of it is a backdrop, not a figure. */
const BACKDROP_TEXT = 0.15;
/** Shapes a figure's column reaches past its edges by this many points; labels this near it are its own, if narrower than this. */
const COLUMN_SLACK = 10;
const LABEL_REACH = 10;
const LABEL_WIDTH = 40;
/**
 * A line above or below a drawing that runs on past one of its sides by more than a label's width
 * (points) is text, not its labels (a row of tick labels or of corner letters reaches a little past).
 */
const LINE_PAST = LABEL_WIDTH;
/** The words set on after a question's number, no further apart than this many times their line's height, are its text (see phrases). */
const NUMBERED_APART = 2;

/** The vertical band of each question in each column it occupies: from its first line to the next question's. */
function bands(doc: PaperDocument): Map<Question, { page: number; column: number; y0: number; y1: number }[]> {
  const out = new Map<Question, { page: number; column: number; y0: number; y1: number }[]>();
  const starts = doc.questions.map(q => q.lines[0]);
  // Lines of each question: a band also ends at another question's line below it in its column (a
  // paper printed twice side by side reads each question's twin in the other column, where no
  // question starts).
  const owner = new Map(doc.questions.flatMap(q => q.lines.map(l => [l, q] as const)));
  doc.questions.forEach((q, i) => {
    out.set(q, q.regions.map((r, k) => {
      const page = doc.pages[r.page - 1];
      const others = doc.lines.filter(l => l.page === r.page && l.column === r.column && l.bbox[1] > r.bbox[1] && owner.has(l) && owner.get(l) !== q);
      const below = others.length ? others.reduce((a, b) => (b.bbox[1] < a.bbox[1] ? b : a)) : undefined;
      const start = starts.slice(i + 1).find(l => l.page === r.page && l.column === r.column);
      const next = below && (!start || below.bbox[1] < start.bbox[1]) ? below : start;
      // A question carried over to a new column or page owns its top, where a figure may stand
      // above the first carried line. A later region below another question's lines in its column is
      // no carry-over (a twin's block beside its question, a language a column): it starts at its
      // first line, as the first region does, and takes no figure of the twins above it.
      const carried = k > 0 && !doc.lines.some(l => l.page === r.page && l.column === r.column && l.bbox[1] < r.bbox[1] && owner.has(l) && owner.get(l) !== q);
      const y0 = carried ? Math.min(r.bbox[1] - 4, page.body.y0) : r.bbox[1] - 4;
      return { page: r.page, column: r.column, y0, y1: next ? next.bbox[1] - 1 : page.body.y1 };
    }));
  });
  return out;
}

function cluster(shapes: Shape[]): Shape[][] {
  const groups: Shape[][] = [];
  for (const s of shapes) {
    const hit = groups.filter(g => g.some(o => intersects(o.bbox, s.bbox, JOIN)));
    const merged = [s, ...hit.flat()];
    for (const h of hit) groups.splice(groups.indexOf(h), 1);
    groups.push(merged);
  }
  return groups;
}

/**
 * Whether text is set inside a box the way a frame holds it: lines of words covering a good share
 * of it (a drawing's labels are letters at its corners and cover little).
 */
function holdsText(box: BBox, spans: readonly Span[]): boolean {
  const inside = spans.filter(s => contains(box, s.bbox, 1));
  const covered = inside.reduce((a, s) => a + width(s.bbox) * height(s.bbox), 0);
  return covered / Math.max(1, width(box) * height(box)) >= FRAME_TEXT;
}

/**
 * What a cluster of shapes is, or null where it is no figure (a frame, a rule, a formula's bar).
 * `spans`, the page's text, tells a frame drawn as one path around text from a figure drawn as one
 * path (a triangle printed from an inline SVG), which nothing surrounds.
 */
export function classify(group: Shape[], spans?: readonly Span[]): Figure['kind'] | null {
  const box = bboxUnion(group.map(s => s.bbox));
  if (group.some(s => s.kind === 'image' && width(s.bbox) >= MIN_W / 2 && height(s.bbox) >= MIN_H / 2)) return 'image';
  if (width(box) < MIN_W || height(box) < MIN_H) return null;
  // A box drawn around text (square or rounded corners): every stroke lies on the outer edge.
  const near = (a: number, b: number) => Math.abs(a - b) < FRAME_EDGE;
  const onBorder = (s: Shape) => {
    const b = s.bbox;
    if (height(b) < 2) return near(b[1], box[1]) || near(b[3], box[3]);
    if (width(b) < 2) return near(b[0], box[0]) || near(b[2], box[2]);
    if (near(b[0], box[0]) && near(b[1], box[1]) && near(b[2], box[2]) && near(b[3], box[3])) return true;
    // A rounded corner: a small arc in a corner of the box.
    return width(b) <= CORNER_ARC && height(b) <= CORNER_ARC && (near(b[0], box[0]) || near(b[2], box[2])) && (near(b[1], box[1]) || near(b[3], box[3]));
  };
  if (group.every(onBorder)) {
    const lonePath = group.length === 1 && group[0].kind === 'path';
    if (!lonePath || !spans || holdsText(box, spans)) return null;
    return 'drawing';
  }
  const straight = group.every(s => s.kind === 'line' || s.kind === 'rect');
  if (!straight) return 'drawing';
  const axis = group.every(s => width(s.bbox) < 2 || height(s.bbox) < 2 || s.kind === 'rect');
  if (!axis) return 'drawing';
  // Axis-aligned rules with some inside the frame: a table when at least two rules divide it.
  const inner = group.filter(s => !onBorder(s));
  return inner.length >= 2 ? 'table' : null;
}

/**
 * An image is a backdrop when running text covers it: sentences set over a good share of its area
 * (a graph's labels are short and cover little of it).
 */
export function isBackdrop(bbox: BBox, spans: readonly Span[]): boolean {
  const over = spans.filter(s => contains(bbox, s.bbox, 1));
  if (over.filter(s => !s.math && width(s.bbox) > 30).length < 2) return false;
  const covered = over.reduce((a, s) => a + width(s.bbox) * height(s.bbox), 0);
  return covered / (width(bbox) * height(bbox)) >= BACKDROP_TEXT;
}

/**
 * Each span's phrase: the run of its line's spans set no further apart than the line is tall. A
 * label shares a line with the question's `(a)` or another label across a gap; a sentence's words
 * follow one another closely.
 */
function phrases(lines: readonly Line[], apart = 1): (s: Span) => BBox | undefined {
  const out = new Map<Span, BBox>();
  const onPage = new Map<number, Span[]>();
  for (const l of lines) {
    const spans = [...l.spans].sort((a, b) => a.bbox[0] - b.bbox[0]);
    let run: Span[] = [];
    const close = () => { const box = bboxUnion(run.map(s => s.bbox)); for (const s of run) out.set(s, box); run = []; };
    for (const s of spans) {
      if (run.length && s.bbox[0] - run[run.length - 1].bbox[2] > height(l.bbox) * apart) close();
      run.push(s);
    }
    if (run.length) close();
    (onPage.get(l.page) ?? onPage.set(l.page, []).get(l.page)!).push(...l.spans);
  }
  // A page's span that its line holds cut in two (a question's number cut from the words after it:
  // `1. Find 2` as `1.` and ` Find 2`) is in the phrase of its pieces.
  return s => out.get(s) ?? (onPage.get(s.page) ?? []).filter(o => o !== s && contains(s.bbox, o.bbox, 0.01)).map(o => out.get(o)).find(b => b !== undefined);
}

/** The phrase lies wholly above or below the box and reaches past one of its sides. */
function runsPast(line: BBox | undefined, box: BBox): boolean {
  if (!line) return false;
  const apart = line[3] <= box[1] || line[1] >= box[3];
  return apart && (line[0] < box[0] - LINE_PAST || line[2] > box[2] + LINE_PAST);
}

export function findFigures(doc: PaperDocument): Map<Question, Figure[]> {
  const result = new Map<Question, Figure[]>();
  const anchors = new Set(doc.questions.flatMap(q => q.anchor));
  const phraseOf = phrases(doc.lines);
  // The phrases that hold a question's number: its first words, never a figure's labels however
  // short the line (`A.5. 5² の値を求めよ。` just above a row of pictured options). OCR sets a
  // space in Japanese or Chinese text as wide as a line is tall (`20%  はいくつか`): these phrases
  // run on across gaps of NUMBERED_APART lines' heights.
  const numberedOf = phrases(doc.lines, NUMBERED_APART);
  const numbered = new Set([...anchors].map(numberedOf));
  for (const [q, qb] of bands(doc)) {
    const figures: Figure[] = [];
    for (const b of qb) {
      const page = doc.pages[b.page - 1];
      const col = page.columns[b.column];
      const inBand = page.shapes.filter(s => s.visible
        && centerY(s.bbox) >= b.y0 && centerY(s.bbox) <= b.y1
        && centerX(s.bbox) >= col.x0 - COLUMN_SLACK && centerX(s.bbox) <= col.x1 + COLUMN_SLACK
        && centerY(s.bbox) >= page.body.y0 && centerY(s.bbox) <= page.body.y1
        // A column rule is no figure.
        && !uprightRule(s, page.height));
      for (const g of cluster(inBand)) {
        const kind = classify(g, page.spans);
        if (!kind) continue;
        let bbox = bboxUnion(g.map(s => s.bbox));
        // An image under running text (a backdrop, a pasted strip of the typeset page) is not a
        // figure: a figure carries labels, not sentences.
        if (kind === 'image' && isBackdrop(bbox, page.spans)) {
          doc.messages.info('figures/text-backdrop', 'an image under running text was not taken for a figure', { page: b.page, item: q.id, stage: 'figures' });
          continue;
        }
        // Labels (points, axes) drawn as text just outside the shapes belong to the figure.
        // A question's printed number just above a figure is the question's, not a label, and so are
        // the words set on with it.
        // A word of a phrase that stands above or below the drawing and runs on past its sides is
        // running text (OCR reads a line word by word, each narrow), not a label.
        const labels = page.spans.filter(s => intersects(s.bbox, bbox, LABEL_REACH) && width(s.bbox) < LABEL_WIDTH && !contains(bbox, s.bbox) && !anchors.has(s)
          && !numbered.has(numberedOf(s)) && !runsPast(phraseOf(s), bbox));
        if (labels.length) bbox = bboxUnion([bbox, ...labels.map(s => s.bbox)]);
        figures.push({ page: b.page, bbox: bbox.map((v, i) => (i % 2 ? Math.max(0, Math.min(page.height, v)) : Math.max(0, Math.min(page.width, v)))) as BBox, kind });
      }
    }
    result.set(q, figures.sort((a, b) => a.page - b.page || a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]));
  }
  return result;
}

/** Each option's cell (option-cells.ts), down to where the question's band ends on that page and column. */
function cellsOf(doc: PaperDocument, q: Question): OptionCell[] | null {
  const band = bands(doc).get(q) ?? [];
  const bottom = (page: number, column: number) => band.find(b => b.page === page && b.column === column)?.y1 ?? doc.pages[page - 1].body.y1;
  return optionCells(q, doc.pages, bottom);
}

/** An option's own picture: the drawing in its cell with the labels set in it, and the text left outside it. */
export interface OptionPicture {
  index: number;
  figure: Figure;
  text: string;
  /** The option's cell: figures found for the whole question inside it are this picture's pieces. */
  cell: BBox;
}

/**
 * Options printed as pictures: where every option's cell holds a drawing (graphs A)–D), tables as
 * options), each option gets the drawing of its own cell. Where only some do, an option whose text
 * is empty (OCR could not read it) still gets what is printed in its cell. Empty when neither holds.
 */
export function optionPictures(doc: PaperDocument, q: Question): OptionPicture[] {
  if (q.options.length < 2) return [];
  const cells = cellsOf(doc, q);
  if (!cells) return [];
  const found = cells.map(cell => {
    const page = doc.pages[cell.page - 1];
    const { shapes, spans } = inCell(cell, page);
    // All that is drawn in the cell is one option's picture: taken whole when it reads as a figure
    // (a table whose shaded rows are apart), else the pieces that do.
    const whole = classify(shapes, page.spans);
    const groups = whole ? [{ g: shapes, kind: whole }] : cluster(shapes).map(g => ({ g, kind: classify(g, page.spans) })).filter(x => x.kind);
    if (!groups.length) return { cell, spans, shapes, figure: null as Figure | null, text: '' };
    const drawn = bboxUnion(groups.flatMap(x => x.g.map(s => s.bbox)));
    const kinds = groups.map(x => x.kind);
    const kind: Figure['kind'] = kinds.includes('image') ? 'image' : kinds.every(k => k === 'table') ? 'table' : 'drawing';
    // Text that fills the drawn box (a table's cells, a boxed system of equations) is the option's
    // text, read again from this cell alone; labels set in and around a graph are the picture's; by
    // a photograph or a scan, text is its caption (only text printed over it is the picture's).
    const texty = holdsText(drawn, spans);
    const labels = texty ? [] : kind === 'image' ? spans.filter(s => contains(drawn, s.bbox, 2)) : pictureSpans(drawn, spans);
    const box = bboxUnion([drawn, ...(texty ? spans : labels).map(s => s.bbox)]);
    const figure = { page: cell.page, bbox: box, kind } as Figure;
    return { cell, spans, shapes, figure, text: textOutside(q, cell, spans.filter(s => !labels.includes(s))) };
  });
  if (found.every(f => f.figure)) return found.map(f => ({ index: f.cell.index, figure: f.figure!, text: f.text, cell: f.cell.box }));
  // An option left empty carries what its cell prints. On a page read by OCR, one whose cell holds
  // no drawing is text OCR could not spell (a fraction): no figure, it carries its cell as its
  // picture (unreadOptions), and the question has no figure for it.
  return found.filter(f => !q.options[f.cell.index].text.trim() && (f.spans.length || f.shapes.length) && (f.figure || !doc.pages[f.cell.page - 1].ocr)).map(f => ({
    index: f.cell.index,
    figure: { page: f.cell.page, bbox: bboxUnion([...f.spans, ...f.shapes].map(x => x.bbox)), kind: f.figure?.kind ?? 'image' },
    text: '',
    cell: f.cell.box,
  }));
}

/**
 * Options of a page read by OCR that it read as nothing, or as another option of the same question
 * reads (a fraction, a radical, a power: formulas OCR cannot spell out): each one's printed cell,
 * right of its label, to be carried as the option's picture beside what was read. An option that
 * already has a picture is left alone.
 */
export function unreadOptions(doc: PaperDocument, q: Question): { index: number; page: number; bbox: BBox }[] {
  if (q.options.length < 2) return [];
  const texts = q.options.map(o => o.text.trim());
  const unread = texts.map((t, i) => !q.options[i].image && (t === '' || texts.some((u, j) => j !== i && u === t)));
  if (!unread.some(Boolean)) return [];
  const cells = cellsOf(doc, q);
  if (!cells) return [];
  // The last label of a row has no next label to end its cell: what OCR did not read may stand past
  // the column's read text, so its cell is as wide as the row's labels are apart.
  const sameRow = (a: OptionCell, b: OptionCell) => a.page === b.page && Math.abs(a.marker.bbox[1] - b.marker.bbox[1]) < a.marker.size * 0.6;
  const right = (c: OptionCell) => {
    const row = cells.filter(d => sameRow(c, d)).map(d => d.marker.bbox[0]).sort((a, b) => a - b);
    if (row.length < 2 || c.marker.bbox[0] < row[row.length - 1]) return c.box[2];
    const step = (row[row.length - 1] - row[0]) / (row.length - 1);
    return Math.min(doc.pages[c.page - 1].width, Math.max(c.box[2], c.marker.bbox[0] + step - 1));
  };
  return cells.filter(c => unread[c.index] && doc.pages[c.page - 1].ocr).map(c => ({
    index: c.index,
    page: c.page,
    bbox: [c.marker.bbox[2] + 1, c.box[1], right(c) - 1.5, c.box[3]] as BBox,
  }));
}

export function figuresStage(): Stage {
  return {
    name: 'figures',
    kind: 'processor',
    async run(doc, ctx) {
      const dir = path.join(ctx.config.yearDir, FIGURES_DIR);
      fs.mkdirSync(dir, { recursive: true });
      // Each page image is decoded once for all the crops cut from it (questions come in page
      // order, so the last two pages decoded are kept, some 12 MB each at 144 dpi on A3).
      const decoded = new Map<string, Promise<PageImage>>();
      const pageImage = (image: string): Promise<PageImage> => {
        let p = decoded.get(image);
        if (!p) {
          p = loadPageImage(path.join(ctx.config.yearDir, image));
          decoded.set(image, p);
          if (decoded.size > 2) decoded.delete(decoded.keys().next().value!);
        }
        return p;
      };
      for (const [q, found] of findFigures(doc)) {
        // Options that are pictures: the figures found inside their cells give way to each
        // option's own picture, which follow the question's other figures in option order.
        const pictures = optionPictures(doc, q);
        const inPicture = (f: Figure) => pictures.some(p => p.figure.page === f.page && contains(p.cell, [centerX(f.bbox), centerY(f.bbox), centerX(f.bbox), centerY(f.bbox)]));
        const figures = [...found.filter(f => !inPicture(f)), ...pictures.map(p => p.figure)];
        q.figures = figures;
        for (const [i, f] of figures.entries()) {
          const page = doc.pages[f.page - 1];
          if (!page.image) continue;
          const name = figureName(q.id, i);
          const file = path.join(dir, name);
          f.path = `${FIGURES_DIR}/${name}`;
          if (fs.existsSync(file)) continue;
          try {
            await cropPng(await pageImage(page.image), f.bbox, ctx.config.dpi / 72, file);
          } catch (e) {
            doc.messages.warn('figures/crop-failed', `figure ${i + 1} cannot be cropped (${(e as Error).message})`, { page: f.page, item: q.id, stage: 'figures' });
            delete f.path;
          }
        }
        for (const p of pictures) {
          const option = q.options[p.index];
          if (p.figure.path) option.image = p.figure.path;
          if (option.text !== p.text) {
            doc.messages.info('figures/option-picture', `option ${option.label} is a picture: its text "${option.text}" becomes "${p.text}"`, { page: p.figure.page, item: q.id, stage: 'figures' });
            option.text = p.text;
          }
        }
        for (const u of unreadOptions(doc, q)) {
          const page = doc.pages[u.page - 1];
          const option = q.options[u.index];
          if (!page.image) continue;
          const name = optionImageName(q.id, u.index);
          const file = path.join(dir, name);
          try {
            if (!fs.existsSync(file) && !(await cropPng(await pageImage(page.image), u.bbox, ctx.config.dpi / 72, file, { pad: 0, trim: true }))) continue;
            option.image = `${FIGURES_DIR}/${name}`;
            doc.messages.warn('figures/option-unread', `option ${option.label}: OCR read it as ${option.text.trim() ? `"${option.text.trim()}", as another option reads` : 'nothing'}; its printed cell is carried as its picture`, { page: u.page, item: q.id, stage: 'figures' });
          } catch (e) {
            doc.messages.warn('figures/crop-failed', `option ${option.label} cannot be cropped (${(e as Error).message})`, { page: u.page, item: q.id, stage: 'figures' });
          }
        }
        // Regions cover figures too.
        for (const f of figures) {
          const r = q.regions.find(r => r.page === f.page && intersects(r.bbox, f.bbox, 40));
          if (r) r.bbox = bboxUnion([r.bbox, f.bbox]);
        }
      }
    },
  };
}
