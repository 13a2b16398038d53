// Question numbers as OCR reads them are often wrong (3 as 9, 4 as A) or missing, and a line that
// is no question may look like one. Taking each reading as it comes lets one bad reading shift every
// number after it. Instead the numbers of a section are chosen all at once: from the candidate
// lines in order, pick the ones that open questions and give them consecutive numbers so that as
// many as possible agree with what was read, a skipped number and a dropped candidate each costing.

/** A candidate line's reading: the number read, or null where something stood at the margin that could be a number. */
export type Reading = number | null;

const AGREE = 3;
/** A candidate taken with a number other than the one read (a misreading), or with none read. */
const MISREAD = 1;
const UNREAD = 0.5;
/** A number left out between two chosen ones (a question whose number went unseen). */
const GAP = 2;
/** A candidate whose number was read, left out (read as no question). */
const DROP = 1.2;

/**
 * The number each candidate gets (null: not a question), given the readings in order, the number
 * the run should start at and the largest number there may be.
 *
 * A number read is never overridden by the run: a candidate takes the number read, or is left out,
 * or (a misreading: `9` for 3) takes another number only where a neighbour's own reading pins it,
 * the number before it read as one less or the number after it read as one more (or it opens the
 * run at the number the run should start at). So one bad reading
 * cannot move the numbers of the candidates after it. Where the number chosen is not the one read,
 * the caller flags the item (see misreadings).
 */
export function alignNumbers(readings: Reading[], first: number, max: number): (number | null)[] {
  const m = readings.length;
  if (!m) return [];
  const hi = Math.min(max, first + m + 5);
  const lo = Math.max(1, Math.min(first, ...readings.filter((r): r is number => r !== null)));
  const drop = (i: number) => (readings[i] === null ? 0 : DROP);
  const dropsBefore = readings.map((_, i) => readings.slice(0, i).reduce<number>((n, _r, j) => n + drop(j), 0));
  const dropsBetween = (j: number, i: number) => dropsBefore[i] - dropsBefore[j] - drop(j);
  const agrees = (i: number, n: number) => readings[i] === n;
  const misread = (i: number, n: number) => readings[i] !== null && readings[i] !== n;
  const value = (i: number, n: number) => (agrees(i, n) ? AGREE : readings[i] === null ? -UNREAD : -MISREAD);
  // best[i][n][s]: the best score of a run whose last chosen candidate is i, numbered n; s = 1 where
  // i is a misreading nothing before pins, so the next chosen candidate must be read as n + 1.
  const best: number[][][] = [];
  const from: ([number, number, number] | null)[][][] = [];
  for (let i = 0; i < m; i++) {
    best.push([]); from.push([]);
    for (let n = lo; n <= hi; n++) {
      best[i][n] = [-Infinity, -Infinity]; from[i][n] = [null, null];
      const offer = (s: number, score: number, back: [number, number, number] | null) => {
        if (score > best[i][n][s]) { best[i][n][s] = score; from[i][n][s] = back; }
      };
      // Opening the run: a misreading there is pinned by the number the run should start at, or by what follows.
      offer(misread(i, n) && n !== first ? 1 : 0, value(i, n) - dropsBefore[i] - GAP * Math.abs(n - first), null);
      for (let j = 0; j < i; j++) for (let k = lo; k < n; k++) for (let t = 0; t < 2; t++) {
        if (best[j][k][t] === -Infinity) continue;
        if (t === 1 && !(agrees(i, n) && n === k + 1)) continue;
        const s = misread(i, n) && !(agrees(j, k) && k === n - 1) ? 1 : 0;
        offer(s, best[j][k][t] + value(i, n) - GAP * (n - k - 1) - dropsBetween(j, i), [j, k, t]);
      }
    }
  }
  let end: [number, number, number] | null = null, top = -Infinity;
  for (let i = 0; i < m; i++) for (let n = lo; n <= hi; n++) {
    const s = best[i][n][0] - (dropsBefore[m - 1] + drop(m - 1) - dropsBefore[i] - drop(i));
    if (s > top) { top = s; end = [i, n, 0]; }
  }
  const out: (number | null)[] = readings.map(() => null);
  for (let at = end; at; at = from[at[0]][at[1]][at[2]]) out[at[0]] = at[1];
  return out;
}

/** Candidates given a number other than the one read (misreadings the run corrected): to be flagged, by index. */
export function misreadings(readings: Reading[], numbers: (number | null)[]): number[] {
  return readings.flatMap((r, i) => (r !== null && numbers[i] !== null && numbers[i] !== r ? [i] : []));
}
