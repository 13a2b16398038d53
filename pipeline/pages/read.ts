// A page task done in this process, on an open PDF: the text layer read first (operators, then
// text: the order fonts must load in), then the page drawn from the same operator list (pdf.js
// parses the page once: providers/pdf.ts) and its PNG written under a temporary name and renamed,
// so a run killed mid-write never leaves a truncated image. Then pdf.js lets go of the page.
import fs from 'node:fs';
import { renderPage, releasePage, type PdfDocument, type PdfPage } from '../providers/pdf.ts';
import { readPageText } from '../text/page-text.ts';
import type { PageResult, PageTask } from './task.ts';

export async function readPage(pdf: PdfDocument, task: PageTask): Promise<PageResult> {
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
