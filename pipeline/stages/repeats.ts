// repeats: pages that are an earlier page of the same paper again (a booklet printed twice into
// one file, a scanner fed the same sheets) are found before anything costly is done with them, by
// one pass over the whole paper: a page's fingerprint is its text with the boxes of what is drawn on
// it, or for a scan (no text, one picture) the picture's bytes as stored. A repeat keeps its place
// (page numbers stay those of the file) but is neither rendered nor read: rasterize and text-layer
// skip it, so it holds no question. One warning says which pages repeat which, as ranges.
import crypto from 'node:crypto';
import type { PaperDocument } from '../document.ts';
import { pageGraphics, pageSpans } from '../providers/pdf.ts';
import { isScan, scanImage } from '../providers/scan.ts';
import { needPdf, type Stage } from '../stage.ts';

/** Fewer non-space characters than this and a page's text is no fingerprint (a blank page, "this page is left blank"). */
export const MIN_REPEAT_TEXT = 100;

/** Each page's fingerprint, or null where it has none (too little text and no scan picture). */
async function fingerprints(doc: PaperDocument, pdf: ReturnType<typeof needPdf>): Promise<(string | null)[]> {
  const out: (string | null)[] = [];
  for (const page of doc.pages) {
    const p = await pdf.getPage(page.number);
    // Operators before text, as text-layer reads them (fonts load in that order); both are kept with the page.
    const graphics = await pageGraphics(p, page.number);
    const runs = await pageSpans(p);
    const text = runs.map(r => r.text).join('').replace(/\s+/g, '');
    if (text.length >= MIN_REPEAT_TEXT) {
      const drawn = graphics.shapes.map(s => `${s.kind}:${s.bbox.map(v => Math.round(v)).join(',')}`).sort().join(';');
      out.push(crypto.createHash('sha256').update(text).update('\0').update(drawn).digest('hex'));
      continue;
    }
    // pdfimages needs the file's path (doc.file is its name alone).
    const picture = isScan(graphics.shapes, page) ? await scanImage(doc.path, page.number) : null;
    out.push(picture ? `scan:${crypto.createHash('sha256').update(picture).digest('hex')}` : null);
  }
  return out;
}

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
      const prints = await fingerprints(doc, needPdf(ctx));
      const first = new Map<string, number>();
      const repeatOf = new Map<number, number>();
      prints.forEach((key, i) => {
        if (!key) return;
        const seen = first.get(key);
        if (seen === undefined) first.set(key, doc.pages[i].number);
        else {
          doc.pages[i].repeatOf = seen;
          repeatOf.set(doc.pages[i].number, seen);
        }
      });
      if (!repeatOf.size) return;
      doc.counters.pagesRepeated = repeatOf.size;
      doc.messages.warn('repeats/pages', `${describeRepeats(repeatOf)} (the same ${prints.some((k, i) => repeatOf.has(doc.pages[i].number) && k?.startsWith('scan:')) ? 'picture' : 'text and drawing'}): those ${repeatOf.size} of the ${doc.pageCount} pages are not read again`, { stage: 'repeats' });
    },
  };
}
