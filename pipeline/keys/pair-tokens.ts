// The words of a key's line: an item number as keys print it, and an answer as keys print it, in any
// script. Shared by the key readers of text lines (pair-key.ts) and of OCR lines (ocr-pairs.ts).

/** One token of a line: its text and where it stands across the page (x0 = x1 = NaN where unknown). */
export interface KeyToken { text: string; x0: number; x1: number }

const CIRCLED = '①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳';

/** An item number as a key prints it: `12`, `12.`, `12)`, `12:`; never `(12)` (an option label). */
export function itemNumber(token: string): number | null {
  const m = /^(\d{1,3})[.．:：、)）]?$/u.exec(token);
  return m && Number(m[1]) > 0 ? Number(m[1]) : null;
}

/**
 * An answer as a key prints it: a circled option (as its digit), a letter or a few letters of any
 * script (`D`, `CD`, `б`, `ウ`, `هـ`), or a value (`47`, `-3`, `2.5`, `3/4`, `√2`). Null for anything else.
 */
export function answerToken(token: string): { answer: string; circled: boolean } | null {
  const t = token.replace(/^[(（]([^()（）]+)[)）]$/u, '$1').replace(/[.,;:．、]$/u, '');
  if (!t) return null;
  if ([...t].length === 1 && CIRCLED.includes(t)) return { answer: String(CIRCLED.indexOf(t) + 1), circled: true };
  // Letters (with their combining marks, and the Arabic joining stroke of هـ), one script, five at most.
  if (/^[\p{L}\p{M}\u0640]+$/u.test(t) && [...t.replace(/[\p{M}\u0640]/gu, '')].length <= 5 && oneScript(t)) return { answer: t.normalize('NFKC'), circled: false };
  if (/^[-−+]?(?:\d+(?:[.,]\d+)?|√\d+|\d+\/\d+)$/u.test(t)) return { answer: t.replace('−', '-'), circled: false };
  return null;
}

function oneScript(t: string): boolean {
  const scripts = ['Latin', 'Cyrillic', 'Greek', 'Arabic', 'Devanagari', 'Thai', 'Hangul', 'Katakana', 'Hiragana', 'Han'];
  const letters = [...t].filter(c => /\p{L}/u.test(c));
  return scripts.some(s => letters.every(c => new RegExp(`\\p{Script=${s}}`, 'u').test(c)));
}

