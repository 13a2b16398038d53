// answers: the official key beside the paper (`<stem>-answer.<csv|png|jpg|pdf>`) joined to the
// questions by section and number. Every conflict becomes a diagnostic — a key entry with no
// question, a circled answer on a short-answer item, a plain number on a multiple-choice one, a
// question the key leaves out, points that disagree — and no answer is guessed.
import fs from 'node:fs';
import path from 'node:path';
import type { PaperDocument, Question } from '../document.ts';
import { loadGray, renderGray, type Gray } from '../pixels/gray.ts';
import { readKeyImage } from '../keys/image-key.ts';
import { readKeyTablePage, type TableKeyEntry, type TableKeyPage } from '../keys/key-table.ts';
import { parseTextKey } from '../keys/text-key.ts';
import { readWorkedKey, type KeyLine } from '../keys/worked-key.ts';
import { answerCharacters, isOptionLetter, labelKey, optionAlphabetOf, optionAnswer, shownLabel } from '../keys/option-answer.ts';
import { readGridKey, type AnswerAlphabet, type GridKeyReading } from '../keys/grid-key.ts';
import { skewAngle } from '../pixels/skew.ts';
import { sharp } from '../providers/lazy.ts';
import { ocrLanguageOf } from '../ocr/script-lang.ts';
import { paperSectionNamed, sectionInHeading, sectionNamed, sectionOf } from '../keys/sections.ts';
import { keyLineOf, pairCount, readPairKey, textLine, type KeyTextLine, type PairBlock } from '../keys/pair-key.ts';
import { joinReadings } from '../keys/two-readings.ts';
import { openPdf, pageGraphics, pageSpans, renderPage, type PdfDocument } from '../providers/pdf.ts';
import { ocrPool } from '../providers/ocr.ts';
import type { Stage } from '../stage.ts';
import type { Template } from '../template.ts';
import { keyFileFor } from '../keys/companions.ts';
import { isValueAnswer } from '../keys/value-answer.ts';
import { parseCsv } from '../text/csv.ts';
import { dropHidden } from '../text/hidden.ts';
import { lineText, rawText } from '../text/line-text.ts';
import { buildLines } from '../text/lines.ts';
import { pageDirection } from '../text/direction.ts';
import { decodeSpan } from '../text/font-decode.ts';
import { withGapsClosed } from '../text/ocr-gaps.ts';

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
  /** An option letter OCR also read the answer's glyph as (`б` for a value read `6`): the answer to a multiple-choice question. */
  alternative?: string;
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

/** The sections the paper's questions carry, in reading order. */
function paperSections(doc: PaperDocument): string[] {
  return [...new Set(doc.questions.map(q => q.section).filter((s): s is string => !!s))];
}

/**
 * The section a key's label (a CSV cell, a heading over a table) names: a section of the template
 * the paper has, else one of the paper's own sections the label names; null where it names none.
 */
export function keySection(label: string, t: Template, doc: PaperDocument): string | null {
  const own = paperSections(doc);
  const named = sectionOf(label, t) ?? sectionNamed(label, t);
  if (named && (!own.length || own.includes(named))) return named;
  return paperSectionNamed(label, own) ?? named;
}

/**
 * Sections for labels no section answers to: where the key names as many sections as the paper
 * has, in the same order, each unnamed one is the paper's section at its place.
 */
function sectionsByOrder(labels: string[], named: (string | null)[], doc: PaperDocument): (string | null)[] {
  const own = paperSections(doc);
  if (labels.length !== own.length || named.some((n, i) => n !== null && n !== own[i])) return named;
  return named.map((n, i) => n ?? own[i]);
}

function fromCsv(file: string, t: Template, doc: PaperDocument): Answer[] {
  const rows = parseCsv(fs.readFileSync(file, 'utf8'));
  const labels = [...new Set(rows.map(r => (r.section ?? '').trim()).filter(Boolean))];
  const named = sectionsByOrder(labels, labels.map(l => keySection(l, t, doc)), doc);
  const sectionOfLabel = new Map(labels.map((l, i) => [l, named[i]]));
  for (const [l, s] of sectionOfLabel) if (!s) doc.messages.warn('answers/unknown-section', `the key names a section "${l}" that neither this template nor the paper's headings know; its items are joined by number alone`, { stage: 'answers' });
  return rows.map(r => {
    const raw = (r.answer ?? '').trim();
    const circled = CIRCLED.indexOf(raw);
    const label = (r.section ?? '').trim();
    const section = label ? sectionOfLabel.get(label) ?? null : t.sections.default;
    // A circled number, or one letter of an option order (`D`), names an option; a word or a number may be a value.
    return { section, number: Number(r.number), value: circled >= 0 ? String(circled + 1) : raw, choice: circled >= 0 || isOptionLetter(raw) ? true : null, points: r.points ? Number(r.points) : null };
  });
}

/** How a key's answer says what it is: a circled option or a letter is an option; a whole number may be either; other values are values. */
function choiceOf(answer: string, circled: boolean): boolean | null {
  if (circled || /^[\p{L}\p{M}\u0640]+$/u.test(answer)) return true;
  return /^\d+$/.test(answer) ? null : false;
}

/**
 * Answers from blocks of pairs (a key of `number | answer` rows, runs of pairs, numbers over
 * answers): each block's section from the nearest heading that names one; a block under no such
 * heading continues the section of the block before it where its numbers run on, else takes the
 * paper's section at its place where the key has as many blocks as the paper has sections.
 * `report`: whether what the reading finds wrong becomes a diagnostic (not for a reading only weighed).
 */
export function fromPairBlocks(blocks: PairBlock[], t: Template, doc: PaperDocument, keyName: string, report = true): Answer[] {
  const named: (string | null)[] = blocks.map(b => {
    for (const h of b.headings) { const s = keySection(h, t, doc); if (s) return s; }
    return null;
  });
  // A heading names the section of its block's items only where they are that section's questions:
  // a key's title that repeats the paper's (its first section's heading as read) over the answers to
  // every section names none of them, and its items are joined by number alone.
  const unfit = new Set<number>();
  named.forEach((s, i) => {
    if (s === null) return;
    const numbers = blocks[i].entries.map(e => e.number);
    const inSection = numbers.filter(n => doc.questions.some(q => q.number === n && q.section === s)).length;
    const anywhere = numbers.filter(n => doc.questions.some(q => q.number === n)).length;
    if (inSection * 2 < numbers.length && anywhere > inSection * 2) { named[i] = null; unfit.add(i); }
  });
  for (let i = 1; i < blocks.length; i++) {
    if (named[i] === null && !unfit.has(i - 1) && named[i - 1] !== null && blocks[i].entries[0].number > blocks[i - 1].entries[blocks[i - 1].entries.length - 1].number) named[i] = named[i - 1];
  }
  const sections = sectionsByOrder(blocks.map((_, i) => String(i)), named, doc);
  // Where other blocks name the paper's sections, a block under a heading that names none is a
  // section the paper was not read with: its items are not joined to another section's by number.
  if (sections.some(s => s !== null)) blocks.forEach((b, i) => { if (sections[i] === null && !unfit.has(i) && b.headings.length) sections[i] = b.headings[0]; });
  const out: Answer[] = [];
  const seen = new Set<string>();
  for (const [i, b] of blocks.entries()) {
    const section = sections[i] ?? t.sections.default;
    const again: number[] = [];
    for (const e of b.entries) {
      const k = `${section}|${e.number}`;
      if (seen.has(k)) { again.push(e.number); continue; }
      seen.add(k);
      out.push({ section, number: e.number, value: e.answer, choice: choiceOf(e.answer, e.circled), points: null, ...(e.alternative ? { alternative: e.alternative } : {}) });
    }
    // The key holds a second run of these numbers: the judge hears of it (a section the reading missed).
    if (again.length && report) doc.keyEntries = [...(doc.keyEntries ?? []), ...again.map(number => ({ section, number, again: true as const }))];
    if (again.length && report) doc.messages.warn('answers/repeated', `${keyName} gives item(s) ${again.join(', ')}${section ? ` of ${section}` : ''} again${b.headings.length ? ` under "${b.headings[0]}"` : ''}, a section the paper was not read with; the first reading is kept`, { stage: 'answers' });
  }
  return out;
}

/** `report`: whether this reading's problems become diagnostics (a key read several times reports once). */
async function fromImage(input: string | Buffer, t: Template, doc: PaperDocument, report = true): Promise<Answer[]> {
  const reading = await readKeyImage(input, ocrPool('eng'), ocrPool(t.answers?.ocrLang ?? 'eng'));
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

/**
 * How a paper's key pictures are read by OCR: headings in the language of the paper's script; an
 * answer cell in the alphabet the paper's options are labelled in (its own letters, read alone
 * with their script's language, or Latin letters with English: each language reads the other's
 * look-alikes as its own), with digits, and only those characters.
 */
function keyAlphabet(doc: PaperDocument): { headings: string; cells: string; alphabet: AnswerAlphabet } {
  const text = doc.lines.slice(0, 400).map(l => rawText(l.spans)).join(' ');
  const native = optionAlphabetOf(doc.questions.flatMap(q => q.options.map(o => shownLabel(o.label))), text);
  const cells = native ? ocrLanguageOf(native.join('')).replace(/\+eng$/, '') : 'eng';
  return { headings: ocrLanguageOf(text), cells, alphabet: { ...answerCharacters(native ?? [...'ABCDEabcde']), ...(native ? { native } : {}) } };
}

/** The question an answer is for: by number, and by section where the answer names one. */
const questionFor = (doc: PaperDocument, a: Answer) => doc.questions.find(x => x.number === a.number && (a.section === null || x.section === a.section));

/**
 * How many of the paper's questions answers reach, joined as joinAnswers joins them: by section
 * where they name one. Where numbering restarts per section, a reading that gives each section its
 * own entries reaches every question; one that names no section reaches each number once.
 */
function answersQuestions(doc: PaperDocument, answers: readonly Answer[]): number {
  const reached = new Set<Question>();
  for (const a of answers) {
    const q = questionFor(doc, a);
    if (q) reached.add(q);
  }
  return reached.size;
}

/** Points above and below the lines of a key appended on a scanned page that its picture takes in (the rules around its rows). */
const KEY_BAND_PAD = 12;

/**
 * A key appended to the paper on pages read by OCR, read again as the picture it is: the band of
 * each such page its lines stand in, turned level where the sheet was scanned askew, read by the
 * key-picture reader (a table of numbers over answers, cell by cell, in the options' alphabet),
 * or, where the band holds no such table, read again as lines in that alphabet (runs of pairs).
 * The page's OCR reads a key as text in the page's language (a serif `B` as `8`, `C` as `6`
 * beside Arabic); the picture reader reads each cell alone. Null where no page of the tail was
 * read by OCR.
 */
async function tailPicture(doc: PaperDocument, open: PdfDocument | undefined): Promise<TailReading | null> {
  const pages = [...new Set(doc.tail.map(l => l.page))].filter(n => doc.pages[n - 1]?.ocr);
  if (!pages.length) return null;
  const pdf = open ?? await openPdf(new Uint8Array(doc.bytes));
  try {
    return await bandsOf(doc, pdf, pages);
  } finally {
    if (!open) await pdf.destroy();
  }
}

/** A key's band read again: as tables (null where it holds none), and as lines of pairs. */
interface TailReading { grid: GridKeyReading | null; pairs: PairBlock[] }

async function bandsOf(doc: PaperDocument, pdf: PdfDocument, pages: number[]): Promise<TailReading> {
  const { headings, cells, alphabet } = keyAlphabet(doc);
  const blocks: PairBlock[] = [], problems: string[] = [], bandLines: KeyTextLine[] = [];
  for (const n of pages) {
    const page = await pdf.getPage(n);
    const g = await renderGray(page, TABLE_DPI);
    const scale = g.width / doc.pages[n - 1].width;
    const lines = doc.tail.filter(l => l.page === n);
    const top = Math.max(0, Math.floor((Math.min(...lines.map(l => l.bbox[1])) - KEY_BAND_PAD) * scale));
    const bottom = Math.min(g.height, Math.ceil((Math.max(...lines.map(l => l.bbox[3])) + KEY_BAND_PAD) * scale));
    if (bottom - top < 8) continue;
    // Ruled cells are found along level rules: a sheet scanned askew (skewAngle: 0 where it is not) is turned back first.
    const skew = skewAngle(g);
    let band = sharp(Buffer.from(g.data), { raw: { width: g.width, height: g.height, channels: 1 } }).extract({ left: 0, top, width: g.width, height: bottom - top });
    if (skew) band = sharp(await band.png().toBuffer()).rotate(-skew, { background: '#ffffff' });
    const png = await band.png().toBuffer();
    const reading = await readGridKey(await loadGray(png), ocrPool('eng'), ocrPool(cells), ocrPool(headings), alphabet);
    if (!reading) {
      const text = (await ocrPool(cells).recognize(png, { mode: 'block', dpi: TABLE_DPI })).text;
      bandLines.push(...text.split('\n').filter(l => l.trim()).map(l => textLine(l, n, true)));
      continue;
    }
    blocks.push(...reading.blocks);
    problems.push(...reading.problems);
  }
  return { grid: blocks.length ? { blocks, problems } : null, pairs: readPairKey(bandLines) };
}

/**
 * The page's reading of a key joined item by item with its band's (keys/two-readings.ts), where
 * the band reads as many blocks of pairs (each then under the page's headings: OCR in the options'
 * alphabet garbles a section's name); the page's alone where it does not.
 */
function withBandReading(doc: PaperDocument, page: Answer[], band: PairBlock[], pageBlocks: PairBlock[], keyName: string, report: boolean): Answer[] {
  if (!band.length || band.length !== pageBlocks.length) return page;
  const again = fromPairBlocks(band.map((b, i) => ({ ...b, headings: pageBlocks[i].headings })), doc.template, doc, keyName, false);
  const { answers, differ } = joinReadings(page, again, a => answerFits(doc, a));
  for (const d of report ? differ : []) {
    const q = questionFor(doc, d.first);
    doc.messages.warn('answers/readings-differ', `${keyName} reads as ${d.first.value} on the page and as ${d.second.value} read again alone: no answer is taken`, { ...(q ? { page: q.page, item: q.id } : {}), stage: 'answers' });
  }
  return answers;
}

/** Whether the question an answer is for can take it: one of the options it prints, by label (a digit names one only where they are numbered or circled), or any value where it prints none. */
function answerFits(doc: PaperDocument, a: Answer): boolean {
  const q = questionFor(doc, a);
  if (!q) return false;
  if (!q.options.length) return true;
  const labels = q.options.map(o => o.label);
  const named = optionAnswer(a.value, labels);
  return !!named && 'labels' in named && (labels.every(l => /^\d+$/u.test(labelKey(l))) || !/^\d+$/u.test(a.value));
}

/** A key picture of numbers-over-answers tables, as answers; null where it has none. */
async function fromGridPicture(g: Gray, doc: PaperDocument, keyName: string, report = true): Promise<Answer[] | null> {
  const { headings, cells, alphabet } = keyAlphabet(doc);
  const reading = await readGridKey(g, ocrPool('eng'), ocrPool(cells), ocrPool(headings), alphabet);
  if (!reading) return null;
  if (report) for (const p of reading.problems) doc.messages.warn('answers/unreadable', `answer key: ${p}`, { stage: 'answers' });
  return fromPairBlocks(reading.blocks, doc.template, doc, keyName);
}

/** Resolutions a key PDF is read at; each item keeps the answer most readings agree on. */
const KEY_DPIS = [100, 150, 200];
/** A key table of triples is read once, fine enough that a thin ring around ③ stays whole. */
const TABLE_DPI = 200;

/** Which form (홀수형 → odd) a key page's title names: a template form pattern it matches, or null. */
function formOfTitle(title: string, t: Template): string | null {
  const text = withGapsClosed(title);
  return t.cover.forms?.find(f => new RegExp(f.pattern, 'u').test(text))?.id ?? null;
}

/**
 * The pages of a table key that belong to this paper. A key printed once per form (홀수형 on one
 * page, 짝수형 on the next) is read on the page of the booklet's form; where OCR misread the form
 * mark, the one page whose form is unread stands for the form no other page names.
 */
function pagesOfForm(pages: TableKeyPage[], t: Template, doc: PaperDocument, keyName: string): TableKeyPage[] {
  // A page whose columns are under several forms' headings is every form's key: its columns are chosen, not the page.
  const forms = pages.map(p => (formsOfColumns(p, t).size > 1 ? null : formOfTitle(p.title, t)));
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

/** The form a table entry's headings name (a column under 홀수형), or null. */
const formOfEntry = (e: TableKeyEntry, t: Template) => e.headings.map(h => formOfTitle(h, t)).find(f => f !== null) ?? null;

/** The forms a page's column headings name. */
function formsOfColumns(page: TableKeyPage, t: Template): Set<string> {
  return new Set(page.entries.map(e => formOfEntry(e, t)).filter((f): f is string => f !== null));
}

/**
 * The entries of a page for the paper's form: on a table that prints every form's answers side by
 * side (a column per form, or per form and elective), the columns under the booklet's form and
 * those under no form; elsewhere all of them.
 */
function entriesOfForm(page: TableKeyPage, t: Template, doc: PaperDocument, keyName: string): TableKeyEntry[] {
  const named = formsOfColumns(page, t);
  if (named.size < 2) return page.entries;
  let form = doc.exam.form;
  if (!form || !named.has(form)) {
    const first = formOfEntry(page.entries.find(e => formOfEntry(e, t))!, t)!;
    if (form) {
      doc.messages.warn('answers/form-missing', `${keyName} has columns for ${[...named].join(', ')}, none for this paper's form ${form}`, { stage: 'answers' });
      return page.entries.filter(e => formOfEntry(e, t) === null);
    }
    doc.messages.warn('answers/form-unknown', `${keyName} has columns for ${[...named].join(', ')} and the paper's cover names no form; the columns of ${first} are read`, { stage: 'answers' });
    form = first;
  }
  doc.messages.info('answers/form-columns', `${keyName} prints the answers of ${[...named].join(', ')} side by side: the columns of ${form} are read`, { stage: 'answers' });
  return page.entries.filter(e => { const f = formOfEntry(e, t); return f === null || f === form; });
}

/** Answers from table pages: each column group's section from the nearest heading cell that names one. */
function fromTablePages(pages: TableKeyPage[], t: Template, doc: PaperDocument, keyName: string): Answer[] {
  const out: Answer[] = [];
  for (const page of pagesOfForm(pages, t, doc, keyName)) {
    for (const p of page.problems) doc.messages.warn('answers/unreadable', `answer key: ${p}`, { stage: 'answers' });
    for (const n of page.notes) doc.messages.info('answers/number-misread', `answer key: ${n}`, { stage: 'answers' });
    const unnamed = new Set<string>();
    for (const e of entriesOfForm(page, t, doc, keyName)) {
      // A heading that names a form (홀수형) says which booklet, not which section.
      const headings = e.headings.filter(h => formOfTitle(h, t) === null);
      let section: string | null = null;
      for (const h of headings) if ((section = sectionNamed(h, t))) break;
      if (!section && !headings.length) section = t.sections.default;
      if (!section) unnamed.add(headings.join(' / '));
      out.push({ section, number: e.number, value: e.answer, choice: e.circled, points: e.points });
    }
    for (const h of unnamed) doc.messages.warn('answers/heading-unread', `${keyName}: the heading "${h}" names no section of this template; its items are joined by number alone`, { stage: 'answers' });
  }
  return out.sort((a, b) => (a.section ?? '').localeCompare(b.section ?? '') || a.number - b.number);
}

/** The key's text, line by line from every page: plain characters, text with formulas, and its tokens where they stand; empty without a text layer. */
async function keyLines(pdf: PdfDocument, t: Template): Promise<(KeyLine & { line: KeyTextLine })[]> {
  const out: (KeyLine & { line: KeyTextLine })[] = [];
  let rtl = false;
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    // Operators first, as the text layer reads them; text no glyph of which is painted (an older
    // table left under the printed one) is not the key a reader sees.
    const hidden = (await pageGraphics(page, n)).hidden;
    const spans = dropHidden(await pageSpans(page), hidden).kept.map(r => {
      const d = decodeSpan(r, t);
      return { page: n, text: d.text, bbox: r.bbox, baseline: r.baseline, size: r.size, font: r.font, math: d.math };
    }).filter(s => s.text.trim());
    // A key set right to left (an Arabic table: `#` at the right, the answer left of it) reads its rows
    // from the right; a page of its numbers alone (the table going on) is set as the page before it.
    rtl = pageDirection(spans) ?? rtl;
    out.push(...buildLines(spans, n, 0, rtl).map(l => ({ raw: rawText(l.spans), text: lineText(l.spans), line: keyLineOf(n, l.spans) })));
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
      // The same lines read by their structure (number | answer rows, runs of pairs, numbers over
      // answers, in any script): kept where they give more than the template's own entry pattern.
      const blocks = readPairKey(lines.map(l => l.line));
      // The reading that answers more of the paper's own questions wins; the template's on a tie.
      // Counted as the answers are joined (by section where they name one): a key of two subjects
      // numbered 1–6 each reaches twelve questions read by its headings, six by the entry pattern.
      const byTemplate: Answer[] = entries.map(e => ({ section: e.section ?? null, number: e.number, value: e.answer, choice: true, points: null, flags: e.flags }));
      if (entries.length && answersQuestions(doc, byTemplate) >= answersQuestions(doc, pairCount(blocks) ? fromPairBlocks(blocks, t, doc, path.basename(file), false) : [])) return byTemplate;
      const worked = fromWorkedKey(lines, doc, path.basename(file));
      if (worked) return worked;
      if (pairCount(blocks)) return fromPairBlocks(blocks, t, doc, path.basename(file));
      if (t.answers?.keyText) {
        doc.messages.warn('answers/unreadable', `${path.basename(file)} has text, but neither pairs of an item number and its answer nor a worked copy of the paper`, { stage: 'answers' });
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
    // Tables of numbers over answers (a row of item numbers, the answers in the row under it).
    const grid: Answer[] = [];
    for (let n = 1; n <= pdf.numPages; n++) grid.push(...(await fromGridPicture(await renderGray(await pdf.getPage(n), TABLE_DPI), doc, path.basename(file)) ?? []));
    if (grid.length) return grid;
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

/**
 * A key picture, and what OCR reads in it as a table of triples: it depends on the picture and the
 * template alone, so it can start before the paper's questions are known. A grid of numbers over
 * answers is read after, in the paper's own option alphabet.
 */
interface PictureReading { gray: Gray; table: TableKeyPage | null }
function readKeyPicture(file: string, t: Template): Promise<PictureReading> {
  return loadGray(file).then(async gray => ({ gray, table: await readKeyTablePage(gray, ocrPool('eng'), ocrPool(t.answers?.ocrLang ?? 'eng')) }));
}

/** Key pictures whose reading was started before the stage's turn (answersStage's prefetch), by paper. */
const started = new WeakMap<PaperDocument, { file: string; reading: Promise<PictureReading> }>();

export async function readKey(file: string, doc: PaperDocument): Promise<Answer[]> {
  const ext = path.extname(file).slice(1).toLowerCase();
  if (ext === 'csv') return fromCsv(file, doc.template, doc);
  if (ext === 'pdf') return fromPdf(file, doc.template, doc);
  const early = started.get(doc);
  started.delete(doc);
  const { gray: g, table } = await (early?.file === file ? early.reading : readKeyPicture(file, doc.template));
  if (table) return fromTablePages([table], doc.template, doc, path.basename(file));
  const grid = await fromGridPicture(g, doc, path.basename(file));
  if (grid) return grid;
  return fromImage(file, doc.template, doc);
}

/** Join key entries to questions; conflicts are diagnostics and leave the answer unset. */
export function joinAnswers(doc: PaperDocument, answers: Answer[], keyName: string, expected: (q: Question) => boolean = () => true): void {
  const t = doc.template;
  doc.keyEntries = [...(doc.keyEntries ?? []), ...answers.map(a => ({ section: a.section, number: a.number }))];
  const find = (a: Answer) => doc.questions.find(q => q.number === a.number && (a.section === null || q.section === a.section));
  const seen = new Set<Question>();
  // A key for several booklets at once (every elective's column): the sections this paper does not carry are other booklets'.
  const own = new Set(paperSections(doc));
  const others = new Set<string>();
  // A key that names options by letters of a script of their own (б, ข, ب) names them all so: a
  // lone digit it gives a multiple-choice question lettered so is a letter OCR misread (Arabic ج
  // as 2), not the option's place, and is not taken.
  const ownLetters = answers.some(a => /^[\p{L}\p{M}]+$/u.test(a.value) && !/\p{Script=Latin}/u.test(a.value));
  for (const a of answers) {
    if (a.section !== null && own.size && !own.has(a.section) && t.re.sections.some(s => s.id === a.section)) { others.add(a.section); continue; }
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
    // On a paper read by its own conventions (its types guessed from the prompts' shape), a question
    // read with no options and no parts for which the key names an option is a choice question whose
    // options were not read (pictures, labels OCR lost): the key says what it is. A family template's
    // short-answer question given an option stays a conflict to report.
    const unread = t.infer && (q.type === 'short' || q.type === 'free') && !q.options.length && !q.parts.length && a.choice === true;
    if (unread) {
      q.type = 'mcq';
      doc.messages.warn('answers/options-unread', `${keyName} gives option ${a.value}: the question is a choice question whose options were not read`, at);
    }
    if (q.type === 'short' && a.choice === true) { doc.messages.warn('answers/choice-on-short', `${keyName} gives option ${a.value} for a short-answer question`, at); continue; }
    if (q.type === 'mcq' && a.choice === false) {
      doc.messages.warn('answers/value-on-choice', `${keyName} gives the value ${a.value} for a multiple-choice question`, at);
      continue;
    }
    for (const f of a.flags ?? []) if (!q.flags.includes(f)) q.flags.push(f);
    if (q.type === 'mcq' || q.type === 'mcq-multi') {
      // A key gives an option by its label (D, б, ③; CD for two), by its place (3 for the third), or as OCR's look-alike of the label.
      const labels = q.options.length ? q.options.map(o => o.label) : t.options.markers;
      // Options unread: the key's label as given (the paper's own labels for them are not known: `2`
      // for a circled ②, not the second of the labels its other questions print).
      if (unread || !labels.length) q.answer = a.value;
      else {
        // A glyph read both as a digit and as a letter the question prints as a label is that option.
        const asLetter = a.alternative ? optionAnswer(a.alternative, labels) : null;
        const lettered = labels.every(l => /^\p{L}$/u.test(shownLabel(l)) && !/\p{Script=Latin}/u.test(shownLabel(l)));
        if (!(asLetter && 'labels' in asLetter) && ownLetters && lettered && /^\d$/.test(a.value)) {
          doc.messages.warn('answers/digit-for-letter', `${keyName} gives ${a.value} where it names the other options by their letters: a letter misread, no answer is taken`, at);
          continue;
        }
        const named = asLetter && 'labels' in asLetter ? asLetter : optionAnswer(a.value, labels);
        if (!named) { doc.messages.warn('answers/no-such-option', `${keyName} gives option ${a.value}, which the question does not print`, at); continue; }
        if ('beyond' in named) {
          // The key is the official answer; the question's options as read stop short of it.
          doc.messages.warn('answers/option-unread', `${keyName} gives option ${a.value}; the question was read with ${q.options.length} option(s): its options may be misread`, at);
          q.answer = named.beyond;
        } else q.answer = named.labels.map(shownLabel).join('');
      }
    } else {
      // A question read without options or parts for which the key gives a value asks for that
      // value: a short answer, not a worked one (the paper prints no other cue of the difference).
      if (q.type === 'free' && !q.parts.length && a.choice !== true && isValueAnswer(a.value)) {
        q.type = 'short';
        doc.messages.info('answers/typed-short', `${keyName} gives the value ${a.value}: read as a short-answer question`, at);
      }
      q.answer = a.value;
    }
    if (a.points !== null && q.points !== null && a.points !== q.points) doc.messages.warn('answers/points-differ', `the paper prints ${q.points} points, ${keyName} says ${a.points}`, at);
    if (a.points !== null && q.points === null) q.points = a.points;
  }
  if (others.size) doc.messages.info('answers/other-sections', `${keyName} also answers ${[...others].join(', ')}, which this paper does not carry`, { stage: 'answers' });
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
    async run(doc, ctx) {
      const file = keyFileFor(doc.path, doc.template);
      if (!file) {
        const inline = inlineAnswers(doc);
        // The lines after the questions read by their structure too (a table or runs of pairs in any script): the fuller reading is kept.
        let blocks = readPairKey(doc.tail.map(l => keyLineOf(l.page, l.spans)));
        const keyName = 'the key printed in the paper';
        // On a scanned page the key's picture is read too: kept where it answers as many of the paper's questions.
        // (How many of the paper's questions a reading of the key's blocks answers, reporting nothing.)
        const reach = (b: PairBlock[]) => answersQuestions(doc, fromPairBlocks(b, doc.template, doc, keyName, false));
        const pictured = blocks.length ? await tailPicture(doc, ctx?.pdf) : null;
        const grid = pictured?.grid;
        if (grid && reach(grid.blocks) >= reach(blocks)) {
          for (const p of grid.problems) doc.messages.warn('answers/unreadable', `answer key: ${p}`, { stage: 'answers' });
          blocks = grid.blocks;
        }
        // The key's answers, the band's reading joined where the page's OCR read pairs; `report`: its problems become diagnostics.
        const printed = (report: boolean) => {
          const page = fromPairBlocks(blocks, doc.template, doc, keyName, report);
          return blocks === grid?.blocks ? page : withBandReading(doc, page, pictured?.pairs ?? [], blocks, keyName, report);
        };
        const answers = answersQuestions(doc, printed(false)) > answersQuestions(doc, inline) ? printed(true) : inline;
        if (answers.length) joinAnswers(doc, answers, 'the answers printed in the paper', q => q.type !== 'free');
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
