// Marks: points printed for a question or a part, by position (`[3점]` split over runs) or by the
// template's pattern over each line (`(5 points)`, summed over parts where the template says so).
import type { Line, Span } from '../document.ts';
import { centerY } from '../document.ts';
import { rawText } from '../text/line-text.ts';
import { escapeRegExp, pointsPattern, type Template } from '../template.ts';

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

/**
 * A line's text as mark patterns read it: NFKC folds Arabic presentation forms (`ﻟﻜﻞ` as `لكل`),
 * full-width digits and CJK compatibility forms into the letters a template's words are written in.
 */
export const markText = (text: string) => text.normalize('NFKC');

/** A mark's value as printed: `2.5`, `2,5` (a decimal comma). */
export const markValue = (m: RegExpMatchArray) => Number((m.slice(1).find(g => g !== undefined) ?? '').replace(',', '.'));

/** How many letters may stand between a question's number and its own total: `Question 11 (3 marks)`, `A.1. Calificación máxima: 2.5 puntos`. */
const HEAD_MARK_LETTERS = 24;

export /**
 * Points or marks by the template's pattern, span by span: every marker (summed) or the first. A
 * mark the question states at its head (`Question 1 (25 marks)`) is its total, whatever its parts carry.
 */
function patternPoints(lines: Line[], t: Template, skip: Set<Span>, anchor: Set<Span> = new Set()): { value: number; markers: { line: number; value: number }[] } | null {
  const markers: { line: number; value: number }[] = [];
  let head: number | null = null;
  // On the number's own line, before any part opens and after a few words at most: the question's total.
  const atHead = (text: string, at: number) => {
    const before = text.slice(0, at).trim();
    return t.points.sum && anchor.size > 0 && [...before].filter(c => /\p{L}/u.test(c)).length <= HEAD_MARK_LETTERS && !t.re.parts.some(re => re.test(before));
  };
  const stated = lines.length && t.re.pointsHead ? t.re.pointsHead.exec(rawText(lines[0].spans.filter(s => !skip.has(s) && !anchor.has(s) && !s.math))) : null;
  lines.forEach((l, li) => {
    const text = rawText(l.spans.filter(s => !skip.has(s) && !anchor.has(s) && !s.math));
    if (li === 0 && stated && atHead(text, stated.index!)) head = markValue(stated);
    for (const m of text.matchAll(t.re.points!)) {
      const value = markValue(m);
      if (!Number.isFinite(value)) continue;
      if (li === 0 && head === null && atHead(text, m.index!)) head = value;
      else markers.push({ line: li, value });
    }
  });
  if (head !== null) return { value: head, markers };
  if (!markers.length) return null;
  const value = t.points.sum ? markers.reduce((a, m) => a + m.value, 0) : markers[0].value;
  return { value: Math.round(value * 100) / 100, markers };
}

