// VLMEvalKit: a TSV per split that its custom-dataset loader reads from ~/LMUData/<name>.tsv — an
// MCQ table (index, image, question, A…E, answer, category, l2-category, split) and, for items
// without options (short answers, worked answers), a VQA table of the same columns less A…E.
// `image` is the page image(s) the question is on (the IO modality), base64 PNG; a JSON list where
// the question runs over several pages. Points, difficulty, error rate and the exam date ride along
// as extra columns, which VLMEvalKit keeps and ignores.
import fs from 'node:fs';
import path from 'node:path';
import { writeFile } from './files.ts';
import { formatTsv } from './tsv.ts';
import { LETTERS, isChoice, questionWithOptions, translationLanguages, type ExportRow } from './rows.ts';

const COMMON_HEAD = ['index', 'image', 'question'];
const COMMON_TAIL = ['answer', 'category', 'l2-category', 'split', 'id', 'version', 'exam_date', 'points', 'difficulty', 'error_rate', 'type'];
export const MCQ_COLUMNS = [...COMMON_HEAD, ...LETTERS, ...COMMON_TAIL];
export const FREE_COLUMNS = [...COMMON_HEAD, ...COMMON_TAIL];

export function vlmevalkitNames(label: string): { mcq: string; free: string } {
  return { mcq: `vlmevalkit/exam_ingest_${label}_mcq.tsv`, free: `vlmevalkit/exam_ingest_${label}_free.tsv` };
}

/** root: the folder the rows' image paths are relative to. Returns the files written, relative to root. */
export function writeVlmevalkit(root: string, label: string, rows: readonly ExportRow[]): string[] {
  const image = (r: ExportRow) => {
    const b64 = r.io_images.map(p => fs.readFileSync(path.join(root, p)).toString('base64'));
    return b64.length === 1 ? b64[0] : JSON.stringify(b64);
  };
  const common = (r: ExportRow, index: number) => ({
    index, image: image(r), category: r.category, 'l2-category': r.l2_category, split: r.split, id: r.id, version: r.version,
    exam_date: r.exam_date, points: r.points, difficulty: r.difficulty, error_rate: r.error_rate, type: r.type,
  });
  // A translated question is its own column per language, options kept in the question (A…E stay the source's).
  const langs = translationLanguages(rows);
  const translated = (r: ExportRow, withOptions: boolean) => Object.fromEntries(langs.map(l => {
    const t = r.translations[l];
    return [`question_${l}`, t ? [t.question, ...(withOptions ? t.options.map(o => `${o.label} ${o.text}`) : [])].join('\n') : ''];
  }));
  const mcq = rows.filter(isChoice).map((r, i) => ({
    ...common(r, i), ...translated(r, true), question: r.question,
    ...Object.fromEntries(LETTERS.map((l, j) => [l, r.options[j]?.text ?? ''])),
    answer: r.answer_letter,
  }));
  // Free answers keep whatever options they print in the question text (mcq-multi, more than five options).
  const free = rows.filter(r => !isChoice(r)).map((r, i) => ({ ...common(r, i), ...translated(r, true), question: questionWithOptions(r), answer: r.answer }));
  const names = vlmevalkitNames(label);
  const extra = langs.map(l => `question_${l}`);
  return [writeFile(root, names.mcq, formatTsv([...MCQ_COLUMNS, ...extra], mcq)), writeFile(root, names.free, formatTsv([...FREE_COLUMNS, ...extra], free))];
}
