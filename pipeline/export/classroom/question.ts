// The questions a classroom export writes, read once from the records: numbered afresh 1..N in the
// store's order (paper, page, position), each with the kind an LMS grades it as, its key resolved
// against its options, its points and its image files found on disk. Every format is written from
// this list alone, so Moodle, QTI and the worksheet agree on what a question is and what its key is.
import fs from 'node:fs';
import path from 'node:path';
import type { ReviewRecord, ReviewStatus } from '../../review/record.ts';

/**
 * How a question is graded: `choice` one option, `multi` several options, `numerical` a number,
 * `short` a short text, `essay` by a person (a free answer, or a question whose key is unknown or
 * does not name its options).
 */
export type QuestionKind = 'choice' | 'multi' | 'numerical' | 'short' | 'essay';

export interface ImageFile {
  /** Absolute path on disk. */
  file: string;
  /** Its name inside the export (unique in it): the crop's own file name. */
  name: string;
}

export interface ChoiceOption {
  label: string;
  /** Markdown, formulas as `$…$`. */
  text: string;
  /** A picture printed as the option (a graph among graphs), where the paper has one. */
  image: ImageFile | null;
  correct: boolean;
}

export interface ClassroomQuestion {
  /** 1..N in the export, whatever the paper printed. */
  n: number;
  id: string;
  paper: string;
  section: string | null;
  /** The number as printed on the paper. */
  number: number;
  /** The record's type (mcq, mcq-multi, short, numeric, free). */
  type: string;
  kind: QuestionKind;
  stem: string;
  options: ChoiceOption[];
  /** The key as the record gives it (an option label, labels, a value), null when unknown. */
  answer: string | null;
  /** The value of a `numerical` key and the error it allows (0 for an exact key; half the width of a range key). */
  value: { number: number; tolerance: number } | null;
  /** Marks as printed; null when the paper prints none. */
  points: number | null;
  parts: { label: string; marks: number | null; answer: string | null }[];
  figures: ImageFile[];
  language: string | null;
  status: ReviewStatus;
  /** Why a question with options or a type an LMS could grade is written as an essay. */
  essayReason: string | null;
}

/** A record as the classroom exports read it (options may carry an image; parts their answers). */
export interface ClassroomRecord extends Omit<ReviewRecord, 'options'> {
  options: { label: string; text: string; image?: string | null }[];
  parts?: { label: string; marks: number | null; type?: string; answer?: string | null }[];
}

/** verified: only what a reviewer verified; all: every question not rejected (a rejected one is never exported). */
export type StatusFilter = 'verified' | 'all';

export function selectRecords<R extends { review?: { status: ReviewStatus } }>(records: readonly R[], status: StatusFilter): R[] {
  return records.filter(r => {
    const s = r.review?.status ?? 'pending';
    return status === 'verified' ? s === 'verified' : s !== 'rejected';
  });
}

/**
 * The first record of each near-duplicate cluster among these (`duplicate_of`, from the dedup
 * pass): a question two booklets share (a CSAT's common part) is asked once on a worksheet.
 */
export function dropDuplicates<R extends { id: string; duplicate_of?: string | null }>(records: readonly R[]): { kept: R[]; dropped: { record: R; sameAs: R }[] } {
  const first = new Map<string, R>();
  const kept: R[] = [];
  const dropped: { record: R; sameAs: R }[] = [];
  for (const r of records) {
    const cluster = r.duplicate_of ?? r.id;
    const seen = first.get(cluster);
    if (seen) { dropped.push({ record: r, sameAs: seen }); continue; }
    first.set(cluster, r);
    kept.push(r);
  }
  return { kept, dropped };
}

const NUMBER = String.raw`[-−]?(?:\d+(?:\.\d+)?|\.\d+|\d+,\d{1,2}|\d+,\d{4,})`;

/** A plain number (`7`, `-2.5`, `2,5`; `1,000` is ambiguous and is not one), or null. */
export function parseNumber(text: string): number | null {
  const t = text.trim();
  if (!new RegExp(`^${NUMBER}$`).test(t)) return null;
  const v = Number(t.replace('−', '-').replace(',', '.'));
  return Number.isFinite(v) ? v : null;
}

/** The value of a numerical key: a number, or a range `a to b` / `a ~ b` / `a – b` (its midpoint, half its width as tolerance). */
export function numericKey(answer: string | null): { number: number; tolerance: number } | null {
  if (answer === null) return null;
  const single = parseNumber(answer);
  if (single !== null) return { number: single, tolerance: 0 };
  const m = new RegExp(`^(${NUMBER})\\s*(?:to|~|–|—)\\s*(${NUMBER})$`, 'i').exec(answer.trim());
  if (!m) return null;
  const [a, b] = [parseNumber(m[1]), parseNumber(m[2])];
  if (a === null || b === null || b < a) return null;
  // Twelve significant digits: 0.25 to 0.27 is 0.26 ± 0.01, not ± 0.010000000000000009.
  const round = (x: number) => Number(x.toPrecision(12));
  return { number: round((a + b) / 2), tolerance: round((b - a) / 2) };
}

/**
 * The options a key names, by label: the whole key as one label, labels separated by commas or
 * spaces (`A, C`), labels run together (`AC`, `①③`, as keys print them), or positions (`3` for the
 * third option, as KICE keys give ③). Null when the key names something the question does not print.
 */
export function keyedOptions(answer: string, labels: readonly string[]): Set<number> | null {
  const key = answer.trim();
  const exact = labels.indexOf(key);
  if (exact >= 0) return new Set([exact]);
  const tokens = key.split(/[\s,;/、，]+/).filter(Boolean);
  const chosen = new Set<number>();
  for (const token of tokens) {
    if (/^\d+$/.test(token) && !labels.some(l => l && token.startsWith(l))) {
      const position = Number(token);
      if (position < 1 || position > labels.length) return null;
      chosen.add(position - 1);
      continue;
    }
    let rest = token;
    while (rest) {
      // The longest label that starts the rest: `(A)` before `A`.
      const i = labels.map((l, k) => ({ l, k })).filter(x => x.l && rest.startsWith(x.l)).sort((a, b) => b.l.length - a.l.length)[0]?.k;
      if (i === undefined) return null;
      chosen.add(i);
      rest = rest.slice(labels[i].length);
    }
  }
  return chosen.size ? chosen : null;
}

/** Resolves image paths (relative to the folder of the records) to files; reports the ones missing. */
export class ImageFiles {
  readonly missing: string[] = [];
  private readonly names = new Map<string, string>();

  constructor(private readonly baseDir: string) {}

  get(relative: string | null | undefined, where: string): ImageFile | null {
    if (!relative) { this.missing.push(`${where}: a figure with no crop (no image file)`); return null; }
    const file = path.resolve(this.baseDir, relative);
    if (!fs.existsSync(file)) { this.missing.push(`${where}: ${relative} is not there`); return null; }
    // Crops are named after their record's id, so the base name is unique; a clash gets a number.
    let name = path.basename(file).replace(/[^A-Za-z0-9._-]/g, '_');
    for (let k = 2; this.names.has(name) && this.names.get(name) !== file; k++) name = `${k}-${path.basename(file).replace(/[^A-Za-z0-9._-]/g, '_')}`;
    this.names.set(name, file);
    return { file, name };
  }
}

export function questionLabel(q: Pick<ClassroomQuestion, 'paper' | 'section' | 'number'>): string {
  return `${q.paper} · ${q.section ? `${q.section} ` : ''}${q.number}`;
}

function kindOf(r: ClassroomRecord, options: ChoiceOption[], value: ClassroomQuestion['value']): { kind: QuestionKind; reason: string | null } {
  const type = r.type;
  if (type === 'free') return { kind: 'essay', reason: null };
  if (type === 'mcq' || type === 'mcq-multi' || (options.length && type !== 'short' && type !== 'numeric')) {
    if (!options.length) return { kind: 'essay', reason: 'a multiple-choice question with no options read' };
    if (r.answer === null) return { kind: 'essay', reason: 'no key' };
    const correct = options.filter(o => o.correct).length;
    if (!correct) return { kind: 'essay', reason: `the key "${r.answer}" names no option the question prints` };
    if (type === 'mcq' && correct > 1) return { kind: 'multi', reason: null };
    return { kind: type === 'mcq-multi' ? 'multi' : 'choice', reason: null };
  }
  if (r.answer === null) return { kind: 'essay', reason: 'no key' };
  return value ? { kind: 'numerical', reason: null } : { kind: 'short', reason: null };
}

/** The questions of the records, numbered 1..N in their order; image paths are relative to `baseDir`. */
export function toQuestions(records: readonly ClassroomRecord[], baseDir: string): { questions: ClassroomQuestion[]; missingImages: string[] } {
  const images = new ImageFiles(baseDir);
  const questions = records.map((r, i): ClassroomQuestion => {
    const where = `${r.source.file} question ${r.section ? `${r.section} ` : ''}${r.number}`;
    const labels = r.options.map(o => o.label);
    const keyed = r.answer !== null && labels.length ? keyedOptions(r.answer, labels) : null;
    const options = r.options.map((o, k): ChoiceOption => ({
      label: o.label,
      text: o.text ?? '',
      image: o.image ? images.get(o.image, `${where}, option ${o.label}`) : null,
      correct: keyed?.has(k) ?? false,
    }));
    const value = r.type === 'free' ? null : numericKey(r.answer);
    const { kind, reason } = kindOf(r, options, value);
    return {
      n: i + 1,
      id: r.id,
      paper: r.source.file,
      section: r.section,
      number: r.number,
      type: r.type,
      kind,
      stem: r.stem ?? '',
      options,
      answer: r.answer,
      value: kind === 'numerical' ? value : null,
      points: typeof r.points === 'number' && Number.isFinite(r.points) ? r.points : null,
      parts: (r.parts ?? []).map(p => ({ label: p.label, marks: p.marks ?? null, answer: p.answer ?? null })),
      figures: (r.figures ?? []).map(f => images.get(f.path, where)).filter((f): f is ImageFile => f !== null),
      language: typeof r.exam?.language === 'string' ? r.exam.language : null,
      status: r.review?.status ?? 'pending',
      essayReason: reason,
    };
  });
  return { questions, missingImages: images.missing };
}
