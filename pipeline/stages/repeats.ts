// repeats: pages that are an earlier page of the same paper again (a booklet printed twice into
// one file, a scanner fed the same sheets) are found by one pass over the whole paper, from each
// page's fingerprint as its page task read it (text/page-text.ts: its text with the boxes of what
// is drawn on it, or for a scan the picture's bytes as stored). A repeat keeps its place (page
// numbers stay those of the file) but is not read: it loses its image (a lane that read the earlier
// page did not draw it: pages/read.ts) and text-layer skips it, so it holds no question. One
// warning says which pages repeat which, as ranges.
import { readPages } from '../pages/paper.ts';
import type { Stage } from '../stage.ts';
import { MIN_REPEAT_TEXT } from '../text/page-text.ts';

export { MIN_REPEAT_TEXT };

/** `5–8` or `5`. */
const span = (a: number, b: number) => (a === b ? `${a}` : `${a}–${b}`);

/**
 * The repeats as ranges grouped by what they repeat: "pages 5–8, 9–12 repeat pages 1–4". A run is
 * pages in a row whose originals are in a row too.
 */
export function describeRepeats(repeatOf: ReadonlyMap<number, number>): string {
  const runs: { from: number; to: number; origFrom: number; origTo: number }[] = [];
  for (const [page, orig] of [...repeatOf].sort((a, b) => a[0] - b[0])) {
    const last = runs.at(-1);
    if (last && page === last.to + 1 && orig === last.origTo + 1) { last.to = page; last.origTo = orig; } else runs.push({ from: page, to: page, origFrom: orig, origTo: orig });
  }
  const byOriginal = new Map<string, string[]>();
  for (const r of runs) {
    const key = span(r.origFrom, r.origTo);
    byOriginal.set(key, [...(byOriginal.get(key) ?? []), span(r.from, r.to)]);
  }
  const plural = (list: string[]) => (list.length > 1 || list[0].includes('–') ? 'pages' : 'page');
  return [...byOriginal].map(([orig, copies]) => `${plural(copies)} ${copies.join(', ')} ${copies.length > 1 || copies[0].includes('–') ? 'repeat' : 'repeats'} ${plural([orig])} ${orig}`).join('; ');
}

export function repeatsStage(): Stage {
  return {
    name: 'repeats',
    kind: 'processor',
    async run(doc, ctx) {
      if (doc.pages.length < 2) return;
      // The page tasks rasterize started (or, where it did not run, read here for text-layer too).
      const reads = ctx.pageReads ??= readPages(doc, ctx, () => null);
      const prints: (string | null)[] = [];
      for (const r of reads) prints.push((await r!).text?.fingerprint ?? null);
      const first = new Map<string, number>();
      const repeatOf = new Map<number, number>();
      prints.forEach((key, i) => {
        if (!key) return;
        const seen = first.get(key);
        if (seen === undefined) first.set(key, doc.pages[i].number);
        else {
          doc.pages[i].repeatOf = seen;
          delete doc.pages[i].image;
          repeatOf.set(doc.pages[i].number, seen);
        }
      });
      if (!repeatOf.size) return;
      doc.counters.pagesRepeated = repeatOf.size;
      doc.messages.warn('repeats/pages', `${describeRepeats(repeatOf)} (the same ${prints.some((k, i) => repeatOf.has(doc.pages[i].number) && k?.startsWith('scan:')) ? 'picture' : 'text and drawing'}): those ${repeatOf.size} of the ${doc.pageCount} pages are not read again`, { stage: 'repeats' });
    },
  };
}
