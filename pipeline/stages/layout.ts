// layout: the columns of each page and its lines in reading order (page, column, top to bottom).
// A line is a cluster of spans whose vertical extents overlap, so a fraction's numerator and
// denominator, or a tall formula that rises above its question number, stay on the line they sit on.
import type { Column, Line, PageInfo, PaperDocument, Span } from '../document.ts';
import { bboxUnion, centerX, centerY, height } from '../document.ts';
import { findBody } from '../text/body.ts';
import type { Stage } from '../stage.ts';
import { denominatorLine, numeratorLine, numeratorsOver } from '../math/inline.ts';
import { RULE } from '../math/glyphs.ts';
import { pageReadsRtl, readingOrder } from '../text/direction.ts';
import { rawText } from '../text/line-text.ts';

/** A gutter is at least this wide (points)… */
const GUTTER_MIN = 10;
/** …with at most this share of the page's runs crossing it (a full-width heading, a footer, a stray caption). */
const GUTTER_CROSSING = 0.04;
/** A column holds at least this share of the page's text width (a 2×2 grid of options is no pair of columns). */
const COLUMN_MIN_SHARE = 0.22;

/** What the column finder reads of a run of text: its box (a span, or a piece of ink on an OCR page). */
type Boxed = Pick<Span, 'bbox'>;
/** What the column finder reads of a page: its size, its drawn rules and its runs of text. */
export type ColumnInput = Pick<PageInfo, 'width' | 'height' | 'shapes'> & { spans: readonly Boxed[] };

/**
 * The widest gutter in [lo, hi) of a text block: a vertical band no run crosses (or, tolerant, at
 * most a few: a heading or footer set across both columns), with runs enough on both sides that
 * reach down the block. Null where there is none.
 */
function gutter(spans: readonly Boxed[], lo: number, hi: number, tolerant: boolean): number | null {
  const x0 = Math.floor(lo), x1 = Math.ceil(hi);
  const cover = new Int32Array(Math.max(0, x1 - x0) + 1);
  for (const s of spans) for (let x = Math.max(x0, Math.floor(s.bbox[0])); x < Math.min(x1, Math.ceil(s.bbox[2])); x++) cover[x - x0]++;
  const allow = tolerant ? Math.max(1, Math.floor(spans.length * GUTTER_CROSSING)) : 0;
  // Every band wide enough, widest first: the first that separates two columns is the gutter.
  const runs: { width: number; at: number }[] = [];
  for (let x = x0, run = 0; x <= x1; x++) {
    if (x < x1 && cover[x - x0] <= allow) { run++; continue; }
    if (run >= GUTTER_MIN) runs.push({ width: run, at: x - run / 2 });
    run = 0;
  }
  for (const { at } of runs.sort((a, b) => b.width - a.width)) if (separates(spans, at, tolerant)) return at;
  return null;
}

/** Whether a vertical band at x parts the runs into two columns (see `gutter`). */
function separates(spans: readonly Boxed[], bestAt: number, tolerant: boolean): boolean {
  const left = spans.filter(s => s.bbox[2] <= bestAt), right = spans.filter(s => s.bbox[0] >= bestAt);
  if (left.length <= 3 || right.length <= 3) return false;
  // Each side is as wide as a column is: a graph's axis labels beside the text (the right half of a
  // 2×2 grid of options, a figure set right of its question) are no column.
  const across = (side: readonly Boxed[]) => Math.max(...side.map(s => s.bbox[2])) - Math.min(...side.map(s => s.bbox[0]));
  const block = across(spans);
  if (across(left) < block * COLUMN_MIN_SHARE || across(right) < block * COLUMN_MIN_SHARE) return false;
  if (tolerant) {
    // Both sides run down the block: columns, not a caption beside a figure… The block is that of
    // the two sides: what crosses the gutter above or below them (a title, a closing `STOP` notice
    // under a short last page) does not make either side look short.
    const sides = [...left, ...right];
    const top = Math.min(...sides.map(s => s.bbox[1])), height = Math.max(...sides.map(s => s.bbox[3])) - top;
    const reach = (side: readonly Boxed[]) => (Math.max(...side.map(s => s.bbox[3])) - Math.min(...side.map(s => s.bbox[1]))) / (height || 1);
    if (reach(left) < 0.5 || reach(right) < 0.5) return false;
    // …and what crosses the gutter stands above or below them (a title, a footer, a closing notice), never
    // between lines of both sides: a line across the middle of the text makes it one column with a gap in it.
    // (The sides' extents leave out their few outermost runs: a page number, a footer line.)
    const extent = (side: readonly Boxed[]) => {
      const ys = side.map(s => centerY(s.bbox)).sort((a, b) => a - b);
      return [ys[Math.floor(ys.length * 0.05)], ys[Math.ceil(ys.length * 0.95) - 1]];
    };
    const [l0, l1] = extent(left), [r0, r1] = extent(right);
    const from = Math.max(l0, r0), to = Math.min(l1, r1);
    if (spans.some(s => s.bbox[0] < bestAt && s.bbox[2] > bestAt && centerY(s.bbox) > from && centerY(s.bbox) < to)) return false;
    // A line whose words stand closer than a gutter on either side of it runs across it (`… tangent
    // to h(x) at` | `x = 1.`): it may only stand above both sides or below both, as a title does.
    for (const y of bridged(left, right)) {
      const others = [...left, ...right].filter(s => s.bbox[1] > y || s.bbox[3] < y).map(s => centerY(s.bbox));
      if (others.some(o => o < y) && others.some(o => o > y)) return false;
    }
  }
  return true;
}

/** The heights at which a run left of a gutter and a run right of it sit on one line closer than a gutter is wide. */
function bridged(left: readonly Boxed[], right: readonly Boxed[]): number[] {
  const out: number[] = [];
  for (const a of left) {
    const end = a.bbox[2];
    for (const b of right) {
      if (b.bbox[0] - end >= GUTTER_MIN) continue;
      const shared = Math.min(a.bbox[3], b.bbox[3]) - Math.max(a.bbox[1], b.bbox[1]);
      if (shared >= Math.min(height(a.bbox), height(b.bbox)) / 2) out.push(centerY(a.bbox));
    }
  }
  return out;
}

/**
 * Columns from the column rule where there is one, else from gutters: the widest empty one near the
 * middle (or, where a heading or footer crosses it, one that only a few runs cross), and within
 * each side another where the page is set in three.
 */
export function findColumns(page: ColumnInput): Column[] {
  const spans = page.spans;
  if (!spans.length) return [{ x0: 0, x1: page.width }];
  const rule = findBody(page, page.shapes).ruleX;
  const textX0 = Math.min(...spans.map(s => s.bbox[0])), textX1 = Math.max(...spans.map(s => s.bbox[2]));
  let splits: number[] = [];
  if (rule !== null) {
    // Three columns are drawn with two rules: every tall vertical rule a fair share of the text apart.
    const wide = (textX1 - textX0) * COLUMN_MIN_SHARE;
    const others = page.shapes.filter(s => s.visible && s.kind !== 'image' && s.bbox[2] - s.bbox[0] <= 3 && s.bbox[3] - s.bbox[1] >= page.height * 0.45)
      .map(s => centerX(s.bbox)).filter(x => x > textX0 + wide && x < textX1 - wide && Math.abs(x - rule) >= wide);
    splits = [rule, ...(others.length ? [others[0]] : [])].sort((a, b) => a - b);
  }
  else {
    const mid = gutter(spans, page.width * 0.3, page.width * 0.7, false) ?? gutter(spans, page.width * 0.3, page.width * 0.7, true);
    if (mid !== null) splits = [mid];
    // Three columns: a second gutter within the wider side, each column a fair share of the width.
    const wide = (textX1 - textX0) * COLUMN_MIN_SHARE;
    const side = (keep: (s: Boxed) => boolean, lo: number, hi: number) => {
      const these = spans.filter(keep);
      return gutter(these, lo, hi, false) ?? gutter(these, lo, hi, true);
    };
    const third = splits.length ? [side(s => s.bbox[2] <= splits[0] || centerX(s.bbox) < splits[0], textX0 + wide, splits[0] - wide), side(s => s.bbox[0] >= splits[0] || centerX(s.bbox) >= splits[0], splits[0] + wide, textX1 - wide)] : [];
    for (const x of third) if (x !== null) splits.push(x);
    splits.sort((a, b) => a - b);
    if (splits.length > 2) splits = splits.slice(0, 2);
  }
  if (!splits.length) return [{ x0: textX0, x1: textX1 }];
  const bounds = [0, ...splits, page.width];
  return bounds.slice(1).map((right, i) => {
    const left = bounds[i];
    // A column's edges are those of the runs set inside it (a heading across the gutter says nothing of them).
    const inside = spans.filter(x => x.bbox[0] >= left - 1 && x.bbox[2] <= right + 1);
    const side = inside.length ? inside : spans.filter(x => centerX(x.bbox) >= left && centerX(x.bbox) < right);
    const col = side.length ? { x0: Math.min(...side.map(s => s.bbox[0])), x1: Math.max(...side.map(s => s.bbox[2])) } : { x0: left, x1: right };
    return { x0: Math.max(col.x0, left), x1: Math.min(col.x1, right) };
  });
}

/** The whole text block as one column (papers set in one column whose lines leave gaps, like options side by side). */
export function oneColumn(page: PageInfo): Column[] {
  const spans = page.spans;
  return spans.length ? [{ x0: Math.min(...spans.map(s => s.bbox[0])), x1: Math.max(...spans.map(s => s.bbox[2])) }] : [{ x0: 0, x1: page.width }];
}

export function columnOf(columns: Column[], x: number): number {
  for (let i = columns.length - 1; i > 0; i--) if (x >= (columns[i - 1].x1 + columns[i].x0) / 2) return i;
  return 0;
}

const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.min(a1, b1) - Math.max(a0, b0);

/**
 * Group one column's spans into lines: a span joins a line when a third of its height overlaps it.
 * Each line's spans are in reading order: by x, or from the right where the line reads right to
 * left (`rtl`: its letters say so, or, with none, its page's — text/direction.ts).
 */
export function buildLines(spans: Span[], page: number, column: number, rtl = false): Line[] {
  const sorted = [...spans].sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]);
  const lines: { y0: number; y1: number; spans: Span[] }[] = [];
  for (const s of sorted) {
    const h = height(s.bbox);
    let target = null;
    for (let i = lines.length - 1; i >= 0 && i >= lines.length - 3; i--) {
      const l = lines[i];
      if (overlap(l.y0, l.y1, s.bbox[1], s.bbox[3]) >= Math.min(h, l.y1 - l.y0) * 0.33) { target = l; break; }
    }
    if (target) {
      target.spans.push(s);
      target.y0 = Math.min(target.y0, s.bbox[1]);
      target.y1 = Math.max(target.y1, s.bbox[3]);
    } else lines.push({ y0: s.bbox[1], y1: s.bbox[3], spans: [s] });
  }
  // A line of nothing but small formula material (an exponent's fraction, a limit's subscript)
  // that sits just off a line belongs to the nearer neighbour: lines go by vertical centre.
  const sizes = spans.map(s => s.size).sort((a, b) => a - b);
  const typical = sizes[Math.floor(sizes.length / 2)] ?? 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    const small = l.spans.every(s => s.math) && Math.max(...l.spans.map(s => s.size)) < typical * 0.8;
    if (!small || lines.length < 2) continue;
    const up = i > 0 ? l.y0 - lines[i - 1].y1 : Infinity;
    const down = i < lines.length - 1 ? lines[i + 1].y0 - l.y1 : Infinity;
    const limit = Math.max(...l.spans.map(s => s.size)) * 0.8;
    // Limits over or under a big operator (∫ ∑ ∏, whose glyph box is smaller than what it draws)
    // belong to the operator's line, even where another line is nearer.
    const operators = (k: number) => (lines[k]?.spans ?? []).filter(s => s.math && /^[∫∑∏∮]$/u.test(s.text.trim()));
    const limits = (k: number, gap: number) => gap <= limit * 2 && l.spans.every(s => operators(k).some(o => s.bbox[0] >= o.bbox[0] - 3 && s.bbox[2] <= o.bbox[2] + s.size));
    const byOperator = limits(i - 1, up) ? lines[i - 1] : limits(i + 1, down) ? lines[i + 1] : null;
    if (Math.min(up, down) > limit && !byOperator) continue;
    const into = byOperator ?? (down <= up ? lines[i + 1] : lines[i - 1]);
    into.spans.push(...l.spans);
    into.y0 = Math.min(into.y0, l.y0);
    into.y1 = Math.max(into.y1, l.y1);
    lines.splice(i--, 1);
  }
  // A numerator or denominator of a formula font set on a line of its own (Word's Cambria Math,
  // full size) stands over or under a rule glyph of a neighbouring line: it joins that line.
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (!l.spans.every(s => s.math) || lines.length < 2) continue;
    const rules = (k: number) => (lines[k]?.spans ?? []).filter(s => s.text === RULE);
    // Each span over (or under) one of the neighbour's rules: a row of options' numerators is one line.
    const over = (s: Span, r: Span) => s.bbox[0] >= r.bbox[0] - 2 && s.bbox[2] <= r.bbox[2] + 2;
    const down = rules(i + 1).filter(r => r.bbox[1] - l.y1 < r.size * 0.8 && r.bbox[1] >= l.y1 - 1);
    const up = rules(i - 1).filter(r => l.y0 - r.bbox[3] < r.size * 0.8 && l.y0 >= r.bbox[3] - 1);
    const all = (rs: Span[]) => rs.length > 0 && l.spans.every(s => rs.some(r => over(s, r)));
    const into = all(down) ? lines[i + 1] : all(up) ? lines[i - 1] : null;
    if (!into) continue;
    into.spans.push(...l.spans);
    into.y0 = Math.min(into.y0, l.y0);
    into.y1 = Math.max(into.y1, l.y1);
    lines.splice(i--, 1);
  }
  // Fractions set in the text font as three lines (numerators raised above a line of labels,
  // denominators below it): the three are one line.
  for (let i = 2; i < lines.length; i++) {
    if (numeratorLine(lines[i - 2].spans, lines[i - 1].spans, lines[i].spans)) {
      const [top, middle, bottom] = lines.splice(i - 2, 3);
      middle.spans.push(...top.spans, ...bottom.spans);
      middle.y0 = Math.min(middle.y0, top.y0);
      middle.y1 = Math.max(middle.y1, bottom.y1);
      lines.splice(i - 2, 0, middle);
      i -= 2;
    }
  }
  // The same with the denominators already in the labels' line: the numerators' line joins it.
  for (let i = 1; i < lines.length; i++) {
    if (numeratorsOver(lines[i - 1].spans, lines[i].spans)) {
      const top = lines.splice(i - 1, 1)[0];
      lines[i - 1].spans.push(...top.spans);
      lines[i - 1].y0 = Math.min(lines[i - 1].y0, top.y0);
      i--;
    }
  }
  // A fraction set in the text font whose denominator hangs below the line's others (an option's
  // `A)  195/25`): the denominator's line joins the line of its numerator.
  for (let i = 1; i < lines.length; i++) {
    if (denominatorLine(lines[i - 1].spans, lines[i].spans)) {
      const l = lines.splice(i--, 1)[0];
      lines[i].spans.push(...l.spans);
      lines[i].y0 = Math.min(lines[i].y0, l.y0);
      lines[i].y1 = Math.max(lines[i].y1, l.y1);
    }
  }
  // A left brace set as one tall glyph (Word's Cambria Math `{` of a system): the rows that start
  // just right of it on the lines above and below, formula glyphs only, are its rows.
  for (let i = 0; i < lines.length; i++) {
    const braces = lines[i].spans.filter(s => s.math && s.text.trim() === '{');
    if (!braces.length) continue;
    const rows = [lines[i - 1], lines[i + 1]].filter(row => {
      if (!row || !row.spans.every(s => s.math)) return false;
      const first = [...row.spans].sort((a, b) => a.bbox[0] - b.bbox[0])[0];
      return braces.some(x => first.bbox[0] >= x.bbox[2] - 2 && first.bbox[0] <= x.bbox[2] + 4 && Math.abs(first.baseline - x.baseline) < x.size * 1.9);
    });
    const line = lines[i];
    for (const row of rows) {
      line.spans.push(...row.spans);
      line.y0 = Math.min(line.y0, row.y0);
      line.y1 = Math.max(line.y1, row.y1);
      lines.splice(lines.indexOf(row), 1);
    }
    i = lines.indexOf(line);
  }
  // A left brace drawn in pieces (⎧ ⎨ ⎩) holds the rows of one formula (cases): its lines are one line.
  for (let i = 0; i < lines.length; i++) {
    const has = (l: typeof lines[number], ch: string) => l.spans.some(s => s.text.includes(ch));
    if (!has(lines[i], '⎧') || has(lines[i], '⎩')) continue;
    let end = i + 1;
    while (end < lines.length && end <= i + 6 && !has(lines[end], '⎩')) end++;
    if (end >= lines.length || !has(lines[end], '⎩')) continue;
    for (const l of lines.splice(i + 1, end - i)) {
      lines[i].spans.push(...l.spans);
      lines[i].y0 = Math.min(lines[i].y0, l.y0);
      lines[i].y1 = Math.max(lines[i].y1, l.y1);
    }
  }
  return lines
    .map(l => {
      const read = readingOrder(l.spans.sort((a, b) => a.bbox[0] - b.bbox[0]), rtl);
      return { page, column, spans: read.spans, bbox: bboxUnion(l.spans.map(s => s.bbox)), ...(read.rtl ? { rtl: true } : {}) };
    })
    .sort((a, b) => a.bbox[1] - b.bbox[1]);
}

/**
 * The lines of what text-layer set apart above each page's body with its head (a cover's
 * instructions set across the columns, over the column rule), in reading order, each with the
 * index of the body line it stands before: they are no body line, but a statement there (marks for
 * a range of questions) is the paper's.
 */
export function headLines(doc: PaperDocument): { text: string; before: number }[] {
  const inBody = new Set(doc.lines.flatMap(l => l.spans));
  return doc.pages.flatMap(page => {
    const above = page.furniture.filter(s => !inBody.has(s) && centerY(s.bbox) < page.body.y0 && s.text.trim());
    if (!above.length) return [];
    const first = doc.lines.findIndex(l => l.page >= page.number);
    const before = first < 0 ? doc.lines.length : first;
    return buildLines(above, page.number, 0, pageReadsRtl(above)).map(l => ({ text: rawText(l.spans), before }));
  });
}

export function layoutStage(): Stage {
  return {
    name: 'layout',
    kind: 'processor',
    run(doc) {
      const all: Line[] = [];
      for (const page of doc.pages) {
        // A page read by OCR brings the columns its pixels show (ocr/columns.ts): its words, a line
        // cut where the scan is askew or a title set across the gutter, say less of the gutter.
        page.columns = doc.template.layout?.columns === 1 ? oneColumn(page) : page.ocr && page.columns.length > 1 ? page.columns : findColumns(page);
        const byColumn = page.columns.map(() => [] as Span[]);
        for (const s of page.spans) byColumn[columnOf(page.columns, centerX(s.bbox))].push(s);
        // A page that reads right to left reads its columns from the right.
        const rtl = pageReadsRtl(page.spans);
        const order = byColumn.map((_, c) => c);
        if (rtl) order.reverse();
        for (const c of order) all.push(...buildLines(byColumn[c], page.number, c, rtl));
      }
      doc.lines = all;
    },
  };
}
