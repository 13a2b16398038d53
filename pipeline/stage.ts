// The contract every stage keeps: a name and a run over one document. Processors enrich the
// document; renderers only read it. A stage reports problems as diagnostics and throws a
// DocumentError only for what makes the whole document unusable.
import type { Config } from './config.ts';
import type { PaperDocument } from './document.ts';
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
}

export interface Stage {
  readonly name: string;
  readonly kind: 'processor' | 'renderer';
  run(doc: PaperDocument, ctx: StageContext): Promise<void> | void;
}

export function needPdf(ctx: StageContext): PdfDocument {
  if (!ctx.pdf) throw new Error('internal: a stage needs the PDF before register opened it');
  return ctx.pdf;
}
