// A page with no usable text layer, read from its pixels: rendered at OCR resolution, its rules
// found in the raster (so the body band and the columns come out as for a born-digital page), each
// column recognised on its own (one column of text), the running head and footer as blocks, and
// circled option markers (①–⑤, which OCR garbles) told by their ring. What comes out is the same
// kind of span the text layer gives, so layout and segmentation after it are one path.
import type { BBox, Shape } from '../document.ts';
import { findBody } from '../stages/text-layer.ts';
import { findColumnsFromShapes } from './columns.ts';
import { floodFill, isCircled, loadGray, type Gray } from '../keys/grid.ts';
import { readCircled } from '../keys/image-key.ts';
import type { OcrPool } from '../providers/ocr.ts';
import { renderPage, type PdfPage } from '../providers/pdf.ts';
import type { RawSpan } from '../providers/pdf.ts';
import sharp from 'sharp';

export const OCR_FONT = 'ocr';

function runs(n: number, pass: (i: number) => boolean, min: number): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= n; i++) {
    if (i < n && pass(i)) { if (start < 0) start = i; }
    else if (start >= 0) { if (i - start >= min) out.push([start, i]); start = -1; }
  }
  return out;
}

/** Long dark rules of a page image (column rule, head and foot rules) as line shapes in points. */
export function rulesFromImage(g: Gray, scale: number, page: number): Shape[] {
  const dark = (x: number, y: number) => g.data[y * g.width + x] < 128;
  const shapes: Shape[] = [];
  for (let y = 0; y < g.height; y += 1) {
    for (const [a, b] of runs(g.width, x => dark(x, y), g.width * 0.6)) shapes.push({ page, kind: 'line', visible: true, bbox: [a / scale, y / scale, b / scale, (y + 1) / scale] });
  }
  for (let x = Math.floor(g.width * 0.3); x < g.width * 0.7; x += 1) {
    for (const [a, b] of runs(g.height, y => dark(x, y), g.height * 0.45)) shapes.push({ page, kind: 'line', visible: true, bbox: [x / scale, a / scale, (x + 1) / scale, b / scale] });
  }
  return shapes;
}

async function crop(png: Buffer, box: [number, number, number, number]): Promise<Buffer> {
  return sharp(png).extract({ left: box[0], top: box[1], width: Math.max(1, box[2] - box[0]), height: Math.max(1, box[3] - box[1]) }).png().toBuffer();
}

/** The text of one page from OCR, as spans in points, and the rules found in the raster. */
export async function ocrPage(pdfPage: PdfPage, number: number, size: { width: number; height: number }, pool: OcrPool, dpi: number, markers: string[]): Promise<{ spans: RawSpan[]; shapes: Shape[] }> {
  const png = await renderPage(pdfPage, dpi);
  const g = await loadGray(png);
  const scale = dpi / 72;
  const shapes = rulesFromImage(g, scale, number);
  const body = findBody(size, shapes);
  const columns = findColumnsFromShapes(size, body.ruleX);
  const px = (v: number) => Math.max(0, Math.round(v * scale));
  const areas: { box: [number, number, number, number]; mode: 'column' | 'block' }[] = [
    { box: [0, 0, g.width, Math.min(g.height, px(body.y0))], mode: 'block' },
    ...columns.map(c => ({ box: [px(c.x0), px(body.y0), Math.min(g.width, px(c.x1)), Math.min(g.height, px(body.y1))] as [number, number, number, number], mode: 'column' as const })),
    { box: [0, Math.min(g.height - 1, px(body.y1)), g.width, g.height], mode: 'block' },
  ];
  const spans: RawSpan[] = [];
  await Promise.all(areas.filter(a => a.box[2] - a.box[0] > 20 && a.box[3] - a.box[1] > 20).map(async area => {
    const { words } = await pool.recognize(await crop(png, area.box), { mode: area.mode });
    const [ox, oy] = area.box;
    // Circled markers, found in the pixels of each text line (OCR garbles them and may fuse them with the next word).
    const rings: { box: [number, number, number, number]; marker: string }[] = [];
    if (markers.length) {
      const lines = [...new Map(words.map(w => [w.line.join(','), w.line])).values()];
      for (const l of lines) rings.push(...await findRings(g, [l[0] + ox, l[1] + oy, l[2] + ox, l[3] + oy], pool, markers));
    }
    for (const r of rings) {
      const h = (r.box[3] - r.box[1]) / scale;
      spans.push({ text: r.marker, bbox: [r.box[0] / scale, r.box[1] / scale, r.box[2] / scale, r.box[3] / scale], baseline: r.box[3] / scale - h * 0.1, size: h, font: OCR_FONT });
    }
    for (const w of words) {
      if (!w.text.trim()) continue;
      let x0 = w.bbox[0] + ox;
      const x1 = w.bbox[2] + ox, y0 = w.bbox[1] + oy, y1 = w.bbox[3] + oy;
      let text = w.text;
      // A word over a ring: the garbled marker is dropped; what reaches past the ring is kept.
      const ring = rings.find(r => r.box[0] < x1 && x0 < r.box[2] && r.box[1] < y1 && y0 < r.box[3]);
      if (ring) {
        if (x1 - ring.box[2] < (ring.box[3] - ring.box[1]) * 0.4) continue;
        text = text.replace(/^[^0-9A-Za-z가-힣]*[0-9]?[^0-9A-Za-z가-힣]*/, '') || text;
        x0 = ring.box[2] + 1;
      }
      const bbox: BBox = [x0 / scale, y0 / scale, x1 / scale, y1 / scale];
      const sz = Math.max(4, (w.line[3] - w.line[1]) / scale / 1.05);
      spans.push({ text, bbox, baseline: (w.line[3] + oy) / scale - sz * 0.2, size: sz, font: OCR_FONT });
    }
  }));
  return { spans, shapes };
}

/** Rings with a digit inside (①–⑤) in one text line of the page image, read as markers. */
export async function findRings(g: Gray, line: [number, number, number, number], pool: OcrPool, markers: string[]): Promise<{ box: [number, number, number, number]; marker: string }[]> {
  const h = line[3] - line[1];
  // A ring stands taller than the digits of its line: search well above and below the line's box.
  const y0 = Math.max(0, line[1] - Math.round(h * 0.6)), y1 = Math.min(g.height, line[3] + Math.round(h * 0.6));
  const x0 = Math.max(0, line[0] - h), x1 = Math.min(g.width, line[2] + h);
  const W = x1 - x0, H = y1 - y0;
  const seen = new Uint8Array(W * H);
  const dark = (k: number) => g.data[(y0 + Math.floor(k / W)) * g.width + x0 + (k % W)] < 170;
  const out: { box: [number, number, number, number]; marker: string }[] = [];
  for (let i = 0; i < W * H; i++) {
    if (seen[i] || !dark(i)) continue;
    const [a, b, c, d] = floodFill(W, H, [i], dark, seen).box;
    const w = c - a, hh = d - b;
    if (hh < h * 0.6 || hh > h * 2.2 || w / hh < 0.8 || w / hh > 1.25 || b === 0 || d === H) continue;
    const ink: [number, number, number, number] = [x0 + a, y0 + b, x0 + c, y0 + d];
    if (!isCircled(g, ink)) continue;
    const marker = markers[Number(await readCircled(pool, g, ink)) - 1];
    if (marker) out.push({ box: ink, marker });
  }
  return out;
}

