// The contract every stage keeps: a name and a run over one document. Processors enrich the
// document; renderers only read it. A stage reports problems as diagnostics and throws a
// DocumentError only for what makes the whole document unusable.
import type { Config } from './config.ts';
import type { PaperDocument } from './document.ts';
import type { PageLanes } from './pages/lanes.ts';
import type { PageResult } from './pages/task.ts';
import type { PdfDocument } from './providers/pdf.ts';
import type { Template } from './template.ts';
import type { PaperSink } from './store/rows.ts';

export interface StageContext {
  readonly config: Config;
  readonly templates: readonly Template[];
  /** The open PDF, set by the register stage for the stages after it. */
  pdf?: PdfDocument;
  /** Where renderers put what they emit (the store's owner commits it: pipeline/run.ts). */
  readonly store: PaperSink;
  /** Settings and code version that produced a paper's rows: a paper done under the same key is not redone. */
  readonly runKey: string;
  /** The lanes pages are read in (WORKERS: pipeline/pages/lanes.ts); without them, pages are read in this process. */
  readonly pages?: PageLanes;
  /**
   * Each page's reading (image and text layer), in page order, as rasterize started them; text-layer
   * takes each and lets it go. Absent where rasterize did not run (text-layer then reads the pages).
   */
  pageReads?: (Promise<PageResult> | undefined)[];
}

export interface Stage {
  readonly name: string;
  readonly kind: 'processor' | 'renderer';
  run(doc: PaperDocument, ctx: StageContext): Promise<void> | void;
  /**
   * Work the stage may start once the paper is registered (its template known), to take up when
   * its turn comes: it reads files beside the paper, never the document, and changes nothing.
   */
  prefetch?(doc: PaperDocument, ctx: StageContext): void;
}

export function needPdf(ctx: StageContext): PdfDocument {
  if (!ctx.pdf) throw new Error('internal: a stage needs the PDF before register opened it');
  return ctx.pdf;
}
