// A question from its draft: the lines a number opened, read for options, marks, parts and type.
import type { Column, Line, PaperDocument, Question, Span } from '../document.ts';
import { questionId } from '../ids.ts';
import type { QuestionType, Template } from '../template.ts';
import { rawText } from '../text/line-text.ts';
import { scriptOfText } from '../text/script.ts';
import { lineWraps } from '../text/direction.ts';
import { findPoints, patternPoints } from './marks.ts';
import { optionsOf } from './options.ts';
import type { RowConvention } from './option-rows.ts';
import type { Marking } from './marking.ts';
import { partSpans } from './parts.ts';
import { regionsOf } from './regions.ts';

export interface Draft {
  section: string | null;
  number: number;
  anchor: Span[];
  lines: Line[];
  typeHint: QuestionType | null;
  /** Points a section heading gives every question under it (每小题 6 分), if any. */
  sectionPoints: number | null;
  /** The marking scheme its section states (full, partial, zero, negative marks), if any. */
  marking?: Marking | null;
  /** The conventions its labels are read by, where they are its own (a section that chooses where the rest open parts); else the paper's. */
  template?: Template;
  /** How the paper sets its options in rows on scanned pages, where it does (structure/option-rows.ts). */
  rows?: RowConvention | null;
}

export function buildQuestion(doc: PaperDocument, d: Draft): Question {
  const t = d.template ?? doc.template;
  const id = questionId(doc.sha256, d.section, d.number);
  // The question's own lines: a twin printed beside it in another language (its lines after these)
  // says its marks, options and parts again.
  const own = d.lines.filter(l => !l.twin), twin = d.lines.filter(l => l.twin);
  const all = own.flatMap(l => l.spans);
  const skip = new Set(d.anchor);
  const byPattern = t.re.points ? patternPoints(own, t, new Set(), new Set(d.anchor)) : null;
  const points = t.re.points ? byPattern : findPoints(all, t, own.some(l => doc.pages[l.page - 1].ocr));
  const value = points?.value ?? d.sectionPoints;
  // Under a heading for worked answers (非选择题) a lettered list inside a question is not its options.
  const ocr = own.some(l => doc.pages[l.page - 1].ocr);
  const optionsIn = (lines: Line[]): ReturnType<typeof optionsOf> => (d.typeHint === 'free' ? { options: [], firstLine: -1 } : optionsOf(lines, t, skip, ocr, d.rows ?? null));
  const { options, firstLine, byPlace } = optionsIn(own);
  if (byPlace) doc.messages.warn('segment/options-by-place', `OCR garbled the option labels; the ${options.length} options are read by their place in the row (${options.map(o => o.label).join(' ')}): check them against the page`, { page: d.lines[0].page, item: id, stage: 'segment' });
  // The stem: the question's lines before its options, then its twin's before the twin's.
  const ownStem = firstLine >= 0 ? firstLine : own.length;
  const twinFirst = twin.length ? optionsIn(twin).firstLine : -1;
  const twinStem = twinFirst >= 0 ? twinFirst : twin.length;
  const lines = twin.length ? [...own.slice(0, ownStem), ...twin.slice(0, twinStem), ...own.slice(ownStem), ...twin.slice(twinStem)] : d.lines;
  if (value === null && !t.re.sectionPoints) doc.messages.warn('segment/no-points', 'no point marker found', { page: d.lines[0].page, item: id, stage: 'segment' });
  else if (value !== null && t.points.values && !t.points.values.includes(value)) doc.messages.warn('segment/unusual-points', `points ${value} are not among ${t.points.values.join(', ')}`, { page: d.lines[0].page, item: id, stage: 'segment' });
  // A question's options are no parts of it, whatever their labels would read as (`(a)`–`(d)` to
  // choose from, a block read by place): parts are read in the lines before them.
  const spans = partSpans(options.length >= 2 ? own.slice(0, firstLine) : own, t, skip, byPattern?.markers ?? []);
  const parts = spans.map(s => s.part);
  let type: QuestionType = options.length >= 2 ? t.options.typeWith : t.options.typeWithout;
  // On a paper read by inferred conventions, a prompt ending in `=` asks for a value; each part is
  // typed so, and the question's type is its first part's.
  // A question with no parts whose whole prompt is one line holding a quantity (`What is
  // 25 + 5 × 6?`) asks for a short answer; a worked answer is asked for in parts, at length or in words.
  if (type === 'free' && t.infer) {
    for (const s of spans) s.part.type = asksForValue(own.slice(s.from, s.to)) ? 'short' : 'free';
    if (parts.length ? parts[0].type === 'short' : asksForValue(own) || shortPrompt(own, skip, columnsOf(doc))) type = 'short';
  }
  if (type === 'mcq' && d.typeHint === 'mcq-multi') type = 'mcq-multi';
  else if (d.typeHint === 'free') type = 'free';
  else if (d.typeHint === 'numeric' && !options.length) type = 'numeric';
  else if (d.typeHint && d.typeHint !== type) doc.messages.warn('segment/type-conflict', `the section heading says ${d.typeHint}, the question reads as ${type}`, { page: d.lines[0].page, item: id, stage: 'segment' });
  return {
    id,
    section: d.section,
    number: d.number,
    type,
    points: value,
    marking: d.marking ?? null,
    parts,
    flags: [],
    page: d.lines[0].page,
    lines,
    anchor: d.anchor,
    stemLines: ownStem + twinStem,
    regions: regionsOf(d.lines),
    stem: '',
    options,
    figures: [],
    answer: null,
    errorRate: null,
    difficulty: null,
  };
}

const columnsOf = (doc: PaperDocument) => (l: Line): Column => doc.pages[l.page - 1]?.columns?.[l.column] ?? { x0: 0, x1: Infinity };

/**
 * The short answers of a paper read by its own conventions, decided over all its questions where
 * buildQuestion sees one alone: a question with neither parts nor options whose prompt, one sentence
 * wrapped over a few lines, holds a quantity (`В арифметической прогрессии a₁ = 9, разность` /
 * `равна 3. Найдите a₅.`) asks for a short answer where the paper reads other questions short by
 * their one-line prompts and marks this one no higher than those. A prompt marked higher asks for
 * working (`Let g(x) = x⁵ − 10x. Find where g is increasing … [6 marks]` beside one-line `[1 mark]`
 * questions), and so may one on a paper that shows no short answers, or states no marks to compare:
 * there the one-line rule stands (HSC's `Find the global maximum and minimum values of …` is worked),
 * except on a paper that chooses in most questions and opens parts in none.
 */
export function typeByPaper(doc: PaperDocument, drafts: Draft[], questions: Question[]): Question[] {
  const t = doc.template;
  const marked = questions.filter(q => q.type === 'short' && !q.parts.length && !q.options.length).map(q => q.points).filter((p): p is number => p !== null);
  // A paper that chooses in most of its questions (CHOOSING_SHARE) and opens parts in none asks for
  // working nowhere: a question of it with no options asks for a value (`Стороны прямоугольника
  // равны 15` / `см и 8 см. Найдите его площадь в см².` among choices), whatever its marks.
  const choosing = !questions.some(q => q.parts.length) && questions.filter(q => q.options.length >= 2).length >= questions.length * CHOOSING_SHARE;
  if (!t.infer || (!marked.length && !choosing)) return questions;
  const most = Math.max(...marked);
  return questions.map((q, k) => {
    const d = drafts[k];
    if (q.type !== 'free' || q.parts.length || q.options.length || d.typeHint === 'free' || (d.template ?? t) !== t) return q;
    if (!choosing && (q.points === null || q.points > most)) return q;
    const own = d.lines.filter(l => !l.twin);
    return shortPrompt(own, new Set(d.anchor), columnsOf(doc), FEW_PROMPT_LINES) ? { ...q, type: 'short' } : q;
  });
}

/** A paper with options in at least this share of its questions (and parts in none) chooses: see typeByPaper. */
const CHOOSING_SHARE = 0.5;

/** …on a paper that shows short answers (typeByPaper), one sentence wrapped over at most this many lines (its own language's, a figure's letters left out). */
const FEW_PROMPT_LINES = 3;

/** A prompt of at most this many lines, with no parts, asks for a short answer (two already hold `Find where g is increasing and decreasing and find any local maxima or minima.`). */
const SHORT_PROMPT_LINES = 1;
/**
 * …or one sentence wrapped in a narrow column: every line but its last runs to within WRAP_EMS of
 * the column's far edge (a line ended short of it is a line of its own: an item, a part, a given),
 * and its lines together are no longer than this many ems (widths over type sizes, any script):
 * `一个长方形的长为 19 cm，宽为 11 cm，它的面积是多少 cm²？` runs to some 30 ems; the two lines of
 * `Find where g is increasing and decreasing and find any local maxima or minima.` to some 40.
 */
const SHORT_PROMPT_EMS = 32;
/** A line in another script is a translation where it holds at least this many words of two letters or more, one of four (`Evaluate log₂ 128.`; not `sh b) Cc) d)`, OCR's reading of picture labels). */
const TRANSLATION_WORDS = 2;

/** A line of at most this many characters… */
const FIGURE_LABEL_CHARS = 3;
/** …set smaller than this share of the prompt's type is a figure's letters. */
const FIGURE_LABEL_SIZE = 0.85;

/**
 * A prompt that asks for a value: one line that holds a quantity (a digit or a formula) to work
 * with. `Explain why ice floats on water.` holds none and stays a worked answer.
 */
function shortPrompt(lines: Line[], anchor: Set<Span>, columnOf: (l: Line) => Column, wrappedLines = 0): boolean {
  // The question's number and a mark in brackets at a line's end (`[3 marks]`, `(2 P.)`, `(0–4)`)
  // are no part of the prompt: a lead set on its own line (`Задача 3 (0–4)`) adds no line to it.
  const own = lines.map(line => ({ line, spans: line.spans.filter(s => !anchor.has(s)) }))
    .map(({ line, spans }) => ({ line, spans, text: rawText(spans).replace(/\s*[[(（][^\])）]*[\])）]\s*$/u, '').trim(), size: Math.max(0, ...spans.map(s => s.size)) }))
    .filter(l => l.text);
  // A figure's letters (`A  B`, `O x`, `C`), set smaller than the prompt, are no line of it.
  const size = Math.max(0, ...own.map(l => l.size));
  const prompt = own.filter(l => l.text.replace(/\s/gu, '').length > FIGURE_LABEL_CHARS || l.size >= size * FIGURE_LABEL_SIZE);
  // A line in another script than the prompt's first is its translation printed under it (`140 的
  // 50% 是` / `What is 50% of 140?`): the prompt is as long as its own language's lines.
  // (Han, kana and Hangul one writing: a table's `月曜日 15` under a Japanese prompt is no translation.)
  const script = (text: string) => (/\p{L}/u.test(text) ? scriptOfText(text).replace(/^(?:Han|Japanese|Hangul)$/, 'CJK') : null);
  const first = prompt.length ? script(prompt[0].text) : null;
  // (Words, not labels: `a) b) c) d)` under pictures is no translation.)
  const translates = (text: string) => script(text) !== first && (text.match(/\p{L}{2,}/gu) ?? []).length >= TRANSLATION_WORDS && /\p{L}{4}/u.test(text);
  // (A translation's last line wrapped on its own, `cm²?`, is the translation's too: a line in the
  // translation's script right under one of it.)
  const translation = prompt.map(l => translates(l.text));
  prompt.forEach((l, k) => { if (k > 0 && translation[k - 1] && script(l.text) !== first && script(l.text) === script(prompt[k - 1].text)) translation[k] = true; });
  const inOne = prompt.filter((l, k) => first === null || script(l.text) === null || !translation[k]);
  // One line, or a sentence wrapped in a narrow column (see SHORT_PROMPT_EMS).
  const ems = inOne.reduce((n, l) => n + l.spans.reduce((w, s) => w + (s.bbox[2] - s.bbox[0]) / (s.size || 1), 0), 0);
  const wraps = (l: typeof inOne[number]) => lineWraps(l.line, columnOf(l.line), l.size);
  const wrapped = inOne.length > 1 && ems <= SHORT_PROMPT_EMS && inOne.slice(0, -1).every(wraps);
  // (Where the paper shows short answers, one sentence wrapped over a few lines, however long: a line
  // ended short of the far edge is an item of its own, a part the reading did not take.)
  const wrappedFew = inOne.length > 1 && inOne.length <= wrappedLines && inOne.slice(0, -1).every(wraps);
  return inOne.length > 0 && (inOne.length <= SHORT_PROMPT_LINES || wrapped || wrappedFew) && prompt.some(l => l.spans.some(s => s.math) || /\p{Nd}/u.test(l.text));
}

/** Whether a prompt (a question's, or one part's lines) asks for a value rather than a worked answer: it ends in `=`, a blank to fill. */
function asksForValue(lines: Line[]): boolean {
  const text = lines.map(l => rawText(l.spans)).join(' ').trim();
  return /=\s*$/.test(text);
}
