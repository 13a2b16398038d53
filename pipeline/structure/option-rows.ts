// Options on a scanned page whose labels OCR garbled: `(A) 27 (B) 24` read as `(Aio EBP) I20`,
// `1. 25 2.20) 3. 30 4, 50`, a Greek `(α) (β) (γ) (δ)` as `(a) (B) (y) (5)`, `(b)` set under `(a)` as
// `(0)`. The labels no longer run in order, so the question reads as having no options, yet the
// block's shape survives: options stand apart in a row by a wider space than words do, or one under
// another, each opening with what is left of a label. Whether a paper sets its options so is one
// decision over all its questions (most end in a block of the same number of cells); the questions
// whose labels could not be read then take their options by place, cell by cell.
import type { Line, Option, Span } from '../document.ts';
import { lineText } from '../text/line-text.ts';
import type { Template } from '../template.ts';
import type { LabelAlphabets } from './learn.ts';
import { openedPart } from './parts.ts';
import { asLatinLookAlike } from '../text/look-alike.ts';

/** How a paper sets its options in rows: how many a question has, and the labels they are printed with. */
export interface RowConvention { count: number; labels: string[] }

/** A space this many type sizes wide or wider parts two cells of a row (words stand about 0.3 apart; a row's options 1.8 to 2.4). */
const CELL_GAP = 1.2;
/** A paper sets its options in rows where at least this share of its questions on scanned pages that end in a row end in a row of one count… */
const ROW_SHARE = 0.5;
/** …and at least this many do. */
const ROW_QUESTIONS = 2;
/** A count's rows explain shorter ones where at least this share of them open every cell like a label. */
const WHOLE_SHARE = 0.5;
/** A row of options has at most this many, unless the template's labels run further. */
const ROW_MOST = 5;
/** A row of options has at least this many (two cells in a row are as often a prose line OCR spaced wide). */
const ROW_LEAST = 3;

/** A bracketed character set this many type sizes or more after the text before it opens a cell (a formula's `f (x)` stands closer). */
const LABEL_GAP = 0.6;
/** One or two characters in round brackets, opening what follows: a label, whatever OCR read it as (`(ㄴ)`, `(te)`). */
const BRACKETED_LABEL = /^[(（]\S{1,2}[)）]/u;

/** A mark: anything in square brackets (`[2]`, `[1,]`, `［3 点］`), or in round ones a number and its word or a range (`(2 điểm)`, `(0–2)`; `(2)` is a label). */
const MARK_CELL = /^(?:[[［][^\]］]*[\]］]?|[(（]\s*\d+(?:[.,]\d+)?(?:\s*[–-]\s*\d+(?:[.,]\d+)?\s*(?:\p{L}[^)）]*)?|\s*\p{L}[^)）]*)[)）]?)$/u;

/**
 * A line's cells: its spans parted where the space between two is CELL_GAP type sizes or more, or
 * where a span opens with a label the template's pattern reads (`(G69 = (D) 70`: the space before
 * `(D)` was read as a stray `=`).
 */
function cellsOf(line: Line, skip: Set<Span>, t: Template): Span[][] {
  const spans = line.spans.filter(s => !skip.has(s));
  const opensLabel = (s: Span) => t.re.option !== null && [...s.text.matchAll(t.re.option)].some(m => m.index === 0);
  // A character in brackets, its pieces OCR may have read as words of their own (`(` `ㄴ` `)86`).
  const bracketed = (k: number) => BRACKETED_LABEL.test(spans.slice(k, k + 3).map(s => s.text.trim()).join(''));
  const cells: Span[][] = [];
  spans.forEach((s, k) => {
    const gap = k ? s.bbox[0] - spans[k - 1].bbox[2] : 0;
    const size = k ? Math.min(s.size, spans[k - 1].size) : s.size;
    if (!k || gap >= CELL_GAP * size || opensLabel(s) || (gap >= LABEL_GAP * size && bracketed(k))) cells.push([s]);
    else cells[cells.length - 1].push(s);
  });
  // A mark set off at the line's end (`[2]`, `(2 điểm)`) is its line's, not a cell of its own.
  if (cells.length >= 2 && MARK_CELL.test(lineText(cells[cells.length - 1]).trim())) cells[cells.length - 2].push(...cells.pop()!);
  return cells;
}

/**
 * What a label OCR garbled still looks like at a cell's start: an opening bracket and a character
 * (`(1`, `«(580`), or one or two characters and a stop or closing bracket (`(0)`, `2,`, `ϐϱ)`). A
 * stop with a digit after it is a two-part number (a part `1.1.`, a decimal), no label.
 */
const LABEL_LIKE = /^(?:[(（«]\S|\S{1,2}[)）\]:;]|\S{1,2}[.．,](?!\d))/u;
/** A question's last cells are its options where at least this share of them open like a label: a table's last row opens with values. */
const LABEL_SHARE = 0.5;
/** Options are short: a block whose cells hold more characters than this on average is a question's parts (`(a) Να βρείτε το f(2). [1]`), not its choices. */
const CELL_CHARS = 30;

/** A range of marks opening a cell (`(0-1)` after a part's number): what a part is worth, no label. */
const RANGE_MARK = /^[(（]\s*\d+\s*[–-]\s*\d+\s*[)）]/u;
/**
 * How a cell opens: its first word, or where that is an opening bracket alone, the words up to its
 * closing one run together (OCR may read a label's bracket, character and stop as words of their
 * own: `(` `ㄴ` `)86`).
 */
function openingOf(cell: Span[]): string {
  let text = cell[0].text.trim();
  if (!/^[(（［[«]$/u.test(text)) return text;
  for (let k = 1; k < Math.min(cell.length, 3) && !/[)）］\]]/u.test(text); k++) text += cell[k].text.trim();
  return text;
}
const labelLike = (cell: Span[]) => LABEL_LIKE.test(openingOf(cell)) && !RANGE_MARK.test(lineText(cell).trim());

/**
 * The options a question ends with, by their shape alone: its last lines (never its first, which
 * holds the number and the prompt), each a row of two cells or more (`(A) 27  (B) 24`, a 2×2 grid's
 * row) or one cell that opens like a label (options set one under another, a row's wrapped `(E)`),
 * as many as fit in `most` cells, LABEL_SHARE of them opening like a label, short (CELL_CHARS).
 * Lines that read right to left are left out: their labels stand at the far side of their text.
 * Cells one to a line that open with the template's part labels in order are parts (partsInOrder).
 */
function trailingRow(lines: Line[], skip: Set<Span>, t: Template, most: number): { from: number; cells: Span[][]; labelled: boolean[] } | null {
  let from = lines.length, cells: Span[][] = [], stacked = true;
  const ordered = new Set<Span[]>();
  // A mark wrapped to a line of its own (`[1]` under a part's line) ends the line above it.
  let wrapped: Span[] = [];
  // How many cells the line below holds (the last line taken).
  let under = 0;
  // A question asks something before its options: where its number stands alone on its first line
  // (`प्रश्न 08` over `3² का मान ज्ञात कीजिए।`), its second line is its prompt, however it opens.
  const prompt = cellsOf(lines[0], skip, t).some(c => lineText(c).trim()) ? 0 : 1;
  for (let i = lines.length - 1; i >= 1 + prompt; i--) {
    if (lines[i].rtl) break;
    const here = cellsOf(lines[i], skip, t);
    if (here.length === 1 && MARK_CELL.test(lineText(here[0]).trim())) {
      wrapped = [...here[0], ...wrapped];
      continue;
    }
    if (here.length) here[here.length - 1].push(...wrapped);
    wrapped = [];
    const inOrder = opensInOrder(here, t.options.markers);
    // Each line opens a label somewhere: a line of a figure's letters (`0  x`, `A  B`) is no row of options.
    if ((!here.some(labelLike) && !inOrder) || (here.length === 1 && !labelLike(here[0])) || here.length + cells.length > most) break;
    // Options fill a line before they wrap to the next: only a row's last line holds fewer than the
    // line above it (`(E)` under four). A line of fewer above a row is the question's text (`3² का
    // मान ज्ञात कीजिए।`, its `3²` read `32.` like a label).
    if (here.length < under) break;
    if (inOrder) here.forEach(c => ordered.add(c));
    stacked &&= here.length === 1;
    under = here.length;
    cells = [...here, ...cells];
    from = i;
  }
  const chars = cells.reduce((n, c) => n + lineText(c).length, 0) / Math.max(cells.length, 1);
  // Options carry no marks of their own; parts do, each its own (`a. … [3]` `b. … [1]`).
  const marked = cells.filter(c => c.length > 1 && MARK_CELL.test(c[c.length - 1].text.trim())).length;
  // Whether each cell opens with what is left of a label, or with its label in the row's order.
  const labelled = cells.map(c => labelLike(c) || ordered.has(c));
  return cells.length >= 2 && marked < MARKED_PARTS && !(stacked && partsInOrder(cells, t)) && labelled.filter(Boolean).length >= cells.length * LABEL_SHARE && chars <= CELL_CHARS ? { from, cells, labelled } : null;
}

/** A block is a question's parts, not its options, where this many of its cells end with a mark. */
const MARKED_PARTS = 2;

/** A word of a prompt: three letters or more (`Найдите`, `Solve`); a choice's unit (`cm`) is shorter. */
const PROMPT_WORD = /\p{L}{3,}/u;
/** Cells read as parts where at least this share of them hold such a word after their label. */
const PROMPT_SHARE = 0.5;

/** Roman numerals as parts number their sub-parts, in order. */
const ROMAN = ['i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x'];
/** A part label's place in its level: a roman numeral's below the outermost level, a letter's or a number's otherwise. */
function partOrdinal(label: string, level: number): number {
  const key = label.replace(/[^\p{L}\p{N}]/gu, '').toLowerCase();
  if (level > 0 && ROMAN.includes(key)) return ROMAN.indexOf(key);
  return /^\d+$/.test(key) ? Number(key) - 1 : key.length === 1 ? key.charCodeAt(0) - 97 : -1;
}

/**
 * Whether a block's cells, set one to a line, are a question's parts, not its options: each opens
 * with a part label the template reads (`(a)`, `(b)`, `(i)`; a Cyrillic `(а)` OCR read on a Russian
 * page as the Latin it looks like), and they run in the parts' order (each level from its first, a
 * sub-level from its first again under each part), at least half of them asking in words
 * (PROMPT_WORD). Options whose labels OCR garbled do not read so cleanly, in order, and hold values;
 * labels side by side in a row (`(a) (b) (c) (d)` under pictures) are options.
 */
function partsInOrder(cells: Span[][], t: Template): boolean {
  if (!t.re.parts.length) return false;
  const path: string[] = [];
  const next: number[] = [];
  // Parts ask for something in words; a choice is a value (`(α) 37` `(b) 36` … `(d) 44`, a Greek paper's α read clean beside Latin b c d).
  const worded = cells.filter(cell => PROMPT_WORD.test(lineText(cell).trim().replace(/^\S+/u, ''))).length;
  if (worded < cells.length * PROMPT_SHARE) return false;
  return cells.every(cell => {
    const text = asLatinLookAlike(lineText(cell).trim());
    if (openedPart(text, t, path) === null) return false;
    const level = path.length - 1;
    const at = partOrdinal(path[level], level);
    // The first part of a level, or the one after the last of its level under the same parent.
    if (at !== (next[level] ?? 0)) return false;
    next[level] = at + 1;
    next.length = level + 1;
    return true;
  });
}

/**
 * Whether a line's cells open, place by place, with the labels from the first, each with a value
 * after it (`Ai87 B88 Co95 Do97`, `AI3 B5 C4 Dll`: OCR lost the brackets and stops, or read them as
 * letters). Labels in order are a row of options however their marks were read; a figure's letters
 * alone (`A  B`) carry no value.
 */
function opensInOrder(cells: Span[][], markers: readonly string[]): boolean {
  if (cells.length < ROW_IN_ORDER || cells.length > markers.length) return false;
  return cells.every((cell, k) => {
    const text = openingOf(cell).replace(OPENERS, '');
    return text.startsWith(markers[k]) && lineText(cell).trim().replace(OPENERS, '').length > markers[k].length;
  });
}

/** Cells opening with the labels in order make a row from this many: two letters in a row (`A7 B8`) are as likely a line of text. */
const ROW_IN_ORDER = 3;

/**
 * Whether the paper sets its options in rows, and how many: one count over all its questions on
 * scanned pages, the one that explains most of the rows they end with. A row of the count is read by
 * place cell by cell; a shorter one only where each cell opens like a label (a question of four where
 * most have five: `rowOptions`), so a count explains its own rows and the shorter ones labelled
 * throughout. A paper that prints four options to some questions and five to others is one of five,
 * however many of its rows of five OCR ran two cells together, or its parts' blocks happen to number
 * four (WHOLE_SHARE); ties go to the count more rows hold exactly. At least ROW_QUESTIONS rows hold the count, the
 * count explains ROW_SHARE of the rows, and the rows' cells open alike place by place (LABEL_COLUMN).
 * Questions on text-layer pages read their labels as printed.
 */
export function learnOptionRows(questions: { lines: Line[]; anchor: Span[] }[], t: Template, ocr: (l: Line) => boolean, labels: LabelAlphabets): RowConvention | null {
  const most = Math.max(t.options.markers.length, ROW_MOST);
  const rows = questions.filter(q => q.lines.length > 1 && q.lines.every(ocr))
    .map(q => trailingRow(q.lines, new Set(q.anchor), t, most)).filter(r => r !== null);
  const whole = (r: { labelled: boolean[] }) => r.labelled.every(Boolean);
  // Each count at least ROW_QUESTIONS rows hold: how many hold it exactly, and how many it explains.
  // Shorter rows are a count's only where most of its own rows open every cell like a label: rows
  // of five that are fours with a cell split in two (`C.` `199`) explain no fours.
  const weighed = [...new Set(rows.map(r => r.cells.length))].filter(c => c >= ROW_LEAST).flatMap(count => {
    const own = rows.filter(r => r.cells.length === count);
    if (own.length < ROW_QUESTIONS) return [];
    const shorter = own.filter(whole).length >= own.length * WHOLE_SHARE ? rows.filter(r => r.cells.length >= ROW_LEAST && r.cells.length < count && whole(r)).length : 0;
    return [{ count, exactly: own.length, explained: own.length + shorter }];
  }).sort((a, b) => b.explained - a.explained || b.exactly - a.exactly || b.count - a.count);
  if (!weighed.length || weighed[0].explained < rows.length * ROW_SHARE) return null;
  const { count } = weighed[0];
  const cells = rows.filter(r => r.cells.length === count).map(r => r.cells);
  return labelColumn(cells) >= LABEL_COLUMN ? { count, labels: alphabetOf(cells, t, labels).slice(0, count) } : null;
}

/** The opening brackets OCR leaves before a label's character. */
const OPENERS = /^[\s(（［[«]+/u;

/**
 * The alphabet the rows are labelled in: the one whose letters, place by place, the cells open with
 * most often, as printed or as OCR misreads them (`(a) (B) (y) (5)` is α β γ δ); the template's labels
 * where none does better.
 */
function alphabetOf(rows: Span[][][], t: Template, labels: LabelAlphabets): string[] {
  const opening = rows.map(r => r.map(cell => openingOf(cell).replace(OPENERS, '')[0] ?? ''));
  const hits = (letters: string[]) => opening.reduce((n, r) => n + r.filter((c, k) => k < letters.length && (c === letters[k] || (labels.lookAlikes[letters[k]] ?? []).includes(c))).length, 0);
  let best = t.options.markers, most = hits(best);
  for (const letters of Object.values(labels.alphabets)) {
    const n = hits(letters);
    if (n > most) { best = letters; most = n; }
  }
  return best;
}

/** Rows of options open their cells alike, place by place (`(`, or `1` `2` `3`), where a table's rows open with their values: at least this share. */
const LABEL_COLUMN = 0.5;

/** How alike the rows' cells open, place by place: the share of rows whose cell there opens with the character most of them open with, averaged over the places. */
function labelColumn(rows: Span[][][]): number {
  const count = rows[0].length;
  let sum = 0;
  for (let k = 0; k < count; k++) {
    const firsts = new Map<string, number>();
    for (const r of rows) {
      const c = openingOf(r[k])[0] ?? '';
      firsts.set(c, (firsts.get(c) ?? 0) + 1);
    }
    sum += Math.max(...firsts.values()) / rows.length;
  }
  return sum / count;
}

/**
 * What OCR left of a label at a cell's start: a bracket, one character, a stop or closing bracket
 * (OCR may space them apart: `( ㄴ )`), or a closing bracket read as a thin letter before the value
 * (`Ai87` for `A) 87`).
 */
const LABEL_LEFT = /^\s*[(（［[«]?\s*\S\s*(?:[)）］\].．,:;]|[iIlo|](?=[-\d]))?\s*/u;

/**
 * A question's options by place, where its row has the paper's count of cells: the first cell is the
 * first label, and so on. What is left of each label is cut from its cell's text, unless nothing else
 * is left (the label was lost, and the cell is its value alone).
 */
export function rowOptions(lines: Line[], t: Template, skip: Set<Span>, rows: RowConvention): { options: Option[]; firstLine: number; byPlace: true } | null {
  const row = trailingRow(lines, skip, t, rows.count);
  // The paper's count, or fewer (a question of four where most have five) where every cell opens like a label.
  if (!row || (row.cells.length !== rows.count && (row.cells.length < ROW_LEAST || !row.labelled.every(Boolean)))) return null;
  const options = row.cells.map((cell, k) => {
    const text = lineText(cell).trim();
    const rest = text.replace(LABEL_LEFT, '').trim();
    return { label: rows.labels[k], text: rest || text };
  });
  return { options, firstLine: row.from, byPlace: true };
}
