// Numbers read again alone where OCR's reading in context is not to be trusted: a question number
// at a column's margin (a mark OCR read as none, a number in square brackets, digits another
// script's model misread, a Latin lead such as `Q14.`), at the right margin of a line read right to
// left, and a decimal another script's model misread.
import { cellPng } from '../keys/grid.ts';
import type { Gray } from '../pixels/gray.ts';
import { inkRuns, type Box } from '../pixels/runs.ts';
import type { OcrPool, OcrWord } from '../providers/ocr.ts';
import { edgeWord, isBracketed } from './edge-words.ts';

/** A bracketed number is this many times as wide as tall at least (`[1]`; a mark at a line's end holds more). */
export const BRACKETED_NUMBER_WIDTH = 0.8;
/** A bracket's width, stem and bar, as a share of its height: cut from each side to read what it holds. */
const BRACKET_SIDE = 0.3;

/**
 * A block's letter (or what OCR made of it) and a number (or what OCR made of it): `A.1.` read as
 * `A.l.`, `8.2.`, `B.S.`; or a lead's letter run into its number, read as a digit by another script's
 * model, a bracket before it or none (`Q.5` read `0.5`, `(0.5`, `(९.5`; its `1` read as a danda, `(९.।5`).
 */
const BLOCK_LEAD = /^\(?([A-Za-z\d]|\p{Nd})[.．]([A-Za-z\d।|]{1,2})([.．]?)$/u;

/**
 * A question number read again: its box and text; `headOf`, the word OCR read it in, where the
 * number is only that word's head (a lead run on into the stem's first number): the rest of the
 * word is the stem's.
 */
export interface MarginNumber { box: Box; text: string; headOf?: OcrWord }

/** A block's letter and a number, both read as such (`A.3.`, `B.12`). */
const LETTER_BLOCK = /^[A-Za-z][.．]\d{1,2}[.．]?$/u;

/** A lead's word of two Latin letters or more, with its stop or none (`No.`, `Ex.`): one letter alone may be a digit misread (`l.`, `O.`). */
const LEAD_WORD = /^\p{Script=Latin}{2,}[.．]?$/u;

/** Rows above and below a number's word (a share of its height) in which it is looked for again: a dropped `1` may stand a little taller. */
const DIGIT_ROWS_PAD = 0.2;

/**
 * The question number at a band's margin, read again where OCR's reading in context is not to be
 * trusted: `first` is the band's first word as OCR read it, `margin` how far in (pixels) a number
 * may start, `least` how tall (pixels) its ink stands at least (a speck of the scan at the margin,
 * read alone, comes back `1.`), `digits` a reader of Latin digits where `pool` reads another script
 * too. Null where the band's reading stands as it is.
 */
export async function numberAtMargin(g: Gray, band: Box, first: OcrWord | undefined, gap: number, margin: number, least: number, pool: OcrPool, digits?: OcrPool): Promise<MarginNumber | null> {
  const inked = edgeWord(g, band, gap, 'left');
  const inContext = first ? /^(\d{1,2})([.):]?)$/.exec(first.text.trim()) : null;
  // A number in square brackets at the margin (`[2]`, read `21.` or `41.` in context): the brackets
  // known from their shape, the digits between them read alone.
  if (inked && inked[0] <= margin && inked[3] - inked[1] >= least && isBracketed(g, inked, BRACKETED_NUMBER_WIDTH)) {
    const h = inked[3] - inked[1], side = Math.round(h * BRACKET_SIDE);
    const number = await digitsAlone(g, [inked[0] + side, inked[1], inked[2] - side, inked[3]], digits ?? pool, AGAIN_SCALE);
    if (number !== null) return { box: inked, text: `[${number}]` };
  }
  if (first && digits && digits !== pool) {
    const again = await digitsAgain(g, band, first, gap, margin, 'left', digits);
    if (again !== undefined) return again;
  }
  // A question number stands at the column's very edge (text under it is indented); a word OCR
  // read as Hangul or Han is none. A number read in context, with its dot or bare (`17 (0–5)`, a
  // bold number set without one, `11)`), is left as read: read again alone it would be given a dot,
  // and a `)` read with the digits as a digit (`10)` came back `19.`, `11)` `1.`).
  // OCR's first word tells only where it covers the band's first ink: in a band made tall by a
  // stacked fraction (`24. 쌍곡선 x²/a² − y²/b² = 1`) it may read nothing at all of the number.
  // A block's letter and number read whole in context (`A.3.`) stand too: read alone with digits
  // only, its letter comes back a digit (`A.` read `4.`).
  // A lead's word of Latin letters (`No.`, `Ex.`, read by the Latin reader: ocr/page-ocr.ts latinHead)
  // stands too: read alone with digits only, `No.` comes back `0.`.
  if (first && (inContext || LETTER_BLOCK.test(first.text.trim()) || LEAD_WORD.test(first.text.trim()) || /[\p{Script=Hangul}\p{Script=Han}]/u.test(first.text)) && first.bbox[0] <= (inked?.[2] ?? Infinity)) return null;
  // Else the first word of ink at the margin, read alone as a question number with digits only
  // (`23.` that OCR in context read as `.`, `8.` as `&`); none where there is no ink at the edge.
  if (!inked || inked[0] > margin || inked[3] - inked[1] < least || inked[2] - inked[0] > (inked[3] - inked[1]) * 3) return null;
  const number = await digitsAlone(g, inked, pool);
  return number === null ? null : { box: inked, text: `${number}.` };
}

/** Digits another script's model read are read again this many times enlarged: at the page's own size a bold `1.5` comes back `15` or `41.5`, a bold `11` `71`. */
const AGAIN_SCALE = 3;

/**
 * A decimal on a page read by another script's model, read again by the Latin digits reader: Hindi's
 * reads the bold `1` of `1.5` as `7`, or drops it (`.5`). Where the whole part is missing, the ink
 * just left of the word (no other word's, within a word's gap) is taken in; `others` are the band's
 * word boxes, the word's own among them. Null where the word is
 * no decimal, or where the reading again is none ending as the word did.
 */
export async function decimalAgain(g: Gray, word: Box, read: string, others: readonly Box[], gap: number, digits: OcrPool): Promise<{ box: Box; text: string } | null> {
  const decimal = /^(\d{1,2})?([.,])(\d{1,2})$/.exec(read.trim());
  if (!decimal) return null;
  let box: Box = word;
  if (!decimal[1]) {
    const height = word[3] - word[1];
    const before = edgeWord(g, [Math.max(0, word[0] - height * 2), word[1], word[0], word[3]], gap, 'right');
    if (!before || word[0] - before[2] > gap || others.some(o => o !== word && o[0] < before[2] && before[0] < o[2] && o[1] < word[3] && word[1] < o[3])) return null;
    box = [before[0], word[1], word[2], word[3]];
  }
  for (const mode of ['line', 'word'] as const) {
    const m = /^(\d{1,2})[.,](\d{1,2})$/.exec((await digits.recognize(await cellPng(g, box, AGAIN_SCALE, 10), { mode, whitelist: '0123456789.,' })).text.replace(/\s+/g, ''));
    if (m && m[2] === decimal[3]) return { box, text: `${m[1]}${decimal[2]}${m[2]}` };
  }
  return null;
}

/**
 * A bold whole number on a page read by another script's model, read again by the Latin digits
 * reader: Hindi's reads a bold `1` as `4` or `7` (`(प्रत्येक 1 अंक)` read `(प्रत्येक 4 अंक)`). Null where
 * the word is no such number or the reading again keeps it (or gives as many digits no better).
 * `gap`: the pixels that part two words.
 */
export async function boldNumberAgain(g: Gray, word: Box, read: string, gap: number, digits: OcrPool): Promise<string | null> {
  const whole = /^\d{1,2}$/.exec(read.trim());
  if (!whole) return null;
  // The ink round the word's middle, within a word's gap: OCR's box for a lone digit may be a sliver of it.
  const [x0, y0, x1, y1] = word;
  const middle = (x0 + x1) / 2, height = y1 - y0;
  const piece = inkRuns(g, [Math.max(0, Math.floor(x0 - height)), y0, Math.min(g.width, Math.ceil(x1 + height)), y1], gap, 'x').find(([a, b]) => a <= middle + 1 && b >= middle - 1);
  if (!piece) return null;
  const again = await digitsAlone(g, [piece[0], y0, piece[1], y1], digits, AGAIN_SCALE);
  return again !== null && String(again).length === whole[0].length && String(again) !== whole[0] ? String(again) : null;
}

/**
 * The question number at the right margin of a band read right to left (an Arabic page's `13.`
 * stands at its column's right edge): read again by the Latin digits reader where another script's
 * model read it (`3.` for `13.`, its first digit dropped). `last` is the band's rightmost word,
 * `before` the word left of it, `margin` how far left of the column's right edge (pixels) a number
 * may end.
 */
export async function numberAtRightMargin(g: Gray, band: Box, last: OcrWord | undefined, gap: number, margin: number, digits: OcrPool, before?: OcrWord): Promise<{ box: Box; text: string } | null> {
  const word = last && before ? numberInTwo(before, last) ?? last : last;
  return (word ? await digitsAgain(g, band, word, gap, margin, 'right', digits) : undefined) ?? null;
}

/**
 * One number OCR read as two words side by side, digits and stops only (`.11` read `.` and `1`, the
 * space between a bold `1` and the next taken for a word's): the two as one word, in visual order.
 * Null where they are not so.
 */
function numberInTwo(left: OcrWord, right: OcrWord): OcrWord | null {
  const a = left.text.trim(), b = right.text.trim();
  if (!/^[\d.]+$/.test(a) || !/^[\d.]+$/.test(b) || !/\d/.test(a + b)) return null;
  const height = right.bbox[3] - right.bbox[1];
  const level = left.bbox[1] < right.bbox[3] && right.bbox[1] < left.bbox[3];
  if (!level || right.bbox[0] - left.bbox[2] > height) return null;
  const bbox: Box = [left.bbox[0], Math.min(left.bbox[1], right.bbox[1]), right.bbox[2], Math.max(left.bbox[3], right.bbox[3])];
  return { ...right, text: a + b, bbox, glyphs: [...left.glyphs, ...right.glyphs] };
}

/**
 * Digits another script's model read as a band's number (`7.`, `॥7.`, `.3` on a right-to-left line),
 * read again alone by the Latin reader from the ink's edge on the number's side: a `1` it dropped
 * stands beside its word (left of it, or on a right-to-left line between it and the text), or came
 * back as a stroke of the script's own. Undefined where the word is no such number at the margin
 * (the band is left to other readings); null where the reading in context stands.
 */
async function digitsAgain(g: Gray, band: Box, word: OcrWord, gap: number, margin: number, side: 'left' | 'right', digits: OcrPool): Promise<MarginNumber | null | undefined> {
  // What stands before the digits: a stop, a stroke, or what is left of a Latin lead (`QI4.` for `Q14.`);
  // or a block's letter and its number, either misread (`A.l.`, `8.2.`, `B.S.` for `A.1.`, `B.2.`, `B.5.`).
  const text = word.text.trim();
  const block = BLOCK_LEAD.exec(text);
  // Its stop may be a colon (`12:`), and its digits what another script's model made of a `1` where a
  // stop follows (`I:` for `11:`); lost, the `1` is found again in the ink at the margin (`2:` for `12:`).
  const read = (/^((?:[A-Za-z]|[^\p{L}\p{N}\s]){0,3}?)(\d{1,2})([.):]?)$/u.exec(text) ?? /^()([\dIl|]{1,2})([.):])$/u.exec(text))
    ?? (block && !(/[A-Za-z]/.test(block[1]) && /^\d+$/.test(block[2])) ? [text, `${block[1]}.`, block[2], block[3]] : null);
  // At the margin give or take a digit's height (a page scanned askew moves lines a few pixels in),
  // and read again in the word's own rows (the ink at the edge may run down into the next line, `∠` under `18.`).
  const height = word.bbox[3] - word.bbox[1];
  const pad = Math.round(height * DIGIT_ROWS_PAD);
  const rows = edgeWord(g, [band[0], Math.max(band[1], word.bbox[1] - pad), band[2], Math.min(band[3], word.bbox[3] + pad)], gap, side);
  const atMargin = rows && (side === 'left' ? rows[0] <= margin + height && word.bbox[0] - rows[2] <= height : rows[2] >= margin - height && rows[0] - word.bbox[2] <= height);
  if (!rows || !atMargin) return undefined;
  if (!read) return side === 'left' ? leadRunOn(g, rows, word, digits) : undefined;
  const box: Box = side === 'left'
    ? [Math.min(rows[0], word.bbox[0]), Math.min(rows[1], word.bbox[1]), word.bbox[2], Math.max(rows[3], word.bbox[3])]
    : [word.bbox[0], Math.min(rows[1], word.bbox[1]), Math.max(rows[2], word.bbox[2]), Math.max(rows[3], word.bbox[3])];
  const lettered = /[A-Za-z]/.test(read[1]) || block !== null;
  const again = lettered ? null : await digitsAlone(g, box, digits, AGAIN_SCALE, side === 'right', read[3] === ':');
  // (Never fewer digits than read in context: a wide `１１．` may come back alone as `1`.)
  const kept = again !== null && String(again).length >= read[2].length;
  if (!kept) {
    // A Latin lead before the digits (`Q14.`, its `Q` read `(` or lost with the `1`): read as the Latin reader reads it.
    const led = await latinLead(g, box, digits);
    const relead = led && String(led.number).length >= read[2].length ? `${led.lead}${led.number}${read[3] || led.stop}` : null;
    // (Read as in context, it stands as read there.)
    return relead && relead !== text ? { box, text: relead } : null;
  }
  if (again === Number(read[2]) && !read[1]) return null;
  // The stop as read: after the number, or before it where a right-to-left line was read in its visual order (`.13`).
  const stopBefore = side === 'right' && /^[.．]$/.test(read[1]);
  return { box, text: stopBefore ? `.${again}` : `${again}${read[3]}` };
}

/** A lead's letter (or a digit OCR made of it) and stop, then digits (of any script: another script's model reads Latin ones as its own) run on into what follows (`Q.418+4x5`, `0.39+`, `0.३39+`). */
const RUN_ON = /^\(?[A-Za-z\p{Nd}][.．]\p{Nd}/u;

/**
 * A lead and its number OCR ran into the stem's first number as one word (`Q.4 18 + 4×5` read
 * `Q.418+4x5`, `Q.3 9 + 2` read `0.39+`): the ink at the margin up to its first gap, where that ends
 * short of the word, read alone by the Latin reader. Undefined where it reads as no lead and number.
 */
async function leadRunOn(g: Gray, ink: Box, word: OcrWord, latin: OcrPool): Promise<MarginNumber | undefined> {
  const height = word.bbox[3] - word.bbox[1];
  if (!RUN_ON.test(word.text.trim()) || ink[2] > word.bbox[2] - height) return undefined;
  const led = await latinLead(g, ink, latin);
  return led ? { box: ink, text: `${led.lead}${led.number}${led.stop}`, headOf: word } : undefined;
}

/** A number with a Latin lead (`Q14.`, `Ex. 3`) read by the Latin reader, letters and all; null where it reads as none. */
async function latinLead(g: Gray, box: Box, latin: OcrPool): Promise<{ lead: string; number: number; stop: string } | null> {
  const png = await cellPng(g, box, AGAIN_SCALE, 10);
  for (const mode of ['line', 'word'] as const) {
    const m = /^([A-Z][A-Za-z]?\.?)(\d{1,2})(\.?)$/.exec((await latin.recognize(png, { mode })).text.replace(/\s+/g, ''));
    if (m) return { lead: m[1], number: Number(m[2]), stop: m[3] };
  }
  return null;
}

/** A question number's box read alone with digits only: its number, or null where it reads as none. */
async function digitsAlone(g: Gray, box: Box, pool: OcrPool, scale = 1, stopFirst = false, colon = false): Promise<number | null> {
  const png = await cellPng(g, box, scale, 10);
  // A lone `8.` may come back empty in one mode and whole in another. A stop may come first only
  // where a right-to-left line's number was cut out with its stop on the left (elsewhere `.59` is
  // what is left of a label, `B.5.`).
  // A `)` after the number (`11)`) is read as what it is, not as a digit; a `:` too, only where the
  // number was read with one in context (`11:`): allowed anywhere, a mark's bracket at a KICE
  // image-only page's margin came to stand as a number `[3]` after question 30, taking its points.
  const stops = stopFirst ? '.' : colon ? '.):' : '.)';
  const number = stopFirst ? /^\.?(\d{1,2})\.?$/ : new RegExp(`^(\\d{1,2})[${stops}]?$`);
  for (const mode of ['line', 'word'] as const) {
    const m = number.exec((await pool.recognize(png, { mode, whitelist: `0123456789${stops}` })).text.replace(/\s+/g, ''));
    if (m) return Number(m[1]);
  }
  return null;
}
