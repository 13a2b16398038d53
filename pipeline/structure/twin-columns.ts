// A paper printed twice side by side, one language a column (`1` beside `1`, `2` beside `2`): the
// second column is the first one again, not more questions. Read column by column, its numbering
// starts over in the second column and every question is read twice. Once a reading shows runs
// that stand level with each other number for number, the page is read as a reader reads it: each
// question's block in the first column, then its twin's beside it, so that the twin's number
// repeats the question's (as a paper that prints each question twice, one language under the
// other, does) and its lines are that question's text.
import type { Line } from '../document.ts';
import type { LineFeatures } from './candidates.ts';
import type { Reading } from './decode.ts';

/** Two anchors this close in height (points) stand level with each other. */
export const LEVEL = 2;
/** A run has at least this many questions level with another run's to be its twin… */
export const TWINS_LEAST = 2;

/** The run of numbering each anchor belongs to: a new one where the number does not rise or the label before it moves on. */
function runsOf(reading: Reading): number[] {
  const runs: number[] = [];
  reading.anchors.forEach((a, k) => runs.push(k > 0 && (a.number <= reading.anchors[k - 1].number || a.candidate.major !== reading.anchors[k - 1].candidate.major) ? runs[k - 1] + 1 : (runs[k - 1] ?? 0)));
  return runs;
}

/** A twin's block shares at least this share of the numbers its question's prints (a translation keeps them). */
const SAME_NUMBERS = 0.5;
/** The lines of a block whose numbers are compared, at most. */
const BLOCK_LINES = 12;

/** The numbers a question's block prints (its own number left out), from its anchor to the next line that opens one in its column. */
function numbersOf(features: LineFeatures[], from: number, number: number, opens: Set<number>): string[] {
  const { page, column } = features[from].line;
  const out: string[] = [];
  for (let i = from, n = 0; i < features.length && n < BLOCK_LINES; i++) {
    const f = features[i];
    if (f.line.page !== page || f.line.column !== column) continue;
    if (i > from && opens.has(i)) break;
    n++;
    out.push(...(f.text.match(/\p{Nd}+/gu) ?? []));
  }
  const own = out.indexOf(String(number));
  if (own >= 0) out.splice(own, 1);
  return out;
}

/** Whether two blocks print the same numbers (most of them), or neither prints any. */
function sameNumbers(a: string[], b: string[]): boolean {
  if (!a.length && !b.length) return true;
  const left = [...b];
  let common = 0;
  for (const x of a) { const k = left.indexOf(x); if (k >= 0) { common++; left.splice(k, 1); } }
  return common >= Math.max(a.length, b.length) * SAME_NUMBERS;
}

/**
 * Pairs of anchors (earlier, later) where the later stands level with the same-numbered earlier one
 * in the next column of its page and prints the same numbers (a translation keeps a question's
 * quantities; another subject's question 1 beside this one's does not), for runs (on a page) most
 * of whose questions have such a twin: two sections of a three-column paper may set a question or
 * two level by chance, not question for question.
 */
export function twinPairs(reading: Reading, features: LineFeatures[]): [number, number][] {
  const runs = runsOf(reading);
  const opens = new Set(reading.anchors.map(a => a.candidate.f.index));
  const pairs = new Map<string, [number, number][]>(), size = new Map<string, number>();
  reading.anchors.forEach((b, j) => {
    const lb = b.candidate.f.line;
    const at = `${runs[j]}:${lb.page}`;
    size.set(at, (size.get(at) ?? 0) + 1);
    const i = reading.anchors.findIndex((a, i) => runs[i] < runs[j] && a.number === b.number && a.candidate.f.line.page === lb.page
      && Math.abs(a.candidate.f.line.column - lb.column) === 1 && Math.abs(a.candidate.f.line.bbox[1] - lb.bbox[1]) <= LEVEL
      && sameNumbers(numbersOf(features, a.candidate.f.index, a.number, opens), numbersOf(features, b.candidate.f.index, b.number, opens)));
    if (i >= 0) pairs.set(at, [...(pairs.get(at) ?? []), [i, j]]);
  });
  return [...pairs].filter(([at, ps]) => ps.length >= TWINS_LEAST && ps.length * 2 >= size.get(at)!).flatMap(([, ps]) => ps);
}

/**
 * Twins the reading passed over (`Task 1` beside `Δραστηριότητα 1`: the reading takes one language's
 * labels): the first column and its twin's where, on a page, most of the questions the reading took
 * in a column (at least TWINS_LEAST) stand level with a line of the next column it did not take
 * that prints the same number and the same numbers in its block (to the next line labelled as it
 * is). Null where there are none.
 */
function passedTwins(reading: Reading, features: LineFeatures[]): [number, number] | null {
  const opens = new Set(reading.anchors.map(a => a.candidate.f.index));
  // Per page and column: the questions the reading took there, and the column of each one's twin.
  const taken = new Map<string, number>(), twins = new Map<string, number>();
  for (const a of reading.anchors) {
    const f = a.candidate.f, la = f.line;
    taken.set(`${la.page}:${la.column}`, (taken.get(`${la.page}:${la.column}`) ?? 0) + 1);
    const twin = features.find(g => g.index > f.index && !opens.has(g.index) && g.lead?.number === a.number && g.line.page === la.page
      && Math.abs(g.line.column - la.column) === 1 && Math.abs(g.line.bbox[1] - la.bbox[1]) <= LEVEL);
    if (!twin) continue;
    const labelled = new Set(features.filter(g => g.lead && g.lead.word === twin.lead!.word && g.lead.major === twin.lead!.major).map(g => g.index));
    if (!sameNumbers(numbersOf(features, f.index, a.number, opens), numbersOf(features, twin.index, a.number, labelled))) continue;
    const key = `${la.page}:${la.column}:${twin.line.column}`;
    twins.set(key, (twins.get(key) ?? 0) + 1);
  }
  for (const [key, n] of twins) {
    const [page, column, other] = key.split(':').map(Number);
    if (n >= TWINS_LEAST && n * 2 >= taken.get(`${page}:${column}`)!) return [column, other];
  }
  return null;
}

/**
 * The paper's lines with every twin's block read right after its question's. Which columns are
 * twins is the reading's to say, over the whole paper; on each page, a question in the first
 * column has for its twin the line of the other column level with it that prints its number
 * (whether the reading took that line or not). On a page with twins, the first column's block of
 * each question comes, then the block its twin opens (to the next twin, or the column's end),
 * marked as a twin's; the lines of both columns above their first question and twin come first,
 * row by row. Null where the reading has no twins.
 */
export function twinOrder(features: LineFeatures[], reading: Reading): Line[] | null {
  const pairs = twinPairs(reading, features);
  const columns = pairs.length ? [pairs[0][0], pairs[0][1]].map(k => reading.anchors[k].candidate.f.line.column) : passedTwins(reading, features);
  if (!columns) return null;
  const lines = features.map(f => f.line);
  const anchorAt = new Map(reading.anchors.map(a => [a.candidate.f.index, a.number]));
  const [firstColumn, twinColumn] = columns;
  const out: Line[] = [];
  for (const page of [...new Set(lines.map(l => l.page))]) {
    const on = lines.map((_, i) => i).filter(i => lines[i].page === page);
    const first = on.filter(i => lines[i].column === firstColumn), twin = on.filter(i => lines[i].column === twinColumn);
    // A line of the first column opens a block where the reading took it, or where its number
    // stands level with the same number in the twin column (a question the first reading passed over).
    const numberAt = (i: number) => anchorAt.get(i) ?? features[i].lead?.number;
    const twinOf = new Map<number, number>();
    const used = new Set<number>();
    for (const i of first) {
      const n = numberAt(i);
      if (n === undefined) continue;
      const j = twin.find(k => !used.has(k) && features[k].lead?.number === n && Math.abs(lines[k].bbox[1] - lines[i].bbox[1]) <= LEVEL);
      if (j === undefined) continue;
      twinOf.set(i, j);
      used.add(j);
    }
    const starts = first.filter(i => anchorAt.has(i) || twinOf.has(i));
    if (!twinOf.size) { out.push(...on.map(i => lines[i])); continue; }
    const twinStarts = used;
    const block = (list: number[], from: number, opens: (i: number) => boolean) => {
      const k = list.indexOf(from);
      let end = k + 1;
      while (end < list.length && !opens(list[end])) end++;
      return list.slice(k, end);
    };
    const placed = new Set<number>();
    const take = (is: number[], twin = false) => { for (const i of is) if (!placed.has(i)) { placed.add(i); out.push(twin ? { ...lines[i], twin } : lines[i]); } };
    const [a0, b0] = [...twinOf][0];
    // Columns before the pair, then the heads of both columns as a reader takes them, row by row
    // across the page (the first column's last: its heading stands right above its first question).
    take(on.filter(i => lines[i].column < Math.min(firstColumn, twinColumn)));
    const heads = [...first.filter(i => i < a0), ...twin.filter(i => i < b0)];
    take(heads.sort((x, y) => lines[x].bbox[1] - lines[y].bbox[1] || (lines[x].column === firstColumn ? 1 : 0) - (lines[y].column === firstColumn ? 1 : 0)));
    for (const i of starts) {
      if (i < a0) continue;
      take(block(first, i, k => anchorAt.has(k) || twinOf.has(k)));
      const j = twinOf.get(i);
      if (j !== undefined) take(block(twin, j, k => twinStarts.has(k)), true);
    }
    // What is left (columns after the pair, a twin block no question stands beside) in reading order.
    take(on);
  }
  return out;
}
