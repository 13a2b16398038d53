// A page task done in this process, on an open PDF: the text layer read first (operators, then
// text: the order fonts must load in), then the page drawn from the same operator list (pdf.js
// parses the page once: providers/pdf.ts) and its PNG written under a temporary name and renamed,
// so a run killed mid-write never leaves a truncated image. Then pdf.js lets go of the page, and
// every CLEANUP_EVERY pages of the document (when none is being read) of its fonts and the objects
// it parsed, which are then collected: a long paper's pages stream through a lane in bounded memory
// (a 300-page PDF built from 25 booklets grew by some 5 MB a page without the clean-up).
import fs from 'node:fs';
import { collectGarbage } from '../providers/gc.ts';
import { renderPage, releasePage, type PdfDocument, type PdfPage } from '../providers/pdf.ts';
import { readPageText } from '../text/page-text.ts';
import type { PageResult, PageTask } from './task.ts';

/**
 * Pages of a document read between two clean-ups of what pdf.js keeps of it, each followed by a
 * full collection (providers/gc.ts). Every 12 rather than 24, with the collection: on the bench's
 * 1000-page PDF, 1133–1142 MB in all processes against 1449–1533 (but 131.6–157.2 s against
 * 111.1–142.5, the machine shared; every 8: 999–1044 MB, 147.9–162.4 s; README, "Speed").
 */
export const CLEANUP_EVERY = 12;

/**
 * Fingerprints of the pages this process has read, per paper (by hash), with the first page each
 * was seen on: a page that repeats an earlier one (stages/repeats.ts decides, over the whole paper)
 * is not drawn where this process read the earlier one. Papers kept: the last few.
 */
const printsOf = new Map<string, Map<string, number>>();
const PRINTS_KEPT = 8;

/** Whether an earlier page of the paper, read in this process, has this fingerprint; the page's is noted. */
function repeatsEarlier(sha256: string, page: number, print: string | null | undefined): boolean {
  if (!print) return false;
  let prints = printsOf.get(sha256);
  if (!prints) {
    printsOf.set(sha256, (prints = new Map()));
    for (const old of [...printsOf.keys()].slice(0, Math.max(0, printsOf.size - PRINTS_KEPT))) printsOf.delete(old);
  }
  const first = prints.get(print);
  if (first === undefined || first > page) prints.set(print, page);
  return first !== undefined && first < page;
}

/**
 * A document's reads in this process. Its lane holds two pages at once, so the document is seldom
 * idle by chance: once CLEANUP_EVERY pages are read, new reads wait (`wake`) until those in hand are
 * done, the clean-up runs, and reading goes on. Without that wait the clean-up never ran on a long
 * paper, and the fonts and objects of every page read stayed (a 300-page PDF grew past 2 GB).
 */
interface DocState { reading: number; since: number; cleaning: Promise<void> | null; wake: (() => void)[] }
const states = new WeakMap<PdfDocument, DocState>();

function stateOf(pdf: PdfDocument): DocState {
  let st = states.get(pdf);
  if (!st) states.set(pdf, (st = { reading: 0, since: 0, cleaning: null, wake: [] }));
  return st;
}

/** Resolves once no page of the document is being read or cleaned up after (before the document is used otherwise: OCR). */
export async function pagesIdle(pdf: PdfDocument): Promise<void> {
  const st = states.get(pdf);
  while (st?.cleaning) await st.cleaning;
}

export async function readPage(pdf: PdfDocument, task: PageTask): Promise<PageResult> {
  const st = stateOf(pdf);
  while (st.cleaning || (st.since >= CLEANUP_EVERY && st.reading > 0)) {
    if (st.cleaning) await st.cleaning;
    else await new Promise<void>(resolve => st.wake.push(resolve));
  }
  st.reading++;
  try {
    return await readOne(pdf, task);
  } finally {
    st.reading--;
    st.since++;
    if (st.reading === 0 && st.since >= CLEANUP_EVERY) {
      st.since = 0;
      // Fonts go too (they load again with the next page that uses them, the same); a document
      // still drawn elsewhere refuses, and is cleaned up another time.
      // What pdf.js let go of is collected now, not when V8's heap has grown a few times over.
      st.cleaning = pdf.cleanup().catch(() => undefined).finally(() => { collectGarbage(); st.cleaning = null; });
    }
    for (const wake of st.wake.splice(0)) wake();
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
      result.text = await readPageText(page, task.page, task.size, task.mathFonts, task.root, task.scanFile, task.file);
    } catch (e) {
      result.textError = (e as Error).message;
    }
    if (task.image && !repeatsEarlier(task.sha256, task.page, result.text?.fingerprint)) {
      if (fs.existsSync(task.image)) result.image = 'cached';
      else {
        let png: Buffer | null = null;
        try {
          png = await renderPage(page, task.dpi);
        } catch (e) {
          result.renderError = (e as Error).message;
        }
        if (png) {
          const tmp = `${task.image}.${process.pid}.${task.page}.tmp`;
          try {
            fs.writeFileSync(tmp, png);
            fs.renameSync(tmp, task.image);
            result.image = 'rendered';
          } catch (e) {
            // A full disk: no half-written image left behind, and the error names the file.
            fs.rmSync(tmp, { force: true });
            result.writeError = (e as Error).message;
          }
        }
      }
    }
  } finally {
    releasePage(page);
  }
  return result;
}
