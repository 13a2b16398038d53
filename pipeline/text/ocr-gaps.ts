// OCR sets the letters of scripts written without spaces inside a word apart (Hangul syllables
// `대 학 수 학`, Han and kana `化 学`, Thai): a pattern written as the word is printed would miss them.

/** Letters of scripts whose words OCR tends to break into single letters. */
const CLOSED = String.raw`[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]`;
const GAP = new RegExp(String.raw`(?<=${CLOSED})\s+(?=${CLOSED})`, 'gu');

/** The text as read, then again with the gaps between such letters closed: patterns match either. */
export function withGapsClosed(text: string): string {
  const closed = text.replace(GAP, '');
  return closed === text ? text : `${text}\n${closed}`;
}
