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
/** Blank points just inside the top and bottom: nothing inside a frame runs into its sides. */
const CLEAR = 1;
/** Pixel rows next to a side passed over in that test: a tilted side's short end piece lies there. */
const TILT_ROWS = 2;
/** A side is dark along at least this share of its length (a scan's noise breaks a few rows). */
const SOLID = 0.9;
/** Pixels painted white beyond a side's ink (antialiasing, JPEG ringing)… */
const PAINT_MARGIN = 3;
/** …and the grey a side's edge may fade to (lighter than INK, darker than paper). */
const FAINT = 220;

/** A frame: its box, and its top and bottom sides as found (a tilted page's side is a thin slanted band). */
export interface Frame { box: Box; top: Box; bottom: Box }

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
      const joined = open.find(s => s[3] === y && a <= s[2] && b >= s[0]);
      if (joined) { joined[0] = Math.min(joined[0], a); joined[2] = Math.max(joined[2], b); joined[3] = y + 1; if (!next.includes(joined)) next.push(joined); }
      else { const s: Box = [a, y, b, y + 1]; sides.push(s); next.push(s); }
    }
    open = next;
  }
  return sides;
}

/** The share of rows [y0, y1) with ink within [x0, x1) (a side standing there). */
function solidDown(g: Gray, x0: number, x1: number, y0: number, y1: number): number {
  let dark = 0;
  for (let y = y0; y < y1; y++) {
    const row = y * g.width;
    for (let x = Math.max(0, x0); x < Math.min(g.width, x1); x++) if (g.data[row + x] < INK) { dark++; break; }
  }
  return y1 > y0 ? dark / (y1 - y0) : 0;
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
    if (solidDown(g, x0 - px(ALIGN), x0 + t, y0, y1) < SOLID || solidDown(g, x1 - t, x1 + px(ALIGN), y0, y1) < SOLID) continue;
    // Text inside, clear of the sides: a frame round something, not a row of a table, whose cells'
    // rules cross from its top to its bottom (a key's grid: its cells are read by their rules).
    if (!holdsInk(g, [x0 + t, y0 + px(1), x1 - t, y1 - px(1)])) continue;
    // (A tilted side's end holds a piece shorter than a side's run in the row next to its band: passed over.)
    if (holdsInk(g, [x0 + t, y0 + TILT_ROWS, x1 - t, y0 + TILT_ROWS + px(CLEAR)]) || holdsInk(g, [x0 + t, y1 - TILT_ROWS - px(CLEAR), x1 - t, y1 - TILT_ROWS])) continue;
    frames.push({ box: [x0, top[1], x1, bottom[3]], top, bottom });
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
  for (const { box: [x0, , x1], top, bottom } of frames) {
    for (const side of [top, bottom]) for (let y = Math.max(0, side[1] - PAINT_MARGIN); y < Math.min(g.height, side[3] + PAINT_MARGIN); y++) white(y, side[0], side[2]);
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
