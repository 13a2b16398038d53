// Long dark rules of a page picture (column rule, head and foot rules): found so the body and the
// columns of a scan come out as for a born-digital page, and painted out so they join no text.
import type { Shape } from '../document.ts';
import type { Gray } from './gray.ts';
import { passingRuns } from './runs.ts';

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
  const rules: Rule[] = [];
  for (let y = 0; y < g.height; y += 1) {
    for (const [a, b] of passingRuns(g.width, x => dark(x, y), g.width * ACROSS)) rules.push({ page, kind: 'line', visible: true, bbox: [a / scale, y / scale, b / scale, (y + 1) / scale], pieces: [[a, y, b, y + 1]] });
  }
  rules.push(...uprightRules(g.width, g.height, dark, scale, page));
  return rules;
}

/** A column rule's stroke is at most this many pixels wide on a row; wider is a block of ink, not a rule. */
const RULE_WIDTH = 12;
/** A column rule may lean by this share of its length (a sheet fed a degree or two askew). */
const LEAN = 0.04;
/** Rows a traced rule may miss (a scan's speck of paper in its stroke) before it ends. */
const RULE_GAP = 2;
/** A column rule is painted out in pieces of this many rows, each as wide as its stroke there. */
const PIECE_ROWS = 16;

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
        if (last && row < last[1] + PIECE_ROWS) { last[0] = Math.min(last[0], a); last[2] = Math.max(last[2], b + 1); last[3] = row + 1; } else pieces.push([a, row, b + 1, row + 1]);
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

/**
 * The rows of a rule across joined into one box: a rule a scan shows a hair off level is found as
 * runs in neighbouring rows of pixels, each covering part of its length, and painted over the whole
 * length of all of them.
 */
function joinedRows(rows: [number, number, number, number][]): [number, number, number, number][] {
  const near = (a: number[], b: number[]) => a[0] <= b[2] + PAINT_MARGIN && b[0] <= a[2] + PAINT_MARGIN && a[1] <= b[3] + PAINT_MARGIN && b[1] <= a[3] + PAINT_MARGIN;
  const out: [number, number, number, number][] = [];
  for (const b of rows) {
    const into = out.find(o => near(o, b));
    if (into) { into[0] = Math.min(into[0], b[0]); into[1] = Math.min(into[1], b[1]); into[2] = Math.max(into[2], b[2]); into[3] = Math.max(into[3], b[3]); } else out.push([...b]);
  }
  return out;
}

/** The picture with the given rules painted white (a copy): they would join the bands of text they run beside. */
export function withoutRules(g: Gray, rules: Rule[], scale: number): Gray {
  const data = new Uint8Array(g.data);
  const m = Math.max(PAINT_MARGIN, Math.round(PAINT_MARGIN_PT * scale));
  const across = rules.filter(r => r.bbox[2] - r.bbox[0] > r.bbox[3] - r.bbox[1]).flatMap(r => r.pieces);
  // A column rule's pieces are widened by a stroke's width: a scan's rule wavers and blurs past the
  // dark core it was followed by, and the gutter it stands in is wide.
  const down = rules.filter(r => r.bbox[2] - r.bbox[0] <= r.bbox[3] - r.bbox[1]).flatMap(r => r.pieces.map(([x0, y0, x1, y1]) => [x0 - RULE_WIDTH, y0, x1 + RULE_WIDTH, y1] as [number, number, number, number]));
  for (const [x0, y0, x1, y1] of [...joinedRows(across), ...down]) {
    for (let y = Math.max(0, y0 - m); y < Math.min(g.height, y1 + m); y++) data.fill(255, y * g.width + Math.max(0, x0 - m), y * g.width + Math.min(g.width, x1 + m));
  }
  return { width: g.width, height: g.height, data };
}
