// A line of a key's pairs (`1.B 2.A 3.B …`, `1.2 2.5 3.3 …`) as OCR reads it off a scan: the small
// mark between a number and its answer lost (`2A`, `43`) or read as another (`5,2`, `18\B`), an
// answer read as a digit with the mark kept in the wrong place (`16.` for `1.B`), a pair garbled
// past reading. The line is read by one decision over all its tokens, not token by token: a
// dynamic program chooses how each token splits into an item number and an answer (or is left
// out) so that the numbers rise, by one where they can, at the least cost; a reading that rests
// mostly on guesses is no reading.

import { answerToken, itemNumber, type KeyToken } from './pair-tokens.ts';

export interface DecodedPair { number: number; answer: string; circled: boolean }

/** Marks a key prints between a number and its answer. */
const MARK = '.．:：、)）';
/** What OCR reads such a mark as on a scan (a comma, a semicolon, a backslash or an apostrophe). */
const MISREAD_MARK = ",;\\\\'’";
/** A token that is a pair with its mark (`3.4`). */
const MARKED_PAIR = new RegExp(`^\\d{1,3}[${MARK}]\\S`, 'u');
/** A number whose mark OCR misread, alone (`15,`). */
const MISREAD_NUMBER = new RegExp(`^(\\d{1,3})[${MISREAD_MARK}]$`, 'u');

/** What each way of reading a token costs: a guess costs more the less the page shows of it. */
const COST = {
  /** A number read with a mark OCR misread (`5,2`). */
  misreadMark: 0.3,
  /** A number and answer run together, the cut made where the numbers go on rising (`43`, `2A`). */
  lostMark: 1,
  /** A token that is no pair (a pair OCR garbled, a stray glyph): left out. */
  leftOut: 2,
  /** A number that rises by more than one (a key that leaves out the questions it has no value for). */
  skip: 0.5,
  /** A number OCR read with one digit wrong (`19.エ` between `9.ア` and `11.ウ`), taken as the next. */
  misreadNumber: 1,
} as const;

/** A decoded line has at least this many pairs: two pairs on a line are as likely a question's text. */
const MIN_PAIRS = 3;
/** Of every this many pairs, at most one token is left out. */
const PAIRS_PER_LEFT_OUT = 4;

type Way = 'marked' | 'plain' | 'misread-mark' | 'lost-mark' | 'misread-number' | 'left-out';
interface Step { way: Way; pair?: DecodedPair; tokens: 1 | 2 }

/** The ways the tokens from i on can open: each with the pair it reads (none where a token is left out). */
function waysAt(t: string[], i: number): (Step & { cost: number })[] {
  const out: (Step & { cost: number })[] = [{ way: 'left-out', tokens: 1, cost: COST.leftOut }];
  const n = itemNumber(t[i]);
  const next = i + 1 < t.length ? answerToken(t[i + 1]) : null;
  // A number, then its answer as the next token (`1. D`, `12 47`): shown by its mark or its
  // letter; two bare numbers (`23 34`) are as likely two values of a question's text.
  // An answer that reads as a pair itself (`14 3.4` in `14 3.4 44 5.5`) costs as a guess does.
  const pairLike = MARKED_PAIR.test(t[i + 1] ?? '');
  if (n !== null && next) out.push({ way: /\d$/u.test(t[i]) && !/\p{L}/u.test(next.answer) && !next.circled ? 'plain' : 'marked', tokens: 2, cost: pairLike ? COST.lostMark : 0, pair: { number: n, ...next } });
  // A number whose mark OCR misread, then its answer (`15, 168`).
  const misread = MISREAD_NUMBER.exec(t[i]);
  if (misread && Number(misread[1]) > 0 && next) out.push({ way: 'misread-mark', tokens: 2, cost: COST.misreadMark, pair: { number: Number(misread[1]), ...next } });
  const chars = [...t[i]];
  for (let k = 1; k <= 3 && k < chars.length; k++) {
    const head = chars.slice(0, k).join('');
    if (!/^\d+$/u.test(head) || Number(head) < 1) break;
    const mark = chars[k], rest = chars.slice(k + 1).join('');
    const glued = (way: Way, answerText: string, cost: number) => {
      const a = answerToken(answerText);
      if (a) out.push({ way, tokens: 1, cost, pair: { number: Number(head), ...a } });
    };
    if (MARK.includes(mark) && rest) glued('marked', rest, 0);
    else if (MISREAD_MARK.includes(mark) && rest) glued('misread-mark', rest, COST.misreadMark);
    // Run together: what follows the digits is the answer (`43`, `2A`, `16.` for `1.6`/`1.B`); a
    // letter run together is one letter (`3cm` is a length).
    else if (!MARK.includes(mark) && !MISREAD_MARK.includes(mark) && !/\p{L}\p{M}*\p{L}/u.test(chars.slice(k).join(''))) glued('lost-mark', chars.slice(k).join(''), COST.lostMark);
  }
  return out;
}

/**
 * The line's tokens read as pairs by the least-cost path (numbers strictly rising, by one at no
 * cost), with how each pair was read; null where no path reads every token.
 */
function bestPath(t: string[]): Step[] | null {
  // State: (token index, last number); the last number is what the rise is measured from.
  const memo = new Map<string, { cost: number; steps: Step[] } | null>();
  const go = (i: number, last: number): { cost: number; steps: Step[] } | null => {
    if (i === t.length) return { cost: 0, steps: [] };
    const key = `${i}:${last}`;
    if (memo.has(key)) return memo.get(key)!;
    let best: { cost: number; steps: Step[] } | null = null;
    for (const w of withMisreadNumbers(waysAt(t, i), last)) {
      if (i + w.tokens > t.length) continue;
      if (w.pair && w.pair.number <= last) continue;
      const rise = w.pair && w.pair.number !== last + 1 ? COST.skip : 0;
      const rest = go(i + w.tokens, w.pair ? w.pair.number : last);
      if (!rest) continue;
      const cost = w.cost + rise + rest.cost;
      if (!best || cost < best.cost) best = { cost, steps: [{ way: w.way, tokens: w.tokens, ...(w.pair ? { pair: w.pair } : {}) }, ...rest.steps] };
    }
    memo.set(key, best);
    return best;
  };
  return go(0, 0)?.steps ?? null;
}

/**
 * The ways a token opens, and where one reads a number one digit away from the next (`19` after
 * 9), the same pair as the next number: OCR misread a digit. A guess, costed as one.
 */
function withMisreadNumbers(ways: (Step & { cost: number })[], last: number): (Step & { cost: number })[] {
  const next = String(last + 1);
  const off = (n: number) => String(n).length === next.length && [...String(n)].filter((c, k) => c !== next[k]).length === 1;
  return ways.flatMap(w => (w.pair && w.pair.number !== last + 1 && off(w.pair.number) ? [w, { ...w, way: 'misread-number' as const, cost: w.cost + COST.misreadNumber, pair: { ...w.pair, number: last + 1 } }] : [w]));
}

/** Whether another cut of a run-together token would also stand between the numbers around it (`234` between 1 and 25). */
function ambiguous(t: string[], steps: Step[]): boolean {
  let i = 0;
  const numbers = steps.map(s => s.pair?.number ?? null);
  for (const [k, s] of steps.entries()) {
    if (s.way === 'lost-mark') {
      const below = numbers.slice(0, k).filter(n => n !== null).at(-1) ?? 0;
      const above = numbers.slice(k + 1).find(n => n !== null) ?? Infinity;
      const cuts = waysAt(t, i).filter(w => w.way === 'lost-mark' && w.pair!.number > below && w.pair!.number < above);
      if (cuts.length > 1) return true;
    }
    i += s.tokens;
  }
  return false;
}

/**
 * A line of OCR'd tokens read as a key's pairs, or null. Kept only where the reading rests on what
 * the page shows more than on guesses: at least MIN_PAIRS pairs; pairs printed with their mark (or
 * one OCR misread) or run together with a letter (`2A`: no number ends in a letter), at least two,
 * and at least as many as those run together with a digit (`43`) and tokens left out; few tokens left out; and
 * every cut of a run-together token the only one the numbers around it allow.
 */
export function decodedPairs(tokens: KeyToken[]): DecodedPair[] | null {
  const t = tokens.map(x => x.text);
  if (t.length < MIN_PAIRS) return null;
  const steps = bestPath(t);
  if (!steps) return null;
  const pairs = steps.flatMap(s => (s.pair ? [s.pair] : []));
  const leftOut = steps.filter(s => s.way === 'left-out').length;
  const letter = (s: Step) => /\p{L}/u.test(s.pair!.answer) || s.pair!.circled;
  const shown = steps.filter(s => s.way === 'marked' || s.way === 'misread-mark' || (s.way === 'lost-mark' && letter(s))).length;
  const guessed = steps.filter(s => (s.way === 'lost-mark' && !letter(s)) || s.way === 'misread-number').length + leftOut;
  if (pairs.length < MIN_PAIRS || leftOut * PAIRS_PER_LEFT_OUT > pairs.length || shown < Math.max(guessed, 2) || ambiguous(t, steps)) return null;
  return pairs;
}
