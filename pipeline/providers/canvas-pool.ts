// Canvases let go of, kept for the next page instead of left to the garbage collector. pdf.js draws
// each transparency group and soft mask on a scratch canvas the size of the page (three a page on the
// KICE booklets, some 16 MB each at 144 dpi) and drops it when the page is drawn, and a page's own
// canvas is dropped once its PNG is written. Their pixels live outside V8's heap, which does not
// count them, so they were freed only when a full collection happened to run: hundreds of megabytes
// of dropped canvases between two. A kept canvas of the size asked for is handed out again, reset by
// setting its width (what the canvas specification says clears it and its context's state: pixels
// transparent, transform, clip and styles the defaults), so a lane draws its pages on the same few.
// Measured on 120 pages (/tmp scratch loop, pages drawn and encoded): peak RSS 966 MB against 1073
// MB, in the same time; the pixels are the same bytes. A context's reset() is not used: on
// @napi-rs/canvas 0.1.100 nothing drawn after it shows.

/** Dropped canvases kept at most, of all sizes together (a page-sized one is some 16 MB). */
export const CANVASES_KEPT = 4;

export class CanvasPool<C extends { width: number; height: number }, X> {
  private kept: { canvas: C; context: X }[] = [];

  constructor(private readonly max = CANVASES_KEPT) {}

  /** A kept canvas of exactly this size, cleared, or null. */
  take(width: number, height: number): { canvas: C; context: X } | null {
    const i = this.kept.findIndex(e => e.canvas.width === width && e.canvas.height === height);
    if (i < 0) return null;
    const [entry] = this.kept.splice(i, 1);
    entry.canvas.width = width;
    return entry;
  }

  /** Keeps a canvas nobody draws on any more; the oldest kept one goes when the pool is full. */
  give(canvas: C, context: X): void {
    this.kept.push({ canvas, context });
    if (this.kept.length > this.max) this.kept.shift();
  }
}
