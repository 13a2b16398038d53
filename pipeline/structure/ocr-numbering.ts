// On OCR pages, a mark at a line's margin that may be a question number OCR read as something
// else: the decoder weighs such lines as candidates (reading-input.ts) and assembly keeps their span.
import type { Line, Span } from '../document.ts';
import type { Template } from '../template.ts';
import type { Edges } from './anchors.ts';
import { OCR_SMALL_SHARE } from './model.ts';
import { lineInset } from '../text/direction.ts';

/** Letters OCR reads a digit's shape as (`I` `l` for 1, `O` `D` for 0, `S` for 5, `Z` for 2, `B` for 8, `G` `b` for 6, `q` for 9, `T` for 7, `A` for 4). */
const DIGIT_SHAPED = /^[IilOoDSsZzBbGgqTAJ]+$/u;

/** Points from the column's edge within which an unread mark may be a question number. */
const MARGIN_SLACK = 4;

/**
 * Something at the margin of an OCR line that could be a question number read as nothing like one
 * (`S.`, `J,`, `&`): a short token of digits, signs and Latin, Greek or Cyrillic letters, in the number's place and size.
 */
export function marginMark(line: Line, column: Edges, bodySize: number, t: Template): Span[] | null {
  const first = line.spans[0];
  // At the very edge: lines under a question are indented less than the template allows a number.
  if (!first || first.math || lineInset(line, column) > Math.min(t.numbering.indentTolerance, MARGIN_SLACK) || first.size < bodySize * OCR_SMALL_SHARE) return null;
  const text = first.text.trim();
  // What OCR makes of a digit's shape is a digit, a sign or a letter of the alphabets it reads
  // numbers in (`S`, `l`, `З`): a letter of another script is a word's (a Thai line read a letter at
  // a time, an Arabic `في`), or Hangul's or Han's.
  if (/[^\P{L}\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]/u.test(text)) return null;
  // A capital and two small letters is a word (`Let`, `The`), not a number's garble (`Il`, `S`, `&`);
  // so is a capital alone before a word in small letters (`A rectangle …`: a sentence opens there),
  // and a capitalised word before one, where a letter of it is drawn like no digit (a cover's `Họ và
  // tên:`, `Le nom`; `Il` may be 11).
  const next = line.spans[1]?.text.trim() ?? '';
  if (/^\p{Lu}\p{Ll}*$/u.test(text) && /^\p{Ll}/u.test(next) && (text.length === 1 || !DIGIT_SHAPED.test(text))) return null;
  return /^\S{1,2}[.,]$/.test(text) || (/^\S{1,3}$/u.test(text) && !/^\p{Lu}\p{Ll}{2}$/u.test(text) && !t.options.markers.includes(text)) ? [first] : null;
}
