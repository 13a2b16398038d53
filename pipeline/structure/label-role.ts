// Whether a paper's lettered labels (`a)`, `(a)`, `A.`) are options to choose from or parts to
// answer, decided once over all its questions rather than one label at a time. Options are short,
// come in the same number question after question and often several to a line; parts are prompts of
// their own: longer, one to a line, in varying number, with their own marks or sub-parts under them.
import type { Line } from '../document.ts';
import { rawText } from '../text/line-text.ts';
import { escapeRegExp, type Template } from '../template.ts';

/** What the label runs of a paper look like, over all its questions. */
export interface LabelStats {
  runs: number;
  /** Mean length in columns (a wide character two) from one label to the next (the last item to the end of its question, at most ITEM_CAP). */
  itemLength: number;
  /** Share of runs with two labels or more on one line. */
  sideBySide: number;
  /** Share of runs with a mark inside them (`(2 marks)`, `(0.75 puntos)`). */
  marked: number;
  /** Share of runs whose length is the most common one. */
  sameCount: number;
  /** Share of runs with a sub-label (`(i)`, `(1)`) opening a line inside them. */
  nested: number;
  /** Share of items (all but each run's last, whose end is not its own) that end as a sentence does (`.`, `?`, `；`, `。`). */
  sentences: number;
  /** The most common number of labels in a run. */
  modalCount: number;
  /** Share of the labels printed that stand outside their question's run (`A) 31` `C) 34` `B) 35`: a grid read a column at a time). */
  stray: number;
  /** The longest item in columns (the last item of a run to the end of its question, at most ITEM_CAP). */
  longest: number;
  /** Share of items whose line ends in boxes to tick (`1. 8 · 2 = 17 ☐ ☐`): rows of a table to mark true or false. */
  ticked: number;
}

/** The last item of a run is counted up to this many characters (it runs on into what follows the question). */
const ITEM_CAP = 160;
/** East Asian wide characters (ideographs, kana, Hangul, fullwidth forms) take two columns, as a terminal sets them. */
const WIDE = /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303F\uFF00-\uFF60]/u;
/** A text's length in columns: `求摸出红球的概率；` is as long as `Find the probability of red;`. */
const columns = (text: string) => [...text].reduce((n, c) => n + (WIDE.test(c) ? 2 : 1), 0);
/** Items this long (in columns) on average are prompts, not choices. */
const LONG_ITEM = 60;
/** …this short, choices. */
const SHORT_ITEM = 25;
/** A share of runs this large with labels side by side means choices set in a row or a grid. */
const SIDE_BY_SIDE = 0.3;
/** A share of runs this large carrying marks after their items (`[2]`) reads as parts: choices carry none. */
const MARKED = 0.3;
/** A share of runs under this with labels side by side reads as parts, set one under another. */
const STACKED = 0.1;
/** Runs whose label counts agree less than this share of the time read as parts (choices come as many to every question). */
const SAME_COUNT = 0.7;
/** A share of runs this large holding a nested level (`(i)` under `a)`) reads as parts. */
const NESTED = 0.2;
/** Runs of at most this many labels are few for choices. */
const FEW_LABELS = 3;
/** A share of items this large ending as sentences do reads as prompts. */
const SENTENCES = 0.5;
/** Parts win at this score (see `partsScore`). */
const PARTS_AT = 3;
/** How a sentence ends: a prompt's full stop, question mark or semicolon (Latin, CJK or fullwidth), before the next label's bracket. */
const SENTENCE_END = /[.?!;。？！；]\s*[(（]?$/u;
const SUB_LABEL = /^\s*\((?:i{1,3}|iv|v|vi{0,3}|\d{1,2})\)/u;
/** A line that ends in a box to tick (☐, □, ○): a row of a table to mark, not a choice's text. */
const TICK_BOX = /[☐□◻❏❑▢○◯]\s*$/u;
/** Labels most of whose items end in boxes to tick (this share) are rows of a table to mark true or false: neither options nor parts. */
const TICKED = 0.5;

export function labelStats(questions: Line[][], t: Template, marks: RegExp | null): LabelStats | null {
  const re = t.re.option;
  const markers = t.options.markers;
  if (!re || !markers.length) return null;
  const global = new RegExp(re.source, 'gu');
  const lengths: number[] = [];
  const counts: number[] = [];
  let side = 0, marked = 0, nested = 0, items = 0, sentences = 0, labelled = 0, ticked = 0, printed = 0;
  for (const lines of questions) {
    const texts = lines.map(l => rawText(l.spans.filter(s => !s.math)));
    const full = texts.join('\n');
    const lineOf = (at: number) => full.slice(0, at).split('\n').length - 1;
    const labels = [...full.matchAll(global)].map(m => ({ i: markers.indexOf(m[1]), at: m.index! + m[0].indexOf(m[1]) })).filter(x => x.i >= 0);
    // Runs in order (A B C …): the longest is the question's own labels, the last of equals what it
    // would read as its options; a shorter run after it names some of them again (`Using parts (a) and (b), find …`).
    const runs: { at: number; i: number }[][] = [];
    for (const l of labels) {
      const run = runs[runs.length - 1];
      if (l.i === 0) runs.push([l]);
      else if (run && l.i === run.length) run.push(l);
    }
    const run = runs.filter(r => r.length >= 2).reduce<typeof runs[number] | undefined>((best, r) => (!best || r.length >= best.length ? r : best), undefined);
    if (!run) continue;
    counts.push(run.length);
    run.forEach((l, k) => lengths.push(Math.min(ITEM_CAP, columns(full.slice(l.at, run[k + 1]?.at ?? full.length)))));
    for (let k = 0; k + 1 < run.length; k++) {
      items++;
      if (SENTENCE_END.test(full.slice(run[k].at, run[k + 1].at).trimEnd())) sentences++;
    }
    const rows = run.map(l => lineOf(l.at));
    labelled += run.length;
    printed += labels.length;
    ticked += rows.filter(r => TICK_BOX.test(texts[r])).length;
    if (new Set(rows).size < rows.length) side++;
    const body = full.slice(run[0].at);
    if (marks && new RegExp(marks.source, 'u').test(body)) marked++;
    if (texts.slice(rows[0]).some((x, k) => k > 0 && SUB_LABEL.test(x))) nested++;
  }
  if (!counts.length) return null;
  const modal = Math.max(...[...new Set(counts)].map(c => counts.filter(x => x === c).length));
  const modalCount = Math.max(...counts.filter(c => counts.filter(x => x === c).length === modal));
  const n = counts.length;
  return { runs: n, itemLength: lengths.reduce((a, b) => a + b, 0) / lengths.length, longest: Math.max(...lengths), sideBySide: side / n, marked: marked / n, sameCount: modal / n, nested: nested / n, sentences: items ? sentences / items : 0, modalCount, stray: (printed - labelled) / printed, ticked: labelled ? ticked / labelled : 0 };
}

/** How much the runs read as parts rather than options (see the constants above). */
export function partsScore(s: LabelStats, lowerCase: boolean): number {
  let v = 0;
  if (s.marked >= MARKED) v += 2;
  if (s.itemLength >= LONG_ITEM) v += 1;
  if (s.itemLength < SHORT_ITEM) v -= 1;
  if (s.sideBySide < STACKED) v += 1;
  if (s.sideBySide >= SIDE_BY_SIDE) v -= 2;
  if (s.sameCount < SAME_COUNT) v += 1;
  if (s.nested >= NESTED) v += 1;
  // Choices come four or five to a question; two or three labels are more often parts, and surely
  // so where each ends as a sentence does (a prompt of its own, `b) Solve f(x) = 13;`).
  if (s.modalCount <= FEW_LABELS) v += s.sentences >= SENTENCES ? 2 : 1;
  // Lower-case letters label parts more often than options (a weak prior: some papers choose with a) b) c)).
  if (lowerCase) v += 1;
  return v;
}

/** The template with its lettered labels read as parts (the outermost level) instead of options. */
export function asParts(t: Template): Template {
  const markers = t.options.markers;
  // Parts run further than options do (a question may have parts up to (h)).
  const letters = markers.every(m => /^[a-e]$/.test(m)) ? 'a-h' : markers.every(m => /^[A-E]$/.test(m)) ? 'A-H' : markers.map(escapeRegExp).join('');
  const level = `^\\s*\\(?([${letters}])\\s*[).．]`;
  // Inside a part: roman numerals, or numbers in brackets (`(f)(1)`).
  const inner = (t.parts?.levels ?? []).filter(l => !/\[a-h\]|\[A-H\]/.test(l));
  const levels = [level, ...inner, ...(inner.some(l => l.includes('\\d')) ? [] : ['^\\s*\\((\\d{1,2})\\)(?=\\s*\\S)'])];
  return Object.freeze({
    ...t,
    options: { ...t.options, markers: [] },
    parts: { levels },
    re: { ...t.re, option: null, parts: levels.map(l => new RegExp(l, 'u')) },
  });
}

/** The template with no option labels: its labels are neither choices nor parts. */
function withoutOptions(t: Template): Template {
  return Object.freeze({ ...t, options: { ...t.options, markers: [] }, re: { ...t.re, option: null } });
}

/** Decides the role of a paper's labels: the template for its questions, and what was measured. */
export function decideLabels(questions: Line[][], t: Template): { template: Template; stats: LabelStats | null; parts: boolean } {
  const stats = labelStats(questions, t, t.re.points);
  if (!stats) return { template: t, stats, parts: false };
  // Rows of a table to mark (`1. 8 · 2 = 17 ☐ ☐` under `✓ ✗`) are what the question asks about, in its text.
  if (stats.ticked >= TICKED) return { template: withoutOptions(t), stats, parts: false };
  const parts = partsScore(stats, lowerCaseLabels(t)) >= PARTS_AT;
  return { template: parts ? asParts(t) : t, stats, parts };
}

/** Whether a template's labels are lower-case letters (`a)`, `(b)`). */
const lowerCaseLabels = (t: Template) => t.options.markers.every(m => m === m.toLocaleLowerCase() && m !== m.toLocaleUpperCase());

/**
 * A question of a scheme whose runs read as options elsewhere that reads as parts on its own evidence
 * alone, this much above PARTS_AT, its labels few (FEW_LABELS at most): `a)`–`c)` prompts, each a
 * sentence, under a question of a paper that chooses with `a)`–`d)`. (Three choices set as sentences
 * under `A.`–`C.` do not reach it.)
 */
const OWN_PARTS_MARGIN = 1;

/**
 * A run set apart from the paper's choices counts this much more: its labels one to a line though its
 * items are short enough to sit in a row (under LONG_ITEM), where the paper sets its choices in a row
 * (SIDE_BY_SIDE of its runs), and fewer of them than its choices come in (`a) จงหา f(2)` /
 * `b) จงแก้สมการ f(x) = 14` on a paper choosing with `a) 147 b) 148 c) 152 d) 150`): a paper sets
 * its choices alike question after question.
 */
const SET_APART = 2;

/**
 * Whether a question's own labels are choices where the paper's runs in its scheme read as parts:
 * more of them than the paper's parts come in (those FEW_LABELS at most), each a short value
 * (under SHORT_ITEM, none a sentence), with no marks or sub-labels among them: `a) 17` … `e) 32`
 * under `2⁴ 的值是` on a paper whose other questions ask `a) 求 f(2) 的值；` `b) 解方程 …；`.
 */
export function readsAsChoices(question: Line[], t: Template, parts: LabelStats): boolean {
  const stats = labelStats([question], t, t.re.points);
  if (!stats || parts.modalCount > FEW_LABELS || stats.modalCount <= FEW_LABELS || stats.modalCount <= parts.modalCount) return false;
  return stats.longest < SHORT_ITEM && stats.sentences === 0 && stats.marked === 0 && stats.nested === 0 && stats.ticked < TICKED;
}

/** Whether a question's own labels open parts; `choices`: the statistics of the paper's runs in the scheme, decided as options. */
export function readsAsParts(question: Line[], t: Template, choices: LabelStats | null = null): boolean {
  const stats = labelStats([question], t, t.re.points);
  if (!stats) return false;
  // (Its labels all in that one run, in order: `A) 31` `C) 34` `B) 35` is a grid of choices read a
  // column at a time, not parts `A)`, `B)`.)
  const apart = choices !== null && choices.sideBySide >= SIDE_BY_SIDE && stats.sideBySide < STACKED && stats.itemLength < LONG_ITEM && stats.modalCount < choices.modalCount
    && stats.stray === 0;
  // Few labels, as parts come (a run of five under a question holding other questions' text is no parts).
  return stats.ticked < TICKED && stats.modalCount <= FEW_LABELS && partsScore(stats, lowerCaseLabels(t)) + (apart ? SET_APART : 0) >= PARTS_AT + OWN_PARTS_MARGIN;
}
