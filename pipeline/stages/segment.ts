// segment: questions from the lines in reading order, driven by the template: a number at the
// column's left edge that continues the section's sequence starts a question; every line after it
// (in the same column, the next column, the next page) belongs to it until the next one. What a
// question holds (options, marks, parts, type, regions) is read by the processors in structure/.
import type { Line, PaperDocument } from '../document.ts';
import { rawText } from '../text/line-text.ts';
import type { Stage, StageContext } from '../stage.ts';
import type { QuestionType, Template } from '../template.ts';
import { matchAnchor } from '../structure/anchors.ts';
import { hasOptionMarkers } from '../structure/options.ts';
import { marginMark, ocrNumbering } from '../structure/ocr-numbering.ts';
import { buildQuestion, type Draft } from '../structure/question.ts';
import { canOpen, sectionRanges } from '../structure/sections.ts';
import { markingLine, withRule, type Marking, type MarkRule } from '../structure/marking.ts';
import { checkConventions, inferConventions } from '../structure/conventions.ts';
import { statedCount } from '../text/stated-count.ts';

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
 * A paper a family template claims is read by inference too, as a check. Where the template's own
 * numbering explains (almost) nothing and another scheme explains the paper, the paper is read by
 * that scheme; where another explains clearly more, it is reported. What was found is recorded.
 */
function checkTemplate(doc: PaperDocument, bodySize: number, templates: readonly Template[]): void {
  const fallback = templates.find(x => x.infer);
  const check = fallback ? checkConventions(doc, bodySize, fallback) : null;
  if (!check) return;
  // What the template reads is recorded, unless the check below finds the paper reads otherwise.
  doc.exam.conventions = check.own;
  const { numbering } = check.conventions;
  if (numbering.id === 'template') return;
  const own = check.own.numbering;
  const what = `the template's numbering explains ${own.inSequence} numbers in sequence (${own.carrying} with options or marks); the paper's own ${numbering.id} explains ${numbering.inSequence} (${numbering.carrying})`;
  // Questions carry options or marks; a numbered list inside them (a question's (1), (2)) runs in
  // sequence too but carries neither: the blocks that carry them are what a scheme must explain.
  if (own.inSequence < 2 && own.carrying < 2 && numbering.inSequence >= 2) {
    doc.template = check.template;
    doc.exam.conventions = check.conventions;
    doc.messages.warn('segment/template-fallback', `${what}: the paper is read by its own conventions (see exam.conventions)`, { stage: 'segment' });
  } else if (numbering.carrying >= own.carrying + Math.max(3, own.carrying * 0.25) && numbering.inSequence >= own.inSequence) {
    doc.exam.conventions = check.conventions;
    doc.messages.warn('segment/conventions-disagree', `${what}: the ${doc.template.id} template may not fit this paper`, { stage: 'segment' });
  }
}

export function segmentStage(): Stage {
  return {
    name: 'segment',
    kind: 'processor',
    run(doc: PaperDocument, ctx: StageContext) {
      const bodySize = median(doc.lines.flatMap(l => l.spans.filter(s => !s.math).map(s => s.size)));
      // A paper no family template claims: its own numbering and options, read from the paper.
      const inferred = inferConventions(doc, bodySize);
      if (inferred) {
        doc.template = inferred.template;
        doc.exam.conventions = inferred.conventions;
        const { numbering, options } = inferred.conventions;
        doc.messages.info('segment/conventions', `numbering ${numbering.id} (${numbering.inSequence} in sequence, ${numbering.carrying} with options or marks), options ${options ? `${options.id} (${options.inOrder} in order)` : 'none'}`, { stage: 'segment' });
      } else checkTemplate(doc, bodySize, ctx.templates);
      const t = doc.template;
      const numbering = ocrNumbering(doc, bodySize);
      const last = new Map<string, number>();
      const drafts: Draft[] = [];
      const stopped = new Set<string>();
      let current: Draft | null = null;
      let typeHint: QuestionType | null = null;
      let bodySection: string | null = t.sections.default;
      let sectionPoints: number | null = null;
      let marking: Marking | null = null;
      /** The marking rule of the line before, while lines carry on its condition. */
      let lastRule: MarkRule | null = null;
      let instructionsOn: number | null = null;
      let ended = false;
      // A paper that states how many questions it holds may skip numbers (a selection that keeps a
      // longer form's numbers): the gaps stage holds the count against what is found.
      const stated = statedCount(doc.cover, t.re.count) !== null;
      const maxJump = stated ? Math.max(t.numbering.maxJump ?? 3, 3) : t.numbering.maxJump ?? 3;
      // …and may open past 1, where the longer form's first questions are not in the selection.
      const opens = (n: number) => canOpen(t, n) || (stated && n >= 1 && n <= maxJump);
      const pageOf = (n: number) => doc.pages[n - 1];
      const aside = (line: Line) => pageOf(line.page).furniture.push(...line.spans);
      for (const line of doc.lines) {
        if (ended) { doc.tail.push(line); continue; }
        const page = pageOf(line.page);
        const key = `${line.page}:${line.column}`;
        const text = rawText(line.spans);
        if (stopped.has(key) || t.re.endOfQuestions.some(re => re.test(text))) {
          stopped.add(key);
          aside(line);
          doc.tail.push(line);
          continue;
        }
        // A block of numbered instructions runs to the next section heading or the end of its page.
        if (instructionsOn !== null && instructionsOn !== line.page) instructionsOn = null;
        if (t.re.instructions.some(re => re.test(text))) { instructionsOn = line.page; aside(line); continue; }
        const sectionHeading = t.sections.headingWhere === 'body' ? t.re.sections.find(h => h.re.test(text)) : undefined;
        const heading = t.re.typeHeadings.find(h => h.re.test(text));
        const pointsHere = t.re.sectionPoints?.exec(text);
        const rule = markingLine(text, t);
        if (instructionsOn !== null && !sectionHeading && !heading) { aside(line); continue; }
        instructionsOn = null;
        if (sectionHeading || heading || pointsHere || rule) {
          if (sectionHeading) { bodySection = sectionHeading.id; sectionPoints = null; typeHint = null; marking = null; }
          if (heading) typeHint = heading.type;
          if (pointsHere) sectionPoints = Number(pointsHere[1]);
          if (rule) marking = withRule(marking, rule);
          lastRule = rule?.rule ?? null;
          // A heading's wrapped lines belong to no question.
          current = null;
          continue;
        }
        // A rule's condition wrapped onto the next line (`… both of` / `which are correct;`) goes on in lower case.
        if (lastRule && current === null && /^\s*\p{Ll}/u.test(text)) {
          lastRule.when = `${lastRule.when} ${text.trim().replace(/[;；]$/u, '')}`;
          continue;
        }
        lastRule = null;
        const section = t.sections.headingWhere === 'body' ? bodySection : page.section ?? t.sections.default;
        const left = page.columns[line.column].x0;
        const decided = numbering.get(line);
        const anchor = decided === null ? null
          : decided !== undefined ? { number: decided, spans: matchAnchor(line, left, bodySize, t, true)?.spans ?? marginMark(line, left, bodySize, t)!, decimal: false }
          : matchAnchor(line, left, bodySize, t, page.ocr);
        if (anchor) {
          const prev = last.get(section ?? '') ?? 0;
          const n = anchor.number;
          let fits = decided !== undefined || n === prev + 1 || (!anchor.decimal && ((prev === 0 && (drafts.length === 0 ? opens(n) : true)) || (n > prev + 1 && n <= prev + maxJump)));
          if (!fits && t.options.markers.length > 0 && opens(n) && drafts.length >= 2 && !drafts.some(d => hasOptionMarkers(d.lines, t, new Set(d.anchor)))) {
            // What came before was a numbered list with no options anywhere — the cover's
            // instructions — and the questions start here.
            doc.messages.info('segment/numbered-instructions', `numbers ${drafts[0].number}–${drafts[drafts.length - 1].number} before question ${n} carry no options: read as instructions, not questions`, { page: drafts[0].lines[0].page, stage: 'segment' });
            for (const d of drafts) for (const l of d.lines) aside(l);
            drafts.length = 0;
            last.clear();
            fits = true;
          }
          if (!fits && t.numbering.restart === 'stop' && drafts.length >= 2 && n === drafts[0].number) {
            // The paper starts over (answers appended, or a repeat with worked solutions): each
            // question counts once; what follows is read for answers only.
            doc.messages.info('segment/restart', `question ${n} again after ${drafts[drafts.length - 1].number}: the questions end here`, { page: line.page, stage: 'segment' });
            ended = true;
            doc.tail.push(line);
            continue;
          }
          if (!fits && page.ocr && prev > 0) {
            // OCR misreads digits (3 as 9): on an OCR page a number at the margin is trusted for
            // where a question starts, and the sequence says which one it is.
            doc.messages.info('segment/ocr-number', `a question number read as ${n} where ${prev + 1} comes next: taken as ${prev + 1}`, { page: line.page, stage: 'segment' });
            anchor.number = prev + 1;
            fits = true;
          }
          if (fits) {
            last.set(section ?? '', anchor.number);
            current = { section, number: anchor.number, anchor: anchor.spans, lines: [line], typeHint, sectionPoints, marking };
            drafts.push(current);
            continue;
          }
        }
        if (current) current.lines.push(line);
      }
      const ranges = sectionRanges(doc.cover, t);
      for (const d of drafts) d.section = ranges.find(r => d.number >= r.from && d.number <= r.to)?.label ?? d.section;
      doc.questions = drafts.map(d => buildQuestion(doc, d));
      if (!doc.questions.length) doc.messages.error('segment/no-questions', 'no numbered question was found', { stage: 'segment' });
    },
  };
}

