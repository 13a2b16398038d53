// A text run that pdf.js put together across two lines. pdf.js joins the glyphs of one text object
// into one run while it takes them to go on from each other; a text object that ends one line and
// starts the next with no move it recognises (Chromium printing Devanagari: a heading's `प्रश्न` and
// the next line's bold `प्रश्` of `प्रश्न 1` in one font) comes out as one run at the first line's
// place (`नप्रश्`), and the next line loses its first word. The operator walk (pageGraphics) has each
// glyph where it was painted: glyphs that no run stands over, whose text a run ends with, are that
// run's tail, cut from it and set where they were painted.
import { bboxUnion } from '../document.ts';
import type { RawGlyph, RawSpan } from '../providers/pdf.ts';

/** Glyphs on one baseline within this share of their size… */
const SAME_LINE = 0.5;
/** …and no further apart than this share of it are one stretch of text. */
const NEAR = 0.6;
/** Baselines this many sizes apart are two lines (a sub- or superscript stands less than one apart). */
const OTHER_LINE = 1;
/**
 * A run's glyphs are of its size, within this share: glyphs the operator walk sized otherwise (a
 * transform it does not follow) say nothing of where the run's characters stand.
 */
const SAME_SIZE = 0.2;
/** A glyph stands under a run where its centre lies within the run's box widened by this many points. */
const SLACK = 1;

/** What runs and glyphs are compared by: compatibility-folded characters, spaces and NULs (no glyph of their own) left out. */
const folded = (text: string) => [...text.normalize('NFKC').replace(/[\s\u0000]/gu, '')];
const sorted = (a: string[]) => [...a].sort().join('');
const sameChars = (a: string[], b: string[]) => a.length === b.length && sorted(a) === sorted(b);

/**
 * The runs with each tail that pdf.js carried over from another line cut off and set as a run of
 * its own where its glyphs (`glyphs`: the visible glyphs, in the order painted) stand.
 */
export function splitAcrossLines(runs: readonly RawSpan[], glyphs: readonly RawGlyph[]): RawSpan[] {
  const under = (g: RawGlyph, r: RawSpan) => {
    const cx = (g.bbox[0] + g.bbox[2]) / 2, cy = g.baseline;
    return cx >= r.bbox[0] - SLACK && cx <= r.bbox[2] + SLACK && cy >= r.bbox[1] - SLACK && cy <= r.bbox[3] + SLACK;
  };
  const orphans = glyphs.filter(g => folded(g.text).length && !runs.some(r => !r.rotated && under(g, r)));
  if (!orphans.length) return [...runs];
  // (Each run's characters, and those of the glyphs under it, worked out once: a page whose script
  // pdf.js measures short has many stretches to place.)
  const charsOf = new Map<RawSpan, string[]>();
  const chars = (r: RawSpan) => charsOf.get(r) ?? charsOf.set(r, folded(r.text)).get(r)!;
  const underOf = new Map<RawSpan, string>();
  const spelledUnder = (r: RawSpan) => underOf.get(r) ?? underOf.set(r, sorted(glyphs.filter(g => under(g, r)).flatMap(g => folded(g.text)))).get(r)!;
  // The orphans in stretches: one line, one after another.
  const stretches: RawGlyph[][] = [];
  for (const g of orphans) {
    const cur = stretches[stretches.length - 1];
    const prev = cur?.[cur.length - 1];
    if (prev && Math.abs(g.baseline - prev.baseline) <= g.size * SAME_LINE && g.bbox[0] - prev.bbox[2] <= g.size * NEAR && g.bbox[0] >= prev.bbox[0] - g.size * NEAR) cur.push(g);
    else stretches.push([g]);
  }
  // A run whose tail stands on its own line, past its too narrow box but within an em a character of
  // its start (pdf.js measures some runs short; a superscript raised off the baseline), has it
  // there: that stretch is its, and the run is whole.
  const whole = new Set<RawSpan>();
  const taken = new Set<RawGlyph[]>();
  const spelledBy = new Map(stretches.map(o => [o, o.flatMap(g => folded(g.text))]));
  for (const r of runs) {
    const own = stretches.find(o => !taken.has(o) && Math.abs(o[0].baseline - r.baseline) < r.size * OTHER_LINE && o[0].bbox[0] >= r.bbox[0] - SLACK
      && o[0].bbox[0] <= r.bbox[0] + chars(r).length * r.size && chars(r).length > spelledBy.get(o)!.length && sameChars(chars(r).slice(-spelledBy.get(o)!.length), spelledBy.get(o)!));
    if (own) { whole.add(r); taken.add(own); }
  }
  const out = [...runs];
  for (const stretch of stretches.filter(o => !taken.has(o))) {
    const want = spelledBy.get(stretch)!;
    const bbox = bboxUnion(stretch.map(g => g.bbox));
    const width = bbox[2] - bbox[0];
    // The run whose text ends in the stretch's characters (in any order: an Indic reph or vowel sign
    // is painted where it is seen and spelled where it is read) and has more before them: on another
    // line, its box too narrow to hold them (pdf.js measured the run as painted on its first line
    // only) but measured (a run pdf.js gives no width says nothing); the rest of its text what the
    // glyphs under it spell (the run is all there but its tail).
    const k = out.findIndex(r => {
      const w = r.bbox[2] - r.bbox[0];
      if (r.rotated || w <= SLACK || w >= width || Math.abs(r.baseline - stretch[0].baseline) < stretch[0].size * OTHER_LINE) return false;
      if (Math.abs(stretch[0].size - r.size) > r.size * SAME_SIZE) return false;
      const own = chars(r);
      if (whole.has(r) || own.length <= want.length || !sameChars(own.slice(-want.length), want)) return false;
      return spelledUnder(r) === sorted(own.slice(0, -want.length));
    });
    if (k < 0) continue;
    const run = out[k];
    const letters = [...run.text];
    // Where the tail starts in the run's text: as many folded characters from the end as the stretch spells.
    let cut = letters.length, got = 0;
    while (cut > 0 && got < want.length) got += folded(letters[--cut]).length;
    const head = letters.slice(0, cut).join('');
    out.splice(k, 1, { ...run, text: head, bbox: [run.bbox[0], run.bbox[1], Math.max(run.bbox[0], run.bbox[2] - width), run.bbox[3]] },
      { ...run, text: letters.slice(cut).join(''), bbox, baseline: stretch[0].baseline, size: stretch[0].size });
  }
  return out;
}
