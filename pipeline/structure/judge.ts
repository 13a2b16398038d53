// How sure the reading of a paper is, said on the document rather than left silent: each question's
// margin (how much better the reading is with it than without it), the paper's coverage (the share of
// its body text the reading explains as questions, their front matter, set-aside blocks or a tail),
// and a stated count the reading does not reach. An unsure paper is `needs-review`, with its reasons.
import type { PaperDocument } from '../document.ts';
import type { LineFeatures } from './candidates.ts';
import { twinPairs } from './twin-columns.ts';
import type { Reading } from './decode.ts';
import type { LineRole } from './assemble.ts';
import { MIN_COVERAGE, SURE_MARGIN } from './model.ts';
import { escapeRegExp } from '../template.ts';
import { frontText, statedCount } from '../text/stated-count.ts';

/** How many numbers a key may answer beyond the reading's run (past its last number's next) before they count against the reading. */
const KEY_STRAYS = 1;
/** A paper's front (cover, instructions) may fill at most this share of its pages before the first question. */
const FRONT_SHARE = 0.2;
/** …or this many pages, whichever is more. */
const FRONT_PAGES = 2;

/** The numbering the reading chose, recorded as a convention a template could state. */
export function readConventions(doc: PaperDocument, reading: Reading, _features: LineFeatures[]): void {
  const styles = new Map<string, number>();
  for (const a of reading.anchors) styles.set(a.candidate.style, (styles.get(a.candidate.style) ?? 0) + 1);
  const style = [...styles].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!style || !doc.exam.conventions) return;
  const inSequence = reading.anchors.filter((a, k) => k > 0 && a.number === reading.anchors[k - 1].number + 1).length;
  doc.exam.conventions = {
    ...doc.exam.conventions,
    numbering: { id: numberingName(doc, reading, style), pattern: stylePattern(style), inSequence, carrying: doc.questions.filter(q => q.options.length >= 2 || q.points !== null || q.parts.length > 0).length },
  };
}

/**
 * The name of the numbering the reading chose: the name the conventions found before the reading
 * gave it (`template`, `dot`, `word:Pregunta` …: pipeline/structure/conventions.ts) where its pattern
 * opens at least half of the questions read; else the decoder's own style key (`#.`, `(L.#)`).
 */
function numberingName(doc: PaperDocument, reading: Reading, style: string): string {
  const before = doc.exam.conventions?.numbering;
  if (!before?.pattern) return style;
  const re = new RegExp(before.pattern, 'u');
  const hits = reading.anchors.filter(a => re.test(a.candidate.f.text)).length;
  return hits * 2 >= reading.anchors.length ? before.id : style;
}

/** A lead style (`question #`, `L.#.`, `(#)`, `#`) as the pattern a template's `numbering.pattern` takes. */
export function stylePattern(style: string): string {
  if (style === 'ocr') return '^\\s*(\\d{1,3})\\s*[.,]';
  const body = escapeRegExp(style)
    .replace(/^\\\(/, '[(（\\[]\\s*')
    .replace('L\\.', '\\p{Lu}[.．]')
    .replace('\\#\\.', '\\d{1,2}[.．]')
    .replace(/\\#|#/, '(\\d{1,3})')
    .replace(/ /g, '\\s*');
  return `^\\s*${body}(?![0-9])`;
}

/**
 * The share of the paper's body text (characters, spaces left out) the reading explains: its
 * questions, the blocks it set aside (instructions, a tail where a key may be) and front matter.
 * Front matter is a cover and instructions before the first question (a few pages at most), or a
 * heading and what stands under it before a question that follows (a section's own front). Text
 * after the last question that no question follows — a subject whose questions the reading did not
 * take, set down as a heading's front — is explained by nothing.
 */
export function coverageOf(doc: PaperDocument, reading: Reading, features: LineFeatures[], roles: LineRole[]): number {
  const firstLine = reading.anchors[0]?.candidate.f.index ?? Infinity;
  const lastLine = reading.anchors[reading.anchors.length - 1]?.candidate.f.index ?? -1;
  const first = reading.anchors[0]?.candidate.f.line.page ?? Infinity;
  const frontLimit = Math.max(FRONT_PAGES, Math.ceil(doc.pageCount * FRONT_SHARE));
  let total = 0, claimed = 0;
  for (const f of features) {
    const n = f.text.replace(/\s+/g, '').length;
    total += n;
    const role = roles[f.index];
    if (role === 'question' || role === 'aside' || role === 'tail') claimed += n;
    else if (role === 'front') {
      if (f.index < firstLine ? f.line.page <= frontLimit || f.line.page >= first : f.index < lastLine) claimed += n;
    }
  }
  return total ? claimed / total : 0;
}

/** A lead's words with the spaces a text layer puts inside them left out (`प्रश् न` is `प्रश्न`). */
const squeeze = (word: string) => word.replace(/\s+/g, '');

export const statedReason = (stated: number, read: number) => `the paper states ${stated} questions; ${read} were read`;

/**
 * Numbers the paper prints where the reading skips them: between two questions of one run whose
 * numbers are not consecutive (5 then 7), or right after the last question of a run before the next
 * run or the end (8, then a line `A9.` where the reading goes on to `B1.`), a line opening with
 * that number — not a part's label, not a key's `6. C` — in the run's own label (`A` of `A.9`) or at
 * its column's edge. A selection that keeps a longer form's numbers does not print the numbers it
 * leaves out; a reading that passes over printed ones has lost questions.
 */
export function numbersPassedOver(reading: Reading, features: LineFeatures[]): number[] {
  const out: number[] = [];
  const anchors = reading.anchors;
  const end = reading.end ?? features.length;
  anchors.forEach((a, k) => {
    const next = anchors[k + 1];
    const sameRun = next && next.candidate.major === a.candidate.major && next.number > a.number;
    // The numbers a line here may print that the reading lacks: those skipped before the next anchor
    // of the run, or the one after the run's last.
    const lo = a.number + 1, hi = sameRun ? next.number - 1 : a.number + 1;
    if (hi < lo) return;
    const to = next ? next.candidate.f.index : end;
    for (let i = a.candidate.f.index + 1; i < to; i++) {
      const f = features[i], lead = f.lead;
      if (!lead || f.part || f.keyLike || lead.number < lo || lead.number > hi) continue;
      if (lead.major !== (a.candidate.major ?? null)) continue;
      if (!f.atEdge && a.candidate.major === null) continue;
      // A number as questions print one: the run's own words (`Question`, set apart or not), or a bare
      // number with a stop or bracket (`6.`, `(6)`) — not a sentence that opens on a number (`a bag of 6`).
      if (lead.word ? squeeze(lead.word) !== squeeze(a.candidate.lead?.word ?? '') : !lead.close.trim() && !lead.open) continue;
      if (!out.includes(lead.number)) out.push(lead.number);
    }
  });
  return out;
}

/**
 * Leads printed as the reading's own questions are — the same style, with the words or the label
 * that make it a question's number (`A.3.`, `Pregunta 3`, `(Ex. 10)`) — whose label and number no
 * question read has, on a line the reading left inside a question or in front matter (not set aside,
 * not a key, not a part): a question the reading lost (its line set off the column's edge by a layout
 * it did not read, a section whose run it did not start). Bare and stop-only numbers (`3`, `3.`) are
 * left out: instructions, lists and quantities print those.
 */
export function leadsUnread(reading: Reading, features: LineFeatures[], roles: LineRole[]): string[] {
  const styles = new Map<string, number>();
  for (const a of reading.anchors) if (a.candidate.lead) styles.set(a.candidate.lead.style, (styles.get(a.candidate.lead.style) ?? 0) + 1);
  const style = [...styles].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (style === undefined) return [];
  const key = (major: string | null, n: number) => `${major === null ? '' : `${major}.`}${n}`;
  const have = new Set(reading.anchors.map(a => key(a.candidate.lead?.major ?? null, a.number)));
  const out: string[] = [];
  // A bare number is counted only where it is the number just before the reading's first, on a line
  // above it (an offset paper's first question read as the end of its front matter): elsewhere bare
  // numbers of that style are an instructions list's.
  const first = reading.anchors[0];
  const before = (f: LineFeatures) => first !== undefined && f.index < first.candidate.f.index && f.lead?.number === first.number - 1 && (f.lead.major ?? null) === (first.candidate.lead?.major ?? null);
  for (const f of features) {
    const lead = f.lead;
    if (!lead || lead.style !== style || (!lead.word && lead.major === null && !before(f)) || f.keyLike || f.part || f.continued) continue;
    if (roles[f.index] !== 'question' && roles[f.index] !== 'front') continue;
    const k = key(lead.major, lead.number);
    if (!have.has(k) && !out.includes(k)) out.push(k);
  }
  return out;
}

/**
 * A run of option labels opens on a line under line i, before the next numbered line (or `to`): a
 * bare number with choices under it is printed as a question is, where a list's item is not.
 */
function optionsUnder(features: LineFeatures[], i: number, to: number): boolean {
  for (let k = i + 1; k < to && !features[k].lead; k++) if (features[k].optionLabels[0] === 0) return true;
  return false;
}

/** A question holding at least this many lines numbered as the reading's questions are has swallowed questions. */
const SWALLOWED_LEADS = 2;

/**
 * Questions whose text holds SWALLOWED_LEADS lines or more printed as the reading's own questions are
 * (the same style, with the words or label that make it a question's number: `No. 1`, `A.2`), one
 * of them numbered otherwise than the question itself: a run of numbering the reading did not start
 * (a subject whose questions restart at 1 under a heading it did not see), taken as one question's
 * text. leadsUnread cannot see them: their numbers are read, in the first run. A question printed
 * again in another language holds one line of its own number, no other. A bare number (`1:`, `2.`)
 * counts where a run of options opens under it, as under a question (a list's items carry none).
 */
export function questionsSwallowing(reading: Reading, features: LineFeatures[], roles: LineRole[]): number[] {
  const styles = new Map<string, number>();
  for (const a of reading.anchors) if (a.candidate.lead) styles.set(a.candidate.lead.style, (styles.get(a.candidate.lead.style) ?? 0) + 1);
  const style = [...styles].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (style === undefined) return [];
  const end = reading.end ?? features.length;
  return reading.anchors.filter((a, k) => {
    const to = reading.anchors[k + 1]?.candidate.f.index ?? end;
    let held = 0, other = false;
    for (let i = a.candidate.f.index + 1; i < to; i++) {
      const f = features[i], lead = f.lead;
      if (!lead || lead.style !== style || f.keyLike || f.part || f.continued || roles[i] !== 'question') continue;
      if (!lead.word && lead.major === null && !optionsUnder(features, i, to)) continue;
      held++;
      if (lead.number !== a.number || (lead.major ?? null) !== (a.candidate.lead?.major ?? null)) other = true;
    }
    return held >= SWALLOWED_LEADS && other;
  }).map(a => a.number);
}

/**
 * Questions of one run of numbering that stand level with the same-numbered questions of another
 * run, in another column of the same page: the second column prints the first one again (a
 * translation set beside it), not more questions. Segment reads such a paper twin by twin
 * (structure/twin-columns.ts); a reading that still has them is unsure.
 */
export function levelTwins(reading: Reading, features: LineFeatures[]): number {
  return twinPairs(reading, features).length;
}

/** Items of a numbered list before the questions with a run of options under them, at least this many (and half the list). */
const LISTED_OPTION_RUNS = 2;

/**
 * A numbered list before the first question that the reading set aside (as instructions) although
 * option runs stand under its items, as under questions: the numbers it lists (`1–6`), else null. An
 * instruction list names option labels in a line of text, never opens runs of them under its items.
 */
export function listedWithOptions(reading: Reading, features: LineFeatures[], roles: LineRole[]): string | null {
  const first = reading.anchors[0]?.candidate.f.index;
  if (first === undefined) return null;
  const before = features.filter(f => f.index < first);
  const listed = before.filter(f => f.lead && !f.heading && roles[f.index] !== 'question');
  if (listed.length < 2) return null;
  // Items under which a line opens a run of option labels (its first label the first option's).
  const carrying = listed.filter((item, k) => {
    const end = listed[k + 1]?.index ?? first;
    return before.some(f => f.index > item.index && f.index < end && !f.lead && f.optionLabels[0] === 0);
  }).length;
  return carrying >= LISTED_OPTION_RUNS && carrying * 2 >= listed.length ? `${listed[0].lead!.number}–${listed[listed.length - 1].lead!.number}` : null;
}

/**
 * Numbers a run of the reading steps over (`4` then `6`, no `5` read anywhere) further than the
 * template lets a family skip (its `maxJump`). A selection keeps its longer form's numbers and says
 * how many it holds; on a paper that says nothing, a gap is a question lost (its number OCR could not
 * read, its text taken into the question before) until someone looks.
 */
export function numbersSkipped(reading: Reading, features: LineFeatures[], maxJump: number): number[] {
  const out: number[] = [];
  reading.anchors.forEach((a, k) => {
    const prev = reading.anchors[k - 1];
    // On a page read by OCR a number stepped over is first of all a question whose number OCR lost:
    // there the family's allowance does not hold, and any gap is looked at.
    const allowed = a.candidate.f.ocr || prev?.candidate.f.ocr ? 1 : maxJump;
    if (!prev || a.candidate.major !== prev.candidate.major || a.number <= prev.number + allowed) return;
    // A section opening at its own number (KICE's electives at 23 after the common part's 1–8 of a sample) skips nothing.
    if (features.slice(prev.candidate.f.index + 1, a.candidate.f.index + 1).some(f => f.heading === 'section' || f.sectionChange)) return;
    for (let n = prev.number + 1; n < a.number; n++) out.push(n);
  });
  return out;
}

export function judge(doc: PaperDocument, reading: Reading, features: LineFeatures[], roles: LineRole[]): void {
  const reasons: string[] = [];
  const coverage = coverageOf(doc, reading, features, roles);
  const unsure = reading.anchors.filter(a => a.margin < SURE_MARGIN);
  const stated = statedCount(doc.cover, doc.template.re.count);
  if (doc.questions.length && coverage < MIN_COVERAGE) reasons.push(`the reading explains ${(coverage * 100).toFixed(0)}% of the paper's text`);
  if (unsure.length) reasons.push(`${unsure.length} question${unsure.length > 1 ? 's' : ''} read unsurely (${unsure.slice(0, 8).map(a => a.number).join(', ')}${unsure.length > 8 ? ', …' : ''})`);
  if (stated !== null && doc.questions.length && stated !== doc.questions.length) reasons.push(statedReason(stated, doc.questions.length));
  const passed = numbersPassedOver(reading, features);
  if (passed.length) reasons.push(`numbers printed where the reading skips them: ${passed.slice(0, 8).join(', ')}${passed.length > 8 ? ', …' : ''}`);
  const skipped = (stated ?? statedCount(frontText(doc), doc.template.re.count)) === null ? numbersSkipped(reading, features, doc.template.numbering.maxJump ?? 1).filter(n => !passed.includes(n)) : [];
  if (skipped.length) reasons.push(`numbers the reading steps over on a paper that states no count: ${skipped.slice(0, 8).join(', ')}${skipped.length > 8 ? ', …' : ''}`);
  const unread = leadsUnread(reading, features, roles).filter(k => !passed.includes(Number(k)));
  const twins = levelTwins(reading, features);
  if (twins) reasons.push(`${twins} questions stand level with the same-numbered questions of another run in the next column (the paper printed again beside itself?)`);
  if (unread.length) reasons.push(`questions printed as the others are but not read: ${unread.slice(0, 8).join(', ')}${unread.length > 8 ? ', …' : ''}`);
  const swallowing = questionsSwallowing(reading, features, roles);
  if (swallowing.length) reasons.push(`question${swallowing.length > 1 ? 's' : ''} ${swallowing.slice(0, 8).join(', ')} hold${swallowing.length > 1 ? '' : 's'} lines numbered as questions are (a run of numbering not read?)`);
  const listed = listedWithOptions(reading, features, roles);
  if (listed) reasons.push(`numbers ${listed} before the first question were set aside as instructions, but options stand under them as under questions`);
  doc.reading = { coverage, unsure: unsure.map(a => a.number), reasons, endReason: reading.endReason };
  for (const a of unsure) {
    const q = doc.questions.find(x => x.lines[0] === a.candidate.f.line);
    doc.messages.warn('structure/unsure', `question ${a.number} is read unsurely: a reading without it scores ${a.margin.toFixed(2)} less`, { page: a.candidate.f.line.page, item: q?.id, stage: 'segment' });
  }
  if (reasons.length) doc.messages.warn('structure/needs-review', `the paper's structure needs review: ${reasons.join('; ')}`, { stage: 'segment' });
}

/**
 * What the paper says about its numbers once its key is read (the gaps stage, after answers): a
 * count stated anywhere before the first question (not only on the cover) that the reading does not
 * reach, and a key answering numbers no question read has — unless the paper states its count and
 * the reading holds exactly that many (the key's extra numbers are then the key's own misreading,
 * a picture read by OCR), and a key that gives numbers a second time under a heading the paper was
 * not read with. Each adds its reason to the paper's verdict, so the paper is `needs-review`.
 */
export function judgeNumbers(doc: PaperDocument, stated: number | null, countUnread = false): void {
  const r = doc.reading;
  if (!r || !doc.questions.length) return;
  const found = doc.questions.length;
  const added: string[] = [];
  if (stated !== null && stated !== found && !r.reasons.some(x => x.startsWith('the paper states'))) added.push(statedReason(stated, found));
  // A count stated but read as 0 (see statesUnreadCount): the one check a lost last question meets is not made.
  if (stated === null && countUnread) added.push(`the paper states how many questions it holds, but its number reads 0 (${found} were read)`);
  const have = new Set(doc.questions.map(q => q.number));
  const unknown = [...new Set((doc.keyEntries ?? []).map(k => k.number).filter(n => !have.has(n)))].sort((a, b) => a - b);
  // A lone number past the run's next (a marking scheme's `15` beside questions 1–9: a total, a page
  // number read as an entry) is the key's stray; numbers inside the run or just after it are lost questions.
  const last = Math.max(...have);
  const telling = unknown.length > KEY_STRAYS || unknown.some(n => n <= last + 1);
  if (telling && stated !== found) added.push(`the key answers ${unknown.slice(0, 8).join(', ')}${unknown.length > 8 ? ', …' : ''}, number${unknown.length > 1 ? 's' : ''} no question read has`);
  // A key that gives numbers again under a heading the paper was not read with knows a second run of
  // them (a section whose questions restart at 1) that the reading does not hold.
  const again = [...new Set((doc.keyEntries ?? []).filter(k => k.again).map(k => k.number))].sort((a, b) => a - b);
  if (again.length) added.push(`the key gives ${again.slice(0, 8).join(', ')}${again.length > 8 ? ', …' : ''} again under a heading the paper was not read with: a run of those numbers the reading does not hold`);
  if (!added.length) return;
  r.reasons.push(...added);
  doc.messages.warn('structure/needs-review', `the paper's structure needs review: ${added.join('; ')}`, { stage: 'gaps' });
}
