// A mark's number on a page read by another script's model, read again by the Latin digits reader.
// Models of scripts that write digits of their own misread a Latin digit set small beside their
// own letters, above all a `1`: Hindi's reads `(1 अंक)` as `( अंक)`, `(7 अंक)` or `(। अंक)`,
// Arabic's `[2 درجات]` as `21 درجات]` and `[1]` as `]1(`. A mark is found by its shape in the words
// read — a bracket and at most a few characters beside a word of letters that closes the bracket,
// a square-bracketed group alone, or a bare number ending its line whose ink is a bracketed group —
// whatever its unit, and only its number is read again.
import { cellPng } from '../keys/grid.ts';
import type { Gray } from '../pixels/gray.ts';
import type { Box } from '../pixels/runs.ts';
import type { OcrPool, OcrWord } from '../providers/ocr.ts';
import { readsRtl } from '../text/direction.ts';
import { inkBox } from '../pixels/cells.ts';
import { isBracketed } from './edge-words.ts';
import { BRACKETED_NUMBER_WIDTH } from './numbers-again.ts';
import { wordLines } from './word-lines.ts';

/**
 * What OCR made of a mark's opening bracket and number (`(1`, `(`, `(।`, `21`, `[3`): a bracket or
 * none, then at most three digits or strokes, with decimals. A decimal whose whole part was lost
 * (`.5`) is decimalAgain's (numbers-again.ts), which looks left of the word for it.
 */
const NUMBER_SLOT = /^[(（[［\]]?(?:[\d।|Il]{1,3}(?:[.,]\d{1,2})?)?$/u;
/** A mark's opening bracket as OCR may read it (a right-to-left line's `[` read facing back, `]`). */
const OPEN_BRACKET = /[(（[［\]]/u;
/** A bracket a word opens and does not close: a mark opened before its number (`(प्रत्येक 1.5 अंक)`). */
const OPENS = /[(（[［][^)）\]］]*$/u;
/** A word of letters closing a bracket: a mark's unit (`अंक)`, `درجات]`, `điểm)`). */
const UNIT_CLOSED = /^\p{L}[\p{L}\p{M}]*[)）\]］]$/u;
/**
 * A square-bracketed group alone, as OCR read it (`]1(`, `[4.5[]`, `[4]`): brackets facing either
 * way round a number or what is left of it. A round one (`(1)`) is an option's label as often.
 */
const GROUP_ALONE = /^(?:\[[\d।|Il.,]{0,5}[\][(]{1,2}|\][\d।|Il.,]{0,5}[\[(]{1,2})$/u;
/** The number read again: brackets either side, as the digits reader took them, and the number with its decimals. */
const READ_AGAIN = /^[(\[\])]?(\d{1,2}(?:[.,]\d{1,2})?)[)\]([]{0,2}$/;
/** Blank (pixels) left between the number's region and its unit's word. */
const UNIT_GAP = 1;
/** Rows (a share of the line's height) added above and below the number: the word box of a dropped `1` is the bracket's. */
const ROWS_PAD = 0.15;
/**
 * Scales the number is read again at, the surest first. Tesseract reads one small group unsteadily:
 * a clear `[5]` came back `[5]` at one scale and mode and `[3]` at another, so one reading is no
 * verdict (see numberIn).
 */
const AGAIN_SCALES = [3, 2, 1];
/** A bracket's partner: the opening bracket a unit's closing one answers. */
const opening = (close: string) => ({ ')': '(', '）': '（', ']': '[', '］': '［' })[close] ?? '(';

/**
 * The number a box holds, read with digits and brackets only, or null. Read whole and as one word
 * at the first scale; where the two agree that is the number. Else every scale is read both ways and
 * the number most readings give, the reading in context (`inContext`) among them, is taken; where
 * no number has most, none.
 */
async function numberIn(g: Gray, box: Box, digits: OcrPool, inContext: string | null): Promise<string | null> {
  const votes: string[] = [];
  for (const [k, scale] of AGAIN_SCALES.entries()) {
    const png = await cellPng(g, box, scale, 10);
    for (const mode of ['line', 'word'] as const) {
      const m = READ_AGAIN.exec((await digits.recognize(png, { mode, whitelist: '0123456789.,()[]' })).text.replace(/\s+/g, ''));
      if (m) votes.push(m[1].replace(',', '.'));
    }
    if (k === 0 && votes.length === 2 && votes[0] === votes[1]) return votes[0];
  }
  if (inContext !== null) votes.push(inContext);
  const counts = new Map<string, number>();
  for (const v of votes) counts.set(v, (counts.get(v) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  return ranked.length && (ranked.length === 1 || ranked[0][1] > ranked[1][1]) ? ranked[0][0] : null;
}

/** The number a word read in context holds (`(7` → `7`, `]5[` → `5`), or null. */
const numberRead = (text: string) => /\d{1,2}(?:[.,]\d{1,2})?/.exec(text)?.[0].replace(',', '.') ?? null;

/**
 * A band's words with each line's mark read again where one is found: the number beside a unit
 * (`(` + `अंक)`, `21` + `درجات]`), or inside a bracketed group alone, at the line's reading end or
 * anywhere in it. The word keeps its bracket (or is given the unit's partner where OCR lost it),
 * and takes the number the digits reader read; where that reader reads none, the word stays.
 */
export async function marksAgain(g: Gray, words: OcrWord[], digits: OcrPool): Promise<OcrWord[]> {
  const again = new Map<OcrWord, string>();
  for (const line of wordLines(words)) {
    const rtl = readsRtl(line.map(w => w.text).join(' ')) === true;
    const [, ly0, , ly1] = line[0].line;
    const pad = Math.round((ly1 - ly0) * ROWS_PAD);
    const rows = (a: OcrWord, b: OcrWord): [number, number] => [Math.max(0, Math.min(a.bbox[1], b.bbox[1]) - pad), Math.min(g.height, Math.max(a.bbox[3], b.bbox[3]) + pad)];
    for (const [i, w] of line.entries()) {
      const text = w.text.trim();
      // A bare number ending the line whose ink is a bracketed group (`[1]` read `1`, its brackets lost).
      const last = rtl ? i === 0 : i === line.length - 1;
      const ink = last && line.length > 1 && /^\d{1,2}$/.test(text) ? inkBox(g, w.bbox[0], w.bbox[1], w.bbox[2], w.bbox[3]) : null;
      if ((GROUP_ALONE.test(text) && /[\d।|Il]/u.test(text)) || (ink && isBracketed(g, ink, BRACKETED_NUMBER_WIDTH))) {
        const [y0, y1] = rows(w, w);
        const number = await numberIn(g, [w.bbox[0], y0, w.bbox[2], y1], digits, numberRead(text));
        if (number !== null) again.set(w, `[${number}]`);
        continue;
      }
      if (!NUMBER_SLOT.test(text) || !OPEN_BRACKET.test(text) && !/\d/.test(text)) continue;
      // The unit follows the number in reading order: to its right on a left-to-right line, to its
      // left on a right-to-left one. A number without a bracket of its own whose mark was opened by
      // the word before it is no mark's opening (`(प्रत्येक 1.5 अंक)`, a heading's mark for each question).
      const unit = rtl ? line[i - 1] : line[i + 1];
      const before = rtl ? line[i + 1] : line[i - 1];
      if (!unit || !UNIT_CLOSED.test(unit.text.trim())) continue;
      if (!OPEN_BRACKET.test(text) && before && OPENS.test(before.text.trim())) continue;
      const [y0, y1] = rows(w, unit);
      const box: Box = rtl ? [Math.min(w.bbox[0], unit.bbox[2] + UNIT_GAP), y0, w.bbox[2], y1] : [w.bbox[0], y0, Math.max(w.bbox[2], unit.bbox[0] - UNIT_GAP), y1];
      if (box[2] - box[0] < 2) continue;
      const number = await numberIn(g, box, digits, numberRead(text));
      if (number === null) continue;
      const bracket = OPEN_BRACKET.exec(text)?.[0] ?? opening(unit.text.trim().slice(-1));
      again.set(w, `${bracket === ']' ? '[' : bracket}${number}`);
    }
  }
  return again.size ? words.map(w => (again.has(w) ? { ...w, text: again.get(w)! } : w)) : words;
}
