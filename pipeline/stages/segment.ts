// segment: questions from the lines in reading order, driven by the template: a number at the
// column's left edge that continues the section's sequence starts a question; every line after it
// (in the same column, the next column, the next page) belongs to it until the next one. Options,
// points and type come from markers found by position, so split markers (`[3 점 ]`) still match.
import type { Line, Option, PaperDocument, Question, Region, Span } from '../document.ts';
import { bboxUnion, centerY } from '../document.ts';
import { questionId } from '../ids.ts';
import { lineText, rawText } from '../text/line-text.ts';
import type { Stage } from '../stage.ts';
import { escapeRegExp, pointsPattern, type Template } from '../template.ts';

interface Draft {
  section: string | null;
  number: number;
  anchor: Span[];
  lines: Line[];
  typeHint: 'mcq' | 'short' | null;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
}

/** The number a line starts with, if the line opens a question: spans consumed and the number. */
export function matchAnchor(line: Line, columnLeft: number, bodySize: number, t: Template): { number: number; spans: Span[] } | null {
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
    const m = t.re.numbering.exec(lead);
    if (m) {
      const n = Number(m[1]);
      return n >= 1 && n <= t.numbering.max ? { number: n, spans } : null;
    }
    if (lead.length > 6) break;
  }
  return null;
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

function optionsOf(lines: Line[], t: Template, skip: Set<Span>): { options: Option[]; firstLine: number } {
  const markers = t.options.markers;
  const found: { label: string; span: Span; line: number; offset: number }[] = [];
  lines.forEach((line, li) => line.spans.forEach(s => {
    if (skip.has(s)) return;
    const text = s.text;
    for (let k = 0; k < text.length; k++) {
      const label = markers.find(m => text.startsWith(m, k));
      if (label) found.push({ label, span: s, line: li, offset: k });
    }
  }));
  if (found.length < 2) return { options: [], firstLine: -1 };
  // Keep the first run of markers in order (①②③…); a repeat of ① starts something else.
  const seq: typeof found = [];
  for (const f of found) {
    if (markers.indexOf(f.label) === seq.length) seq.push(f);
  }
  if (seq.length < 2) return { options: [], firstLine: -1 };
  const options: Option[] = seq.map((f, i) => {
    const next = seq[i + 1];
    const line = lines[f.line];
    const spans: Span[] = [];
    for (const s of line.spans) {
      if (skip.has(s)) continue;
      const afterMarker = s === f.span || s.bbox[0] >= f.span.bbox[0] - 0.5;
      const beforeNext = !next || next.line !== f.line || (s !== next.span && s.bbox[0] < next.span.bbox[0] - 0.5) || (s === f.span && next.span === s);
      if (afterMarker && beforeNext) spans.push(s);
    }
    let text = lineText(spans);
    const idx = text.indexOf(f.label);
    text = idx >= 0 ? text.slice(idx + f.label.length) : text;
    if (next && next.span === f.span) text = text.slice(0, text.indexOf(next.label) >= 0 ? text.indexOf(next.label) : undefined);
    return { label: f.label, text: text.trim() };
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

export function segmentStage(): Stage {
  return {
    name: 'segment',
    kind: 'processor',
    run(doc: PaperDocument) {
      const t = doc.template;
      const bodySize = median(doc.lines.flatMap(l => l.spans.filter(s => !s.math).map(s => s.size)));
      const last = new Map<string, number>();
      const drafts: Draft[] = [];
      const stopped = new Set<string>();
      let current: Draft | null = null;
      let typeHint: 'mcq' | 'short' | null = null;
      const pageOf = (n: number) => doc.pages[n - 1];
      for (const line of doc.lines) {
        const page = pageOf(line.page);
        const key = `${line.page}:${line.column}`;
        const text = rawText(line.spans);
        if (stopped.has(key) || t.re.endOfQuestions.some(re => re.test(text))) {
          stopped.add(key);
          page.furniture.push(...line.spans);
          continue;
        }
        const heading = t.re.typeHeadings.find(h => h.re.test(text));
        if (heading) { typeHint = heading.type; continue; }
        const section = page.section ?? t.sections.default;
        const anchor = matchAnchor(line, page.columns[line.column].x0, bodySize, t);
        if (anchor) {
          const prev = last.get(section ?? '') ?? 0;
          const n = anchor.number;
          let fits = n === prev + 1 || (prev === 0 && (drafts.length === 0 ? n === t.numbering.first : true)) || (n > prev + 1 && n <= prev + 3);
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
            current = { section, number: anchor.number, anchor: anchor.spans, lines: [line], typeHint };
            drafts.push(current);
            continue;
          }
        }
        if (current) current.lines.push(line);
      }
      doc.questions = drafts.map(d => build(doc, d));
      if (!doc.questions.length) doc.messages.error('segment/no-questions', 'no numbered question was found', { stage: 'segment' });
    },
  };
}

function build(doc: PaperDocument, d: Draft): Question {
  const t = doc.template;
  const id = questionId(doc.sha256, d.section, d.number);
  const all = d.lines.flatMap(l => l.spans);
  const points = findPoints(all, t, d.lines.some(l => doc.pages[l.page - 1].ocr));
  const { options, firstLine } = optionsOf(d.lines, t, new Set(d.anchor));
  if (points === null) doc.messages.warn('segment/no-points', 'no point marker found', { page: d.lines[0].page, item: id, stage: 'segment' });
  else if (t.points.values && !t.points.values.includes(points.value)) doc.messages.warn('segment/unusual-points', `points ${points.value} are not among ${t.points.values.join(', ')}`, { page: d.lines[0].page, item: id, stage: 'segment' });
  const type = options.length >= 2 ? t.options.typeWith : t.options.typeWithout;
  if (d.typeHint && d.typeHint !== type) doc.messages.warn('segment/type-conflict', `the section heading says ${d.typeHint}, the question reads as ${type}`, { page: d.lines[0].page, item: id, stage: 'segment' });
  return {
    id,
    section: d.section,
    number: d.number,
    type,
    points: points?.value ?? null,
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
