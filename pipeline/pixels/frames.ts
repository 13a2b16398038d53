// Frames drawn round text on a page picture: a boxed section heading (`Vật lí`), a boxed question
// number, a name field. The recogniser reads a band holding a frame as a picture and returns
// nothing of the text inside it, so frames are found — four thin sides, each dark along nearly its
// whole length, round some ink that touches none of them — painted out, and kept as rectangles,
// as a born-digital page draws them (a boxed number is then a boxed number, structure/candidates.ts).
import type { Gray } from './gray.ts';
import type { Box } from './runs.ts';

/** A pixel darker than this grey is ink (as for the page's rules, rules.ts). */
const INK = 128;
/** A frame's top and bottom run at least this many points… */
const SIDE_MIN = 8;
/** …and it stands this many points tall at least and at most: a line or two of text, not a table or a drawing. */
const HEIGHT_MIN = 8, HEIGHT_MAX = 48;
/** A side is at most this many points thick, plus what a tilt of the page adds across its length. */
const THICK = 2.5;
const TILT = 0.035;
/** The ends of top and bottom, and a side and its place, agree within this many points. */
const ALIGN = 2.5;
/** A side is dark along at least this share of its length (a scan's noise breaks a few rows). */
const SOLID = 0.9;
/** Pixels painted white beyond a side's ink (antialiasing, JPEG ringing)… */
const PAINT_MARGIN = 3;
/** …and the grey a side's edge may fade to (lighter than INK, darker than paper). */
const FAINT = 220;

/**
 * A frame: its box, and its top and bottom sides as found (a tilted page's side is a thin slanted
 * band), with the rows each side's stroke covers at each of its columns (x from the side's left end).
 */
export interface Frame { box: Box; top: Box; bottom: Box; topStroke: Stroke; bottomStroke: Stroke }

/** The first and last row (inclusive) a side's stroke covers, column by column from `x0`; -1 where it is broken. */
interface Stroke { x0: number; from: Int32Array; to: Int32Array }

/**
 * A side's stroke, followed along its band from left to right: at each column the dark run at or
 * a pixel beside the outer edge the column before it had. It starts in the row of the band's longest
 * run (the stroke, not a letter's bar under it). On a tilted page the band of a long side is as tall
 * as its tilt; the stroke is a thin line across it, and what lies above or below it in the band
 * (a heading's first line, close under the side's lower end) is no part of it.
 */
function strokeOf(g: Gray, side: Box, outer: 'top' | 'bottom'): Stroke {
  const [x0, y0, x1, y1] = side;
  const dark = (x: number, y: number) => y >= y0 && y < y1 && g.data[y * g.width + x] < INK;
  const from = new Int32Array(x1 - x0).fill(-1), to = new Int32Array(x1 - x0).fill(-1);
  // The longest run of the band's rows, and where it is: the stroke passes there.
  let best = 0, startX = x0, startY = y0;
  for (let y = y0; y < y1; y++) for (const [a, b] of longRuns(g, y, 1)) if (a < x1 && b > x0 && b - a > best) { best = b - a; startX = Math.max(a, x0); startY = y; }
  const follow = (x: number, y: number): number | null => {
    const at = [y, y - 1, y + 1].find(r => dark(x, r));
    if (at === undefined) return null;
    let [a, b] = [at, at];
    while (dark(x, a - 1) && at - a < STROKE_MAX) a--;
    while (dark(x, b + 1) && b - at < STROKE_MAX) b++;
    from[x - x0] = a;
    to[x - x0] = b;
    // Followed by its outer edge: a frame's upright sides leave the stroke on its inner side.
    return outer === 'top' ? a : b;
  };
  for (const step of [1, -1]) {
    let y = startY;
    for (let x = step > 0 ? startX : startX - 1; x >= x0 && x < x1; x += step) y = follow(x, y) ?? y;
  }
  return { x0, from, to };
}

/** A stroke's rows at a column: [first, last], or null where it is broken there. */
function strokeAt(s: Stroke, x: number): [number, number] | null {
  const k = x - s.x0;
  return k >= 0 && k < s.from.length && s.from[k] >= 0 ? [s.from[k], s.to[k]] : null;
}

/** A side's stroke is followed through runs at most this many pixels thick (a letter touching it is not followed down). */
const STROKE_MAX = 12;

/**
 * Whether a rule crosses the box from its top side to its bottom side somewhere along [x0, x1): a
 * column dark down at least SOLID of the rows between the two strokes (within a tilted page's
 * drift either side). A row of a table has one at each cell's edge; the text in a frame, however
 * close to its sides (a Devanagari heading's vowel signs over its head line, a bracket touching the
 * top of a tight box), never runs down the whole of it.
 */
function crossed(g: Gray, top: Stroke, bottom: Stroke, x0: number, x1: number): boolean {
  for (let x = x0; x < x1; x++) {
    const a = strokeAt(top, x), b = strokeAt(bottom, x);
    if (!a || !b) continue;
    const from = a[1] + 1, to = b[0];
    const drift = 1 + Math.ceil((to - from) * TILT / 2);
    let dark = 0;
    for (let y = from; y < to; y++) {
      const row = y * g.width;
      for (let k = Math.max(0, x - drift); k <= Math.min(g.width - 1, x + drift); k++) if (g.data[row + k] < INK) { dark++; break; }
    }
    if (to > from && dark / (to - from) >= SOLID) return true;
  }
  return false;
}

/** Dark runs of a row at least `min` pixels long, [x0, x1). */
function longRuns(g: Gray, y: number, min: number): [number, number][] {
  const out: [number, number][] = [];
  const row = y * g.width;
  let start = -1;
  for (let x = 0; x <= g.width; x++) {
    const ink = x < g.width && g.data[row + x] < INK;
    if (ink && start < 0) start = x;
    else if (!ink && start >= 0) { if (x - start >= min) out.push([start, x]); start = -1; }
  }
  return out;
}

/** Long horizontal runs joined where they touch row to row: the top and bottom sides a frame may have. */
function horizontalSides(g: Gray, min: number): Box[] {
  const sides: Box[] = [];
  let open: Box[] = [];
  for (let y = 0; y < g.height; y++) {
    const next: Box[] = [];
    for (const [a, b] of longRuns(g, y, min)) {
      // (A side already carried on into this row takes a second run of it: a tilted stroke is
      // broken in places into two runs side by side.)
      const joined = open.find(s => (s[3] === y || s[3] === y + 1) && a <= s[2] && b >= s[0]);
      if (joined) { joined[0] = Math.min(joined[0], a); joined[2] = Math.max(joined[2], b); joined[3] = y + 1; if (!next.includes(joined)) next.push(joined); }
      else { const s: Box = [a, y, b, y + 1]; sides.push(s); next.push(s); }
    }
    open = next;
  }
  return sides;
}

/**
 * The share of rows [y0, y1) where a side stands within [x0, x1): met from outside (`from`: the
 * frame's left side is met from the left), its ink at most `thick` pixels across. A glyph's stroke
 * (a bold heading's `영`: a ring and a stem between two bars, which make the four sides of a box)
 * is thicker than a frame's side.
 */
function sideDown(g: Gray, x0: number, x1: number, y0: number, y1: number, from: 'left' | 'right', thick: number): number {
  let sides = 0;
  const a = Math.max(0, x0), b = Math.min(g.width, x1);
  for (let y = y0; y < y1; y++) {
    const row = y * g.width;
    const ink = (x: number) => x >= 0 && x < g.width && g.data[row + x] < INK;
    let x = from === 'left' ? a : b - 1;
    const step = from === 'left' ? 1 : -1;
    while (x >= a && x < b && !ink(x)) x += step;
    if (x < a || x >= b) continue;
    let run = 0;
    while (ink(x) && run <= thick) { run++; x += step; }
    if (run <= thick) sides++;
  }
  return y1 > y0 ? sides / (y1 - y0) : 0;
}

function holdsInk(g: Gray, b: Box): boolean {
  for (let y = Math.max(0, b[1]); y < Math.min(g.height, b[3]); y++) {
    const row = y * g.width;
    for (let x = Math.max(0, b[0]); x < Math.min(g.width, b[2]); x++) if (g.data[row + x] < INK) return true;
  }
  return false;
}

/** Frames round text on the picture (`scale` pixels a point), in pixels. */
export function framesIn(g: Gray, scale: number): Frame[] {
  const px = (v: number) => Math.round(v * scale);
  const sides = horizontalSides(g, px(SIDE_MIN)).filter(s => s[3] - s[1] <= px(THICK) + (s[2] - s[0]) * TILT);
  const frames: Frame[] = [];
  for (const top of sides) {
    // The nearest side below with the same ends closes it.
    const bottom = sides
      .filter(b => b !== top && b[1] - top[1] >= px(HEIGHT_MIN) && b[3] - top[1] <= px(HEIGHT_MAX) && Math.abs(b[0] - top[0]) <= px(ALIGN) && Math.abs(b[2] - top[2]) <= px(ALIGN))
      .sort((a, b) => a[1] - b[1])[0];
    if (!bottom) continue;
    const x0 = Math.min(top[0], bottom[0]), x1 = Math.max(top[2], bottom[2]);
    const y0 = top[3], y1 = bottom[1];
    const t = px(THICK) + px(ALIGN);
    const thick = px(THICK) + 2;
    if (sideDown(g, x0 - px(ALIGN), x0 + t, y0, y1, 'left', thick) < SOLID || sideDown(g, x1 - t, x1 + px(ALIGN), y0, y1, 'right', thick) < SOLID) continue;
    // Text inside, and no rule crossing from top to bottom: a frame round something, not a row of a
    // table, whose cells' rules cross it (a key's grid: its cells are read by their rules). The sides
    // are followed as strokes (on a tilted page the band of a long side reaches down past the
    // heading's first line; only the stroke is the side).
    if (!holdsInk(g, [x0 + t, y0 + px(1), x1 - t, y1 - px(1)])) continue;
    const topStroke = strokeOf(g, top, 'top'), bottomStroke = strokeOf(g, bottom, 'bottom');
    if (crossed(g, topStroke, bottomStroke, x0 + t, x1 - t)) continue;
    frames.push({ box: [x0, top[1], x1, bottom[3]], top, bottom, topStroke, bottomStroke });
  }
  return frames;
}

/**
 * The picture with the frames' ink painted white (a copy): the bands their top and bottom run in,
 * and down each side the dark run that starts at the side's place, row by row. Text inside a tight
 * frame (a boxed number) is left as it is.
 */
export function withoutFrames(g: Gray, frames: Frame[], scale: number): Gray {
  const data = new Uint8Array(g.data);
  const dark = (x: number, y: number) => x >= 0 && x < g.width && data[y * g.width + x] < FAINT;
  const white = (y: number, x0: number, x1: number) => data.fill(255, y * g.width + Math.max(0, x0 - PAINT_MARGIN), y * g.width + Math.min(g.width, x1 + PAINT_MARGIN));
  const reach = Math.round((ALIGN + THICK) * scale);
  for (const { box: [x0, , x1], top, bottom, topStroke, bottomStroke } of frames) {
    // Each side painted out along its stroke, column by column (its band, as tall as a tilted side's
    // tilt, would take the ends of the lines inside); where the stroke was not followed, its band.
    for (const [side, stroke] of [[top, topStroke], [bottom, bottomStroke]] as const) {
      for (let x = Math.max(0, side[0] - PAINT_MARGIN); x < Math.min(g.width, side[2] + PAINT_MARGIN); x++) {
        const at = strokeAt(stroke, Math.min(Math.max(x, side[0]), side[2] - 1)) ?? [side[1], side[3] - 1];
        for (let y = Math.max(0, at[0] - PAINT_MARGIN); y <= Math.min(g.height - 1, at[1] + PAINT_MARGIN); y++) data[y * g.width + x] = 255;
      }
    }
    for (let y = Math.max(0, top[3]); y < Math.min(g.height, bottom[1]); y++) {
      let a = x0 - reach;
      while (a < x0 + reach && !dark(a, y)) a++;
      let b = a;
      while (b < x0 + reach && dark(b, y)) b++;
      if (b > a) white(y, a, b);
      let c = x1 + reach;
      while (c > x1 - reach && !dark(c - 1, y)) c--;
      let d = c;
      while (d > x1 - reach && dark(d - 1, y)) d--;
      if (c > d) white(y, d, c);
    }
  }
  return { width: g.width, height: g.height, data };
}

/**
 * Whether a rule found in the picture (points) runs along a frame's top or bottom: the side of a
 * heading boxed across the page is as long as a head rule, but it is the frame's.
 */
export function onFrameSide(f: Frame, rule: readonly number[], scale: number): boolean {
  const [x0, y0, x1, y1] = rule.map(v => v * scale);
  const slack = ALIGN * scale;
  return y1 - y0 < x1 - x0 && [f.top, f.bottom].some(s => y0 >= s[1] - slack && y1 <= s[3] + slack && x0 >= f.box[0] - slack && x1 <= f.box[2] + slack);
}
