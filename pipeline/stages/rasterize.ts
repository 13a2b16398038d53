// rasterize: every page to a PNG at the configured resolution, cached by content hash: a page
// image that is already on disk is not rendered again. Written to a temporary name and renamed,
// so a run killed mid-write never leaves a truncated image behind.
import fs from 'node:fs';
import path from 'node:path';
import { DocumentError } from '../diagnostics.ts';
import { pageImageName } from '../ids.ts';
import { renderPage } from '../providers/pdf.ts';
import { needPdf, type Stage } from '../stage.ts';

export const PAGES_DIR = 'pages';

export function rasterizeStage(): Stage {
  return {
    name: 'rasterize',
    kind: 'processor',
    async run(doc, ctx) {
      const pdf = needPdf(ctx);
      const dir = path.join(ctx.config.yearDir, PAGES_DIR);
      fs.mkdirSync(dir, { recursive: true });
      // Each page is drawn here and encoded off this thread: the next page is drawn while the last
      // one's PNG is encoded and written, so one worker keeps two cores busy where it has them.
      let pending: Promise<void> = Promise.resolve();
      for (let n = 1; n <= doc.pageCount; n++) {
        // A page that repeats an earlier one is not drawn (stages/repeats.ts).
        if (doc.pages[n - 1].repeatOf) continue;
        const name = pageImageName(doc.sha256, n, ctx.config.dpi);
        const file = path.join(dir, name);
        doc.pages[n - 1].image = `${PAGES_DIR}/${name}`;
        if (fs.existsSync(file)) {
          doc.counters.pagesCached = (doc.counters.pagesCached ?? 0) + 1;
          continue;
        }
        const drawn = renderPage(await pdf.getPage(n), ctx.config.dpi).then(png => ({ png, error: null }), (error: Error) => ({ png: null, error }));
        await pending;
        pending = drawn.then(({ png, error }) => {
          if (!png) throw new DocumentError('rasterize/render-failed', `page ${n} cannot be rendered (${error?.message})`, n);
          const tmp = `${file}.${process.pid}.tmp`;
          try {
            fs.writeFileSync(tmp, png);
            fs.renameSync(tmp, file);
          } catch (e) {
            // A full disk: no half-written image left behind, and the error names the file.
            fs.rmSync(tmp, { force: true });
            throw Object.assign(e as Error, { path: file });
          }
          doc.counters.pagesRendered = (doc.counters.pagesRendered ?? 0) + 1;
        });
        // Its failure is thrown at the next await of it; until then it is not an unhandled rejection.
        pending.catch(() => undefined);
      }
      await pending;
    },
  };
}
