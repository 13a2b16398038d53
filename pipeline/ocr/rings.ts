// Circled option markers (①–⑤) in a page image. OCR garbles them (① as @, ©, Q or 0) and may fuse
// them with the next word, so they are found in the pixels instead: a ring of text height with a
// digit inside, the digit read alone. A digit OCR cannot read is inferred from its neighbours on
// the same line (markers run ①②③④⑤ in the paper's direction: left to right, or right to left on an
// Arabic or Hebrew page, as the digits read on its lines say).
import { floodFill, isCircled } from '../keys/grid.ts';
import type { Gray } from '../pixels/gray.ts';
import { readCircled } from '../keys/image-key.ts';
import type { OcrPool } from '../providers/ocr.ts';

export interface Ring {
  box: [number, number, number, number];
  /** 1-based index of the marker, or 0 where it could not be told. */
  index: number;
}

/** Darker than this is a ring's ink (a scan's blurred ring fades to grey). */
const RING_INK = 170;
/**
 * …and its thin foot may fade lighter still (a ring printed small and scanned, under a digit's dark
 * stroke): the foot is told by ink darker than this.
 */
const RING_FOOT_INK = 220;

/** Rings between minSize and maxSize pixels tall in a box of the image, with their digits (1 to count). */
export async function findRings(g: Gray, box: [number, number, number, number], pool: OcrPool, minSize: number, maxSize: number, count: number): Promise<Ring[]> {
  const rings = await readRings(g, box, pool, minSize, maxSize, false);
  return inferIndexes(rings, count, runDirection(rings));
}

/**
 * Which way markers run along a line, told by the digits read in them: each pair of rings on one
 * line whose digits rise votes for the side the higher stands on. Left to right where the vote is
 * tied or none was cast (no digit read twice on a line).
 */
export function runDirection(rings: Ring[]): 'ltr' | 'rtl' {
  let vote = 0;
  const read = rings.filter(r => r.index > 0);
  for (const a of read) for (const b of read) {
    if (b.index <= a.index || !sameLine(a, b)) continue;
    vote += Math.sign(b.box[0] - a.box[0]);
  }
  return vote < 0 ? 'rtl' : 'ltr';
}

/**
 * Rings the paper's template did not ask for (it names no circled markers; an inferred template
 * never does): only round ones (a box-shaped glyph, 口 回 日, has ink in its corners), and kept only
 * where the digits read in them run in order — one then the next, side by side on a line or on the
 * line under it (stacked, or the next row of a grid) — at least UNASKED_PAIRS times in the box.
 * Round letters with a stroke inside (θ, @) read as stray digits, never as a run.
 */
export async function unaskedRings(g: Gray, box: [number, number, number, number], pool: OcrPool, minSize: number, maxSize: number, count: number): Promise<Ring[]> {
  const rings = await readRings(g, box, pool, minSize, maxSize, true);
  const read = rings.filter(r => r.index > 0);
  const direction = runDirection(rings);
  const after = (a: Ring, b: Ring) => (direction === 'ltr' ? b.box[0] > a.box[2] : b.box[2] < a.box[0]);
  let pairs = 0;
  for (const a of read) {
    const h = a.box[3] - a.box[1];
    const next = read.find(b => b.index === a.index + 1 && (
      (sameLine(a, b) && after(a, b)) ||
      (b.box[1] > a.box[3] && b.box[1] - a.box[3] <= h * STACK_GAP)));
    if (next) pairs++;
  }
  return pairs >= UNASKED_PAIRS ? inferIndexes(rings, count, direction) : [];
}

/** Rings unasked for count where their digits run in order this many times in a column. */
const UNASKED_PAIRS = 2;
/** Markers on lines one under another (stacked, a grid's rows) stand at most this many ring heights apart. */
const STACK_GAP = 3;
/** …and a stack's lines, holding one run, stand at most this many ring heights apart (the pitch of text, no line between). */
const STACKED_PITCH = 1.5;
/** The corner of a ring's box that is paper: this share of its side. */
const CORNER = 0.12;
/** A corner holding more ink than this share of its pixels is a box's, not a ring's. */
const CORNER_INK = 0.2;

/** Whether a glyph's corners are paper, as a ring's are. */
function roundCorners(g: Gray, [x0, y0, x1, y1]: [number, number, number, number]): boolean {
  const c = Math.max(1, Math.floor(Math.min(x1 - x0, y1 - y0) * CORNER));
  const corner = (cx: number, cy: number) => {
    let ink = 0;
    for (let y = cy; y < cy + c; y++) for (let x = cx; x < cx + c; x++) if (g.data[y * g.width + x] < RING_INK) ink++;
    return ink / (c * c) <= CORNER_INK;
  };
  return corner(x0, y0) && corner(x1 - c, y0) && corner(x0, y1 - c) && corner(x1 - c, y1 - c);
}

/** Ring-shaped glyphs of a box of the image with the digit read in each (0 where none was read). */
async function readRings(g: Gray, box: [number, number, number, number], pool: OcrPool, minSize: number, maxSize: number, round: boolean): Promise<Ring[]> {
  const [x0, y0, x1, y1] = box;
  const W = x1 - x0, H = y1 - y0;
  // Each piece of ink labelled with its own number, so that a ring's digit is told from the ring.
  const seen = new Int32Array(W * H);
  const dark = (k: number) => g.data[(y0 + Math.floor(k / W)) * g.width + x0 + (k % W)] < RING_INK;
  const found: { ink: [number, number, number, number]; label: number }[] = [];
  let label = 0;
  for (let i = 0; i < W * H; i++) {
    if (seen[i] || !dark(i)) continue;
    const [a, b, c, d] = floodFill(W, H, [i], dark, seen, ++label).box;
    const h = d - b;
    // A ring the scan has joined to the text after it: its square at the left end.
    const w = c - a > h * 1.25 ? h : c - a;
    if (h < minSize || h > maxSize || w / h < 0.8) continue;
    const ink: [number, number, number, number] = [x0 + a, y0 + b, x0 + a + w, y0 + d];
    if (isCircled(g, ink, RING_FOOT_INK) && (!round || roundCorners(g, ink))) found.push({ ink, label });
  }
  // Markers are all one size; a round letter with a stroke inside (e, θ, @) is another. Their size
  // is told by the rings that hold a glyph apart from themselves (a digit inside, not a letter's own
  // stroke) where there are such: round letters outnumber a page's markers (0240's rows of ①–⑤ under
  // Portuguese text: the median of all was an \`o\`'s height, and every marker was dropped as too big).
  const apart = found.filter(r => holdsApart(seen, W, r.ink[0] - x0, r.ink[1] - y0, r.ink[2] - x0, r.ink[3] - y0, r.label));
  const sized = apart.length >= MARKERS_APART ? apart : found;
  const heights = sized.map(r => r.ink[3] - r.ink[1]).sort((p, q) => p - q);
  const typical = heights[Math.floor(heights.length / 2)] ?? 0;
  const rings: Ring[] = [];
  for (const { ink } of found) {
    if (Math.abs(ink[3] - ink[1] - typical) > typical * SAME_SIZE) continue;
    rings.push({ box: ink, index: Number(await readCircled(pool, g, ink)) || 0 });
  }
  return rings;
}

/** Rings that hold a glyph apart from themselves set the markers' size where at least this many do. */
const MARKERS_APART = 2;
/** Markers differ in height by at most this share of the typical one. */
const SAME_SIZE = 0.15;
/** A ring's inside, away from its stroke: this share of its side in from each edge. */
const INSIDE = 0.28;

/** Whether the middle of a ring's box (box in the labels' frame) holds ink that is not the ring's own. */
function holdsApart(labels: Int32Array, W: number, a: number, b: number, c: number, d: number, own: number): boolean {
  const mx = Math.floor((c - a) * INSIDE), my = Math.floor((d - b) * INSIDE);
  for (let y = b + my; y < d - my; y++) for (let x = a + mx; x < c - mx; x++) {
    const l = labels[y * W + x];
    if (l && l !== own) return true;
  }
  return false;
}

/** Rings on one line: their boxes overlap vertically by more than half. */
function sameLine(a: Ring, b: Ring): boolean {
  const overlap = Math.min(a.box[3], b.box[3]) - Math.max(a.box[1], b.box[1]);
  return overlap > (a.box[3] - a.box[1]) / 2;
}

/**
 * Each line's markers as one run (in `direction`, one apart): the run's first number is the one most
 * digits read agree with, a tie going to the run that carries on from the line above (③ then ④⑤).
 * A misread digit (⑤ read as 3) or an unread one takes its place in the run; a line none of whose
 * digits were read is ①–⑤ when it holds five, or carries on from the line above. `count` markers exist.
 */
export function inferIndexes(rings: Ring[], count = 5, direction: 'ltr' | 'rtl' = 'ltr'): Ring[] {
  const lines: Ring[][] = [];
  for (const r of [...rings].sort((p, q) => p.box[1] - q.box[1])) {
    const line = lines.find(l => sameLine(l[0], r));
    if (line) line.push(r); else lines.push([r]);
  }
  const starts: number[] = [];
  let prevEnd = 0;
  for (const line of lines) {
    line.sort((p, q) => (direction === 'ltr' ? p.box[0] - q.box[0] : q.box[0] - p.box[0]));
    const fits = (start: number) => start >= 1 && start + line.length - 1 <= count;
    let best = 0, bestScore = 0;
    for (const start of new Set([...line.map((r, i) => r.index - i), prevEnd + 1, 1])) {
      if (!fits(start)) continue;
      const agree = line.filter((r, i) => r.index === start + i).length;
      const score = agree + (start === prevEnd + 1 && prevEnd > 0 ? 0.5 : 0) + (agree === 0 && line.length === count ? 0.25 : 0);
      if (score > bestScore) { best = start; bestScore = score; }
    }
    starts.push(best);
    prevEnd = best ? best + line.length - 1 : 0;
  }
  // A line none of whose digits were read, set right above markers that carry on from it (① unread
  // over ② ③ ④ stacked one under another), takes the place before them.
  for (let k = lines.length - 2; k >= 0; k--) {
    const below = lines[k + 1], h = lines[k][0].box[3] - lines[k][0].box[1];
    const before = starts[k + 1] - lines[k].length;
    if (!starts[k] && starts[k + 1] && before >= 1 && below[0].box[1] - lines[k][0].box[3] <= h * STACK_GAP) starts[k] = before;
  }
  oneRunPerStack(lines, starts, count);
  return lines.flatMap((line, k) => (starts[k] ? line.map((r, i) => ({ box: r.box, index: starts[k] + i })) : []));
}

/**
 * Lines of markers set one under another at the pitch of text (a question's stacked options, a
 * grid's rows) hold one run: where their lines' own readings do not follow on (`④ ② ③ ④ ⑤`, the ①
 * read as 4), the run most of the digits read agree with numbers them all. A line read alone cannot
 * tell a misread first marker from a run that starts there; the lines under it can.
 */
function oneRunPerStack(lines: Ring[][], starts: number[], count: number): void {
  for (let k = 0; k < lines.length;) {
    let end = k + 1;
    while (end < lines.length && lines[end][0].box[1] - lines[end - 1][0].box[3] <= (lines[end - 1][0].box[3] - lines[end - 1][0].box[1]) * STACKED_PITCH) end++;
    const stack = lines.slice(k, end).flat();
    const follows = starts.slice(k, end).every((s, i) => s > 0 && (i === 0 || s === starts[k + i - 1] + lines[k + i - 1].length));
    const read = stack.filter(r => r.index > 0);
    if (!follows && stack.length <= count && read.length >= 2) {
      const agreeing = (start: number) => stack.filter((r, p) => r.index === start + p).length;
      const best = [...new Set(stack.map((r, p) => r.index - p))].filter(s => s >= 1 && s + stack.length - 1 <= count).sort((a, b) => agreeing(b) - agreeing(a))[0];
      if (best !== undefined && agreeing(best) * 2 > read.length) {
        let at = best;
        for (let i = k; i < end; i++) { starts[i] = at; at += lines[i].length; }
      }
    }
    k = end;
  }
}
