// A row of item numbers as a key prints them (a row of cells, a line of a table), read by OCR: a
// digit misread (`3` as `8`, `12` as `42`) does not keep the row from being one, nor its numbers
// from being told. Used for key pictures (grid-key.ts) and keys read from text (pair-key.ts).

/** Of a row's numbers, at least this share must agree on where the run starts. */
const AGREE = 0.6;

/**
 * Readings as a run of item numbers in the order given, one per cell (null for a cell whose number
 * cannot be told), or null where they are no such run. Where most cells agree on a run rising by
 * one, every cell takes its number from the run (OCR need only agree on where it starts); a key
 * that leaves numbers out (a form that keeps a longer form's numbers, a question answered in words)
 * rises by more, and each cell keeps its own reading where the readings rise. A reading that breaks
 * the rise (`12` read as `42` between 10 and 15) is left unread, one in five cells at most: a row
 * of pairs (number, value, number, value) breaks it more often than that.
 */
export function numberRun(read: (number | null)[]): (number | null)[] | null {
  if (selectionRun(read)) return read;
  const votes = new Map<number, number>();
  read.forEach((r, i) => { if (r !== null) votes.set(r - i, (votes.get(r - i) ?? 0) + 1); });
  const [start, agree] = [...votes.entries()].sort((x, y) => y[1] - x[1])[0] ?? [NaN, 0];
  const enough = Math.max(2, read.length * AGREE);
  if (agree >= enough && start >= 1) return read.map((_, i) => start + i);
  const rising = longestRising(read);
  const known = read.filter(r => r !== null).length;
  if (rising.size < enough || known - rising.size > Math.floor(read.length / 5)) return null;
  return read.map((r, i) => (rising.has(i) ? r : null));
}

/**
 * Readings that rise, every one read, in blocks each rising by one and each of at least
 * SELECTION_BLOCK cells (`1 2 4 5 6 7 8 9 11 12`: a selection's numbers, the questions with parts
 * left to a key of their own): the row as printed. A misreading breaks a run in one cell, not into
 * blocks that each run by one; where most cells agree on one run, this row's later block was read
 * as that run misread, and each of its numbers lost one.
 */
function selectionRun(read: (number | null)[]): read is number[] {
  if (read.length < 2 || read.some(r => r === null || r < 1)) return false;
  let block = 1, gaps = 0;
  for (let i = 1; i < read.length; i++) {
    const step = read[i]! - read[i - 1]!;
    if (step <= 0) return false;
    if (step === 1) { block++; continue; }
    if (block < SELECTION_BLOCK) return false;
    block = 1; gaps++;
  }
  return gaps > 0 && block >= SELECTION_BLOCK;
}

/** A selection's row of numbers runs by one in blocks of at least this many cells. */
const SELECTION_BLOCK = 2;

/** The cells (by index) of the longest strictly rising run of readings ≥ 1, gaps allowed. */
function longestRising(read: (number | null)[]): Set<number> {
  const len: number[] = [], prev: number[] = [];
  let best = -1;
  read.forEach((r, i) => {
    len[i] = 0; prev[i] = -1;
    if (r === null || r < 1) return;
    len[i] = 1;
    for (let j = 0; j < i; j++) if (len[j] && read[j]! < r && len[j] + 1 > len[i]) { len[i] = len[j] + 1; prev[i] = j; }
    if (best < 0 || len[i] > len[best]) best = i;
  });
  const out = new Set<number>();
  for (let i = best; i >= 0; i = prev[i]) out.add(i);
  return out;
}
