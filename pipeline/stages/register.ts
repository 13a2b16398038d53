// register: content hash, page count, the template that fits, and what the paper says about
// itself on its cover (year, sitting, session, subject, form).
import crypto from 'node:crypto';
import { DocumentError } from '../diagnostics.ts';
import { openPdf, pageShapes, pageSize, pageSpans, PdfOpenError } from '../providers/pdf.ts';
import type { Stage } from '../stage.ts';
import { pickTemplate } from '../template.ts';
import { ocrPage } from '../ocr/page-ocr.ts';
import { pageLanguage } from '../ocr/paper-language.ts';
import { ocrPool } from '../providers/ocr.ts';
import { isScan, scanImage } from '../providers/scan.ts';
import { MIN_TEXT } from '../text/page-text.ts';
import { readCover } from '../text/cover.ts';
import { withGapsClosed } from '../text/ocr-gaps.ts';

// The cover reader lives with the text readers (text-layer reads running heads with it too).
export { readCover };

export function registerStage(): Stage {
  return {
    name: 'register',
    kind: 'processor',
    async run(doc, ctx) {
      doc.sha256 = crypto.createHash('sha256').update(doc.bytes).digest('hex');
      try {
        ctx.pdf = await openPdf(doc.bytes);
      } catch (e) {
        if (e instanceof PdfOpenError) throw new DocumentError(`register/${e.reason}`, e.message);
        throw e;
      }
      doc.pageCount = ctx.pdf.numPages;
      if (doc.pageCount < 1) throw new DocumentError('register/no-pages', 'the PDF has no pages');
      for (let n = 1; n <= doc.pageCount; n++) {
        let size;
        try {
          size = pageSize(await ctx.pdf.getPage(n));
        } catch (e) {
          throw new DocumentError('register/page-unreadable', `page ${n} cannot be read (${(e as Error).message})`, n);
        }
        doc.pages.push({ number: n, ...size, body: { y0: 0, y1: size.height }, columns: [], section: null, spans: [], shapes: [], furniture: [] });
      }
      // Cover text: the first page's text layer (fonts load with the operator list).
      let coverText = '';
      try {
        const page = await ctx.pdf.getPage(1);
        const shapes = await pageShapes(page, 1);
        coverText = (await pageSpans(page)).map(s => s.text).join(' ');
        if (coverText.replace(/\s/g, '').length < MIN_TEXT) {
          // No text layer on the cover (a scan): read it by OCR. Text-layer reads it again with the
          // template's option markers once the template is known; what OCR found is kept for it.
          const picture = isScan(shapes, doc.pages[0]) ? await scanImage(doc.file, 1) ?? undefined : undefined;
          // Read in the language of the script it is written in (no template is known yet to say).
          let lang = ctx.config.ocrLang;
          if (!lang) {
            const chosen = await pageLanguage(page, doc.pages[0], ctx.config.ocrScripts, picture);
            if (chosen.found) doc.ocrLanguage = chosen.found;
            lang = chosen.lang;
          }
          const read = await ocrPage(page, 1, doc.pages[0], ocrPool(lang), ctx.config.ocrDpi, { markers: [], keep: true, picture });
          coverText = read.spans.map(s => s.text).join(' ');
        }
      } catch (e) {
        throw new DocumentError('register/page-unreadable', `page 1 cannot be read (${(e as Error).message})`, 1);
      }
      // OCR tends to set syllables and ideographs apart (대 학 수 학): match the cover with and without those gaps.
      coverText = withGapsClosed(coverText);
      const template = pickTemplate(ctx.templates, coverText, ctx.config.template);
      if (!template) {
        throw new DocumentError('register/no-template', `no template in templates/ fits this paper's cover text; name one with TEMPLATE= (there are: ${ctx.templates.map(t => t.id).join(', ')})`, 1);
      }
      doc.template = template;
      doc.cover = coverText;
      doc.exam = readCover(template, coverText);
      if (doc.exam.year === null) doc.messages.warn('register/no-year', 'the cover names no school year', { page: 1, stage: 'register' });
    },
  };
}
