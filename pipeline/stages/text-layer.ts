// text-layer: every text run of every page with its position, size and font; formula runs in an
// equation font decoded through the template's font tables (private-use code points → characters);
// CJK radical code points read as the ideographs they look like; a legacy 8-bit font (Latin codes
// for another script's glyphs) found by what its text is, its runs marked and reported;
// page furniture (running heads, page numbers, copyright line, form marks) set aside; and the
// section a page's own heading names (e.g. an elective), read before the heading is set aside.
import type { PageInfo, PaperDocument, Span } from '../document.ts';
import { centerY, contains, height, width } from '../document.ts';
import { DocumentError } from '../diagnostics.ts';
import type { RawSpan } from '../providers/pdf.ts';
import { Ahead } from '../ocr/ahead.ts';
import { ocrPage } from '../ocr/page-ocr.ts';
import { pageLanguage } from '../ocr/paper-language.ts';
import { readsOtherScript, writesOwnDigits } from '../ocr/script-lang.ts';
import { ocrPool } from '../providers/ocr.ts';
import { readPages } from '../pages/paper.ts';
import { pagesIdle } from '../pages/read.ts';
import { needPdf, type Stage } from '../stage.ts';
import type { Template } from '../template.ts';
import { dropOverprint } from '../text/overprint.ts';
import { decodeSpan } from '../text/font-decode.ts';
import { findBody } from '../text/body.ts';
import { MIN_TEXT, textLength, unicodeMathFonts, type PageText } from '../text/page-text.ts';
import { closingNotice, setApart } from '../text/notice.ts';
import { aloneOnLine, isMarginFurniture } from '../text/margins.ts';
import { paperFurniture } from '../text/furniture.ts';
import { readCover, satOf } from '../text/cover.ts';
import { radicalTable, unifyRadicals } from '../text/cjk-radicals.ts';
import { unshapeArabic } from '../text/presentation-forms.ts';
import { legacyFonts } from '../text/legacy-font.ts';
import { gradeTables, setApartGradeTable } from '../text/grade-table.ts';

// The page-by-page reading lives with the text readers (any lane reads it: pipeline/pages/).
export { MIN_TEXT, textLength, unicodeMathFonts };
export { decodeSpan };

export function textLayerStage(): Stage {
  return {
    name: 'text-layer',
    kind: 'processor',
    async run(doc: PaperDocument, ctx) {
      const pdf = needPdf(ctx);
      const t = doc.template;
      let glyphs = 0;
      const read: Span[][] = [];
      // The template's languages; else those asked for (OCR_LANG); else those of the paper's script,
      // found on its first page without text (register may have found them reading the cover).
      let lang = t.ocrLang ?? ctx.config.ocrLang ?? doc.ocrLanguage?.lang ?? null;
      if (lang && lang === doc.ocrLanguage?.lang) doc.messages.info('text-layer/ocr-language', `pages without text read as ${doc.ocrLanguage.script} (${lang}): the script of the cover, as register read it`, { page: 1, stage: 'text-layer' });
      // Each page's text layer first, in order; a page without one is read from its pixels, the next
      // pages taken out and cut while the recogniser still reads this one (Ahead).
      const unreadable = (n: number, e: unknown) => new DocumentError('text-layer/page-unreadable', `page ${n}: the text layer cannot be read (${(e as Error).message})`, n);
      const layers: Promise<RawSpan[]>[] = [];
      const ahead = new Ahead();
      const unicodeMathOf = new Map<number, Set<string>>();
      const turnedText: string[] = [];
      // Each page as rasterize's task read it (or read here, with no image, where rasterize did not run).
      const reads = ctx.pageReads ?? readPages(doc, ctx, () => null);
      ctx.pageReads = undefined;
      for (const [i, page] of doc.pages.entries()) {
        const r = await reads[i]!;
        reads[i] = undefined;
        // A page that repeats an earlier one is not read (stages/repeats.ts): it holds nothing.
        if (page.repeatOf) {
          layers.push(Promise.resolve([]));
          continue;
        }
        if (r.changed) throw new DocumentError('register/changed', 'the file changed after it was listed', page.number);
        if (r.crash) throw new DocumentError('worker/crash', r.crash, page.number);
        if (r.textError !== undefined || !r.text) throw unreadable(page.number, new Error(r.textError));
        const text: PageText = r.text;
        page.shapes = text.shapes;
        // Text set at an angle is no line of the body (a margin notice turned upright, an axis label).
        turnedText.push(...text.turned);
        if (text.turned.length) doc.messages.info('text-layer/rotated-text', `text set at an angle left out of the body: ${[...new Set(text.turned.map(t => JSON.stringify(t.trim())))].join(' ').slice(0, 120)}`, { page: page.number, stage: 'text-layer' });
        const unicodeMath = new Set(text.unicodeMath);
        unicodeMathOf.set(page.number, unicodeMath);
        if (text.hiddenTexts.length) doc.messages.info('text-layer/hidden-text', `text with no visible glyph left out: ${text.hiddenTexts.map(t => JSON.stringify(t)).join(' ').slice(0, 120)}`, { page: page.number, stage: 'text-layer' });
        const raw = text.raw;
        const picture = text.picture;
        if (textLength(raw) >= MIN_TEXT) {
          layers.push(Promise.resolve(raw));
          continue;
        }
        // No usable text layer: read the page from its pixels. A picture as large as the page is
        // the scan itself, not a figure.
        let p;
        try {
          await pagesIdle(pdf);
          p = await pdf.getPage(page.number);
        } catch (e) {
          throw unreadable(page.number, e);
        }
        // A page whose band tells no script (a blank page, a drawing) is read in Latin's languages,
        // and the next page without text is asked again.
        let pageLang = lang;
        if (!pageLang) {
          const chosen = await pageLanguage(p, page, ctx.config.ocrScripts, picture ?? undefined).catch(e => { throw unreadable(page.number, e); });
          pageLang = chosen.lang;
          if (chosen.found) {
            doc.ocrLanguage = chosen.found;
            lang = chosen.found.lang;
            doc.messages.info('text-layer/ocr-language', `pages without text read as ${chosen.found.script} (${lang}): the script of the inkiest band of page ${page.number}`, { page: page.number, stage: 'text-layer' });
          }
        }
        const pool = ocrPool(pageLang);
        const { reading } = await ahead.start(() => ocrPage(p, page.number, page, pool, ctx.config.ocrDpi, { markers: t.options.markers, numberIndent: t.numbering.indentTolerance, picture: picture ?? undefined, digits: writesOwnDigits(pageLang) ? ocrPool('eng') : undefined, latin: readsOtherScript(pageLang) ? ocrPool('eng') : undefined }).then(read => {
          page.shapes = [...page.shapes.filter(s => !(s.kind === 'image' && width(s.bbox) * height(s.bbox) > page.width * page.height * 0.5)), ...read.shapes];
          page.ocr = true;
          page.inkBody = read.moved;
          if (read.skew) doc.messages.info('text-layer/askew', `the scan is ${Math.abs(read.skew).toFixed(2)}° askew (${read.skew > 0 ? 'clockwise' : 'anticlockwise'}): its lines' starts are measured along its leaning column edges`, { page: page.number, stage: 'text-layer' });
          // The columns its ink shows and where they start: layout reads the page by them.
          page.columns = read.columns;
          if (read.columns.length > 1) page.columnsTop = read.top;
          doc.counters.pagesOcr = (doc.counters.pagesOcr ?? 0) + 1;
          return read.spans;
        }, e => { throw unreadable(page.number, e); }));
        layers.push(reading);
      }
      const radicals = radicalTable(ctx.config.root);
      for (const [i, page] of doc.pages.entries()) {
        let raw = await layers[i];
        const unknown = new Set<number>();
        let unified = 0;
        let unshaped = 0;
        const painted = raw.length;
        raw = dropOverprint(raw);
        if (raw.length < painted) doc.counters.overprinted = (doc.counters.overprinted ?? 0) + painted - raw.length;
        const spans: Span[] = raw.map(r => {
          const d = decodeSpan(r, t);
          d.unknown.forEach(cp => unknown.add(cp));
          const u = unifyRadicals(d.text, radicals);
          unified += u.replaced;
          const letters = unshapeArabic(u.text);
          unshaped += letters.replaced;
          return { page: page.number, text: letters.text, bbox: r.bbox, baseline: r.baseline, size: r.size, font: r.font, math: d.math || !!unicodeMathOf.get(page.number)?.has(r.font), ...(r.bold ? { bold: true } : {}) };
        }).filter(s => s.text.trim()); // a run of spaces set as control characters is no text
        if (unified) doc.messages.info('text-layer/cjk-radicals', `${unified} CJK radical code points (U+2E80–U+2FDF) read as the ideographs they print (⼤ as 大)`, { page: page.number, stage: 'text-layer' });
        if (unshaped) doc.messages.info('text-layer/arabic-forms', `${unshaped} Arabic presentation forms (U+FB50–U+FEFC) read as the letters they shape (ﺣ as ح)`, { page: page.number, stage: 'text-layer' });
        if (unknown.size) {
          doc.messages.warn('text-layer/unknown-glyph', `code points with no entry in the font table: ${[...unknown].map(c => 'U+' + c.toString(16).toUpperCase()).join(' ')}`, { page: page.number, stage: 'text-layer' });
        }
        glyphs += spans.reduce((n, s) => n + [...s.text].length, 0);
        clampGiants(spans, page.number, doc);
        read.push(spans);
      }
      markLegacyFonts(doc, read);
      // Furniture once every page is read: what repeats in the margins is told by the other pages.
      const found = paperFurniture(doc.pages.map((p, i) => {
        const body = findBody(p, p.shapes, t.layout?.columns !== 1);
        return { width: p.width, height: p.height, spans: read[i], ocr: p.ocr, ruled: body.ruleX === null ? undefined : body };
      }), t.re.furniture);
      doc.pages.forEach((page, i) => {
        const kept = splitFurniture(page, read[i], t, found);
        if (kept.length) doc.messages.info('text-layer/margin-text', `text in the page's margin read as body (not repeated at its place on other pages, not a page number, header or footer): "${kept.map(s => s.text).join(' ').slice(0, 60)}"`, { page: page.number, stage: 'text-layer' });
      });
      setApartClosingNotices(doc);
      for (const page of doc.pages) {
        for (const frame of gradeTables(page)) {
          const moved = setApartGradeTable(page, frame);
          doc.messages.info('text-layer/grade-table', `a grading table (rows 1…n with marks, a total) set apart: "${moved.map(s => s.text).join(' ').slice(0, 60)}"`, { page: page.number, stage: 'text-layer' });
        }
      }
      fillFromHeaders(doc, turnedText);
      if (glyphs === 0) {
        throw new DocumentError('text-layer/no-text', 'no page has text, in its text layer or by OCR');
      }
      doc.exam.electives = [...new Set(doc.pages.map(p => p.section).filter((s): s is string => !!s && s !== t.sections.default))];
    },
  };
}

/**
 * Runs of a legacy 8-bit font (its text no language: Latin codes standing for Devanagari or
 * another script's glyphs) marked `legacy`, one warning per font naming its pages. Fonts are judged
 * over the whole paper; formula fonts and OCR text are not weighed.
 */
export function markLegacyFonts(doc: PaperDocument, pages: readonly Span[][]): void {
  const runs = pages.flat().filter(s => !s.math && s.font !== 'ocr');
  for (const [font, e] of legacyFonts(runs)) {
    const mine = runs.filter(s => s.font === font);
    mine.forEach(s => { s.legacy = true; });
    const on = [...new Set(mine.map(s => s.page))];
    doc.messages.warn('text-layer/legacy-font', `text in a legacy 8-bit font, not readable as printed: ${e.odd} of its ${e.words} words are spelled as no language (${e.examples.map(w => JSON.stringify(w)).join(' ')}), Latin codes standing for another script's glyphs; pages ${on.join(', ')}`, { page: on[0], stage: 'text-layer' });
  }
}

/**
 * What the cover leaves unsaid (year, form, sitting, session) may be printed in every page's head
 * or foot (PAES: `FORMA 113 – 2025`): read from the furniture of all pages, it fills only what is
 * still null.
 */
export function fillFromHeaders(doc: PaperDocument, turned: readonly string[] = []): void {
  const e = doc.exam;
  if (!e || (e.year !== null && e.form !== null && e.sitting !== null && e.session !== null)) return;
  // Text set at an angle in the margins (ENEM's `ENEM 2022` up the page's side) is a running head too.
  const heads = [...doc.pages.flatMap(p => p.furniture.map(s => s.text)), ...new Set(turned.map(t => t.trim()))].join('\n');
  if (!heads.trim()) return;
  const read = readCover(doc.template, heads);
  const filled: string[] = [];
  for (const k of ['year', 'form', 'sitting', 'session'] as const) {
    if (e[k] !== null || read[k] === null) continue;
    (e as unknown as Record<string, unknown>)[k] = read[k];
    filled.push(`${k} ${read[k]}`);
  }
  if (filled.length) e.sat = satOf(doc.template, e.year, e.sitting);
  if (filled.length) doc.messages.info('text-layer/header-metadata', `read from the running heads, not the cover: ${filled.join(', ')}`, { stage: 'text-layer' });
}

/**
 * The boxed notice at the end of each section (and of the paper) is furniture: on the last page of
 * a section, a frame across the last column with nothing of the body below it.
 */
export function setApartClosingNotices(doc: PaperDocument): void {
  doc.pages.forEach((page, i) => {
    const next = doc.pages[i + 1];
    if (next && next.section === page.section) return;
    const frame = closingNotice(page, findBody(page, page.shapes, doc.template.layout?.columns !== 1).ruleX);
    if (!frame) return;
    const moved = setApart(page, frame);
    doc.messages.info('text-layer/closing-notice', `a boxed notice closes the section (${moved.length} runs set apart): "${moved.map(s => s.text).join(' ').slice(0, 60)}"`, { page: page.number, stage: 'text-layer' });
  });
}

/**
 * A glyph whose text matrix makes it many times the page's type size (a word processor's broken
 * scale) would swallow every line beside it: it is set back to the page's body size on its baseline.
 */
export function clampGiants(spans: Span[], pageNumber: number, doc: PaperDocument): void {
  const sizes = spans.map(s => s.size).sort((a, b) => a - b);
  const body = sizes[Math.floor(sizes.length / 2)] ?? 0;
  for (const s of spans) {
    if (!body || s.size < body * 5 || [...s.text.trim()].length > 3) continue;
    doc.messages.info('text-layer/giant-glyph', `"${s.text}" set at ${s.size.toFixed(0)} pt on a page of ${body.toFixed(0)} pt text: taken at body size`, { page: pageNumber, stage: 'text-layer' });
    s.size = body;
    s.bbox = [s.bbox[0], s.baseline - body, Math.min(s.bbox[2], s.bbox[0] + body * [...s.text.trim()].length), s.baseline + body * 0.2];
  }
}

/** Points a word read by OCR may reach past the frame it stands in. */
const FRAME_PAD = 2;

/**
 * Sort a page's spans into body and furniture, and read the page's section heading from its head.
 * `found` holds what the paper as a whole sets aside (`paperFurniture`: running heads and footers,
 * page numbers, a browser's header and footer). On a page with no column rule, the rest of the
 * margin text that is not furniture by what it is (a page number, a template pattern) stays in
 * the body, and the body grows to hold it. Returns those spans.
 */
export function splitFurniture(page: PageInfo, spans: Span[], t: Template, found: ReadonlyMap<Span, string> = new Map()): Span[] {
  let body = findBody(page, page.shapes, t.layout?.columns !== 1);
  // A column rule bounds the body where the body lies along it. A page whose column rules run past
  // no text of its own (a key or a closing page set across the top of an empty two-column grid)
  // has its body where that text is: it is bounded by the page's margins, as an unruled page is.
  const along = (s: Span) => !found.has(s) && s.text.trim() && centerY(s.bbox) >= body.y0 && centerY(s.bbox) <= body.y1;
  if (body.ruleX !== null && !page.ocr && !spans.some(along)) body = findBody(page, page.shapes, false);
  // On a page read by OCR, the body reaches as far as its pixels were cut (a line the page's share
  // edge cut through is the body's, whole).
  if (page.inkBody) body = { ...body, y0: Math.min(body.y0, page.inkBody.y0 ?? Infinity), y1: Math.max(body.y1, page.inkBody.y1 ?? -Infinity) };
  page.body = { y0: body.y0, y1: body.y1 };
  page.spans = [];
  page.furniture = [];
  page.section = t.sections.default;
  const margin = page.height * 0.12;
  const head: Span[] = [];
  const keptInMargin: Span[] = [];
  // A lone number's line mates: what the paper has not set aside already.
  const mates = spans.filter(o => !found.has(o));
  // On a page read by OCR the margins' text is furniture (a running head OCR reads a little
  // differently on each page repeats on none), but for text in a frame: a boxed heading (a subject's
  // name atop each of its pages) is the body's.
  const framed = (s: Span) => page.shapes.some(f => f.kind === 'rect' && contains(f.bbox, s.bbox, FRAME_PAD));
  const inMargin = (s: Span) => centerY(s.bbox) < body.y0 || centerY(s.bbox) > body.y1;
  const keeps = (s: Span) => inMargin(s) && !found.has(s) && body.ruleX === null && (!page.ocr || framed(s)) && !isMarginFurniture(s, t.re.furniture, mates);
  // The body grows to hold what it keeps in a margin, and holds what else lies level with it: the
  // first line of the next column beside a boxed heading set high on a scan (an A3 page's `Phần A`,
  // its `15 Giá trị …` lost as a running head where the page's share of its height cut them off).
  const held = spans.filter(keeps);
  const grown = held.length ? { y0: Math.min(body.y0, ...held.map(s => s.bbox[1])), y1: Math.max(body.y1, ...held.map(s => s.bbox[3])) } : body;
  // (What it keeps lies within the grown body: `level` holds it too.)
  const level = (s: Span) => centerY(s.bbox) >= grown.y0 && centerY(s.bbox) <= grown.y1 && !found.has(s) && !isMarginFurniture(s, t.re.furniture, mates);
  for (const s of spans) {
    const cy = centerY(s.bbox);
    const byPaper = found.has(s);
    let outside = inMargin(s);
    if (outside && level(s)) {
      outside = false;
      keptInMargin.push(s);
    }
    const nearEdge = cy < margin || cy > page.height - margin;
    const furniture = outside || byPaper || (nearEdge && t.re.furniture.some(re => re.test(s.text)) && aloneOnLine(s, mates)) || t.re.anywhere.some(re => re.test(s.text));
    if (!furniture) { page.spans.push(s); continue; }
    page.furniture.push(s);
    if (cy < body.y0 || cy < margin) head.push(s);
  }
  // The heading may come in pieces (`(확률과` `통계)`): read the running head as one text.
  const headText = head.sort((a, b) => a.baseline - b.baseline || a.bbox[0] - b.bbox[0]).map(s => s.text.trim()).join(' ');
  // OCR spaces Hangul out letter by letter (`확 률 과`) and misreads a letter here and there (`획률과`):
  // there the head is also read with no spaces, and a section's label found with one letter wrong.
  const squeezed = headText.replace(/\s+/g, '');
  const heading = t.re.sections.find(h => h.re.test(headText) || head.some(s => h.re.test(s.text.trim())))
    ?? (page.ocr ? t.re.sections.find(h => h.re.test(squeezed)) ?? t.re.sections.find(h => nearlyContains(squeezed, h.label.replace(/\s+/g, ''))) : undefined);
  if (heading) page.section = heading.id;
  const kept = keptInMargin.filter(s => page.spans.includes(s));
  if (kept.length) {
    // Columns OCR found from the top of the body (no head set across them) start where it now does.
    if (page.columnsTop !== undefined && page.columnsTop <= body.y0 + COLUMNS_AT_TOP) page.columnsTop = Math.min(page.columnsTop, ...kept.map(s => s.bbox[1]));
    page.body = { y0: Math.min(page.body.y0, ...kept.map(s => s.bbox[1])), y1: Math.max(page.body.y1, ...kept.map(s => s.bbox[3])) };
  }
  return kept;
}

/** Columns OCR found starting within this many points of the body's top start at its top: no head stands over them. */
const COLUMNS_AT_TOP = 2;

/** Whether `text` holds `label` with at most one letter different (labels of three letters or more). */
export function nearlyContains(text: string, label: string): boolean {
  const a = [...text], b = [...label];
  if (b.length < 3) return text.includes(label);
  for (let i = 0; i + b.length <= a.length; i++) {
    let wrong = 0;
    for (let j = 0; j < b.length && wrong <= 1; j++) if (a[i + j] !== b[j]) wrong++;
    if (wrong <= 1) return true;
  }
  return false;
}
