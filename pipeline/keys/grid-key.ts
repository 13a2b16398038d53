// Key pictures whose ruled tables put a row of item numbers over a row of answers (ten or so to a
// table, a heading per section above its tables). A row is a row of numbers when OCR of its cells
// agrees on a run rising by one, or reads numbers that rise; the row under it holds the answers, cell by cell. An answer cell
// is a circled option (told by its ring), a letter of the paper's script, or a value; letters are
// read with the paper's OCR language and only the characters an answer can be. What stands between
// tables is their heading; blocks and headings go to the caller as for a key read from text.
import { sharp } from '../providers/lazy.ts';
import type { OcrPool } from '../providers/ocr.ts';
import { cellPng, inkBox, isCircled, type Gray } from './grid.ts';
import { readCircled, readNumber } from './image-key.ts';
import { gridTables, type GridCell, type GridRow } from './key-table.ts';
import { answerToken, PairBlocks, type PairBlock } from './pair-key.ts';
import { numberRun } from './number-run.ts';
import { shapeGroups } from '../pixels/same-shape.ts';
import { inkRuns, type Box } from '../pixels/runs.ts';

/** The characters an answer cell may hold (for OCR's whitelist), and how a reading is folded onto them. */
export interface AnswerAlphabet {
  whitelist: string;
  fold: (text: string) => string;
  /** The option letters of the paper's own script, where its options are lettered in them. */
  native?: string[];
}

export interface GridKeyReading {
  blocks: PairBlock[];
  problems: string[];
}

/** Glyph height (pixels) a cell is scaled to for OCR. */
const GLYPH = 42;

const centre = (c: GridCell) => (c.box[0] + c.box[2]) / 2;

/**
 * The row read as a row of item numbers, one per inked cell from left to right, or null where it
 * is no such row. A key printed right to left (an Arabic paper's) runs its numbers from the right.
 * A cell whose reading the run overrules, or left unread, is read again in every page mode of the
 * digit reader: a reading they confirm that keeps the row rising stands (the run's first numbers
 * may leave some out: 22 26 28 29 30 …), else the run's number, else none. `follows`: the number
 * the key read last, with no heading since.
 */
async function numberRow(g: Gray, row: GridRow, digits: OcrPool, follows: number | null): Promise<(number | null)[] | null> {
  const cells = numberCells(g, row);
  if (!cells.length || cells.some(c => isCircled(g, c.ink!))) return null;
  const readAll = async (thorough: boolean) => (await Promise.all(cells.map(c => readNumber(digits, g, c.ink!, thorough)))).map(r => (r ? Number(r) : null));
  const runs = (xs: (number | null)[]) => { const l = numberRun(xs); return { ltr: l, rtl: l ? null : numberRun([...xs].reverse()) }; };
  // One number alone (a table's last cell wrapped onto a table of its own: `11` under 1–10, `16`
  // under a selection's 2 3 5 … 14) is a row of numbers only where it goes on with the run just
  // read, as every page mode reads it.
  if (cells.length === 1) {
    if (follows === null) return null;
    const alone = await readAll(true);
    return alone[0] !== null && alone[0] > follows ? alone : null;
  }
  let read = await readAll(false);
  let { ltr, rtl } = runs(read);
  if (!ltr && !rtl) return null;
  // A row that does not rise by one (a selection's numbers, 1 4 5 7 …) has no run to overrule a
  // misreading (`11` read `41` after 10): every cell is read in every page mode, as the run's own
  // doubtful cells are below.
  if (!byOne(ltr ?? rtl!)) {
    const slow = await readAll(true);
    const again = runs(slow);
    if (again.ltr || again.rtl) {
      ({ ltr, rtl } = again);
      read = slow;
    }
  }
  // Everything in reading order from here.
  const inOrder = <T>(xs: T[]) => (rtl ? [...xs].reverse() : xs);
  const run = ltr ?? rtl!;
  const readOrdered = inOrder(read), cellsOrdered = inOrder(cells);
  const settled = (n: number | null, i: number) => n !== null && (readOrdered[i] === null || readOrdered[i] === n);
  const again = await Promise.all(run.map(async (n, i) => (settled(n, i) ? n : Number(await readNumber(digits, g, cellsOrdered[i].ink!, true)) || null)));
  const out = [...run];
  run.forEach((n, i) => {
    if (settled(n, i)) return;
    // Where the run gives a number, a reading stands only as read twice; where it gives none, the second reading.
    const candidate = n === null ? again[i] : readOrdered[i] !== null && again[i] === readOrdered[i] ? again[i] : null;
    const lo = Math.max(0, ...out.slice(0, i).filter((x): x is number => x !== null));
    const hi = Math.min(Infinity, ...run.slice(i + 1).filter((x): x is number => x !== null));
    if (candidate !== null && candidate > lo && candidate < hi) out[i] = candidate;
  });
  const rises = (xs: (number | null)[]) => { const k = xs.filter((x): x is number => x !== null); return k.every((x, i) => i === 0 || x > k[i - 1]); };
  const fixed = rises(out) ? out : run;
  return inOrder(rises(fixed) ? fixed : fixed.map(() => null));
}

/**
 * The inked cells of a row that may hold its item numbers. A row's label at one end (`№`, whose
 * `o` over its bar may pass for a ring) is no item's: a lone cell at either end that looks circled,
 * in a row of at least MIN_LABELLED cells none other of which does, is left out. A row of circled
 * options has them all circled.
 */
function numberCells(g: Gray, row: GridRow): GridCell[] {
  const cells = row.cells.filter(c => c.ink);
  const ringed = cells.map(c => isCircled(g, c.ink!));
  if (cells.length < MIN_LABELLED || ringed.filter(Boolean).length !== 1) return cells;
  if (ringed[0]) return cells.slice(1);
  if (ringed[ringed.length - 1]) return cells.slice(0, -1);
  return cells;
}

/** A row this long (cells) may carry a label at one end beside its numbers. */
const MIN_LABELLED = 4;

/** Whether a run of item numbers rises by one at every step, none unread. */
const byOne = (run: (number | null)[]) => run.every((n, i) => n !== null && (i === 0 || n === run[i - 1]! + 1));

/**
 * One answer cell: a ring's digit, or the letters or value OCR reads with the answer alphabet. A
 * lone glyph some page modes read as a letter and others as a digit (Cyrillic `б` as `6`) is the
 * digit's value with the letter beside it: which one the key means is the question's to say.
 */
async function readAnswer(g: Gray, cell: GridCell, digits: OcrPool, letters: OcrPool, alphabet: AnswerAlphabet): Promise<{ answer: string; circled: boolean; alternative?: string } | null> {
  const ink = cell.ink!;
  // A round letter (Cyrillic `в`, `о`) may pass for a ring: with no digit inside, it is read as a letter.
  if (isCircled(g, ink)) {
    const d = await readCircled(digits, g, ink);
    if (d) return { answer: d, circled: true };
  }
  const png = await cellPng(g, ink, GLYPH / Math.max(1, ink[3] - ink[1]));
  // Each page mode may slip on a lone glyph (`C` read as `Cc` as a word): the reading most modes agree on.
  const read = await Promise.all((['word', 'char', 'line'] as const).map(async mode => alphabet.fold((await letters.recognize(png, { mode, whitelist: alphabet.whitelist })).text.replace(/\s+/g, ''))));
  // A cell holds no more characters than its ink has glyphs (pieces apart across): one
  // glyph read as one letter twice in both cases (`C` read `Cc`) is that letter; other letter
  // readings longer than the glyphs are not taken.
  const glyphs = inkRuns(g, ink, 1, 'x').length;
  const tooLong = (r: string) => /^\p{L}+$/u.test(r) && [...r].length > glyphs;
  const readings = read.map(r => (tooLong(r) && new Set([...r.toLowerCase()]).size === 1 ? [...r][0] : r)).filter(r => !tooLong(r));
  const valid = readings.filter(r => answerToken(r));
  const count = (r: string) => valid.filter(x => x === r).length;
  const text = valid.sort((a, b) => count(b) - count(a) || a.length - b.length)[0];
  // A letter of the options' own alphabet that some mode read, or the whole cell reads, where the
  // modes read a digit or nothing.
  const letter = valid.filter(r => /^\p{L}$/u.test(r)).sort((a, b) => count(b) - count(a))[0] ?? (text && !/^\d+$/.test(text) ? undefined : await ownLetter(g, cell, letters, alphabet));
  if (!text) return letter ? { answer: letter, circled: false } : null;
  // A value is read again with the digit reader, which several page modes check.
  if (/^\d+$/.test(text)) return { answer: (await readNumber(digits, g, ink, true)) || text, circled: false, ...(letter ? { alternative: letter } : {}) };
  return answerToken(text);
}

/** Least confidence (tesseract's 0–100) for a letter read on its own. */
const LETTER_CONFIDENCE = 30;

/**
 * A letter of the paper's own option alphabet read from the whole cell inside its rules, with
 * letters alone allowed: a thin or small glyph (Arabic `أ`, `د`) scaled from its ink box alone is
 * often read as a digit or not at all. Undefined where the options are not lettered so, or no
 * letter is read surely.
 */
async function ownLetter(g: Gray, cell: GridCell, letters: OcrPool, alphabet: AnswerAlphabet): Promise<string | undefined> {
  if (!alphabet.native?.length) return undefined;
  const inset = 3;
  const [x0, y0, x1, y1] = cell.box;
  if (x1 - x0 <= 2 * inset || y1 - y0 <= 2 * inset) return undefined;
  const png = await cellPng(g, [x0 + inset, y0 + inset, x1 - inset, y1 - inset], 2);
  const read = await letters.recognize(png, { mode: 'char', whitelist: alphabet.native.join('') });
  const text = alphabet.fold(read.text.replace(/\s+/g, ''));
  return alphabet.native.includes(text) && (read.words[0]?.confidence ?? 0) >= LETTER_CONFIDENCE ? text : undefined;
}

/** Whether a row's numbers (left to right, null where unread) fall at every step: a row set right to left. */
export function fallsAcross(numbers: (number | null)[]): boolean {
  const read = numbers.filter((n): n is number => n !== null);
  return read.length >= 2 && read.every((n, i) => i === 0 || n < read[i - 1]);
}

/** The text between two tables (a section's heading, the key's title), line by line from the bottom up. */
async function textBetween(g: Gray, text: OcrPool, top: number, bottom: number): Promise<string[]> {
  if (bottom - top < 8) return [];
  const ink = inkBox(g, 0, top, g.width, bottom);
  if (!ink) return [];
  const [x0, y0, x1, y1] = [Math.max(0, ink[0] - 6), Math.max(0, ink[1] - 6), Math.min(g.width, ink[2] + 6), Math.min(g.height, ink[3] + 6)];
  const png = await sharp(Buffer.from(g.data), { raw: { width: g.width, height: g.height, channels: 1 } })
    .extract({ left: x0, top: y0, width: x1 - x0, height: y1 - y0 }).extend({ top: 10, bottom: 10, left: 10, right: 10, background: '#ffffff' }).png().toBuffer();
  return (await text.recognize(png, { mode: 'block' })).text.split('\n').map(l => l.trim()).filter(Boolean);
}

type Answer = { answer: string; circled: boolean; alternative?: string };

/** An answer cell as read: its item number, its ink and its reading (null where none). */
interface CellReading { number: number; ink: Box; read: Answer | null; table: number }

/**
 * Read a picture of numbers-over-answers tables. Null where no table has a row of numbers with a
 * row under it (a key of another layout: the caller reads it otherwise). Every answer cell is read
 * first; cells of one shape are then settled together (`sameShapeAgree`), and the blocks built.
 */
export async function readGridKey(g: Gray, digits: OcrPool, letters: OcrPool, text: OcrPool, alphabet: AnswerAlphabet): Promise<GridKeyReading | null> {
  const out = new PairBlocks();
  const problems: string[] = [];
  // What the tables give, in order: a heading, or a row of answer cells.
  const events: ({ heading: string } | { cells: CellReading[] })[] = [];
  let above = 0;
  // The number read last with no heading since (a table's last cell wrapped onto a table of its own).
  let last: number | null = null;
  for (const [ti, rows] of gridTables(g).entries()) {
    const top = rows[0].y0, bottom = rows[rows.length - 1].y1;
    const headings = await textBetween(g, text, above, top - 3);
    above = bottom + 3;
    let any = false;
    for (let r = 0; r + 1 < rows.length; r++) {
      let numbers = await numberRow(g, rows[r], digits, headings.length && !any ? null : last);
      if (numbers === null) continue;
      if (!any) for (const h of headings) events.push({ heading: h });
      any = true;
      let cells = numberCells(g, rows[r]);
      // A table set right to left (an Arabic key: 4 3 2 1 across) is read from its right end: its
      // numbers rise the way its rows are read.
      if (fallsAcross(numbers)) [cells, numbers] = [[...cells].reverse(), [...numbers].reverse()];
      const under = rows[r + 1];
      const read = await Promise.all(cells.map(async (c, i): Promise<CellReading | null> => {
        const n = numbers[i];
        if (n === null) { problems.push(`table ${ti + 1}: the item number in column ${i + 1} cannot be read`); return null; }
        const cell = under.cells.find(u => centre(c) > u.box[0] && centre(c) < u.box[2]);
        if (!cell?.ink) { problems.push(`table ${ti + 1}: item ${n} has no answer in the key`); return null; }
        return { number: n, ink: cell.ink, read: await readAnswer(g, cell, digits, letters, alphabet), table: ti };
      }));
      const row = read.filter((x): x is CellReading => x !== null);
      events.push({ cells: row });
      const known = numbers.filter((n): n is number => n !== null);
      if (known.length) last = Math.max(...known);
      r++;
    }
  }
  if (!events.some(e => 'cells' in e)) return null;
  sameShapeAgree(g, events.flatMap(e => ('cells' in e ? e.cells : [])));
  for (const e of events) {
    if ('heading' in e) { out.heading(e.heading); continue; }
    for (const c of e.cells) {
      if (c.read) out.add(c.number, c.read);
      else problems.push(`table ${c.table + 1}: the answer to item ${c.number} cannot be read`);
    }
  }
  return { blocks: out.blocks, problems };
}

/**
 * Cells of one shape hold one answer: each takes the reading most of them have (an unread cell
 * too), and, where that is a digit, the letter any of them was also read as (`ج` read `3` in
 * three cells and `ج` in one: the question, whose options are lettered, says which is meant).
 */
export function sameShapeAgree(g: Gray, cells: CellReading[]): void {
  const groups = new Map<number, CellReading[]>();
  shapeGroups(g, cells.map(c => c.ink)).forEach((k, i) => groups.set(k, [...(groups.get(k) ?? []), cells[i]]));
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const read = members.map(m => m.read).filter((r): r is Answer => r !== null);
    const answer = mostCommon(read.map(r => r.answer));
    if (answer === undefined) continue;
    const isLetter = (x: string) => /^[\p{L}\p{M}\u0640]+$/u.test(x);
    const letter = isLetter(answer) ? undefined : mostCommon(read.flatMap(r => [r.answer, r.alternative ?? ''].filter(isLetter)));
    const circled = read.find(r => r.answer === answer)!.circled;
    for (const m of members) m.read = { answer, circled, ...(letter ? { alternative: letter } : {}) };
  }
}

/** The value that occurs most often (the first on a tie), or undefined for none. */
function mostCommon(xs: string[]): string | undefined {
  const count = new Map<string, number>();
  for (const x of xs) count.set(x, (count.get(x) ?? 0) + 1);
  return [...count.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}
