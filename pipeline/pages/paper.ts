// A paper's pages as tasks of the lanes: one task a page, all started at once (the lanes take them
// in turn), each read in this process on the paper's own open PDF or by a pool process.
import path from 'node:path';
import type { PaperDocument } from '../document.ts';
import { needPdf, type StageContext } from '../stage.ts';
import { PageLanes } from './lanes.ts';
import { readPage } from './read.ts';
import type { PageResult } from './task.ts';

/** Every page of the paper, read in the context's lanes (this process alone where there are none). `image(n)`: where page n's image goes, or null for none. */
export function readPages(doc: PaperDocument, ctx: StageContext, image: (n: number) => string | null): Promise<PageResult>[] {
  const pdf = needPdf(ctx);
  const lanes = ctx.pages ?? new PageLanes();
  // Formula fonts are the template's (none before one is chosen).
  const mathFonts = [...(doc.template?.mathFonts ?? [])];
  return doc.pages.map(page => {
    const task = { file: path.resolve(doc.path), scanFile: doc.file, sha256: doc.sha256, page: page.number, size: { width: page.width, height: page.height }, image: image(page.number), dpi: ctx.config.dpi, mathFonts, root: ctx.config.root };
    return lanes.read(task, () => readPage(pdf, task));
  });
}
