// Long dark rules of a page picture (column rule, head and foot rules): found so the body and the
// columns of a scan come out as for a born-digital page, and painted out so they join no text.
import type { Shape } from '../document.ts';
import type { Gray } from './gray.ts';

/** A pixel darker than this grey is ink. */
const INK = 128;
/** A head or foot rule runs across at least this share of the page's width… */
const ACROSS = 0.6;
/** …a column rule down at least this share of its height, in its middle band (this share in from either side). */
const DOWN = 0.45;
const MIDDLE = 0.3;
/** Rules are painted out this many pixels beyond their dark core (antialiasing)… */
const PAINT_MARGIN = 2;
/**
 * …or this many points, where more: a scan's rule is blurred and its fringe, lighter than the core
 * but ink to the bands (runs.ts INK), reaches past two pixels at 300 dpi, and OCR reads it as `|`
 * at the head of every line beside it.
 */
const PAINT_MARGIN_PT = 1.2;

/**
 * A rule found in a page image: its line shape in points, and the pixel boxes its stroke covers (a
 * row of a rule across; pieces of a column rule down its path, which a leaning rule's box, as wide
 * as its lean, would overreach: painted out as one box, it would take the ends of the lines beside it).
 */
export interface Rule extends Shape {
  pieces: [number, number, number, number][];
}

/** Long dark rules of a page image as line shapes in points (`scale` pixels a point). */
export function rulesFromImage(g: Gray, scale: number, page: number): Rule[] {
  const dark = (x: number, y: number) => g.data[y * g.width + x] < INK;
  return [...acrossRules(g.width, g.height, dark, scale, page), ...uprightRules(g.width, g.height, dark, scale, page)];
}

/** A column rule's stroke is at most this many pixels wide on a row; wider is a block of ink, not a rule. */
const RULE_WIDTH = 12;
/** A column rule may lean by this share of its length (a sheet fed a degree or two askew). */
const LEAN = 0.04;
/** Rows a traced rule may miss (a scan's speck of paper in its stroke) before it ends. */
const RULE_GAP = 2;
/** A rule is painted out in pieces of this many pixels along it (rows down a column rule, columns across a head rule), each as thick as its stroke there. */
const PIECE = 16;

/**
 * Head and foot rules, followed across the page both ways from the page's middle column (a rule
 * across ACROSS of the width, more than half, passes it): column by column, the dark stroke at the
 * row the column before left off or a pixel above or below, so a rule a sheet fed askew shows
 * sloping (at half a degree a rule across an A4 page falls 17 pixels at 300 dpi, and no row of
 * pixels holds a tenth of it) is found whole, as a level one is. It slopes at most LEAN; it is
 * painted out in pieces as tall as its stroke, not as one box as tall as its slope (which would
 * take the tops of the lines under it).
 */
function acrossRules(width: number, height: number, dark: (x: number, y: number) => boolean, scale: number, page: number): Rule[] {
  const mid = width >> 1;
  const seen = new Uint8Array(height);
  const rules: Rule[] = [];
  for (let y = 0; y < height; y++) {
    if (seen[y] || !dark(mid, y)) continue;
    const pieces: [number, number, number, number][] = [];
    let lo = y, hi = y, left = mid, right = mid;
    for (const step of [1, -1]) {
      let at = y, missed = 0, crossed = 0, from = mid;
      let piece: [number, number, number, number] | null = null;
      for (let col = step > 0 ? mid : mid - 1; col >= 0 && col < width; col += step) {
        const c = [at, at - 1, at + 1].find(k => k >= 0 && k < height && dark(col, k));
        if (c === undefined) { if (++missed > RULE_GAP) break; continue; }
        missed = 0;
        let [a, b] = [c, c];
        while (a > 0 && dark(col, a - 1) && c - a <= RULE_WIDTH) a--;
        while (b < height - 1 && dark(col, b + 1) && b - c <= RULE_WIDTH) b++;
        if (col === mid) for (let k = a; k <= b; k++) seen[k] = 1;
        if (step > 0) right = col; else left = col;
        // Crossed by a column rule or a box's side: followed on through it; a block of ink ends it.
        if (b - a > RULE_WIDTH) { if (++crossed > RULE_WIDTH) break; continue; }
        crossed = 0;
        if (piece && Math.abs(col - from) < PIECE) {
          piece[0] = Math.min(piece[0], col); piece[2] = Math.max(piece[2], col + 1); piece[1] = Math.min(piece[1], a); piece[3] = Math.max(piece[3], b + 1);
        } else { piece = [col, a, col + 1, b + 1]; from = col; pieces.push(piece); }
        at = (a + b) >> 1;
        lo = Math.min(lo, a);
        hi = Math.max(hi, b);
      }
    }
    const length = right - left + 1;
    if (length >= width * ACROSS && hi - lo <= length * LEAN + RULE_WIDTH) rules.push({ page, kind: 'line', visible: true, bbox: [left / scale, lo / scale, (right + 1) / scale, (hi + 1) / scale], pieces });
  }
  return rules;
}

/**
 * Column rules, followed down the page from their top: row by row, the dark stroke at the place
 * the row above left off or a pixel to either side, so a rule a scan shows leaning (a sheet fed a
 * degree askew steps a pixel sideways every fifty rows or so) is followed whole, as an upright one
 * is. A rule runs down at least DOWN of the page, in its middle band, leaning at most LEAN.
 */
function uprightRules(width: number, height: number, dark: (x: number, y: number) => boolean, scale: number, page: number): Rule[] {
  const [left, right] = [Math.floor(width * MIDDLE), Math.ceil(width * (1 - MIDDLE))];
  const long = height * DOWN;
  const seen = new Uint8Array(width * height);
  const rules: Rule[] = [];
  for (let y = 0; y + long <= height; y++) {
    for (let x = left; x < right; x++) {
      if (seen[y * width + x] || !dark(x, y)) continue;
      let at = x, lo = x, hi = x, end = y, missed = 0, crossed = 0;
      const pieces: [number, number, number, number][] = [];
      /** Widen the piece holding `row` to [a, b]. */
      const cover = (row: number, a: number, b: number) => {
        const last = pieces[pieces.length - 1];
        if (last && row < last[1] + PIECE) { last[0] = Math.min(last[0], a); last[2] = Math.max(last[2], b + 1); last[3] = row + 1; } else pieces.push([a, row, b + 1, row + 1]);
      };
      for (let row = y; row < height; row++) {
        const c = [at, at - 1, at + 1].find(k => k >= 0 && k < width && dark(k, row));
        if (c === undefined) { if (++missed > RULE_GAP) break; continue; }
        missed = 0;
        let [a, b] = [c, c];
        while (a > 0 && dark(a - 1, row) && c - a <= RULE_WIDTH) a--;
        while (b < width - 1 && dark(b + 1, row) && b - c <= RULE_WIDTH) b++;
        // A rule crossed by a rule across (a head rule, a table's row) is followed on through it; a
        // block of ink (a picture) ends it.
        if (b - a > RULE_WIDTH) {
          if (++crossed > RULE_WIDTH) break;
          end = row;
          continue;
        }
        crossed = 0;
        end = row;
        cover(row, a, b);
        for (let k = a; k <= b; k++) seen[row * width + k] = 1;
        at = (a + b) >> 1;
        lo = Math.min(lo, a);
        hi = Math.max(hi, b);
      }
      const length = end - y + 1;
      if (length >= long && hi - lo <= length * LEAN + RULE_WIDTH) rules.push({ page, kind: 'line', visible: true, bbox: [lo / scale, y / scale, (hi + 1) / scale, (end + 1) / scale], pieces });
    }
  }
  return rules;
}

/** The picture with the given rules painted white (a copy): they would join the bands of text they run beside. */
export function withoutRules(g: Gray, rules: Rule[], scale: number): Gray {
  const data = new Uint8Array(g.data);
  const m = Math.max(PAINT_MARGIN, Math.round(PAINT_MARGIN_PT * scale));
  const across = rules.filter(r => r.bbox[2] - r.bbox[0] > r.bbox[3] - r.bbox[1]).flatMap(r => r.pieces);
  // A column rule's pieces are widened by a stroke's width: a scan's rule wavers and blurs past the
  // dark core it was followed by, and the gutter it stands in is wide.
  const down = rules.filter(r => r.bbox[2] - r.bbox[0] <= r.bbox[3] - r.bbox[1]).flatMap(r => r.pieces.map(([x0, y0, x1, y1]) => [x0 - RULE_WIDTH, y0, x1 + RULE_WIDTH, y1] as [number, number, number, number]));
  for (const [x0, y0, x1, y1] of [...across, ...down]) {
    for (let y = Math.max(0, y0 - m); y < Math.min(g.height, y1 + m); y++) data.fill(255, y * g.width + Math.max(0, x0 - m), y * g.width + Math.min(g.width, x1 + m));
  }
  return { width: g.width, height: g.height, data };
}
