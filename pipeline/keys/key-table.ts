// Answer keys printed as a table of triples under header cells (the official CSAT 정답표: 문항 번호 /
// 정답 / 배점 column groups, a 공통 과목 block and a 선택 과목 block whose column groups sit under
// 확률과 통계 / 미적분 / 기하), often drawn as outlines with no text. The layout is read from the
// page, not assumed: cells come from the ruled grid row by row (a heading cell spans the columns it
// has no rule between), the header cells are read by OCR, and each column takes its kind (number,
// answer, points) from the header over it and its section from the heading cells above that.
import { sharp } from '../providers/lazy.ts';
import type { OcrPool } from '../providers/ocr.ts';
import { inkBox, isCircled, type Gray } from './grid.ts';
import { readCircled, readNumber } from './image-key.ts';
import { ruledTables } from '../pixels/cells.ts';

type Box = [number, number, number, number];

export interface GridCell {
  box: Box;
  ink: Box | null;
}

/** One band between two horizontal rules, cut into cells by the vertical rules that cross it. */
export interface GridRow {
  y0: number;
  y1: number;
  cells: GridCell[];
}

export type ColumnKind = 'number' | 'answer' | 'points';

export interface TableKeyEntry {
  /** Heading cells over the entry's column group, nearest first (e.g. `미적분`, `선택과목`). */
  headings: string[];
  number: number;
  answer: string;
  circled: boolean;
  points: number | null;
}

export interface TableKeyPage {
  /** Text printed outside the tables (title, form mark such as 홀수형), as OCR read it. */
  title: string;
  entries: TableKeyEntry[];
  problems: string[];
  notes: string[];
}

/**
 * What a header cell names, in the words keys are printed with. A cell naming both (`문항 번호`
 * never says 정답) is taken by the first kind that matches.
 */
const KIND_WORDS: [ColumnKind, RegExp][] = [
  ['answer', /정답|답|answer|respuesta|clave|gabarito|答案|đáp/iu],
  ['points', /배점|점수|points?|puntaje|puntos|marks?|分值|điểm/iu],
  ['number', /번호|문항|문|number|no\.?$|n[º°o]|pregunta|quest|item|题号|câu/iu],
];

const DARK = 190;

function darkRun(g: Gray, fixed: number, horizontal: boolean, from: number, to: number): { len: number; start: number } {
  let best = 0, bestStart = from, run = 0;
  for (let i = from; i < to; i++) {
    const v = horizontal ? g.data[fixed * g.width + i] : g.data[i * g.width + fixed];
    run = v < DARK ? run + 1 : 0;
    if (run > best) { best = run; bestStart = i - run + 1; }
  }
  return { len: best, start: bestStart };
}

function groups(n: number, pass: (i: number) => boolean): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= n; i++) {
    if (i < n && pass(i)) { if (start < 0) start = i; } else if (start >= 0) { out.push([start, i - 1]); start = -1; }
  }
  return out;
}

/**
 * The ruled tables of a page as rows of cells. A band between two horizontal rules is a row when
 * at least two vertical rules cross it; rows that share a rule belong to one table.
 */
export function gridTables(g: Gray): GridRow[][] {
  const minRule = Math.max(40, g.width * 0.08);
  const rules: { y0: number; y1: number; x0: number; x1: number }[] = [];
  for (const [y0, y1] of groups(g.height, y => darkRun(g, y, true, 0, g.width).len >= minRule)) {
    const r = darkRun(g, Math.floor((y0 + y1) / 2), true, 0, g.width);
    rules.push({ y0, y1, x0: r.start, x1: r.start + r.len });
  }
  const tables: GridRow[][] = [];
  let current: GridRow[] = [];
  let lastBottom = -1;
  for (let i = 0; i + 1 < rules.length; i++) {
    const top = rules[i], bottom = rules[i + 1];
    const y0 = top.y1 + 1, y1 = bottom.y0;
    const x0 = Math.max(0, Math.min(top.x0, bottom.x0) - 2), x1 = Math.min(g.width, Math.max(top.x1, bottom.x1) + 2);
    const cols = y1 - y0 >= 6 ? groups(x1 - x0, k => darkRun(g, x0 + k, false, y0, y1).len >= (y1 - y0) * 0.85).map(([a, b]) => [a + x0, b + x0]) : [];
    if (cols.length < 2) continue;
    const cells: GridCell[] = [];
    for (let c = 0; c + 1 < cols.length; c++) {
      const box: Box = [cols[c][1] + 1, y0, cols[c + 1][0], y1];
      if (box[2] - box[0] < 4) continue;
      cells.push({ box, ink: inkBox(g, box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2) });
    }
    if (lastBottom !== i && current.length) { tables.push(current); current = []; }
    current.push({ y0, y1, cells });
    lastBottom = i + 1;
  }
  if (current.length) tables.push(current);
  return tables;
}

async function readText(pool: OcrPool, g: Gray, box: Box): Promise<string> {
  const [x0, y0, x1, y1] = box;
  if (x1 - x0 < 4 || y1 - y0 < 4) return '';
  const png = await sharp(Buffer.from(g.data), { raw: { width: g.width, height: g.height, channels: 1 } })
    .extract({ left: x0, top: y0, width: x1 - x0, height: y1 - y0 })
    .extend({ top: 10, bottom: 10, left: 10, right: 10, background: '#ffffff' })
    .png().toBuffer();
  return (await pool.recognize(png, { mode: 'block' })).text.replace(/\s+/g, ' ').trim();
}

const kindOf = (text: string): ColumnKind | null => {
  const k = text.replace(/\s/g, '');
  return KIND_WORDS.find(([, re]) => re.test(k))?.[0] ?? null;
};

const centre = (b: Box) => (b[0] + b[2]) / 2;

interface RunCell {
  number: GridCell | undefined;
  answer: GridCell | undefined;
  points: GridCell | undefined;
  headings: string[];
}

/**
 * Entries of one run of item numbers (down a column group, or along a row): OCR of each number
 * only has to agree on where the run starts; each answer is read by its ring or as a value.
 */
async function readRun(g: Gray, digits: OcrPool, out: TableKeyPage, where: string, run: RunCell[]): Promise<void> {
  const read = await Promise.all(run.map(c => (c.number?.ink ? readNumber(digits, g, c.number.ink) : Promise.resolve(''))));
  const votes = new Map<number, number>();
  read.forEach((r, i) => { if (r) votes.set(Number(r) - i, (votes.get(Number(r) - i) ?? 0) + 1); });
  const [start, agree] = [...votes.entries()].sort((a, b) => b[1] - a[1])[0] ?? [NaN, 0];
  if (!agree) { if (run.some(c => c.number?.ink)) out.problems.push(`${where}: no item number can be read`); return; }
  await Promise.all(run.map(async (c, i) => {
    if (!c.number?.ink) return;
    const n = start + i;
    if (read[i] && Number(read[i]) !== n) out.notes.push(`${where}: item number read as ${read[i]} where the run gives ${n}`);
    if (!c.answer?.ink) { out.problems.push(`item ${n} has no answer in the key`); return; }
    const circled = isCircled(g, c.answer.ink);
    const answer = circled ? await readCircled(digits, g, c.answer.ink) : await readNumber(digits, g, c.answer.ink, true);
    if (!answer) { out.problems.push(`item ${n}: the answer cannot be read`); return; }
    const pts = c.points?.ink ? await readNumber(digits, g, c.points.ink, true) : '';
    out.entries.push({ headings: c.headings, number: n, answer, circled, points: pts ? Number(pts) : null });
  }));
}

/**
 * A table whose header cells head rows, not columns (문항 번호 / 정답 / 배점 down its left edge, the
 * items along each row): each number row with the answer and points rows under it, up to the next
 * number row; rows above it that name no kind are headings over the columns they span.
 */
async function readRowLabelled(g: Gray, rows: GridRow[], digits: OcrPool, text: OcrPool, out: TableKeyPage, ti: number, headerTexts: string[]): Promise<boolean> {
  const first = await Promise.all(rows.map(r => (r.cells.length > 1 && r.cells[0].ink && !isCircled(g, r.cells[0].ink) ? readText(text, g, r.cells[0].box) : Promise.resolve(''))));
  const kinds = first.map(kindOf);
  if (!kinds.includes('number') || !kinds.includes('answer')) return false;
  let from = 0;
  for (let i = 0; i < rows.length; i++) {
    if (kinds[i] !== 'number') continue;
    let end = i + 1;
    while (end < rows.length && kinds[end] !== null && kinds[end] !== 'number') end++;
    const row = (kind: ColumnKind) => rows.slice(i + 1, end).find((_, k) => kinds[i + 1 + k] === kind);
    const answers = row('answer'), points = row('points');
    // Heading rows between the previous group and this one, nearest first.
    const headingRows = await Promise.all(rows.slice(from, i).filter((_, k) => kinds[from + k] === null).reverse()
      .map(async r => Promise.all(r.cells.map(async c => ({ cell: c, text: c.ink && !isCircled(g, c.ink) ? await readText(text, g, c.box) : '' })))));
    headerTexts.push(...headingRows.flat().map(h => h.text).filter(Boolean), first[i]);
    const under = (r: GridRow | undefined, x: number) => r?.cells.find(c => c.box[0] <= x && c.box[2] >= x);
    const run = rows[i].cells.slice(1).map(c => ({
      number: c,
      answer: under(answers, centre(c.box)),
      points: under(points, centre(c.box)),
      headings: headingRows.map(h => h.find(x => x.cell.box[0] <= centre(c.box) && x.cell.box[2] >= centre(c.box))?.text ?? '').filter(t => /\p{L}/u.test(t)),
    }));
    // Numbers run on under one heading; the next heading (another elective) starts its own run.
    const parts: RunCell[][] = [];
    for (const c of run) {
      const last = parts[parts.length - 1];
      if (last && last[0].headings.join('|') === c.headings.join('|')) last.push(c); else parts.push([c]);
    }
    for (const [k, part] of parts.entries()) await readRun(g, digits, out, `table ${ti + 1}, row ${i + 1}, run ${k + 1}`, part);
    from = end;
  }
  return true;
}

/** Cells whose tops are this close (pixels) start one row. */
const SAME_ROW = 4;
/** A table's header is at most this many rows of cells deep. */
const HEADER_ROWS = 5;

/**
 * A table whose header cells head its columns, however they span (a cell over two rows, a form's
 * name over three columns): each column takes its kind (number, answer, points) from the header
 * cell nearest the data that names one, and its headings (a form, a section) from the other header
 * cells over it. A column group is a number column and the answer and points columns right of it;
 * each answer column of a group gives one run of entries, under its own headings — a key that
 * prints every form's and every elective's answers side by side gives each of them. False where
 * the header names no number and answer columns.
 */
async function readColumnHeaded(g: Gray, cells: GridCell[], digits: OcrPool, text: OcrPool, out: TableKeyPage, ti: number, headerTexts: string[]): Promise<boolean> {
  // Header rows from the top: rows of cells that carry words; the first row with a ring or a bare number is data.
  const starts: number[] = [];
  for (const c of cells) if (!starts.some(y => Math.abs(y - c.box[1]) <= SAME_ROW)) starts.push(c.box[1]);
  starts.sort((a, b) => a - b);
  const header: { cell: GridCell; text: string; kind: ColumnKind | null }[] = [];
  let dataTop = Infinity;
  for (const y of starts.slice(0, HEADER_ROWS + 1)) {
    const row = cells.filter(c => Math.abs(c.box[1] - y) <= SAME_ROW);
    if (row.some(c => c.ink && isCircled(g, c.ink))) { dataTop = y; break; }
    const texts = await Promise.all(row.map(c => (c.ink ? readText(text, g, c.box) : Promise.resolve(''))));
    if (texts.some(t => /^\d+$/.test(t)) || !texts.some(t => /\p{L}/u.test(t))) { dataTop = y; break; }
    row.forEach((cell, i) => header.push({ cell, text: texts[i], kind: kindOf(texts[i]) }));
  }
  if (!header.some(h => h.kind === 'number') || !header.some(h => h.kind === 'answer') || !Number.isFinite(dataTop)) return false;
  headerTexts.push(...header.map(h => h.text).filter(Boolean));
  const data = cells.filter(c => c.box[1] >= dataTop - SAME_ROW);
  // Columns: the cells of the first data row, left to right, each with the header cells over it.
  const columns = data.filter(c => Math.abs(c.box[1] - dataTop) <= SAME_ROW).sort((a, b) => a.box[0] - b.box[0]).map(c => {
    const over = header.filter(h => h.cell.box[0] <= centre(c.box) && h.cell.box[2] >= centre(c.box)).sort((a, b) => b.cell.box[1] - a.cell.box[1]);
    const kind = over.find(h => h.kind)?.kind ?? null;
    return { x0: c.box[0], x1: c.box[2], kind, headings: over.filter(h => !h.kind && /\p{L}/u.test(h.text)).map(h => h.text) };
  });
  const groups: { number: (typeof columns)[number]; answers: (typeof columns)[number][]; points: (typeof columns)[number][] }[] = [];
  for (const col of columns) {
    if (col.kind === 'number') groups.push({ number: col, answers: [], points: [] });
    else if (col.kind && groups.length) groups[groups.length - 1][col.kind === 'answer' ? 'answers' : 'points'].push(col);
  }
  const inColumn = (col: { x0: number; x1: number }, band: Box) => data.find(c => centre(c.box) > col.x0 && centre(c.box) < col.x1 && (c.box[1] + c.box[3]) / 2 > band[1] && (c.box[1] + c.box[3]) / 2 < band[3]);
  for (const [gi, grp] of groups.entries()) {
    const numberCells = data.filter(c => centre(c.box) > grp.number.x0 && centre(c.box) < grp.number.x1).sort((a, b) => a.box[1] - b.box[1]);
    for (const [ai, ans] of grp.answers.entries()) {
      // The points of this answer column: the points column under the same headings, else the group's first.
      const pts = grp.points.find(p => p.headings.join('|') === ans.headings.join('|')) ?? grp.points[0];
      await readRun(g, digits, out, `table ${ti + 1}, column group ${gi + 1}${grp.answers.length > 1 ? `, answer column ${ai + 1}` : ''}`,
        numberCells.map(n => ({ number: n, answer: inColumn(ans, n.box), points: pts ? inColumn(pts, n.box) : undefined, headings: [...ans.headings, ...grp.number.headings.filter(h => !ans.headings.includes(h))] })));
    }
  }
  return true;
}

/**
 * Read one page. Returns null when no table on it has header cells that name a number column and
 * an answer column (a key of another layout: the caller reads it otherwise).
 */
export async function readKeyTablePage(g: Gray, digits: OcrPool, text: OcrPool): Promise<TableKeyPage | null> {
  const out: TableKeyPage = { title: '', entries: [], problems: [], notes: [] };
  let found = false;
  const headerTexts: string[] = [];
  // Tables whose header cells head columns, read from their cells; the rest (header cells down the
  // left edge) from their rows.
  const read: Box[] = [];
  for (const [ti, t] of ruledTables(g).entries()) {
    if (await readColumnHeaded(g, t.cells, digits, text, out, ti, headerTexts)) { found = true; read.push(t.box); }
  }
  const tables = gridTables(g);
  const overlaps = (rows: GridRow[]) => read.some(b => rows[0].y0 < b[3] && rows[rows.length - 1].y1 > b[1]);
  for (const [ti, rows] of tables.entries()) {
    if (overlaps(rows)) continue;
    if (await readRowLabelled(g, rows, digits, text, out, ti, headerTexts)) found = true;
  }
  if (!found) return null;
  // The title above the first table (or a header cell) says which form (홀수형/짝수형) the page is the key of.
  const first = tables[0]?.[0]?.y0 ?? g.height;
  const ink = inkBox(g, 0, 0, g.width, Math.max(1, first - 2));
  const title = ink ? await readText(text, g, [Math.max(0, ink[0] - 4), Math.max(0, ink[1] - 4), Math.min(g.width, ink[2] + 4), Math.min(g.height, ink[3] + 4)]) : '';
  out.title = [title, ...headerTexts].filter(Boolean).join(' ');
  return out;
}

