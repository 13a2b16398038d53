// Questions from the decoder's reading: the chosen anchors open drafts, the lines after each belong
// to it until the next, and headings on the way set what questions under them share (their type,
// their section's points, a marking scheme). Lines the reading sets aside (instructions, a front
// block before a new section, what follows the end of the questions) belong to no question.
import type { Column, Line, PaperDocument, Span } from '../document.ts';
import type { QuestionType } from '../template.ts';
import { FORM_ROW, OCR_SIZE_SPREAD, type LineFeatures } from './candidates.ts';
import type { Reading } from './decode.ts';
import { splitLead, type Lead } from './lead.ts';
import { markingLine, withRule, type Marking, type MarkRule } from './marking.ts';
import { buildQuestion, typeByPaper, type Draft } from './question.ts';
import { beforeMarks, markText, markValue } from './marks.ts';
import type { Template } from '../template.ts';
import { sectionRanges } from './sections.ts';
import { matchAnchor, runOnCut } from './anchors.ts';
import { marginMark } from './ocr-numbering.ts';
import type { AsideKind } from './reading-input.ts';
import { joinWrapped } from '../text/script.ts';
import { lineWraps } from '../text/direction.ts';

/** A heading set below this share of the size of its group's heading is inside the group, not a new one. */
const INNER_HEADING = 0.95;

/** Brackets a line opens and does not close: a heading's statement that runs on to the next line. */
const openBrackets = (text: string) => (text.match(/[(（[【]/gu)?.length ?? 0) - (text.match(/[)）\]】]/gu)?.length ?? 0);

/**
 * The points a heading line states for every question under it (`(5 points each)`, `（每小题5分）`,
 * the template's `points.sectionDefault`), read where its bracket closes on the next line too
 * (`(5 μονάδες η` / `καθεμία)`): the value, and how many lines the statement takes.
 */
export function headingPoints(features: LineFeatures[], i: number, t: Template, opensQuestion: (i: number) => boolean): { value: number; lines: 1 | 2 } | null {
  const re = t.re.sectionPoints;
  if (!re) return null;
  const text = markText(features[i].text);
  const own = re.exec(text);
  if (own) return { value: markValue(own), lines: 1 };
  const next = features[i + 1];
  if (!next || openBrackets(text) <= 0 || opensQuestion(i + 1) || next.line.page !== features[i].line.page) return null;
  const joined = re.exec(`${text} ${markText(next.text)}`);
  return joined && joined.index! < text.length ? { value: markValue(joined), lines: 2 } : null;
}

/** What the reading does with each line. */
export type LineRole = 'question' | 'aside' | 'tail' | 'front';

export interface Assembly {
  drafts: Draft[];
  roles: LineRole[];
}

/** A heading this much larger than the body opens a new section's front matter (SAT's `Math Test – Calculator`). */
const FRONT_HEADING_SIZE = 1.3;

/**
 * The section each anchor belongs to. Sections from the template (a page's running head, a heading in
 * the flow) come first; where the reading starts its numbering over without one, the new run is
 * named by the label before its numbers (`A`, `B`) or by the most prominent heading before it.
 */
function runLabels(features: LineFeatures[], reading: Reading, t: Template, columnOf: (l: Line) => Column): (string | null)[] {
  const anchors = reading.anchors;
  const restarts = anchors.map((a, k) => k > 0 && a.number <= anchors[k - 1].number);
  if (!restarts.some(Boolean) && !anchors.some(a => a.candidate.major !== null && /\D/.test(a.candidate.major))) return anchors.map(() => null);
  const labels: (string | null)[] = [];
  const title = paperTitle(features);
  let current: string | null = null;
  anchors.forEach((a, k) => {
    if (k === 0 || restarts[k] || (a.candidate.major !== anchors[k - 1].candidate.major)) {
      const from = k === 0 ? 0 : anchors[k - 1].candidate.f.index + 1;
      const gap = features.slice(from, a.candidate.f.index);
      const heading = numberedHeading(gap, columnOf) ?? prominentHeading(gap, title, columnOf);
      current = a.candidate.major !== null && /\D/.test(a.candidate.major) ? a.candidate.major : (heading && (beforeMarks(heading, t) || heading)) ?? `part ${labels.filter((l, i) => i === 0 || l !== labels[i - 1]).length + 1}`;
    }
    labels.push(current);
  });
  return distinguishing(labels);
}


/**
 * Headings that name runs share their leading words where those name the paper's subject
 * (`Math Test – No Calculator`, `Math Test – Calculator`), and their trailing words where the
 * heading runs on into what it states (`Física Las preguntas` of `Física Las preguntas 1 a 4 valen …`):
 * a run is named by what tells it apart.
 */
function distinguishing(labels: (string | null)[]): (string | null)[] {
  const distinct = [...new Set(labels.filter((l): l is string => l !== null))];
  if (distinct.length < 2) return labels;
  const words = distinct.map(l => l.split(/\s+/));
  let shared = 0;
  while (words.every(w => w.length > shared + 1 && w[shared] === words[0][shared])) shared++;
  let tail = 0;
  const fromEnd = (w: string[], k: number) => w[w.length - 1 - k];
  while (words.every(w => w.length > shared + tail + 1 && fromEnd(w, tail) === fromEnd(words[0], tail))) tail++;
  // What is left names something (`38` of `38 QUESTIONS` names nothing).
  if (words.some(w => !/\p{L}/u.test(w.slice(shared, w.length - tail).join(' ')))) tail = 0;
  if (!shared && !tail) return labels;
  const rename = new Map(distinct.map((l, i) => [l, words[i].slice(shared, words[i].length - tail).join(' ').replace(/^[\s\-–—:：,.]+/u, '') || l]));
  return labels.map(l => (l === null ? null : rename.get(l)!));
}

/**
 * The name a numbered heading gives (`Физика` of `Часть 2 — Физика`), the last among lines: a run
 * that starts over under such a heading is that section (the title above it names the paper).
 */
function numberedHeading(features: LineFeatures[], columnOf: (l: Line) => Column): string | null {
  for (let k = features.length - 1; k >= 0; k--) {
    if (features[k].numberedHeading === null) continue;
    // A line the one above runs on into is no heading of its own (`第1部 — 数学 問1から問4は各4.5点。 問5か`
    // / `ら問6は各1.5点。`: the second's `問6` is the range's): the heading is the line it continues.
    let h = k;
    while (h > 0 && continues(features[h - 1], features[h], columnOf)) h--;
    const named = features.slice(h, k + 1).find(f => f.numberedHeading !== null);
    return named!.numberedHeading;
  }
  return null;
}

/** Whether `next` is the line `prev` runs on into: the next line of its column, set alike, `prev` ending at the far edge. */
function continues(prev: LineFeatures, next: LineFeatures, columnOf: (l: Line) => Column): boolean {
  return next.index === prev.index + 1 && prev.line.page === next.line.page && prev.line.column === next.line.column
    && sizedAlike(prev, next) && lineWraps(prev.line, columnOf(prev.line), prev.line.spans[0]?.size ?? 0);
}

/**
 * Two lines set in one size: within HEADING_SIZE_ALIKE of the body's; on a page read by OCR, whose
 * sizes are its line boxes' (stretched by ascenders, descenders and brackets), within OCR's spread.
 */
function sizedAlike(a: LineFeatures, b: LineFeatures): boolean {
  if (a.ocr && b.ocr) return Math.max(a.sizeRatio, b.sizeRatio) <= Math.min(a.sizeRatio, b.sizeRatio) * OCR_SIZE_SPREAD;
  return Math.abs(a.sizeRatio - b.sizeRatio) < HEADING_SIZE_ALIKE;
}

/**
 * The largest heading among lines, the last of equals (the one nearest what it heads). The paper's
 * title names the paper, not a run: where a page set in three columns has it in its middle column
 * (`Итоговый тест по алгебре` over `Физика`), the heading under it names the run. A heading set over
 * two lines (its first running on into the next: `continues`) is one heading: `第1部 — 数学 問1から問4は各4.5点。 問5か`
 * / `ら問6は各1.5点。` is named by its first line's words, not by its last line.
 */
export function prominentHeading(features: LineFeatures[], title: LineFeatures | null, columnOf: (l: Line) => Column): string | null {
  const headings = features.filter(f => f.heading === 'plain' || f.heading === 'section');
  const named = headings.some(f => f !== title) ? headings.filter(f => f !== title) : headings;
  const groups: { size: number; text: string; last: LineFeatures }[] = [];
  for (const f of named) {
    const g = groups[groups.length - 1];
    if (g && continues(g.last, f, columnOf)) {
      g.text = joinWrapped(g.text, f.text.trim());
      g.last = f;
    } else groups.push({ size: f.sizeRatio, text: f.text.trim(), last: f });
  }
  let best: (typeof groups)[number] | null = null;
  // A form's row of fields names nothing, though OCR split it into lines it measures large (`Time
  // allowed: 45 minutes` … `Name: ____`, the blank's rule in its box).
  for (const g of groups) if ((!best || g.size >= best.size) && !FORM_ROW.test(g.text)) best = g;
  return best ? best.text : null;
}

/** Two lines of one heading are set this close in size (a share of the body's). */
const HEADING_SIZE_ALIKE = 0.05;

/** A title is set this much larger than every other heading of the paper. */
const TITLE_SIZE = 1.2;

/** The paper's title: the largest heading of its first page, set larger than every other heading of the paper; null where none stands out. */
export function paperTitle(features: LineFeatures[]): LineFeatures | null {
  const headings = features.filter(f => f.heading === 'plain' || f.heading === 'section');
  const first = headings.filter(f => f.line.page === headings[0]?.line.page);
  const top = first.sort((a, b) => b.sizeRatio - a.sizeRatio)[0];
  if (!top) return null;
  return headings.every(f => f === top || top.sizeRatio >= f.sizeRatio * TITLE_SIZE) ? top : null;
}

export function assemble(doc: PaperDocument, features: LineFeatures[], reading: Reading, aside: ReadonlyMap<number, AsideKind>, bodySize: number): Assembly {
  const t = doc.template;
  const lines = doc.lines;
  const roles: LineRole[] = lines.map(() => 'front');
  const opens = new Map(reading.anchors.map((a, k) => [a.candidate.f.index, k]));
  /** The spans of a line that print its question's number (and what goes with it: `Question`, `.`). */
  const anchorOf = (line: Line, lead: Lead | null): Span[] => {
    const page = doc.pages[line.page - 1];
    return lead && !page.ocr ? splitLead(line, lead)
      : matchAnchor(line, page.columns[line.column], bodySize, t, true)?.spans ?? marginMark(line, page.columns[line.column], bodySize, t) ?? (lead ? splitLead(line, lead) : [line.spans[0]]);
  };
  // A family template names its sections; a paper read by its own conventions is named by its headings.
  const labels = t.infer ? runLabels(features, reading, t, l => doc.pages[l.page - 1].columns[l.column]) : reading.anchors.map(() => null);
  // Where a new run of numbering starts (a restart), what stands before it from its most prominent
  // heading on is that section's front matter, not the last question's text.
  const frontFrom = new Set<number>();
  reading.anchors.forEach((a, k) => {
    if (k === 0 || a.number > reading.anchors[k - 1].number) return;
    const from = reading.anchors[k - 1].candidate.f.index + 1;
    // On a paper read by its own conventions, a numbered heading the reading passed over (`Часть 2 — Физика`) heads the new run too.
    const big = features.slice(from, a.candidate.f.index).find(f => ((f.heading === 'plain' || f.heading === 'section') && f.sizeRatio >= FRONT_HEADING_SIZE) || (t.infer && f.numberedHeading !== null));
    if (big) frontFrom.add(big.index);
  });
  /** Whether the first line after `i` that the reading does not set aside opens a question or is a heading. */
  const headsGroup = (i: number) => {
    let k = i + 1;
    while (k < features.length && aside.has(k)) k++;
    return k >= features.length || opens.has(k) || features[k].heading !== null;
  };
  /** Whether the first line after `i` that the reading does not set aside opens a question, in `i`'s page and column. */
  const headsQuestion = (i: number) => {
    let k = i + 1;
    while (k < features.length && aside.has(k)) k++;
    return k < features.length && opens.has(k) && lines[k].page === lines[i].page && lines[k].column === lines[i].column;
  };
  const drafts: Draft[] = [];
  let current: Draft | null = null;
  let typeHint: QuestionType | null = null;
  let bodySection: string | null = t.sections.default;
  let sectionPoints: number | null = null;
  let marking: Marking | null = null;
  let lastRule: MarkRule | null = null;
  let wrapped = -1;
  // The size of the heading that stated what the questions under it share (against the body's).
  let groupHeading = 0;
  // An instructions block ends where the reading takes its first question in it.
  let instructionsOver = false;
  for (const [i, line] of lines.entries()) {
    const f = features[i];
    if (reading.end !== null && i >= reading.end) { roles[i] = 'tail'; doc.tail.push(line); continue; }
    const kind = aside.get(i);
    if (f.heading === 'instructions') instructionsOver = false;
    // A heading that names a section or states its questions' marks ends the instructions too
    // (`1 영역 — 수학 (각 3점)` under `유의 사항`, before the section's first question).
    const headsSection = f.heading === 'section' || ((f.heading !== null || f.numberedHeading !== null) && headingPoints(features, i, t, k => opens.has(k)) !== null);
    if (kind === 'instructions' && (instructionsOver || opens.has(i) || headsSection)) instructionsOver = true;
    else if (kind) {
      // Instructions are furniture; what follows the end of the questions in a column, and a key
      // appended to the paper, are the tail (where the answers stage reads a key).
      const tail = kind === 'stopped' || kind === 'key';
      roles[i] = tail ? 'tail' : 'aside';
      doc.pages[line.page - 1].furniture.push(...line.spans);
      if (tail) { doc.tail.push(line); current = null; }
      continue;
    }
    if (frontFrom.has(i)) current = null;
    // The end of a heading's statement of points, wrapped onto this line, is the heading's.
    if (i === wrapped) { roles[i] = 'front'; continue; }
    const pointsHere = headingPoints(features, i, t, k => opens.has(k));
    // On a paper read by its own conventions a heading opens a new group: what the last one stated
    // ends. One set smaller than the heading that stated it (a table's bold header row) is inside the
    // group, and so is one inside a question's text (`or` before its alternative, a row of picture
    // options' labels): a heading opens a group where a question or another heading follows it.
    if (t.infer && f.heading === 'plain' && !pointsHere && f.sizeRatio >= groupHeading * INNER_HEADING && (current === null || headsGroup(i))) {
      sectionPoints = null; typeHint = null; groupHeading = 0;
      // Set right over the next question, in its column (`ตอนที่ C` over question 24), such a heading
      // is the next group's, not the question's last line. Not a line over another heading (a figure's
      // `NOT TO` / `SCALE`), nor one that ends its page (`Please turn over`), nor a row of labels (a
      // picture option's `A B C D`).
      if (current !== null && !f.optionLabels.length && !f.marks && headsQuestion(i)) { current = null; roles[i] = 'front'; continue; }
    }
    const rule = markingLine(f.text, t);
    if (f.heading === 'section' || f.headingType || pointsHere || rule) {
      if (f.heading === 'section') { bodySection = f.headingId; sectionPoints = null; typeHint = null; marking = null; }
      if (f.headingType) typeHint = f.headingType;
      if (f.headingType || pointsHere) groupHeading = f.sizeRatio;
      if (pointsHere) {
        sectionPoints = pointsHere.value;
        if (pointsHere.lines === 2) wrapped = i + 1;
      }
      if (rule) marking = withRule(marking, rule);
      lastRule = rule?.rule ?? null;
      // A heading's wrapped lines belong to no question.
      current = null;
      roles[i] = 'front';
      continue;
    }
    // A rule's condition wrapped onto the next line (`… both of` / `which are correct;`) goes on in lower case.
    if (lastRule && current === null && /^\s*\p{Ll}/u.test(f.text)) {
      lastRule.when = `${lastRule.when} ${f.text.trim().replace(/[;；]$/u, '')}`;
      continue;
    }
    lastRule = null;
    const k = opens.get(i);
    if (k !== undefined) {
      const a = reading.anchors[k];
      const page = doc.pages[line.page - 1];
      const section = labels[k] ?? (t.sections.headingWhere === 'body' ? bodySection : page.section ?? t.sections.default);
      const anchor = anchorOf(line, a.candidate.lead);
      current = { section, number: a.number, anchor: a.candidate.runsOn ? runOnCut(line, anchor, a.number) : anchor, lines: [line], typeHint, sectionPoints, marking };
      drafts.push(current);
      roles[i] = 'question';
      continue;
    }
    if (current) {
      // A twin's first line prints the question's number again: no more the stem's than the anchor.
      if (line.twin && f.lead?.number === current.number && !current.lines.some(l => l.twin)) current.anchor = [...current.anchor, ...anchorOf(line, f.lead)];
      current.lines.push(line);
      roles[i] = 'question';
    }
  }
  const ranges = sectionRanges(doc.cover, t);
  for (const d of drafts) d.section = ranges.find(r => d.number >= r.from && d.number <= r.to)?.label ?? d.section;
  return { drafts, roles };
}

/** Builds the questions from the drafts (options, marks, parts, type, regions). */
export function questionsOf(doc: PaperDocument, drafts: Draft[]) {
  return typeByPaper(doc, drafts, drafts.map(d => buildQuestion(doc, d)));
}
