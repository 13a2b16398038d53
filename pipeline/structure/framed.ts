// Lines set alone in a frame: a boxed heading (`1 영역 — 수학` in its box, `Part B` boxed across
// the column) is a heading however light its type, as a bold or larger line is. A frame is a
// rectangle drawn round the line and nothing else; a table's cell, one of a grid of rectangles that
// touch, is no frame.
import type { Line, PaperDocument, Shape } from '../document.ts';

/** A frame stands at most this many points out from the line it holds (a scan's box found a little large). */
const FRAME_SLACK = 3;
/** …and is at most this many times the line's height: a box round a paragraph holds more than a heading. */
const FRAME_LINES = 3;
/** Rectangles this close (points) touch: cells of one table. */
const TOUCHING = 2;

const contains = (outer: Shape['bbox'], inner: Line['bbox'], slack: number) =>
  outer[0] <= inner[0] + slack && outer[1] <= inner[1] + slack && outer[2] >= inner[2] - slack && outer[3] >= inner[3] - slack;

const overlaps = (a: Shape['bbox'], b: Shape['bbox']) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

const touches = (a: Shape['bbox'], b: Shape['bbox']) =>
  a[0] - TOUCHING <= b[2] && b[0] - TOUCHING <= a[2] && a[1] - TOUCHING <= b[3] && b[1] - TOUCHING <= a[3];

/** The lines of the paper set alone in a frame. */
export function framedLines(doc: PaperDocument): Set<Line> {
  const out = new Set<Line>();
  for (const page of doc.pages) {
    const lines = doc.lines.filter(l => l.page === page.number);
    const rects = page.shapes.filter(s => s.kind === 'rect' && s.visible);
    for (const rect of rects) {
      if (rects.some(r => r !== rect && touches(r.bbox, rect.bbox))) continue;
      const inside = lines.filter(l => overlaps(rect.bbox, l.bbox));
      if (inside.length !== 1) continue;
      const [line] = inside;
      const height = line.bbox[3] - line.bbox[1];
      const framed = rect.bbox[3] - rect.bbox[1];
      if (contains(rect.bbox, line.bbox, FRAME_SLACK) && framed >= height && framed <= height * FRAME_LINES) out.add(line);
    }
  }
  return out;
}
