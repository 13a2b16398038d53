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
 */
export function alignNumbers(readings: Reading[], first: number, max: number): (number | null)[] {
  const m = readings.length;
  if (!m) return [];
  const hi = Math.min(max, first + m + 5);
  const lo = Math.max(1, Math.min(first, ...readings.filter((r): r is number => r !== null)));
  const drop = (i: number) => (readings[i] === null ? 0 : DROP);
  const dropsBefore = readings.map((_, i) => readings.slice(0, i).reduce<number>((n, _r, j) => n + drop(j), 0));
  const dropsBetween = (j: number, i: number) => dropsBefore[i] - dropsBefore[j] - drop(j);
  const value = (i: number, n: number) => (readings[i] === n ? AGREE : readings[i] === null ? -UNREAD : -MISREAD);
  // best[i][n]: the best score of a run whose last chosen candidate is i, numbered n.
  const best: number[][] = [];
  const from: ([number, number] | null)[][] = [];
  for (let i = 0; i < m; i++) {
    best.push([]); from.push([]);
    for (let n = lo; n <= hi; n++) {
      let score = value(i, n) - dropsBefore[i] - GAP * Math.abs(n - first);
      let back: [number, number] | null = null;
      for (let j = 0; j < i; j++) for (let k = lo; k < n; k++) {
        const s = best[j][k] + value(i, n) - GAP * (n - k - 1) - dropsBetween(j, i);
        if (s > score) { score = s; back = [j, k]; }
      }
      best[i][n] = score; from[i][n] = back;
    }
  }
  let end: [number, number] | null = null, top = -Infinity;
  for (let i = 0; i < m; i++) for (let n = lo; n <= hi; n++) {
    const s = best[i][n] - (dropsBefore[m - 1] + drop(m - 1) - dropsBefore[i] - drop(i));
    if (s > top) { top = s; end = [i, n]; }
  }
  const out: (number | null)[] = readings.map(() => null);
  for (let at = end; at; at = from[at[0]][at[1]]) out[at[0]] = at[1];
  return out;
}
