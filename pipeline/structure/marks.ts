// Marks: points printed for a question or a part, by position (`[3점]` split over runs) or by the
// template's pattern over each line (`(5 points)`, summed over parts where the template says so).
import type { Line, Span } from '../document.ts';
import { centerY } from '../document.ts';
import { rawText } from '../text/line-text.ts';
import { closeViramaSpaces } from '../text/script.ts';
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

/** A space between two Thai letters: Thai sets none inside a phrase, OCR reads one between letters (`ข้อ ละ 5 ค ะแนน`). */
const THAI_SPACE = /(\p{Script=Thai})\s+(?=\p{Script=Thai})/gu;

/** A lone upright stroke opening a bracket before a word (`(। अंक)`): OCR's reading of a `1` as a danda or a bar; no script opens a mark so. */
const STROKE_ONE = /([(（[［]\s*)[।|](?=\s*\p{L})/gu;

/**
 * An angle bracket opening a mark that a round one closes (`《2分)`, `〈4分)`, a heading's `〈每小题2分)`):
 * OCR's reading of a full-width `（`, whose curve it takes for an angle. No script opens a mark so.
 */
const ANGLE_OPEN = /[《〈<](?=\s*\d{1,3}(?:[.,]\d{1,2})?\s*[^\s()（）\[\]《》〈〉<>]{0,6}\s*[)）])|[《〈](?=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]{1,8}\d{1,3}(?:[.,]\d{1,2})?\s*[^\s()（）\[\]《》〈〉<>]{0,6}\s*[)）])/gu;

/**
 * A number, or a range from 0 (`)2-0(`: a mark `(0–2)`), between brackets that face away from it
 * (`]3.5[`, `)2(`): a mark on a right-to-left line as OCR reads it, each bracket by its look, which a
 * right-to-left line mirrors.
 */
const MIRRORED_MARK = /([\])])\s*((?:0\s*[\p{Pd}~～]{1,2}\s*)?\d{1,3}(?:[.,]\d{1,2})?(?:\s*[\p{Pd}~～]{1,2}\s*0(?![\d.,]))?)\s*([[(])/gu;
const unmirrored = (_: string, close: string, value: string, open: string) => (close === ']' && open === '[' ? `[${value}]` : close === ')' && open === '(' ? `(${value})` : _);

/**
 * A round bracket read as a closing one where it opens a mark that a closing one ends, with the
 * mark's words in it (`)1.75 درجات لكل سؤال)`): OCR's reading of a right-to-left line's opening
 * bracket by its mirrored look. A value alone between them (`) 3 )`) is left as read.
 */
const MIRRORED_OPEN = /(^|\s)\)(?=\s*\d{1,3}(?:[.,]\d{1,2})?\s*\p{L}[^()\[\]]{0,30}\))/gu;

/**
 * A decimal mark OCR read as two words (`(1. 75 点 )`, `[3. 5]`): the point with its whole part, the
 * fraction apart. Only inside a bracket that closes after at most a short unit: no mark prints a space
 * after its decimal point, while a list's `3. 5` stands in running text.
 */
const SPLIT_DECIMAL = /([(（[［]\s*\d{1,3}[.,])\s+(\d{1,2}\s*[^\s\d()（）\[\]［］]{0,6}\s*[)）\]］])/gu;

/** A mark's brackets and digits as printed where OCR misread them: a `1` read as a stroke opening a mark (STROKE_ONE), a round bracket read as an angle (ANGLE_OPEN), a right-to-left line's brackets mirrored (MIRRORED_MARK, MIRRORED_OPEN), a decimal split in two (SPLIT_DECIMAL). */
export const misreadMarks = (text: string) => text.replace(STROKE_ONE, '$11').replace(ANGLE_OPEN, '(').replace(MIRRORED_MARK, unmirrored).replace(MIRRORED_OPEN, '$1(').replace(SPLIT_DECIMAL, '$1$2');

/**
 * A line's text as mark patterns read it: NFKC folds Arabic presentation forms (`ﻟﻜﻞ` as `لكل`),
 * full-width digits and CJK compatibility forms into the letters a template's words are written in;
 * a conjunct a text layer split after its virama (`प्रत् येक`) is one word again (`प्रत्येक`), and so
 * are Thai letters OCR spaced apart; OCR's misreadings of a mark's brackets and digits are undone.
 */
export const markText = (text: string) => misreadMarks(closeViramaSpaces(text.normalize('NFKC')).replace(THAI_SPACE, '$1'));

/**
 * A heading's words before the marks it states for its questions (`Física` of `Física  Las preguntas
 * 1 a 4 valen 2 puntos cada una.`, `서술형` of `서술형 (각 1점)`): up to the first statement of marks
 * for a range (the template's `points.range`) or for each question under it (`points.sectionDefault`).
 */
export function beforeMarks(text: string, t: Template): string {
  const folded = markText(text);
  const first = (res: RegExp[]) => res.map(re => re.exec(folded)?.index ?? Infinity).reduce((a, b) => Math.min(a, b), Infinity);
  const range = first(t.re.pointsRange);
  const at = Math.min(range, first(t.re.sectionPoints ? [t.re.sectionPoints] : []));
  if (at === Infinity) return text;
  const before = folded.slice(0, at);
  // A word run straight into a range's first number is the statement's own (`第1〜3题`, `Q1–3`),
  // not part of what stands before it (`物理 第1〜3题每小题5分。` names `物理`).
  const glued = at === range ? /[\p{L}\p{M}]+$/u.exec(before) : null;
  return (glued && before.slice(0, glued.index).trim() ? before.slice(0, glued.index) : before).trim();
}

/** A mark's value as printed: `2.5`, `2,5` (a decimal comma). */
export const markValue = (m: RegExpMatchArray) => Number((m.slice(1).find(g => g !== undefined) ?? '').replace(',', '.'));

/** How many letters may stand between a question's number and its own total: `Question 11 (3 marks)`, `A.1. Calificación máxima: 2.5 puntos`. */
const HEAD_MARK_LETTERS = 24;

/**
 * A bracket a line ends in, still open, with a number in it: a mark the line breaks (`（1` / `点）`);
 * its bracket may be OCR's angle for a full-width one (`《2.25` / `分)`, see ANGLE_OPEN).
 */
const OPEN_MARK = /[(（\[【《〈][^()（）\[\]【】《》〈〉]{0,16}$/u;
/** The rest of such a mark at the head of the next line: up to its closing bracket, opening none before it. */
const MARK_REST = /^[^()（）\[\]【】]{0,16}[)）\]】]/u;

/** Lines' texts with a mark broken over a line break whole again, on the line it opens on. */
export function joinWrappedMarks(texts: string[]): string[] {
  const out = [...texts];
  for (let i = 0; i + 1 < out.length; i++) {
    const open = OPEN_MARK.exec(out[i]);
    const rest = open && /\d/u.test(open[0]) ? MARK_REST.exec(out[i + 1]) : null;
    if (!rest) continue;
    out[i] = `${out[i]} ${rest[0].trimStart()}`;
    out[i + 1] = out[i + 1].slice(rest[0].length);
  }
  return out;
}

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
  // Misreadings undone on each line, and again on a line a mark broken over the line break was made whole on.
  const own = lines.map(l => misreadMarks(rawText(l.spans.filter(s => !skip.has(s) && !anchor.has(s) && !s.math))));
  const texts = joinWrappedMarks(own).map((text, i) => (text.length > own[i].length ? misreadMarks(text) : text));
  const stated = texts.length && t.re.pointsHead ? t.re.pointsHead.exec(texts[0]) : null;
  texts.forEach((text, li) => {
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

