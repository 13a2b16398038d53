// Drawings on a page read from its pixels: a graph's axes and curves, a triangle, a circle are
// strokes joined into one piece of ink far larger than any glyph. Found as connected pieces of ink
// (8-connected, traced run by run so no label map of the page is held), the way a page's vector
// paths are found on a born-digital page; what OCR read out of their strokes is no text.
import type { Gray } from './gray.ts';
import { INK, type Box } from './runs.ts';

/** A word whose ink lies this much (share of its ink) on a drawing's strokes is OCR reading the strokes. */
const ON_STROKES = 0.5;
/** Text covering this share of a piece's box sits inside a frame (a boxed condition, a radical over a fraction), not beside a drawing's labels. */
const HOLDS_TEXT = 0.08;
/** A word with this share of its box inside a piece's box is read inside it. */
const WITHIN = 0.75;
/** A pixel darker than this is a drawing's stroke where strokes are painted out (grey axes are lighter than ink). */
const FAINT = 200;
/** A piece thinner than this (pixels) either way is a rule, not a drawing. */
const RULE = 4;

/** A connected piece of ink and how many pixels it holds. */
interface Piece { box: Box; ink: number }

/** Ink runs of a box of the picture, row by row, joined into connected pieces. */
class InkRuns {
  private readonly x0: number[] = [];
  private readonly x1: number[] = [];
  /** Where each row's runs start in x0/x1 (relative to the box's top), and one past the last row. */
  private readonly rowStart: Int32Array;
  private parent = new Int32Array(0);

  /** `ink`: the grey below which a pixel is ink. */
  constructor(g: Gray, readonly box: Box, ink = INK) {
    const [bx0, by0, bx1, by1] = box;
    this.rowStart = new Int32Array(by1 - by0 + 1);
    for (let y = by0; y < by1; y++) {
      this.rowStart[y - by0] = this.x0.length;
      const row = y * g.width;
      let start = -1;
      for (let x = bx0; x <= bx1; x++) {
        const dark = x < bx1 && g.data[row + x] < ink;
        if (dark && start < 0) start = x;
        else if (!dark && start >= 0) { this.x0.push(start); this.x1.push(x); start = -1; }
      }
    }
    this.rowStart[by1 - by0] = this.x0.length;
    this.join();
  }

  private find(i: number): number {
    const p = this.parent;
    while (p[i] !== i) { p[i] = p[p[i]]; i = p[i]; }
    return i;
  }

  /** Runs of one row and the next that touch (diagonals too) are one piece. */
  private join(): void {
    const n = this.x0.length;
    this.parent = Int32Array.from({ length: n }, (_, i) => i);
    for (let r = 1; r < this.rowStart.length - 1; r++) {
      let a = this.rowStart[r - 1];
      const aEnd = this.rowStart[r], bEnd = this.rowStart[r + 1];
      for (let b = aEnd; b < bEnd; b++) {
        while (a < aEnd && this.x1[a] < this.x0[b]) a++;
        for (let k = a; k < aEnd && this.x0[k] <= this.x1[b]; k++) {
          const ra = this.find(k), rb = this.find(b);
          if (ra !== rb) this.parent[ra] = rb;
        }
      }
    }
  }

  /**
   * Paints the pieces of these roots white in a picture of the page's size: their pixels, not their
   * boxes (a label beside a stroke stays), each run `halo` pixels wider every way (a stroke's
   * anti-aliased or blurred edge is lighter than ink, and the recogniser reads it).
   */
  paintOut(g: Gray, roots: Set<number>, halo: number): void {
    const by0 = this.box[1];
    for (let r = 0; r < this.rowStart.length - 1; r++) {
      for (let i = this.rowStart[r]; i < this.rowStart[r + 1]; i++) {
        if (!roots.has(this.find(i))) continue;
        const x0 = Math.max(0, this.x0[i] - halo), x1 = Math.min(g.width, this.x1[i] + halo);
        for (let y = Math.max(0, by0 + r - halo); y <= Math.min(g.height - 1, by0 + r + halo); y++) g.data.fill(255, y * g.width + x0, y * g.width + x1);
      }
    }
  }

  /** The roots of this tracing's pieces that share a pixel with the pieces of `roots` in another tracing of the page. */
  touching(other: InkRuns, roots: Set<number>): Set<number> {
    const out = new Set<number>();
    const [, by0, , by1] = this.box;
    for (let y = Math.max(by0, other.box[1]); y < Math.min(by1, other.box[3]); y++) {
      const r = y - by0, o = y - other.box[1];
      for (let j = other.rowStart[o]; j < other.rowStart[o + 1]; j++) {
        if (!roots.has(other.find(j))) continue;
        for (let i = this.rowStart[r]; i < this.rowStart[r + 1]; i++) if (this.x0[i] < other.x1[j] && other.x0[j] < this.x1[i]) out.add(this.find(i));
      }
    }
    return out;
  }

  /** Every piece, by its root run. */
  pieces(): Map<number, Piece> {
    const out = new Map<number, Piece>();
    const by0 = this.box[1];
    for (let r = 0; r < this.rowStart.length - 1; r++) {
      for (let i = this.rowStart[r]; i < this.rowStart[r + 1]; i++) {
        const root = this.find(i);
        const p = out.get(root);
        const y = by0 + r;
        if (!p) out.set(root, { box: [this.x0[i], y, this.x1[i], y + 1], ink: this.x1[i] - this.x0[i] });
        else {
          p.box = [Math.min(p.box[0], this.x0[i]), p.box[1], Math.max(p.box[2], this.x1[i]), y + 1];
          p.ink += this.x1[i] - this.x0[i];
        }
      }
    }
    return out;
  }

  /** The ink inside a box, and how much of it belongs to the given pieces. */
  inkIn(b: Box, roots: Set<number>): { all: number; held: number } {
    const [bx0, by0, bx1, by1] = this.box;
    let all = 0, held = 0;
    for (let y = Math.max(by0, b[1]); y < Math.min(by1, b[3]); y++) {
      const r = y - by0;
      for (let i = this.rowStart[r]; i < this.rowStart[r + 1]; i++) {
        const len = Math.min(this.x1[i], b[2], bx1) - Math.max(this.x0[i], b[0], bx0);
        if (len <= 0) continue;
        all += len;
        if (roots.has(this.find(i))) held += len;
      }
    }
    return { all, held };
  }
}

/** A piece at least `minW` × `minH` pixels and no rule (a line thin either way). */
const isBig = (b: Box, minW: number, minH: number) => {
  const w = b[2] - b[0], h = b[3] - b[1];
  return w >= minW && h >= minH && w > RULE && h > RULE;
};

/** Whether ink crosses a side of `box` (left or right) where a piece of it reaches that side. */
function runsOut(g: Gray, box: Box, piece: Box): boolean {
  const crosses = (inside: number, outside: number) => {
    if (outside < 0 || outside >= g.width) return false;
    for (let y = piece[1]; y < piece[3]; y++) if (g.data[y * g.width + inside] < INK && g.data[y * g.width + outside] < INK) return true;
    return false;
  };
  return (piece[0] <= box[0] && crosses(box[0], box[0] - 1)) || (piece[2] >= box[2] && crosses(box[2] - 1, box[2]));
}

/** The share of box a's area inside box b. */
const shareInside = (a: Box, b: Box) => {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]), h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  return w > 0 && h > 0 ? (w * h) / Math.max(1, (a[2] - a[0]) * (a[3] - a[1])) : 0;
};

export interface Drawings {
  /** Each drawing's box, in pixels. */
  boxes: Box[];
  /** The words (of those given) that OCR read out of a drawing's strokes. */
  strokes: Set<number>;
  /** Whether a box lies inside a drawing's strokes' box (WITHIN of it): text a drawing holds, not text beside it. */
  holds: (box: Box) => boolean;
  /**
   * A copy of another picture of the page (at the same size) with the drawings' strokes painted out,
   * `halo` pixels round, their labels kept. A stroke there is a piece of its ink, down to a faint
   * grey, that shares a pixel with a drawing's: a drawing's grey strokes (its axes) are fainter than
   * ink, and the recogniser reads them all the same.
   */
  withoutStrokes: (g: Gray, halo: number) => Gray;
}

/**
 * The drawings inside some boxes of a page (its columns): pieces of ink at least `minW` × `minH`
 * pixels that hold no text inside them. `words` are what OCR read there (pixel boxes): the ones
 * lying on a drawing's strokes are returned by index, the rest tell a frame round text from a
 * drawing with a few labels. Ink within `labelGap` pixels of a drawing is its labels'.
 */
export function drawingsIn(g: Gray, boxes: Box[], words: { bbox: Box }[], minW: number, minH: number, labelGap: number): Drawings {
  /** The pieces judged drawings, by the ink runs they were traced in, and their boxes. */
  const drawn = new Map<InkRuns, Set<number>>();
  const pieceBoxes: Box[] = [];
  const out: Drawings = {
    boxes: [], strokes: new Set(),
    holds: box => pieceBoxes.some(p => shareInside(box, p) >= WITHIN),
    withoutStrokes: (other, halo) => {
      const copy = { ...other, data: Uint8Array.from(other.data) };
      for (const [runs, roots] of drawn) {
        runs.paintOut(copy, roots, halo);
        const there = new InkRuns(other, runs.box, FAINT);
        there.paintOut(copy, there.touching(runs, roots), halo);
      }
      return copy;
    },
  };
  const indexed = words.map((w, i) => ({ w, i }));
  /** Pieces judged whole across the page (one reaching over two boxes is judged once). */
  const judgedWhole: Box[] = [];
  /** A piece of ink: a drawing (with its labels, the words read off its strokes) or none. */
  const judge = (runs: InkRuns, all: [number, Piece][], root: number, p: Piece) => {
    const own = new Set([root]);
    // Words mostly inside the piece's box: OCR's box for what it read out of a drawing's strokes
    // may reach past them (a triangle read as one tall `/\`).
    const within = indexed.filter(({ w }) => shareInside(w.bbox, p.box) >= WITHIN);
    const onStrokes = within.filter(({ w }) => {
      const { all: ink, held } = runs.inkIn(w.bbox, own);
      return ink > 0 && held / ink >= ON_STROKES;
    });
    const text = within.filter(x => !onStrokes.includes(x)).reduce((a, { w }) => a + (w.bbox[2] - w.bbox[0]) * (w.bbox[3] - w.bbox[1]), 0);
    if (text / ((p.box[2] - p.box[0]) * (p.box[3] - p.box[1])) >= HOLDS_TEXT) return;
    // Labels (A, P₁, x) stand apart from the strokes, just outside them: the drawing's too.
    const near: Box = [p.box[0] - labelGap, p.box[1] - labelGap, p.box[2] + labelGap, p.box[3] + labelGap];
    const labels = all.filter(([r, q]) => r !== root && q.box[0] < near[2] && q.box[2] > near[0] && q.box[1] < near[3] && q.box[3] > near[1]);
    out.boxes.push(labels.reduce<Box>((b, [, q]) => [Math.min(b[0], q.box[0]), Math.min(b[1], q.box[1]), Math.max(b[2], q.box[2]), Math.max(b[3], q.box[3])], p.box));
    for (const { i } of onStrokes) out.strokes.add(i);
    (drawn.get(runs) ?? drawn.set(runs, new Set()).get(runs)!).add(root);
    pieceBoxes.push(p.box);
  };
  for (const box of boxes) {
    const runs = new InkRuns(g, box);
    const all = [...runs.pieces()];
    /** The page's ink across its width in the box's rows, traced once for the box where a piece needs it. */
    let across: { runs: InkRuns; pieces: [number, Piece][] } | undefined;
    for (const [root, p] of all.filter(([, q]) => isBig(q.box, minW, minH))) {
      if (!runsOut(g, box, p.box)) { judge(runs, all, root, p); continue; }
      // Strokes that run on out of the box (a frame round instructions set across both columns, cut
      // at the gutter; a chart that columns found from the page's ink cut in two) are judged whole,
      // across the page's width: the frame holds its text in the other column.
      if (!across) {
        const wide = new InkRuns(g, [0, box[1], g.width, box[3]]);
        across = { runs: wide, pieces: [...wide.pieces()] };
      }
      const whole = across.pieces.find(([, q]) => q.box[0] <= p.box[0] && q.box[1] <= p.box[1] && q.box[2] >= p.box[2] && q.box[3] >= p.box[3]);
      if (!whole || judgedWhole.some(b => b.every((v, k) => v === whole[1].box[k]))) continue;
      judgedWhole.push(whole[1].box);
      judge(across.runs, across.pieces, whole[0], whole[1]);
    }
  }
  return { ...out, boxes: joined(out.boxes) };
}

/**
 * Boxes that overlap joined into one, until none do: a curve the scan broke in two is two pieces,
 * each the other's label, and one drawing (two boxes alike read as a frame's sides, no figure).
 */
export function joined(boxes: Box[]): Box[] {
  const out = boxes.map(b => [...b] as Box);
  for (let again = true; again;) {
    again = false;
    for (let i = 0; i < out.length && !again; i++) {
      for (let j = i + 1; j < out.length; j++) {
        const [a, b] = [out[i], out[j]];
        if (a[0] >= b[2] || b[0] >= a[2] || a[1] >= b[3] || b[1] >= a[3]) continue;
        out[i] = [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
        out.splice(j, 1);
        again = true;
        break;
      }
    }
  }
  return out;
}
