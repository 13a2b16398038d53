// A page task done in this process, on an open PDF: the text layer read first (operators, then
// text: the order fonts must load in), then the page drawn from the same operator list (pdf.js
// parses the page once: providers/pdf.ts) and its PNG written under a temporary name and renamed,
// so a run killed mid-write never leaves a truncated image. Then pdf.js lets go of the page, and
// every CLEANUP_EVERY pages of the document (when none is being read) of its fonts and the objects
// it parsed: a long paper's pages stream through a lane in bounded memory (a 300-page PDF built
// from 25 booklets grew by some 5 MB a page without it).
import fs from 'node:fs';
import { renderPage, releasePage, type PdfDocument, type PdfPage } from '../providers/pdf.ts';
import { readPageText } from '../text/page-text.ts';
import type { PageResult, PageTask } from './task.ts';

/** Pages of a document read between two clean-ups of what pdf.js keeps of it. */
export const CLEANUP_EVERY = 24;

interface DocState { reading: number; since: number; cleaning: Promise<void> | null }
const states = new WeakMap<PdfDocument, DocState>();

/** Resolves once no page of the document is being read or cleaned up after (before the document is used otherwise: OCR). */
export async function pagesIdle(pdf: PdfDocument): Promise<void> {
  const st = states.get(pdf);
  while (st?.cleaning) await st.cleaning;
}

export async function readPage(pdf: PdfDocument, task: PageTask): Promise<PageResult> {
  let st = states.get(pdf);
  if (!st) states.set(pdf, (st = { reading: 0, since: 0, cleaning: null }));
  while (st.cleaning) await st.cleaning;
  st.reading++;
  try {
    return await readOne(pdf, task);
  } finally {
    st.reading--;
    st.since++;
    if (st.reading === 0 && st.since >= CLEANUP_EVERY) {
      const state = st;
      state.since = 0;
      // Fonts go too (they load again with the next page that uses them, the same); a document
      // still drawn elsewhere refuses, and is cleaned up another time.
      state.cleaning = pdf.cleanup().catch(() => undefined).finally(() => { state.cleaning = null; });
    }
  }
}

async function readOne(pdf: PdfDocument, task: PageTask): Promise<PageResult> {
  const result: PageResult = { page: task.page, image: null };
  let page: PdfPage;
  try {
    page = await pdf.getPage(task.page);
  } catch (e) {
    const message = (e as Error).message;
    return { ...result, renderError: message, textError: message };
  }
  try {
    try {
      result.text = await readPageText(page, task.page, task.size, task.mathFonts, task.root, task.scanFile);
    } catch (e) {
      result.textError = (e as Error).message;
    }
    if (task.image) {
      if (fs.existsSync(task.image)) result.image = 'cached';
      else {
        try {
          const png = await renderPage(page, task.dpi);
          const tmp = `${task.image}.${process.pid}.${task.page}.tmp`;
          fs.writeFileSync(tmp, png);
          fs.renameSync(tmp, task.image);
          result.image = 'rendered';
        } catch (e) {
          result.renderError = (e as Error).message;
        }
      }
    }
  } finally {
    releasePage(page);
  }
  return result;
}
