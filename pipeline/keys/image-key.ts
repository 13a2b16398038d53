// Answer keys published as a picture of a grid (KICE: item number / answer cells side by side,
// circled digits for multiple choice, integers for short answers, one table per section under its
// heading). Cells are found from the rules; a circled answer is told by its ring, and only the
// digit inside it goes to OCR (tesseract reads ① as @ or ©); numbers are read with a digit whitelist.
import { sharp } from '../providers/lazy.ts';
import type { OcrPool } from '../providers/ocr.ts';
import { cellPng, findTables, innerGlyphPng, isCircled, loadGray, type Gray, type Table } from './grid.ts';

export interface KeyEntry {
  /** Index of the table (0 = first, the common part) and its heading as read. */
  table: number;
  heading: string;
  number: number;
  answer: string;
  circled: boolean;
}

export interface KeyReading {
  entries: KeyEntry[];
  /** Cells that could not be read, for diagnostics. */
  problems: string[];
  /** Item numbers OCR misread and the run of numbers corrected. */
  notes: string[];
}

/** A number in a cell, by OCR with a digit whitelist; `thorough`: the reading most page modes agree on. */
export async function readNumber(pool: OcrPool, g: Gray, box: [number, number, number, number], thorough = false): Promise<string> {
  const png = await cellPng(g, box, 42 / (box[3] - box[1]));
  // Tesseract may return nothing for a lone digit in one mode, or read `11` as `1` in another:
  // ask in several, and (for answers) take the reading most modes agree on, the longer on a tie.
  const readings: string[] = [];
  for (const mode of ['word', 'line', 'block'] as const) {
    const text = (await pool.recognize(png, { mode, whitelist: '0123456789' })).text.replace(/\D/g, '');
    if (text && !thorough) return text;
    if (text) readings.push(text);
  }
  const count = (r: string) => readings.filter(x => x === r).length;
  return readings.sort((a, b) => count(b) - count(a) || b.length - a.length)[0] ?? '';
}

export async function readCircled(pool: OcrPool, g: Gray, ink: [number, number, number, number]): Promise<string> {
  // The digit alone, with its ring taken away: tesseract reads ① as @ or ©.
  const png = await innerGlyphPng(g, ink);
  if (!png) return '';
  for (const mode of ['char', 'word', 'block'] as const) {
    const digit = (await pool.recognize(png, { mode, whitelist: '123456789' })).text.replace(/\D/g, '');
    if (digit.length === 1) return digit;
  }
  return '';
}

async function readHeading(pool: OcrPool, g: Gray, top: number, bottom: number): Promise<string> {
  if (bottom - top < 12) return '';
  const png = await sharp(Buffer.from(g.data), { raw: { width: g.width, height: g.height, channels: 1 } })
    .extract({ left: 0, top, width: g.width, height: bottom - top }).png().toBuffer();
  return (await pool.recognize(png, { mode: 'block' })).text.replace(/\s+/g, ' ').trim();
}

/** Read every (number, answer) pair of every table in a key image. Numbers sit in even columns, answers right of them. */
export async function readKeyImage(input: string | Buffer, digits: OcrPool, text: OcrPool): Promise<KeyReading> {
  const g = await loadGray(input);
  const tables = findTables(g);
  const entries: KeyEntry[] = [];
  const problems: string[] = [];
  const notes: string[] = [];
  let above = 0;
  for (const [ti, t] of tables.entries()) {
    const heading = await readHeading(text, g, above, t.box[1]);
    above = t.box[3] + 1;
    // Item numbers run in reading order through the number cells; OCR of each (often bold italic)
    // only has to agree on where the run starts.
    const cells = numberCells(t);
    const read = await Promise.all(cells.map(c => readNumber(digits, g, c.ink!)));
    const votes = new Map<number, number>();
    read.forEach((r, i) => { if (r) votes.set(Number(r) - i, (votes.get(Number(r) - i) ?? 0) + 1); });
    const [start, agree] = [...votes.entries()].sort((a, b) => b[1] - a[1])[0] ?? [NaN, 0];
    if (!agree) { problems.push(`table ${ti + 1}: no item number can be read`); continue; }
    read.forEach((r, i) => { if (r && Number(r) !== start + i) notes.push(`table ${ti + 1}: item number read as ${r} where the run gives ${start + i}`); });
    await Promise.all(cells.map(async (numberCell, i) => {
      const n = start + i;
      const answerCell = t.cells.find(c => c.row === numberCell.row && c.col === numberCell.col + 1);
      if (!answerCell?.ink) { problems.push(`item ${n} has no answer in the key`); return; }
      const circled = isCircled(g, answerCell.ink);
      const answer = circled ? await readCircled(digits, g, answerCell.ink) : await readNumber(digits, g, answerCell.ink, true);
      if (!answer) { problems.push(`item ${n}: the answer cannot be read`); return; }
      entries.push({ table: ti, heading, number: n, answer, circled });
    }));
  }
  entries.sort((a, b) => a.table - b.table || a.number - b.number);
  return { entries, problems, notes };
}

/** Cells that hold an item number: even columns with ink, in reading order (row by row). */
function numberCells(t: Table) {
  return t.cells.filter(c => c.col % 2 === 0 && c.ink).sort((a, b) => a.row - b.row || a.col - b.col);
}
