// answers: the official key beside the paper (`<stem>-answer.<csv|png|jpg|pdf>`) joined to the
// questions by section and number. Every conflict becomes a diagnostic — a key entry with no
// question, a circled answer on a short-answer item, a plain number on a multiple-choice one, a
// question the key leaves out, points that disagree — and no answer is guessed.
import fs from 'node:fs';
import path from 'node:path';
import type { PaperDocument, Question } from '../document.ts';
import { loadGray, renderGray } from '../pixels/gray.ts';
import { readKeyImage, type KeyReading } from '../keys/image-key.ts';
import { readKeyTablePage, type TableKeyPage } from '../keys/key-table.ts';
import { parseTextKey } from '../keys/text-key.ts';
import { readWorkedKey, type KeyLine } from '../keys/worked-key.ts';
import { sectionInHeading, sectionNamed, sectionOf } from '../keys/sections.ts';
import { openPdf, pageGraphics, pageSpans, renderPage, type PdfDocument } from '../providers/pdf.ts';
import { ocrPool } from '../providers/ocr.ts';
import type { Stage } from '../stage.ts';
import type { Template } from '../template.ts';
import { parseCsv } from '../text/csv.ts';
import { dropHidden } from '../text/hidden.ts';
import { lineText, rawText } from '../text/line-text.ts';
import { buildLines } from './layout.ts';
import { decodeSpan } from './text-layer.ts';

export const KEY_EXTENSIONS = ['csv', 'png', 'jpg', 'jpeg', 'pdf'];

export interface Answer {
  section: string | null;
  number: number;
  /** As printed: a digit for a circled option, else the value. */
  value: string;
  /** Printed as a circled option (①–⑤): true; as a plain value: false; null where the key cannot tell (a CSV digit). */
  choice: boolean | null;
  points: number | null;
  /** What the key marks besides the answer (`pilot`, `annulled`). */
  flags?: string[];
  /** The sub-part the answer belongs to (`(a)`), where the key answers part by part. */
  part?: string;
}

/** The key beside a paper: `<stem>-answer.<ext>`, or the file the template pairs by name (`_qp_` → `_ms_`). */
export function keyFileFor(paperPath: string, t?: Template): string | null {
  const stem = paperPath.replace(/\.pdf$/i, '');
  for (const ext of KEY_EXTENSIONS) for (const e of [ext, ext.toUpperCase()]) if (fs.existsSync(`${stem}-answer.${e}`)) return `${stem}-answer.${e}`;
  const base = path.basename(paperPath);
  for (const p of t?.answers?.pairs ?? []) {
    if (!base.includes(p.paper)) continue;
    const other = path.join(path.dirname(paperPath), base.replace(p.paper, p.key));
    if (fs.existsSync(other)) return other;
  }
  return null;
}

/** Whether the pipeline reads answers out of a key file: a table key, not a paired worked mark scheme. */
function isReadableKey(file: string, t: Template): boolean {
  return /-answer\.[a-z]+$/i.test(file) || !!t.answers?.keyText;
}

/**
 * Answers the paper prints after its questions: runs of `7.D 8.A`, and `【答案】D` under a
 * question the paper repeats with its solution (the number it repeats says which).
 */
export function inlineAnswers(doc: PaperDocument): Answer[] {
  const spec = doc.template.answers?.inline;
  if (!spec || !doc.tail.length) return [];
  const pair = spec.pair ? new RegExp(spec.pair, 'gu') : null;
  const marker = spec.marker ? new RegExp(spec.marker, 'u') : null;
  const found = new Map<number, string>();
  let current: number | null = null;
  for (const line of doc.tail) {
    const text = rawText(line.spans);
    const numbered = doc.template.re.numbering.exec(text);
    if (numbered) current = Number(numbered[1]);
    const pairs = pair ? [...text.matchAll(pair)] : [];
    // A key line is a run of pairs (7.D 8.A …), not one question opening with a letter.
    if (pairs.length >= 2) for (const m of pairs) if (!found.has(Number(m[1]))) found.set(Number(m[1]), m[2]);
    const given = marker?.exec(text);
    if (given && current !== null && !found.has(current)) found.set(current, given[1]);
  }
  return [...found].map(([number, value]) => ({ section: null, number, value, choice: true, points: null }));
}

const CIRCLED = '①②③④⑤⑥⑦⑧⑨⑩';

function fromCsv(file: string, t: Template, doc: PaperDocument): Answer[] {
  return parseCsv(fs.readFileSync(file, 'utf8')).map(r => {
    const raw = (r.answer ?? '').trim();
    const circled = CIRCLED.indexOf(raw);
    const section = r.section ? sectionOf(r.section, t) : t.sections.default;
    if (r.section && !section) doc.messages.warn('answers/unknown-section', `the key names a section "${r.section}" this template does not know`, { stage: 'answers' });
    return { section, number: Number(r.number), value: circled >= 0 ? String(circled + 1) : raw, choice: circled >= 0 ? true : null, points: r.points ? Number(r.points) : null };
  });
}

/** `report`: whether this reading's problems become diagnostics (a key read several times reports once). */
async function fromImage(input: string | Buffer, t: Template, doc: PaperDocument, report = true, read?: Promise<KeyReading>): Promise<Answer[]> {
  const reading = await (read ?? readKeyImage(input, ocrPool('eng'), ocrPool(t.answers?.ocrLang ?? 'eng')));
  if (report) for (const p of reading.problems) doc.messages.warn('answers/unreadable', `answer key: ${p}`, { stage: 'answers' });
  if (report) for (const n of reading.notes) doc.messages.info('answers/number-misread', `answer key: ${n}`, { stage: 'answers' });
  const electives = doc.exam.electives;
  const sections = new Map<number, string | null>();
  for (const e of reading.entries) {
    if (sections.has(e.table)) continue;
    let section = sectionInHeading(e.heading, t);
    if (!section && e.table === 0) section = t.sections.default;
    if (!section && electives.length === 1) {
      section = electives[0];
      if (report) doc.messages.info('answers/heading-unread', `key table ${e.table + 1} heading "${e.heading}" names no section; it is the booklet's one elective`, { stage: 'answers' });
    }
    sections.set(e.table, section);
  }
  return reading.entries.map(e => ({ section: sections.get(e.table) ?? null, number: e.number, value: e.answer, choice: e.circled, points: null }));
}

/** Resolutions a key PDF is read at; each item keeps the answer most readings agree on. */
const KEY_DPIS = [100, 150, 200];
/** A key table of triples is read once, fine enough that a thin ring around ③ stays whole. */
const TABLE_DPI = 200;

/** Which form (홀수형 → odd) a key page's title names: a template form pattern it matches, or null. */
function formOfTitle(title: string, t: Template): string | null {
  const text = `${title} ${title.replace(/(?<=\p{Script=Hangul})\s+(?=\p{Script=Hangul})/gu, '')}`;
  return t.cover.forms?.find(f => new RegExp(f.pattern, 'u').test(text))?.id ?? null;
}

/**
 * The pages of a table key that belong to this paper. A key printed once per form (홀수형 on one
 * page, 짝수형 on the next) is read on the page of the booklet's form; where OCR misread the form
 * mark, the one page whose form is unread stands for the form no other page names.
 */
function pagesOfForm(pages: TableKeyPage[], t: Template, doc: PaperDocument, keyName: string): TableKeyPage[] {
  const forms = pages.map(p => formOfTitle(p.title, t));
  if (forms.every(f => f === null)) return pages;
  const form = doc.exam.form;
  if (!form) {
    if (pages.length === 1) return pages;
    doc.messages.warn('answers/form-unknown', `${keyName} has a page per form (${forms.map(f => f ?? '?').join(', ')}) and the paper's cover names none; the first page is read`, { stage: 'answers' });
    return pages.slice(0, 1);
  }
  const own = pages.filter((_, i) => forms[i] === form);
  if (own.length) return own;
  const unread = pages.filter((_, i) => forms[i] === null);
  if (unread.length === 1) {
    doc.messages.info('answers/form-inferred', `${keyName}: no page names the form ${form} as read; the page whose form mark is unread ("${unread[0].title}") is taken for it`, { stage: 'answers' });
    return unread;
  }
  // A key of another form gives other options: no answer is guessed from it.
  doc.messages.warn('answers/form-missing', `${keyName} has pages for ${forms.map(f => f ?? '?').join(', ')}, none for this paper's form ${form}`, { stage: 'answers' });
  return [];
}

/** Answers from table pages: each column group's section from the nearest heading cell that names one. */
function fromTablePages(pages: TableKeyPage[], t: Template, doc: PaperDocument, keyName: string): Answer[] {
  const out: Answer[] = [];
  for (const page of pagesOfForm(pages, t, doc, keyName)) {
    for (const p of page.problems) doc.messages.warn('answers/unreadable', `answer key: ${p}`, { stage: 'answers' });
    for (const n of page.notes) doc.messages.info('answers/number-misread', `answer key: ${n}`, { stage: 'answers' });
    const unnamed = new Set<string>();
    for (const e of page.entries) {
      let section: string | null = null;
      for (const h of e.headings) if ((section = sectionNamed(h, t))) break;
      if (!section && !e.headings.length) section = t.sections.default;
      if (!section) unnamed.add(e.headings.join(' / '));
      out.push({ section, number: e.number, value: e.answer, choice: e.circled, points: e.points });
    }
    for (const h of unnamed) doc.messages.warn('answers/heading-unread', `${keyName}: the heading "${h}" names no section of this template; its items are joined by number alone`, { stage: 'answers' });
  }
  return out.sort((a, b) => (a.section ?? '').localeCompare(b.section ?? '') || a.number - b.number);
}

/** The key's text, line by line from every page: plain characters and text with formulas; empty without a text layer. */
async function keyLines(pdf: PdfDocument, t: Template): Promise<KeyLine[]> {
  const out: KeyLine[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    // Operators first, as the text layer reads them; text no glyph of which is painted (an older
    // table left under the printed one) is not the key a reader sees.
    const hidden = (await pageGraphics(page, n)).hidden;
    const spans = dropHidden(await pageSpans(page), hidden).kept.map(r => {
      const d = decodeSpan(r, t);
      return { page: n, text: d.text, bbox: r.bbox, baseline: r.baseline, size: r.size, font: r.font, math: d.math };
    });
    out.push(...buildLines(spans, n, 0).map(l => ({ raw: rawText(l.spans), text: lineText(l.spans) })));
  }
  return out;
}

/**
 * A worked key (the paper again, each part followed by its solution): the value each solution ends
 * on, for the parts that ask for one. Null where the key is not a copy of this paper.
 */
function fromWorkedKey(lines: KeyLine[], doc: PaperDocument, keyName: string): Answer[] | null {
  const paper = doc.questions.map(q => {
    const first = q.lines[0] ? rawText(q.lines[0].spans.filter(s => !q.anchor.includes(s))) : '';
    return { number: q.number, opening: first.replace(/^[\s.．、)]+/u, '') };
  });
  const entries = readWorkedKey(lines, doc.template, paper);
  if (!entries) return null;
  const out: Answer[] = [];
  for (const e of entries) {
    const q = doc.questions.find(x => x.number === e.number);
    const part = e.part === null ? null : q?.parts.find(p => p.label === e.part);
    // A question with parts is answered part by part: what comes before its first part is its lead.
    const asks = part ? part.type === 'short' : e.part === null && !q?.parts.length && q?.type === 'short';
    if (!q || !asks) continue;
    const where = `${e.number}${e.part ?? ''}`;
    if (e.value === null) {
      doc.messages.warn('answers/worked-unread', `${keyName}: the solution to ${where} does not end on a value (its last relation is not \`= value\`); no answer is taken from it`, { page: q.page, item: q.id, stage: 'answers' });
      continue;
    }
    out.push({ section: q.section, number: e.number, value: e.value, choice: false, points: null, ...(e.part !== null ? { part: e.part } : {}) });
  }
  doc.messages.info('answers/worked-key', `${keyName} is a worked copy of the paper: ${out.length} value(s) read from the ends of its solutions`, { stage: 'answers' });
  return out;
}

async function fromPdf(file: string, t: Template, doc: PaperDocument): Promise<Answer[]> {
  // Keys drawn as outlines (or scanned) carry no text: render and read them as images. One
  // rendering can leave a glyph ambiguous to OCR, so each page is read at several resolutions.
  const pdf = await openPdf(new Uint8Array(fs.readFileSync(file)));
  try {
    // A key with a text layer is read as text (a list of entries, or a worked copy of the paper);
    // only one without is rendered for OCR.
    const lines = await keyLines(pdf, t);
    if (lines.map(l => l.raw).join('').replace(/\s/g, '').length >= 20) {
      const entries = t.answers?.keyText ? parseTextKey(lines.map(l => l.raw), t, doc.exam.form) : [];
      if (entries.length) return entries.map(e => ({ section: e.section ?? null, number: e.number, value: e.answer, choice: true, points: null, flags: e.flags }));
      const worked = fromWorkedKey(lines, doc, path.basename(file));
      if (worked) return worked;
      if (t.answers?.keyText) {
        doc.messages.warn('answers/unreadable', `${path.basename(file)} has text, but neither entries of the form the template expects nor a worked copy of the paper`, { stage: 'answers' });
        return [];
      }
    }
    // A key drawn as a table of triples under header cells is read from those headers.
    const tables: TableKeyPage[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const read = await readKeyTablePage(await renderGray(await pdf.getPage(n), TABLE_DPI), ocrPool('eng'), ocrPool(t.answers?.ocrLang ?? 'eng'));
      if (read) tables.push(read);
    }
    if (tables.length) return fromTablePages(tables, t, doc, path.basename(file));
    const out: Answer[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const readings: Answer[][] = [];
      for (const [i, dpi] of KEY_DPIS.entries()) readings.push(await fromImage(await renderPage(page, dpi), t, doc, i === 0));
      const votes = new Map<string, { a: Answer; n: number }[]>();
      for (const a of readings.flat()) {
        const k = `${a.section}|${a.number}`;
        const list = votes.get(k) ?? [];
        const same = list.find(v => v.a.value === a.value && v.a.choice === a.choice);
        if (same) same.n++; else list.push({ a, n: 1 });
        votes.set(k, list);
      }
      for (const [k, list] of votes) {
        list.sort((x, y) => y.n - x.n);
        if (list.length > 1) doc.messages.info('answers/readings-differ', `key item ${k.replace('|', ' ')}: readings ${list.map(v => `${v.a.value}×${v.n}`).join(', ')}; kept ${list[0].a.value}`, { stage: 'answers' });
        out.push(list[0].a);
      }
    }
    return out;
  } finally {
    await pdf.destroy();
  }
}

/** What OCR reads in a key picture, as a table of triples or else as a grid: it depends on the picture and the template alone. */
interface PictureReading { table: TableKeyPage | null; grid: Promise<KeyReading> | null }
function readKeyPicture(file: string, t: Template): Promise<PictureReading> {
  return loadGray(file).then(g => readKeyTablePage(g, ocrPool('eng'), ocrPool(t.answers?.ocrLang ?? 'eng'))).then(table => ({
    table,
    grid: table ? null : readKeyImage(file, ocrPool('eng'), ocrPool(t.answers?.ocrLang ?? 'eng')),
  }));
}

/** Key pictures whose reading was started before the stage's turn (answersStage's prefetch), by paper. */
const started = new WeakMap<PaperDocument, { file: string; reading: Promise<PictureReading> }>();

export async function readKey(file: string, doc: PaperDocument): Promise<Answer[]> {
  const ext = path.extname(file).slice(1).toLowerCase();
  if (ext === 'csv') return fromCsv(file, doc.template, doc);
  if (ext === 'pdf') return fromPdf(file, doc.template, doc);
  const early = started.get(doc);
  started.delete(doc);
  const { table, grid } = await (early?.file === file ? early.reading : readKeyPicture(file, doc.template));
  if (table) return fromTablePages([table], doc.template, doc, path.basename(file));
  return fromImage(file, doc.template, doc, true, grid ?? undefined);
}

/** Join key entries to questions; conflicts are diagnostics and leave the answer unset. */
export function joinAnswers(doc: PaperDocument, answers: Answer[], keyName: string, expected: (q: Question) => boolean = () => true): void {
  const t = doc.template;
  doc.keyEntries = [...(doc.keyEntries ?? []), ...answers.map(a => ({ section: a.section, number: a.number }))];
  const find = (a: Answer) => doc.questions.find(q => q.number === a.number && (a.section === null || q.section === a.section));
  const seen = new Set<Question>();
  for (const a of answers) {
    const q = find(a);
    const where = `${a.section ?? ''} ${a.number}`.trim();
    if (!q) { doc.messages.warn('answers/no-question', `${keyName} gives an answer for ${where}, a question this paper does not have`, { stage: 'answers' }); continue; }
    seen.add(q);
    const at = { page: q.page, item: q.id, stage: 'answers' };
    if (a.part !== undefined) {
      // A part's own answer; the question's is its first part's (as its type is).
      const part = q.parts.find(p => p.label === a.part);
      if (!part) { doc.messages.warn('answers/no-part', `${keyName} gives an answer for ${where}${a.part}, a part this question does not have`, at); continue; }
      part.answer = a.value;
      if (part === q.parts[0] && q.type !== 'mcq' && q.type !== 'mcq-multi') q.answer = a.value;
      continue;
    }
    if (q.type === 'short' && a.choice === true) { doc.messages.warn('answers/choice-on-short', `${keyName} gives option ${a.value} for a short-answer question`, at); continue; }
    if (q.type === 'mcq' && a.choice === false) {
      doc.messages.warn('answers/value-on-choice', `${keyName} gives the value ${a.value} for a multiple-choice question`, at);
      continue;
    }
    for (const f of a.flags ?? []) if (!q.flags.includes(f)) q.flags.push(f);
    if (q.type === 'mcq' || q.type === 'mcq-multi') {
      // A key gives an option by its position (a digit for ③) or by its label (D, or CD for two).
      const labels = /^\d+$/.test(a.value) ? [t.options.markers[Number(a.value) - 1]] : [...a.value];
      if (labels.some(label => !label || !q.options.some(o => o.label === label))) { doc.messages.warn('answers/no-such-option', `${keyName} gives option ${a.value}, which the question does not print`, at); continue; }
      q.answer = labels.join('');
    } else q.answer = a.value;
    if (a.points !== null && q.points !== null && a.points !== q.points) doc.messages.warn('answers/points-differ', `the paper prints ${q.points} points, ${keyName} says ${a.points}`, at);
    if (a.points !== null && q.points === null) q.points = a.points;
  }
  for (const q of doc.questions) if (!seen.has(q) && expected(q)) doc.messages.warn('answers/missing', `${keyName} has no answer for this question`, { page: q.page, item: q.id, stage: 'answers' });
}

export function answersStage(): Stage {
  return {
    name: 'answers',
    kind: 'processor',
    // A key picture is read by OCR from the moment the template is known, beside the pages being
    // drawn, rather than after them: the last paper's key is not read while every other lane is idle.
    prefetch(doc) {
      const file = keyFileFor(doc.path, doc.template);
      if (!file || !/\.(png|jpe?g)$/i.test(file) || !isReadableKey(file, doc.template)) return;
      const reading = readKeyPicture(file, doc.template);
      reading.catch(() => undefined);
      started.set(doc, { file, reading });
    },
    async run(doc) {
      const file = keyFileFor(doc.path, doc.template);
      if (!file) {
        const inline = inlineAnswers(doc);
        if (inline.length) joinAnswers(doc, inline, 'the answers printed in the paper', q => q.type !== 'free');
        return;
      }
      if (!isReadableKey(file, doc.template)) {
        doc.messages.info('answers/mark-scheme', `${path.basename(file)} pairs with this paper; its worked answers are not read into records`, { stage: 'answers' });
        return;
      }
      let answers: Answer[];
      try {
        answers = await readKey(file, doc);
      } catch (e) {
        doc.messages.error('answers/key-unreadable', `${path.basename(file)} cannot be read (${(e as Error).message})`, { stage: 'answers' });
        return;
      }
      // A question answered in words (free) has no value to miss.
      joinAnswers(doc, answers, path.basename(file), q => q.type !== 'free');
    },
  };
}
