// rasterize: every page to a PNG at the configured resolution, cached by content hash: a page
// image that is already on disk is not rendered again. Each page is one task of the WORKERS lanes
// (pipeline/pages/): drawn, encoded and written (under a temporary name, renamed) by whichever lane
// is free, its text layer read by the same task for the text-layer stage after this one. A page that
// repeats an earlier one read by the same lane is not drawn (stages/repeats.ts, after this one,
// decides over the whole paper and takes the image away from every repeat).
import fs from 'node:fs';
import path from 'node:path';
import { DocumentError } from '../diagnostics.ts';
import { pageImageName } from '../ids.ts';
import { readPages } from '../pages/paper.ts';
import { pagesIdle } from '../pages/read.ts';
import { needPdf, type Stage } from '../stage.ts';

export const PAGES_DIR = 'pages';

export function rasterizeStage(): Stage {
  return {
    name: 'rasterize',
    kind: 'processor',
    async run(doc, ctx) {
      const dir = path.join(ctx.config.yearDir, PAGES_DIR);
      fs.mkdirSync(dir, { recursive: true });
      for (const page of doc.pages) page.image = `${PAGES_DIR}/${pageImageName(doc.sha256, page.number, ctx.config.dpi)}`;
      const reads = ctx.pageReads = readPages(doc, ctx, n => path.join(dir, pageImageName(doc.sha256, n, ctx.config.dpi)));
      // The first page, in page order, that cannot be drawn fails the paper here.
      for (const [i, reading] of reads.entries()) {
        const r = await reading!;
        const n = i + 1;
        if (r.changed) throw new DocumentError('register/changed', 'the file changed after it was listed', n);
        if (r.crash) throw new DocumentError('worker/crash', r.crash, n);
        if (r.renderError !== undefined) throw new DocumentError('rasterize/render-failed', `page ${n} cannot be rendered (${r.renderError})`, n);
        // Named with its file, so that a full disk stops the batch saying where (disk-full.ts).
        if (r.writeError !== undefined) throw Object.assign(new DocumentError('rasterize/write-failed', `page ${n}'s image cannot be written (${r.writeError})`, n), { path: path.join(dir, pageImageName(doc.sha256, n, ctx.config.dpi)) });
        if (r.image === 'rendered') doc.counters.pagesRendered = (doc.counters.pagesRendered ?? 0) + 1;
        else if (r.image === 'cached') doc.counters.pagesCached = (doc.counters.pagesCached ?? 0) + 1;
      }
      // A clean-up of the paper's PDF in this process ends before any later stage draws with it.
      await pagesIdle(needPdf(ctx));
    },
  };
}
