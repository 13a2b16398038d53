// The lines of one column: a line is a cluster of spans whose vertical extents overlap, so a
// fraction's numerator and denominator, or a tall formula that rises above its question number,
// stay on the line they sit on. Below the stages: layout builds a page's lines, segment and answers
// the lines of what stands apart from the body (a head over the columns, a key).
import type { Line, PaperDocument, Span } from '../document.ts';
import { bboxUnion, centerY, height } from '../document.ts';
import { denominatorLine, numeratorLine, numeratorsOver } from '../math/inline.ts';
import { RULE } from '../math/glyphs.ts';
import { pageReadsRtl, readingOrder } from './direction.ts';
import { rawText } from './line-text.ts';

const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.min(a1, b1) - Math.max(a0, b0);
/** The share of the lower of two boxes' heights they must share to stand on one line. */
export const LINE_OVERLAP = 0.33;
/** How far (pt) two spans' boxes may cross across and still stand side by side: OCR's boxes of neighbouring words touch. */
const SIDE_BY_SIDE = 1;
/** A word alone OCR read (a mark `[2]`, `[3 点]` as OCR parts it): at most two spans, no wider than this many type sizes. */
const WORD_ALONE = 4;
const wordAlone = (l: { spans: Span[] }) => l.spans.length <= 2 && l.spans.every(s => s.font.startsWith('ocr')) && Math.max(...l.spans.map(s => s.bbox[2])) - Math.min(...l.spans.map(s => s.bbox[0])) <= WORD_ALONE * Math.max(...l.spans.map(s => s.size));

/**
 * Group one column's spans into lines: a span joins a line when a third of its height overlaps it (LINE_OVERLAP).
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
      if (overlap(l.y0, l.y1, s.bbox[1], s.bbox[3]) >= Math.min(h, l.y1 - l.y0) * LINE_OVERLAP) { target = l; break; }
    }
    if (target) {
      target.spans.push(s);
      target.y0 = Math.min(target.y0, s.bbox[1]);
      target.y1 = Math.max(target.y1, s.bbox[3]);
    } else lines.push({ y0: s.bbox[1], y1: s.bbox[3], spans: [s] });
  }
  // The pass above is bound to the spans' order: a word set a little high beside a line (a mark
  // `[3]` at the right, whose box OCR draws above the line's) opens a line of its own before the
  // line's first word arrives, and the line then grows beside it. Two neighbouring lines that
  // overlap as a span must to join a line, and stand side by side (no span of one over a span of
  // the other, as a fraction's parts or a formula's rows do), are one line. A word alone that OCR
  // read beside a line joins it where their boxes meet at all: a mark floated to the top of a tall
  // line (`[2]` beside `No. 15 3³ …`, its foot at the exponent's head) is that line's. (A text
  // layer's boxes are the glyphs' own: a logo's word beside a line it barely meets is no word of it.)
  for (let i = 1; i < lines.length; i++) {
    const [a, b] = [lines[i - 1], lines[i]];
    const least = wordAlone(a) || wordAlone(b) ? 0 : Math.min(a.y1 - a.y0, b.y1 - b.y0) * LINE_OVERLAP;
    if (overlap(a.y0, a.y1, b.y0, b.y1) <= least) continue;
    if (a.spans.some(s => b.spans.some(o => overlap(s.bbox[0], s.bbox[2], o.bbox[0], o.bbox[2]) > SIDE_BY_SIDE))) continue;
    a.spans.push(...b.spans);
    a.y0 = Math.min(a.y0, b.y0);
    a.y1 = Math.max(a.y1, b.y1);
    lines.splice(i--, 1);
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
