// One row per item, the shape every export is cut from: the question and its options, the answer as
// the key gives it and as a letter/index for multiple choice, points, published error rate and
// difficulty, tags, the exam date, and the images of each modality (paths relative to the export's
// folder). Exports pick their columns from this; none reads a record directly.
import { knowledgePaths, type SplitItem } from '../splits/item.ts';

export const LETTERS = ['A', 'B', 'C', 'D', 'E'];

export interface ExportRow {
  id: string;
  version: number;
  split: string;
  exam_date: string;
  exam_date_source: 'cover' | 'added';
  family: string;
  exam_year: number | null;
  sitting: string | null;
  subject: string | null;
  language: string | null;
  section: string | null;
  number: number;
  type: string;
  question: string;
  options: { label: string; text: string }[];
  /** The answer as the key prints it (an option label such as ③, or a value). */
  answer: string | null;
  /** For a one-answer multiple-choice item of at most five options: its answer as A–E and as a 0-based index. */
  answer_letter: string | null;
  answer_index: number | null;
  points: number | null;
  error_rate: number | null;
  difficulty: string | null;
  knowledge: string[];
  /** The primary tag's subject and unit (VLMEvalKit's category and l2-category). */
  category: string;
  l2_category: string;
  /** TO: the stem and options as text. */
  text: string;
  /** TI: figure crops. */
  ti_images: string[];
  /** IO: the page images the question is on, and where on them. */
  io_images: string[];
  io_regions: { page: number; bbox: number[] }[];
  source_file: string;
  source_sha256: string;
  /** Translated stem and options by language (pipeline/translate), where a translation passed its checks' gate (not failed). */
  translations: Record<string, { question: string; options: { label: string; text: string }[] }>;
}

/** The languages any row is translated into, sorted: each becomes its own columns in every export. */
export function translationLanguages(rows: readonly ExportRow[]): string[] {
  return [...new Set(rows.flatMap(r => Object.keys(r.translations)))].sort();
}

/** `question_<lang>` and `options_<lang>` for every language of the export, null where a row has none. */
export function translationColumns(r: ExportRow, langs: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(langs.flatMap(l => [[`question_${l}`, r.translations[l]?.question ?? null], [`options_${l}`, r.translations[l]?.options ?? null]]));
}

/** Whether an item goes to the multiple-choice exports: one answer among at most five options, known. */
export function isChoice(row: ExportRow): boolean {
  return row.answer_index !== null;
}

export function toRow(it: SplitItem): ExportRow {
  const paths = knowledgePaths(it.knowledge);
  const [subjectTag, unitTag] = (paths[0] ?? '').split(' > ');
  const index = it.type === 'mcq' && it.options.length >= 2 && it.options.length <= LETTERS.length && it.answer !== null
    ? it.options.findIndex(o => o.label === it.answer)
    : -1;
  return {
    id: it.id,
    version: it.version,
    split: it.split,
    exam_date: it.exam_date,
    exam_date_source: it.exam_date_source,
    family: String(it.exam.family ?? ''),
    exam_year: it.exam.year ?? null,
    sitting: it.exam.sitting ?? null,
    subject: it.exam.subject ?? null,
    language: (it.exam.language as string | undefined) ?? null,
    section: it.section,
    number: it.number,
    type: it.type,
    question: it.stem,
    options: it.options,
    answer: it.answer,
    answer_letter: index >= 0 ? LETTERS[index] : null,
    answer_index: index >= 0 ? index : null,
    points: it.points,
    error_rate: it.error_rate,
    difficulty: it.difficulty,
    knowledge: paths,
    category: subjectTag || it.section || String(it.exam.subject ?? ''),
    l2_category: unitTag || '',
    text: it.modalities.TO.text,
    ti_images: it.modalities.TI.images,
    io_images: it.modalities.IO.page_image,
    io_regions: it.modalities.IO.question.regions,
    source_file: it.source.file,
    source_sha256: it.source.sha256,
    translations: translationsOf(it),
  };
}

interface StoredTranslation { stem?: string | null; options?: { label: string; text: string }[] | null; status?: string }

function translationsOf(it: SplitItem): ExportRow['translations'] {
  const stored = (it.translations ?? {}) as Record<string, StoredTranslation>;
  return Object.fromEntries(Object.entries(stored)
    .filter(([, t]) => t.stem && t.status !== 'failed')
    .map(([lang, t]) => [lang, { question: t.stem as string, options: t.options ?? [] }]));
}

/** The question as text with its options under it: for exports that have no option columns. */
export function questionWithOptions(row: ExportRow): string {
  return [row.question, ...row.options.map(o => `${o.label} ${o.text}`)].join('\n');
}
