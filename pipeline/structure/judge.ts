// How sure the reading of a paper is, said on the document rather than left silent: each question's
// margin (how much better the reading is with it than without it), the paper's coverage (the share of
// its body text the reading explains as questions, their front matter, set-aside blocks or a tail),
// and a stated count the reading does not reach. An unsure paper is `needs-review`, with its reasons.
import type { PaperDocument } from '../document.ts';
import type { LineFeatures } from './candidates.ts';
import type { Reading } from './decode.ts';
import type { LineRole } from './assemble.ts';
import { MIN_COVERAGE, SURE_MARGIN } from './model.ts';
import { escapeRegExp } from '../template.ts';
import { statedCount } from '../text/stated-count.ts';

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

export function judge(doc: PaperDocument, reading: Reading, features: LineFeatures[], roles: LineRole[]): void {
  const reasons: string[] = [];
  // Coverage: body characters the reading explains. Before the first question, only a front of a
  // few pages is explained (a cover, instructions); text past that is unclaimed.
  const first = reading.anchors[0]?.candidate.f.line.page ?? Infinity;
  const frontLimit = Math.max(FRONT_PAGES, Math.ceil(doc.pageCount * FRONT_SHARE));
  let total = 0, claimed = 0;
  for (const f of features) {
    const n = f.text.replace(/\s+/g, '').length;
    total += n;
    const role = roles[f.index];
    if (role === 'question' || role === 'aside' || role === 'tail') claimed += n;
    else if (role === 'front' && (f.line.page <= frontLimit || f.line.page >= first)) claimed += n;
  }
  const coverage = total ? claimed / total : 0;
  const unsure = reading.anchors.filter(a => a.margin < SURE_MARGIN);
  const stated = statedCount(doc.cover, doc.template.re.count);
  if (doc.questions.length && coverage < MIN_COVERAGE) reasons.push(`the reading explains ${(coverage * 100).toFixed(0)}% of the paper's text`);
  if (unsure.length) reasons.push(`${unsure.length} question${unsure.length > 1 ? 's' : ''} read unsurely (${unsure.slice(0, 8).map(a => a.number).join(', ')}${unsure.length > 8 ? ', …' : ''})`);
  if (stated !== null && doc.questions.length && stated !== doc.questions.length) reasons.push(`the paper states ${stated} questions; ${doc.questions.length} were read`);
  doc.reading = { coverage, unsure: unsure.map(a => a.number), reasons, endReason: reading.endReason };
  for (const a of unsure) {
    const q = doc.questions.find(x => x.lines[0] === a.candidate.f.line);
    doc.messages.warn('structure/unsure', `question ${a.number} is read unsurely: a reading without it scores ${a.margin.toFixed(2)} less`, { page: a.candidate.f.line.page, item: q?.id, stage: 'segment' });
  }
  if (reasons.length) doc.messages.warn('structure/needs-review', `the paper's structure needs review: ${reasons.join('; ')}`, { stage: 'segment' });
}
