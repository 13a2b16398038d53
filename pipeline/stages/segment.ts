// segment: questions from the lines in reading order. Reading a page is not finding questions: the
// paper's structure is decided once, over the whole paper (structure/decode.ts), from one record of
// features per line (structure/candidates.ts), with the template's conventions as priors; the
// chosen anchors then open questions whose lines run to the next (structure/assemble.ts), and what
// a question holds (options, marks, parts, type, regions) is read by the processors in structure/.
// How sure the reading is — each question's margin, the share of the paper it explains — is kept
// on the document (structure/judge.ts), so an unsure reading ends `needs-review`, never silent.
import type { PaperDocument, Span } from '../document.ts';
import type { Stage, StageContext } from '../stage.ts';
import type { Template } from '../template.ts';
import type { Conventions } from '../document.ts';
import { splitLead } from '../structure/lead.ts';
import { labelAlphabets, learnMarks, learnOptions, learnOtherOptions, marksPattern, unitGarbled, unitReadAsDigits, type Block, type OptionScheme } from '../structure/learn.ts';
import { checkConventions, inferConventions } from '../structure/conventions.ts';
import { allEnclosed } from '../text/enclosed.ts';
import { carriedLabels, lineFeatures, type LineFeatures } from '../structure/candidates.ts';
import { candidatesOf, setAside, type LookAlikes } from '../structure/reading-input.ts';
import { decode, selectionLike, type Candidate, type DecodeSettings, type Reading } from '../structure/decode.ts';
import { assemble, headingPoints, questionsOf, type LineRole } from '../structure/assemble.ts';
import type { Draft } from '../structure/question.ts';
import { judge, readConventions } from '../structure/judge.ts';
import { twinOrder } from '../structure/twin-columns.ts';
import type { LabelStats } from '../structure/label-role.ts';
import { labelGroups } from '../structure/label-groups.ts';
import { learnOptionRows } from '../structure/option-rows.ts';
import { applyRangeMarks, rangeMarks, type HeadLine } from '../structure/range-marks.ts';
import { headLines } from '../text/lines.ts';
import { applyRangeTypes, rangeTypes } from '../structure/range-types.ts';
import { canOpen } from '../structure/sections.ts';
import { STATED_COUNT_PULL, STATED_COUNT_PULL_MOST, STATED_COUNT_TRIES } from '../structure/model.ts';
import { statedCount } from '../text/stated-count.ts';
import { readCover } from '../text/cover.ts';

export { matchAnchor, ocrNumberText } from '../structure/anchors.ts';
export { findPoints } from '../structure/marks.ts';
export { buildQuestion, type Draft } from '../structure/question.ts';
export { regionsOf } from '../structure/regions.ts';
export { sectionRanges } from '../structure/sections.ts';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
}

/**
 * A paper a family template claims is read by inference too, as a check on its numbering. Where the
 * template's own numbering explains (almost) nothing and another scheme explains the paper, the cover
 * matched the wrong family (a school test whose title names the subject as KICE's booklets do): the
 * fallback template is returned, and the paper is read as no family's, its marks and ranges too.
 * Where another explains clearly more, it is reported.
 */
function checkTemplate(doc: PaperDocument, bodySize: number, templates: readonly Template[]): Template | null {
  const fallback = templates.find(x => x.infer);
  const check = fallback ? checkConventions(doc, bodySize, fallback) : null;
  if (!check) return null;
  doc.exam.conventions = check.own;
  const { numbering } = check.conventions;
  if (numbering.id === 'template') return null;
  const own = check.own.numbering;
  const what = `the template's numbering explains ${own.inSequence} numbers in sequence (${own.carrying} with options or marks); the paper's own ${numbering.id} explains ${numbering.inSequence} (${numbering.carrying})`;
  if (own.inSequence < 2 && own.carrying < 2 && numbering.inSequence >= 2) {
    doc.messages.warn('segment/template-fallback', `${what}: the paper is read by its own conventions, as no family's (see exam.conventions)`, { stage: 'segment' });
    return fallback!;
  }
  if (numbering.carrying >= own.carrying + Math.max(3, own.carrying * 0.25) && numbering.inSequence >= own.inSequence) {
    doc.exam.conventions = check.conventions;
    doc.messages.warn('segment/conventions-disagree', `${what}: the ${doc.template.id} template may not fit this paper`, { stage: 'segment' });
  }
  return null;
}

/** The paper read as no family's: the fallback template, and its cover read again by it. */
function readAsNoFamily(doc: PaperDocument, fallback: Template): void {
  doc.template = fallback;
  doc.exam = readCover(fallback, doc.cover);
}

/**
 * Whether a family template that prints option labels claims a paper none of whose questions print
 * them (KICE's ①–⑤ on a school test whose title only names the subject, 수학 영역): the cover matched
 * the wrong family, and the paper is read as no family's. Pages read by OCR are left to the family
 * where its labels are letters or digits, which OCR may miss where they are printed; enclosed ones
 * (①) are found there from their rings, and their absence says as much as on a text layer.
 */
function optionsUnseen(doc: PaperDocument, bodySize: number, templates: readonly Template[]): Template | null {
  const fallback = templates.find(x => x.infer);
  const markers = doc.template.options.markers;
  if (!fallback || doc.template.infer || !markers.length || (doc.pages.some(p => p.ocr) && !allEnclosed(markers))) return null;
  const check = checkConventions(doc, bodySize, fallback);
  return check && !check.own.options ? fallback : null;
}

/** Each label scheme's questions read with its labels as options or as parts (structure/label-groups.ts), said on the paper. */
function decideGroups(doc: PaperDocument, drafts: Draft[], others: OptionScheme[]): Map<Draft, readonly string[]> {
  const t = doc.template;
  const groups = labelGroups(drafts.map(d => d.lines), t, others);
  for (const g of groups) for (const i of g.questions) drafts[i].template = g.template;
  const parted = new Map(groups.filter(g => g.parts).flatMap(g => g.questions.map(i => [drafts[i], g.markers] as const)));
  const first = groups.find(g => g.markers === t.options.markers);
  if (first?.parts) doc.template = first.template;
  for (const g of groups.filter(x => x.parts)) {
    doc.messages.info('segment/labels-are-parts', `the labels ${g.markers.join(' ')} open parts, not options${groups.length > 1 ? ` in questions ${numbersOf(drafts, g.questions)}` : ''} (${describe(g.stats!)})`, { stage: 'segment' });
  }
  if (groups.length > 1) {
    doc.messages.info('segment/label-groups', `label schemes by question: ${groups.map(g => `${g.markers.join(' ')} ${g.parts ? 'as parts' : 'as options'} in ${numbersOf(drafts, g.questions)}`).join('; ')}`, { stage: 'segment' });
  }
  if (!doc.exam.conventions || !groups.some(g => g.parts)) return parted;
  // The paper's conventions: the scheme its choices print (over the most questions), and its part levels.
  const choices = groups.filter(g => !g.parts && g.stats).sort((a, b) => b.questions.length - a.questions.length)[0];
  const parts = groups.filter(g => g.parts).sort((a, b) => b.questions.length - a.questions.length)[0];
  doc.exam.conventions = {
    ...doc.exam.conventions,
    options: choices ? { id: 'learned', markers: choices.markers, pattern: choices.template.options.pattern, inOrder: choices.stats!.runs } : null,
    parts: parts.template.parts?.levels ?? [],
  };
  return parted;
}

/** The numbers of some drafts, as a reader names them (`1–10, 12`). */
function numbersOf(drafts: Draft[], indices: number[]): string {
  const ns = indices.map(i => drafts[i].number);
  const out: string[] = [];
  for (let k = 0; k < ns.length; k++) {
    let j = k;
    while (j + 1 < ns.length && ns[j + 1] === ns[j] + 1) j++;
    out.push(j > k ? `${ns[k]}–${ns[j]}` : `${ns[k]}`);
    k = j;
  }
  return out.join(', ');
}

const describe = (s: LabelStats) => `${s.runs} runs, ${s.itemLength.toFixed(0)} characters an item, ${(s.sideBySide * 100).toFixed(0)}% side by side, ${(s.marked * 100).toFixed(0)}% with marks, ${(s.sameCount * 100).toFixed(0)}% of one length`;

/**
 * One reading of the paper's structure with its template as it stands: features, lines set aside,
 * the decoder's choice, and whether the paper states its count. `firstLook`: a look to learn from
 * only (`DecodeSettings.bareNumbersFree`); `skips`: an earlier reading showed a selection's gaps (`selectionLike`).
 */
function readPaper(doc: PaperDocument, bodySize: number, lookAlikes: LookAlikes, { firstLook = false, skips = false, perAnchor = 0 } = {}) {
  const t = doc.template;
  const features = lineFeatures(doc, bodySize, t);
  const aside = setAside(features, doc);
  const candidates = candidatesOf(doc, features, aside, bodySize, lookAlikes);
  // Lines above the pages' bodies, at their places among the body's lines (which a twin reading reorders).
  const head = headLines(doc);
  const count = statedCount(doc.cover, t.re.count);
  const stated = count !== null;
  const reading = decode(features, candidates, {
    opens: n => canOpen(t, n),
    stated,
    statedCount: count,
    skips,
    maxJump: t.numbering.maxJump ?? 3,
    restartStops: t.numbering.restart === 'stop',
    // A first look, to learn from only, reads the paper as one whose questions carry nothing yet
    // known: its options may be labelled in a way nothing has learned (`(ก)` … `(ง)`), so that only
    // its last question, with parts, would carry, and no run of it be read at all.
    paperCarries: !firstLook && features.filter(f => f.marks || f.part || carriedLabels(f).includes(1)).length >= 3,
    max: t.numbering.max,
    plainHeadingsSection: !!t.infer,
    bareNumbersFree: firstLook,
    ranges: statedNumbers(features, doc, head),
    perAnchor,
  });
  return { features, aside, reading, candidates, head, stated, skips };
}

type PaperReading = ReturnType<typeof readPaper>;

/**
 * The reading that holds the count the paper states on its cover, where the best reading holds
 * fewer: each anchor is made worth a little more than its own score (STATED_COUNT_PULL, halved
 * where the reading then holds too many, doubled where still too few), and the first reading
 * holding exactly the count is taken (a selection's `15．` after `10．`, whose block costs a gap,
 * left in question 10's text). Never
 * toward fewer: the anchors cheapest to leave out of a reading holding too many are as often
 * questions as the lines wrongly taken (OCR's garbled numbers on a scan). Null where no pull
 * reaches the count: the reading stands, and the judge says the count disagrees.
 */
function toStatedCount(doc: PaperDocument, bodySize: number, lookAlikes: LookAlikes, read: PaperReading): PaperReading | null {
  const count = statedCount(doc.cover, doc.template.re.count);
  const found = read.reading.anchors.length;
  if (count === null || found === 0 || found >= count) return null;
  let pull = STATED_COUNT_PULL;
  for (let k = 0; k < STATED_COUNT_TRIES && pull <= STATED_COUNT_PULL_MOST; k++) {
    const again = readPaper(doc, bodySize, lookAlikes, { skips: read.skips, perAnchor: pull });
    const held = again.reading.anchors.length;
    if (held === count) return again;
    pull = held > count ? pull / 2 : pull * 2;
  }
  return null;
}

/**
 * What the paper states marks for, before any reading (decode.ts `ranges`): ranges stated on any
 * line (a heading, an instruction, numbered or not), and headings that state each question's marks,
 * up to the next heading.
 */
function statedNumbers(features: LineFeatures[], doc: PaperDocument, head: readonly HeadLine[]): DecodeSettings['ranges'] {
  const t = doc.template;
  // Every line may state marks for a range, one with a number of its own too: an item of a numbered
  // instruction list (`5. الأسئلة من 3 إلى 9 لكل منها 3 درجات.`) is where a paper states them.
  const ranges = rangeMarks(features, features.map(() => 'front'), doc, head);
  const headed = features.flatMap((f, i) => (f.heading !== null || f.numberedHeading !== null ? [i] : []));
  // (Before any reading, any next line may open a question: a heading's statement is read on its own line.)
  const each = headed.filter(i => headingPoints(features, i, t, () => true) !== null);
  return [...ranges, ...each.map(i => ({ from: 1, to: t.numbering.max, line: i, until: headed.find(k => k > i) ?? features.length }))];
}

/**
 * A reading's question blocks, less their numbers: what conventions are learned from. Where the
 * number's run goes on with the question's text (`1． (0–1) log`), that text stays in the block: the
 * first line is a copy with the run cut after the number (the paper's own line is left as it is).
 */
function blocksOf({ features, reading }: Pick<ReturnType<typeof readPaper>, 'features' | 'reading'>): Block[] {
  return blocksFrom(features, reading.anchors.map(a => a.candidate), reading.end ?? features.length);
}

function blocksFrom(features: LineFeatures[], opening: Candidate[], end: number): Block[] {
  const starts = opening.map(c => c.f.index);
  return starts.map((from, k) => {
    const lines = features.slice(from, starts[k + 1] ?? end).map(f => f.line);
    const lead = opening[k].lead;
    if (!lead) return { lines, skip: new Set<Span>() };
    const first = { ...lines[0], spans: [...lines[0].spans] };
    return { lines: [first, ...lines.slice(1)], skip: new Set(splitLead(first, lead)) };
  });
}

/** A first reading that takes fewer than one in this many of the lines numbered as its questions are has left most of the paper out. */
const PARTIAL_READING = 2;

/**
 * The blocks conventions are learned from: the reading's questions, or, where the reading leaves
 * out lines numbered as its questions are (at the column's edge, in its questions' style), every
 * such line's block where it left out most. A first reading cannot see options it has not learned
 * yet: a run of choice questions whose labels no scheme named (`(1) 54 (2) 61` on an Arabic page)
 * carries nothing in its eyes, and reads as an instruction list before the questions that carry parts.
 */
export function learningBlocks(read: Pick<ReturnType<typeof readPaper>, 'features' | 'reading' | 'candidates'>): Block[] {
  const { features, reading, candidates } = read;
  const styles = new Map<string, number>();
  for (const a of reading.anchors) styles.set(a.candidate.style, (styles.get(a.candidate.style) ?? 0) + 1);
  const style = [...styles.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const end = reading.end ?? features.length;
  const alike = [...new Map(candidates.filter(c => (c.style === style || c.style === 'ocr') && c.f.atEdge && c.read !== null && c.f.index < end).map(c => [c.f.index, c])).values()]
    .sort((a, b) => a.f.index - b.f.index);
  // A number OCR read at the margin counts in any style (its lead is what OCR made of the paper's:
  // `1` bold, then `2` read with no bold). Only where the reading left out most of them: a few
  // numbered instructions before the questions would teach the paper their shape too.
  return alike.length > reading.anchors.length * PARTIAL_READING ? blocksFrom(features, alike, end) : blocksOf(read);
}

/**
 * The option labels and marks a paper's questions print, learned from a reading's question blocks
 * (less their numbers): the template to read it again with, or null where nothing new was learned.
 */
function learnFromReading(doc: PaperDocument, read: ReturnType<typeof readPaper>, root: string): { template: Template; conventions: Partial<Conventions> } | null {
  const blocks = learningBlocks(read);
  if (!blocks.length) return null;
  const t = doc.template;
  const options = learnOptions(blocks, root);
  const shapes = learnMarks(blocks);
  // On a scan, a mark whose unit OCR read as digits is read first, where the paper prints a unit;
  // one whose unit or closing bracket it garbled, last (where the printed shapes read none).
  const scanned = doc.pages.some(p => p.ocr);
  const misread = scanned ? unitReadAsDigits(shapes) : null;
  const garbled = scanned ? unitGarbled(shapes) : null;
  const learnedMarks = marksPattern(shapes);
  const marks = learnedMarks ? [misread, learnedMarks, garbled].filter(p => p !== null).join('|') : null;
  const newOptions = options && !(options.markers.join() === t.options.markers.join() && options.pattern === t.options.pattern);
  if (!newOptions && !marks) return null;
  const points = marks ? `${marks}${t.points.pattern ? `|${t.points.pattern}` : ''}` : t.points.pattern;
  const template: Template = Object.freeze({
    ...t,
    options: newOptions ? { ...t.options, markers: options.markers, pattern: options.pattern } : t.options,
    points: { ...t.points, pattern: points },
    re: {
      ...t.re,
      option: newOptions ? new RegExp(options.pattern!, 'gu') : t.re.option,
      points: points ? new RegExp(points, 'gu') : t.re.points,
    },
  });
  // The same alphabet as the scheme inferred before keeps that scheme's name (only its shape was learned).
  const known = doc.exam.conventions?.options;
  const id = known && known.markers.join() === options?.markers.join() ? known.id : options?.id;
  return { template, conventions: newOptions ? { options: { id: id!, markers: options.markers, pattern: options.pattern, inOrder: options.blocks } } : {} };
}

/**
 * Numbered lines the reading left out of the questions before its first one (a cover's numbered
 * instructions): said once, so a reader sees why `1.`–`n.` there are not questions.
 */
function reportInstructions(doc: PaperDocument, features: LineFeatures[], roles: LineRole[], reading: Reading): void {
  const first = reading.anchors[0]?.candidate.f.index;
  if (first === undefined) return;
  const left = features.filter(f => f.index < first && f.lead && !f.heading && roles[f.index] !== 'question');
  if (left.length < 2) return;
  doc.messages.info('segment/numbered-instructions', `numbers ${left[0].lead!.number}–${left[left.length - 1].lead!.number} before question ${reading.anchors[0].number} read as instructions, not questions`, { page: left[0].line.page, stage: 'segment' });
}

export function segmentStage(): Stage {
  return {
    name: 'segment',
    kind: 'processor',
    run(doc: PaperDocument, ctx: StageContext) {
      const bodySize = median(doc.lines.flatMap(l => l.spans.filter(s => !s.math).map(s => s.size)));
      // The options a paper prints (and, on a paper no family claims, a first guess at its numbering).
      const unfit = optionsUnseen(doc, bodySize, ctx.templates);
      if (unfit) {
        doc.messages.warn('segment/template-unfit', `the ${doc.template.id} template's options (${doc.template.options.markers.join(' ')}) open no question of this paper: it is read by its own conventions`, { stage: 'segment' });
        readAsNoFamily(doc, unfit);
      }
      let inferred = inferConventions(doc, bodySize);
      const wrongFamily = inferred ? null : checkTemplate(doc, bodySize, ctx.templates);
      if (wrongFamily) {
        readAsNoFamily(doc, wrongFamily);
        inferred = inferConventions(doc, bodySize);
      }
      if (inferred) {
        doc.template = inferred.template;
        doc.exam.conventions = inferred.conventions;
      }
      // A first reading; on a paper read by its own conventions, what its questions print (their option
      // labels, their marks) is learned from that reading's blocks, and the paper is read again with it.
      const { lookAlikes } = labelAlphabets(ctx.config.root);
      let read = readPaper(doc, bodySize, lookAlikes);
      if (doc.template.infer) {
        // A paper numbered with bare numbers (`1 计算…`) whose options no inferred scheme names
        // (`(1) 53 (2) 43`) carries nothing in the decoder's eyes and reads nothing: its blocks are
        // then taken from a first look that lets bare numbers open questions, to learn from only.
        const learnFrom = read.reading.anchors.length ? read : readPaper(doc, bodySize, lookAlikes, { firstLook: true });
        const learned = learnFromReading(doc, learnFrom, ctx.config.root);
        if (learned) {
          doc.template = learned.template;
          if (doc.exam.conventions) doc.exam.conventions = { ...doc.exam.conventions, ...learned.conventions };
          read = readPaper(doc, bodySize, lookAlikes);
        }
      }
      // A paper printed twice side by side (a language a column): read again twin by twin.
      const twinLines = twinOrder(read.features, read.reading);
      if (twinLines) {
        doc.lines = twinLines;
        read = readPaper(doc, bodySize, lookAlikes);
        doc.messages.info('segment/twin-columns', 'the paper prints its questions twice side by side (a column a language): each question is read with its twin beside it', { stage: 'segment' });
      }
      // A paper whose reading skips numbers again and again, between numbers read as printed, is a
      // selection keeping a longer form's numbers: read again with its gaps (and a late first
      // number) as cheap as on a paper that states its count, so `30:` after `27:` stays 30.
      if (!read.stated && selectionLike(read.reading)) {
        read = readPaper(doc, bodySize, lookAlikes, { skips: true });
        doc.messages.info('segment/selection', 'the reading skips numbers again and again between numbers read as printed (a selection keeping a longer form\'s numbers): its gaps are read as the paper\'s own', { stage: 'segment' });
      }
      // A paper stating its count, read with fewer: the reading that holds the count, where a
      // little more weight on each question reaches it.
      const counted = toStatedCount(doc, bodySize, lookAlikes, read);
      if (counted) {
        doc.messages.info('segment/stated-count', `the paper states ${counted.reading.anchors.length} questions and the best reading held ${read.reading.anchors.length}: read again with each question weighed toward the count`, { stage: 'segment' });
        read = counted;
      }
      const t = doc.template;
      const { features, aside, reading } = read;
      const { drafts, roles } = assemble(doc, features, reading, aside, bodySize);
      // On scanned pages, whether the paper sets its options in rows (read by place where OCR garbled
      // their labels): learned before the labels are decided, which garbled labels may mislead.
      const rows = learnOptionRows(drafts, t, l => doc.pages[l.page - 1].ocr === true, labelAlphabets(ctx.config.root));
      // On a paper read by its own conventions, whether its lettered labels are options or parts is
      // decided over the questions that print them: all of them, or each label scheme's own where
      // the paper prints several (choices in one section, parts in another).
      const parted = t.infer ? decideGroups(doc, drafts, learnOtherOptions(blocksOf(read), ctx.config.root, t.options)) : new Map<Draft, readonly string[]>();
      // Not in a question whose labels the paper's decision read as its parts' (`a.` `b.` `c.` one
      // under another, each with its mark): there the rows are its parts, not options read by place.
      const byPlace = rows ? drafts.filter(d => !parted.get(d)?.some(m => m.toLowerCase() === rows.labels[0].toLowerCase())) : [];
      if (rows && byPlace.length) {
        for (const d of byPlace) d.rows = rows;
        doc.messages.info('segment/option-rows', `the questions end in rows of ${rows.count} options (${rows.labels.join(' ')}): where OCR garbled a row's labels, its options are read by place`, { stage: 'segment' });
      }
      doc.questions = questionsOf(doc, drafts);
      // Marks stated once for a range of questions (a section's heading, a statement on the cover).
      const ranges = rangeMarks(features, roles, doc, read.head);
      if (ranges.length) {
        const at = new Map(doc.questions.map(q => [q, doc.lines.indexOf(q.lines[0])]));
        const given = applyRangeMarks(doc.questions, ranges, at);
        if (given) doc.messages.info('segment/range-marks', `${given} questions take their marks from a statement for their range (${ranges.map(r => `${r.from}–${r.to}: ${r.each}`).join('; ')})`, { stage: 'segment' });
      }
      // The kind of answer stated for a range of questions (grid-ins, choices).
      const kinds = rangeTypes(features.map(f => f.text), t);
      if (kinds.length) {
        const at = new Map(doc.questions.map(q => [q, doc.lines.indexOf(q.lines[0])]));
        const changed = applyRangeTypes(doc.questions, kinds, at);
        if (changed) doc.messages.info('segment/range-types', `${changed} questions take their type from a statement for their range (${kinds.map(r => `${r.from}–${r.to}: ${r.type}`).join('; ')})`, { stage: 'segment' });
      }
      reportInstructions(doc, features, roles, reading);
      readConventions(doc, reading, features);
      judge(doc, reading, features, roles);
      if (!doc.questions.length) doc.messages.error('segment/no-questions', 'no numbered question was found', { stage: 'segment' });
    },
  };
}
