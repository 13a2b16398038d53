// The grading table on a quiz's cover (Problem | Points | Score, one row per question, then a
// total): told by what it holds, not by its words — a frame whose rows open with the numbers
// 1, 2, … k in order and whose last row holds one number. It is for the marker, not part of the
// question printed beside it, and its grid is no figure.
import type { BBox, PageInfo, Span } from '../document.ts';
import { centerX, centerY } from '../document.ts';
import { framesOf } from './boxes.ts';

/** Rows of spans whose baselines are closer than this share of their size are one row. */
const SAME_ROW = 0.5;

const inside = (f: BBox, s: { bbox: BBox }) => centerX(s.bbox) >= f[0] && centerX(s.bbox) <= f[2] && centerY(s.bbox) >= f[1] && centerY(s.bbox) <= f[3];

/** The rows of the spans (top to bottom), each left to right, as words. */
function rows(spans: Span[]): string[][] {
  const out: { baseline: number; size: number; spans: Span[] }[] = [];
  for (const s of [...spans].sort((a, b) => a.baseline - b.baseline)) {
    const row = out.find(r => Math.abs(r.baseline - s.baseline) < Math.max(r.size, s.size) * SAME_ROW);
    if (row) row.spans.push(s); else out.push({ baseline: s.baseline, size: s.size, spans: [s] });
  }
  return out.map(r => r.spans.sort((a, b) => a.bbox[0] - b.bbox[0]).flatMap(s => s.text.trim().split(/\s+/)).filter(Boolean));
}

/** Whether the rows read as a grading table: a header, rows 1…k (k ≥ 2) each with its marks, a total. */
export function isGradeTable(table: string[][]): boolean {
  const numbered = table.filter(r => /^\d{1,2}$/.test(r[0]) && r.length >= 2 && /^\d{1,3}$/.test(r[1]));
  if (numbered.length < 2 || !numbered.every((r, i) => Number(r[0]) === i + 1)) return false;
  const last = table[table.length - 1];
  const total = last !== numbered[numbered.length - 1] && last.filter(w => /^\d{1,3}$/.test(w)).length === 1 && last.some(w => /\p{L}/u.test(w));
  return total && table[0] !== numbered[0];
}

/** Frames stacked edge to edge with the same sides (a table drawn row by row, as LaTeX does) as one box. */
function stacked(frames: BBox[]): BBox[] {
  const out: BBox[] = [];
  for (const f of [...frames].sort((a, b) => a[1] - b[1])) {
    const on = out.find(o => Math.abs(o[0] - f[0]) <= 2 && Math.abs(o[2] - f[2]) <= 2 && Math.abs(o[3] - f[1]) <= 2);
    if (on) on[3] = Math.max(on[3], f[3]); else out.push([...f] as BBox);
  }
  return out;
}

/** The frames of a page that hold a grading table. */
export function gradeTables(page: Pick<PageInfo, 'shapes' | 'spans'>): BBox[] {
  return stacked(framesOf(page.shapes)).filter(f => {
    const held = page.spans.filter(s => inside(f, s));
    return held.length >= 4 && isGradeTable(rows(held));
  });
}

/** Move a grading table's text to the page's furniture and drop its rules (they would be cropped as a figure). */
export function setApartGradeTable(page: Pick<PageInfo, 'shapes' | 'spans' | 'furniture'>, frame: BBox): Span[] {
  const moved = page.spans.filter(s => inside(frame, s));
  page.spans = page.spans.filter(s => !inside(frame, s));
  page.furniture.push(...moved);
  const within = (b: BBox) => b[0] >= frame[0] - 2 && b[1] >= frame[1] - 2 && b[2] <= frame[2] + 2 && b[3] <= frame[3] + 2;
  page.shapes = page.shapes.filter(s => s.kind === 'image' || !within(s.bbox));
  return moved;
}
