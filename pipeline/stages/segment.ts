// segment: questions from the lines in reading order, driven by the template: a number at the
// column's left edge that continues the section's sequence starts a question; every line after it
// (in the same column, the next column, the next page) belongs to it until the next one. Options,
// points and type come from markers found by position, so split markers (`[3 점 ]`) still match.
import type { Line, Option, PaperDocument, Part, Question, Region, Span } from '../document.ts';
import { bboxUnion, centerY } from '../document.ts';
import { questionId } from '../ids.ts';
import { alignNumbers } from '../text/number-run.ts';
import { lineText, rawText } from '../text/line-text.ts';
import type { Stage } from '../stage.ts';
import { escapeRegExp, pointsPattern, type QuestionType, type Template } from '../template.ts';

export interface Draft {
  section: string | null;
  number: number;
  anchor: Span[];
  lines: Line[];
  typeHint: QuestionType | null;
  /** Points a section heading gives every question under it (每小题 6 分), if any. */
  sectionPoints: number | null;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
}

/** The number a line starts with, if the line opens a question: spans consumed and the number. */
/**
 * How OCR misreads a question number at the margin: `7,` for `7.`, `l`/`I`/`|` for 1, `O`/`o` for 0,
 * `A` for 4. On an OCR page the number's run is read through this before the template's pattern.
 */
export function ocrNumberText(lead: string): string {
  const m = /^(\s*)([0-9IlOoA|]{1,2})\s*[,.](?![0-9])/.exec(lead);
  if (!m || !/[0-9]/.test(m[2]) && m[2].length > 1) return lead;
  const digits = [...m[2]].map(c => ({ I: '1', l: '1', '|': '1', O: '0', o: '0', A: '4' })[c] ?? c).join('');
  // Same length as what it replaces: the caller cuts the run by character counts.
  return `${m[1]}${digits}${m[0].slice(m[1].length + m[2].length).replace(',', '.')}${lead.slice(m[0].length)}`;
}

export function matchAnchor(line: Line, columnLeft: number, bodySize: number, t: Template, ocr = false): { number: number; spans: Span[]; decimal: boolean } | null {
  const first = line.spans[0];
  if (!first || first.math) return null;
  if (first.bbox[0] - columnLeft > t.numbering.indentTolerance) return null;
  if (first.size < bodySize * 0.8) return null;
  let lead = '';
  const spans: Span[] = [];
  for (const s of line.spans) {
    if (s.math) break;
    spans.push(s);
    lead += s.text;
    const m = t.re.numbering.exec(ocr ? ocrNumberText(lead) : lead);
    if (m) {
      const n = Number(m[1]);
      // `12.298K`: the number runs into a quantity; the caller takes it only where it is the next one.
      const decimal = /^\d/.test(lead.slice(m[0].length));
      if (n < 1 || n > t.numbering.max) return null;
      splitAfter(line, spans, lead.length - m[0].length);
      return { number: n, spans, decimal };
    }
    if (lead.length > 6) break;
  }
  return null;
}

/**
 * Where the number's run goes on into the question's text (`10．下列…` in one run), the run is cut
 * in two — the number, and the text after it, its box shared out by characters — so that the
 * number alone is the anchor.
 */
function splitAfter(line: Line, spans: Span[], over: number): void {
  const lastSpan = spans[spans.length - 1];
  const chars = [...lastSpan.text];
  const keep = chars.length - [...lastSpan.text.slice(lastSpan.text.length - over)].length;
  if (over <= 0 || !lastSpan.text.slice(lastSpan.text.length - over).trim()) return;
  const x = lastSpan.bbox[0] + ((lastSpan.bbox[2] - lastSpan.bbox[0]) * keep) / chars.length;
  const head: Span = { ...lastSpan, text: chars.slice(0, keep).join(''), bbox: [lastSpan.bbox[0], lastSpan.bbox[1], x, lastSpan.bbox[3]] };
  const tail: Span = { ...lastSpan, text: chars.slice(keep).join(''), bbox: [x, lastSpan.bbox[1], lastSpan.bbox[2], lastSpan.bbox[3]] };
  line.spans.splice(line.spans.indexOf(lastSpan), 1, head, tail);
  spans[spans.length - 1] = head;
}

/** Points by position: an opening mark, a number, the unit and the closing mark near one another. */
export function findPoints(spans: Span[], t: Template, ocr = false): { value: number; spans: Span[] } | null {
  const open = t.points.open;
  // OCR misreads the unit (점 → 4, A): on an OCR page a bracket holding one of the template's
  // point values and at most two stray characters is the marker.
  const values = (t.points.values ?? []).join('');
  const re = ocr && values ? new RegExp(`${escapeRegExp(open)}\\s*([${values}])\\s*\\S{0,2}?\\s*${escapeRegExp(t.points.close)}`, 'u') : pointsPattern(t);
  const starts = spans.filter(s => !s.math && s.text.includes(open));
  for (const s of starts.reverse()) {
    const near = spans
      .filter(o => !o.math && o.bbox[0] >= s.bbox[0] - 1 && o.bbox[0] <= s.bbox[2] + s.size * 4 && Math.abs(centerY(o.bbox) - centerY(s.bbox)) <= s.size * 1.2)
      .sort((a, b) => a.bbox[0] - b.bbox[0]);
    const m = re.exec(near.map(o => o.text).join(''));
    if (m) return { value: Number(m[1]), spans: near };
  }
  return null;
}

interface Marker { label: string; span: Span; line: number; offset: number; length: number }

/** Every option marker in the lines: the label itself (①), or where the template's pattern matches (`A)`). */
function markersIn(lines: Line[], t: Template, skip: Set<Span>): Marker[] {
  const found: Marker[] = [];
  lines.forEach((line, li) => {
    if (!t.re.option) return;
    // Markers by pattern over the line's text, so a label and its stop in two runs (`A` `．`) still
    // match; a gap between runs reads as a space.
    let text = '';
    const starts: { span: Span; at: number }[] = [];
    let prev: Span | null = null;
    for (const s of line.spans) {
      if (skip.has(s) || s.math) continue;
      if (prev && s.bbox[0] - prev.bbox[2] > Math.min(s.size, prev.size) * 0.2) text += ' ';
      starts.push({ span: s, at: text.length });
      text += s.text;
      prev = s;
    }
    for (const m of text.matchAll(t.re.option)) {
      const at = m.index! + m[0].indexOf(m[1]);
      const owner = starts.filter(x => x.at <= at).pop();
      if (!owner || !t.options.markers.includes(m[1])) continue;
      const offset = at - owner.at;
      found.push({ label: m[1], span: owner.span, line: li, offset, length: Math.min(m[0].length - m[0].indexOf(m[1]), owner.span.text.length - offset) });
    }
  });
  if (t.re.option) return found;
  lines.forEach((line, li) => line.spans.forEach(s => {
    if (skip.has(s) || s.math) return;
    const text = s.text;
    for (let k = 0; k < text.length; k++) {
      const label = t.options.markers.find(m => text.startsWith(m, k));
      if (label) found.push({ label, span: s, line: li, offset: k, length: label.length });
    }
  }));
  return found;
}

function hasOptionMarkers(lines: Line[], t: Template, skip: Set<Span>): boolean {
  return t.options.markers.length > 0 && optionsOf(lines, t, skip).options.length >= 2;
}

function optionsOf(lines: Line[], t: Template, skip: Set<Span>): { options: Option[]; firstLine: number } {
  const markers = t.options.markers;
  const found = markersIn(lines, t, skip);
  // Runs of markers in order (①②③…, A B C D); a label out of order is text. The last run of at
  // least two is the options: an earlier run labels something else (a figure's panels A–D).
  const runs: Marker[][] = [];
  for (const f of found) {
    const idx = markers.indexOf(f.label);
    const run = runs[runs.length - 1];
    if (idx === 0) runs.push([f]);
    else if (run && idx === run.length) run.push(f);
  }
  const seq = runs.filter(r => r.length >= 2).pop();
  if (!seq) return { options: [], firstLine: -1 };
  const options: Option[] = seq.map((f, i) => {
    const next = seq[i + 1];
    const parts: string[] = [];
    const lastLine = next ? next.line : f.line;
    for (let li = f.line; li <= lastLine; li++) {
      const spans = lines[li].spans.filter(s => {
        if (skip.has(s)) return false;
        const afterMarker = li > f.line || s === f.span || s.bbox[0] >= f.span.bbox[0] - 0.5;
        const beforeNext = !next || li < next.line || (s !== next.span && s.bbox[0] < next.span.bbox[0] - 0.5) || s === next.span;
        return afterMarker && beforeNext;
      });
      let text = lineText(spans);
      if (li === f.line) {
        const at = text.indexOf(f.span.text.slice(f.offset, f.offset + f.length).trim());
        text = at >= 0 ? text.slice(at + f.span.text.slice(f.offset, f.offset + f.length).trim().length) : text;
      }
      if (next && li === next.line) {
        const cut = text.indexOf(next.span.text.slice(next.offset, next.offset + next.length).trim());
        text = cut >= 0 ? text.slice(0, cut) : text;
      }
      parts.push(text.trim());
    }
    // The last option runs on over lines set under its text (a long option that wraps).
    if (!next) {
      const indent = f.span.bbox[0] + (f.offset === 0 ? 4 : 0);
      for (let li = f.line + 1; li < lines.length; li++) {
        const l = lines[li];
        if (l.column !== lines[f.line].column || l.page !== lines[f.line].page || l.bbox[0] < indent) break;
        if (l.bbox[1] - lines[li - 1].bbox[3] > l.spans[0].size * 1.2) break;
        parts.push(lineText(l.spans.filter(s => !skip.has(s))));
      }
    }
    // A stop set apart from its label (`A` `．`) is left at the head of the text.
    return { label: f.label, text: parts.filter(Boolean).join(' ').replace(/^[.．、)）]\s*/u, '').trim() };
  });
  return { options, firstLine: seq[0].line };
}

export function regionsOf(lines: Line[]): Region[] {
  const groups = new Map<string, Line[]>();
  for (const l of lines) {
    const k = `${l.page}:${l.column}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(l);
  }
  return [...groups.values()].map(ls => ({ page: ls[0].page, column: ls[0].column, bbox: bboxUnion(ls.map(l => l.bbox)) }));
}

/** Sections the cover assigns by count ("the first 54 questions are the common module"), in order. */
export function sectionRanges(cover: string, t: Template): { from: number; to: number; label: string }[] {
  const text = cover.replace(/\s+/g, ' ');
  const out: { from: number; to: number; label: string }[] = [];
  let next = 1;
  for (const source of t.sections.ranges ?? []) {
    const m = new RegExp(source, 'iu').exec(text);
    if (!m) break;
    out.push({ from: next, to: next + Number(m[1]) - 1, label: m[2].replace(/\s+/g, ' ') });
    next += Number(m[1]);
  }
  return out;
}

/** Points from the column's edge within which an unread mark may be a question number. */
const MARGIN_SLACK = 4;

/**
 * Something at the margin of an OCR line that could be a question number read as nothing like one
 * (`S.`, `J,`, `&`): a short token with no Hangul or Han, in the number's place and size.
 */
function marginMark(line: Line, columnLeft: number, bodySize: number, t: Template): Span[] | null {
  const first = line.spans[0];
  // At the very edge: lines under a question are indented less than the template allows a number.
  if (!first || first.math || first.bbox[0] - columnLeft > Math.min(t.numbering.indentTolerance, MARGIN_SLACK) || first.size < bodySize * 0.8) return null;
  const text = first.text.trim();
  return /^\S{1,2}[.,]$/.test(text) || (/^[^\s\p{Script=Hangul}\p{Script=Han}]{1,3}$/u.test(text) && !t.options.markers.includes(text)) ? [first] : null;
}

/**
 * On OCR pages, which lines open questions and with what numbers, chosen for each section at once
 * (see number-run.ts); lines of pages with a text layer are left to the reading as it comes.
 */
function ocrNumbering(doc: PaperDocument, bodySize: number): Map<Line, number | null> {
  const t = doc.template;
  const decided = new Map<Line, number | null>();
  if (t.sections.headingWhere === 'body' || !doc.pages.some(p => p.ocr)) return decided;
  const sections = new Map<string, { line: Line; reading: number | null }[]>();
  for (const line of doc.lines) {
    const page = doc.pages[line.page - 1];
    if (!page.ocr) continue;
    const left = page.columns[line.column].x0;
    const reading = matchAnchor(line, left, bodySize, t, true)?.number ?? (marginMark(line, left, bodySize, t) ? null : undefined);
    if (reading === undefined) continue;
    const key = page.section ?? t.sections.default ?? '';
    if (!sections.has(key)) sections.set(key, []);
    sections.get(key)!.push({ line, reading });
  }
  const opening = Array.isArray(t.numbering.first) ? t.numbering.first[0] : t.numbering.first ?? 1;
  let next = opening;
  for (const candidates of sections.values()) {
    const numbers = alignNumbers(candidates.map(c => c.reading), next, t.numbering.max);
    candidates.forEach((c, i) => decided.set(c.line, numbers[i]));
    const chosen = numbers.filter((n): n is number => n !== null);
    if (chosen.length) next = Math.max(...chosen) + 1;
  }
  return decided;
}

/** Whether `n` may be the first question of the paper. */
function canOpen(t: Template, n: number): boolean {
  const first = t.numbering.first;
  return first === null || (Array.isArray(first) ? first.includes(n) : n === first);
}

export function segmentStage(): Stage {
  return {
    name: 'segment',
    kind: 'processor',
    run(doc: PaperDocument) {
      const t = doc.template;
      const bodySize = median(doc.lines.flatMap(l => l.spans.filter(s => !s.math).map(s => s.size)));
      const numbering = ocrNumbering(doc, bodySize);
      const last = new Map<string, number>();
      const drafts: Draft[] = [];
      const stopped = new Set<string>();
      let current: Draft | null = null;
      let typeHint: QuestionType | null = null;
      let bodySection: string | null = t.sections.default;
      let sectionPoints: number | null = null;
      let instructionsOn: number | null = null;
      let ended = false;
      const maxJump = t.numbering.maxJump ?? 3;
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
        if (instructionsOn !== null && !sectionHeading && !heading) { aside(line); continue; }
        instructionsOn = null;
        if (sectionHeading || heading || pointsHere) {
          if (sectionHeading) { bodySection = sectionHeading.id; sectionPoints = null; typeHint = null; }
          if (heading) typeHint = heading.type;
          if (pointsHere) sectionPoints = Number(pointsHere[1]);
          // A heading's wrapped lines belong to no question.
          current = null;
          continue;
        }
        const section = t.sections.headingWhere === 'body' ? bodySection : page.section ?? t.sections.default;
        const left = page.columns[line.column].x0;
        const decided = numbering.get(line);
        const anchor = decided === null ? null
          : decided !== undefined ? { number: decided, spans: matchAnchor(line, left, bodySize, t, true)?.spans ?? marginMark(line, left, bodySize, t)!, decimal: false }
          : matchAnchor(line, left, bodySize, t, page.ocr);
        if (anchor) {
          const prev = last.get(section ?? '') ?? 0;
          const n = anchor.number;
          let fits = decided !== undefined || n === prev + 1 || (!anchor.decimal && ((prev === 0 && (drafts.length === 0 ? canOpen(t, n) : true)) || (n > prev + 1 && n <= prev + maxJump)));
          if (!fits && t.options.markers.length > 0 && canOpen(t, n) && drafts.length >= 2 && !drafts.some(d => hasOptionMarkers(d.lines, t, new Set(d.anchor)))) {
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
            if (anchor.number > prev + 1 && prev !== 0) doc.messages.warn('segment/number-gap', `question ${n} follows ${prev}: ${n - prev - 1} number(s) missing`, { page: line.page, item: String(n), stage: 'segment' });
            last.set(section ?? '', anchor.number);
            current = { section, number: anchor.number, anchor: anchor.spans, lines: [line], typeHint, sectionPoints };
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

/** Points or marks by the template's pattern, span by span: every marker (summed) or the first. */
function patternPoints(lines: Line[], t: Template, skip: Set<Span>): { value: number; markers: { line: number; value: number }[] } | null {
  const markers: { line: number; value: number }[] = [];
  lines.forEach((l, li) => {
    const text = rawText(l.spans.filter(s => !skip.has(s) && !s.math));
    for (const m of text.matchAll(t.re.points!)) markers.push({ line: li, value: Number(m[1]) });
  });
  if (!markers.length) return null;
  const value = t.points.sum ? markers.reduce((a, m) => a + m.value, 0) : markers[0].value;
  return { value, markers };
}

/** Sub-parts by the labels lines open with, outermost level first; marks from the markers under each. */
function partsOf(lines: Line[], t: Template, skip: Set<Span>, markers: { line: number; value: number }[]): Part[] {
  if (!t.re.parts.length) return [];
  const starts: { line: number; label: string }[] = [];
  const path: string[] = [];
  lines.forEach((l, li) => {
    let text = rawText(l.spans.filter(s => !skip.has(s)));
    let opened = false;
    for (let level = 0; level < t.re.parts.length; level++) {
      const m = t.re.parts[level].exec(text);
      if (!m) continue;
      path.length = level;
      path[level] = m[0].trim();
      text = text.slice(m[0].length);
      opened = true;
    }
    if (opened) starts.push({ line: li, label: path.filter(Boolean).join('') });
  });
  const parts: Part[] = starts.map((p, i) => {
    const end = i + 1 < starts.length ? starts[i + 1].line : Infinity;
    const own = markers.filter(m => m.line >= p.line && m.line < end);
    return { label: p.label, marks: own.length ? own.reduce((a, m) => a + m.value, 0) : null };
  });
  // A part that only introduces its sub-parts ((b) before (b)(i)) is not a part of its own.
  return parts.filter((p, i) => !(p.marks === null && parts[i + 1]?.label.startsWith(p.label)));
}

export function buildQuestion(doc: PaperDocument, d: Draft): Question {
  const t = doc.template;
  const id = questionId(doc.sha256, d.section, d.number);
  const all = d.lines.flatMap(l => l.spans);
  const skip = new Set(d.anchor);
  const byPattern = t.re.points ? patternPoints(d.lines, t, new Set()) : null;
  const points = t.re.points ? byPattern : findPoints(all, t, d.lines.some(l => doc.pages[l.page - 1].ocr));
  const value = points?.value ?? d.sectionPoints;
  // Under a heading for worked answers (非选择题) a lettered list inside a question is not its options.
  const { options, firstLine } = d.typeHint === 'free' ? { options: [], firstLine: -1 } : optionsOf(d.lines, t, skip);
  if (value === null && !t.re.sectionPoints) doc.messages.warn('segment/no-points', 'no point marker found', { page: d.lines[0].page, item: id, stage: 'segment' });
  else if (value !== null && t.points.values && !t.points.values.includes(value)) doc.messages.warn('segment/unusual-points', `points ${value} are not among ${t.points.values.join(', ')}`, { page: d.lines[0].page, item: id, stage: 'segment' });
  let type: QuestionType = options.length >= 2 ? t.options.typeWith : t.options.typeWithout;
  if (type === 'mcq' && d.typeHint === 'mcq-multi') type = 'mcq-multi';
  else if (d.typeHint === 'free') type = 'free';
  else if (d.typeHint && d.typeHint !== type) doc.messages.warn('segment/type-conflict', `the section heading says ${d.typeHint}, the question reads as ${type}`, { page: d.lines[0].page, item: id, stage: 'segment' });
  return {
    id,
    section: d.section,
    number: d.number,
    type,
    points: value,
    parts: partsOf(d.lines, t, skip, byPattern?.markers ?? []),
    flags: [],
    page: d.lines[0].page,
    lines: d.lines,
    anchor: d.anchor,
    stemLines: firstLine >= 0 ? firstLine : d.lines.length,
    regions: regionsOf(d.lines),
    stem: '',
    options,
    figures: [],
    answer: null,
    errorRate: null,
    difficulty: null,
  };
}
