// Hugging Face datasets: `data/<label>.jsonl` with every column (the image paths of each modality in
// their own column: ti_images, io_images), one file per modality under `data/<TO|TI|IO>/` with that
// modality's columns, and a dataset card (README.md) whose YAML front matter names them as configs
// (all, TO, TI, IO), so `load_dataset("json", data_files=…)` or `load_dataset(<folder>, "TI")` reads them.
import YAML from 'yaml';
import { writeFile, jsonl } from './files.ts';
import { translationColumns, translationLanguages, type ExportRow } from './rows.ts';

/** HF split names must match ^\w+(\.\w+)*$: 26-05 → 26_05, after-2025-06 → after_2025_06. */
export function hfSplitName(label: string): string {
  return label.replace(/[^\w.]/g, '_');
}

export function hfDataFiles(label: string): Record<'all' | 'TO' | 'TI' | 'IO', string> {
  return { all: `data/${label}.jsonl`, TO: `data/TO/${label}.jsonl`, TI: `data/TI/${label}.jsonl`, IO: `data/IO/${label}.jsonl` };
}

const META = ['id', 'version', 'split', 'exam_date', 'exam_date_source', 'family', 'exam_year', 'sitting', 'subject', 'language', 'section', 'number', 'type'] as const;
const SCORING = ['answer', 'answer_letter', 'answer_index', 'points', 'error_rate', 'difficulty', 'knowledge', 'category', 'l2_category', 'source_file', 'source_sha256'] as const;

function pick(r: ExportRow, keys: readonly (keyof ExportRow)[]): Record<string, unknown> {
  return Object.fromEntries(keys.map(k => [k, r[k]]));
}

/** Each modality's columns: TO the text; TI the text and figure crops; IO the page images and the question's place on them (no text). */
export function modalityRow(r: ExportRow, modality: 'TO' | 'TI' | 'IO', langs: readonly string[] = []): Record<string, unknown> {
  const labels = r.options.map(o => o.label);
  const translated = translationColumns(r, langs);
  if (modality === 'TO') return { ...pick(r, META), question: r.question, options: r.options, text: r.text, ...translated, ...pick(r, SCORING) };
  if (modality === 'TI') return { ...pick(r, META), question: r.question, options: r.options, text: r.text, images: r.ti_images, ...translated, ...pick(r, SCORING) };
  return { ...pick(r, META), option_labels: labels, images: r.io_images, regions: r.io_regions, ...pick(r, SCORING) };
}

export interface CardInfo {
  title: string;
  /** What the rows are: a split's window, or a selection's rule. */
  scope: string;
  counts: Record<string, Record<string, number>>;
  sources: { file: string; sha256: string; exam_date: string }[];
}

const FIELDS: [string, string][] = [
  ['id', 'stable id: `<paper-hash16>-<section>-<number>`; the same question keeps it across splits'],
  ['version', '1 when first published; a correction (e.g. a corrected answer key) is published in a later split as the next version'],
  ['split', 'the split (cut-off month, YY-MM) that published this version'],
  ['exam_date', 'when the paper was sat, `YYYY-MM` (or `YYYY` where the cover gives no month)'],
  ['exam_date_source', '`cover` (what the paper says) or `added` (the cover has no date: the month the paper was added)'],
  ['family / exam_year / sitting / subject / language', 'what the paper says about itself (exam_year as printed: a KICE 학년도 N paper is sat in N − 1)'],
  ['section, number', 'the part of the paper and the question number as printed'],
  ['type', '`mcq`, `mcq-multi`, `short`, `numeric` or `free`'],
  ['question', 'the stem, Markdown with `$…$` LaTeX'],
  ['options', '`{label, text}` per printed option, in order (empty without options)'],
  ['text', 'TO: the stem and options as text'],
  ['ti_images / images (TI)', 'TI: figure crops (PNG paths relative to this folder)'],
  ['io_images / images (IO), io_regions / regions', 'IO: the page images the question is on, and its boxes on them (PDF points, top-left origin)'],
  ['answer', 'the official key\'s answer (an option label such as ③, or a value); null where no key was given'],
  ['answer_letter, answer_index', 'for one-answer multiple choice with at most five options: the answer as A–E and as a 0-based index'],
  ['points', 'points as printed'],
  ['error_rate, difficulty', 'published human error rate in percent and its bin: easy ≤ 50, medium ≤ 75, hard > 75 (null where none was published)'],
  ['knowledge, category, l2_category', 'curriculum paths, primary first; the primary path\'s subject and unit'],
  ['source_file, source_sha256', 'the paper the question comes from'],
  ['question_<lang>, options_<lang>', 'the stem and options translated into <lang> with every formula kept as it was (make translate; null where an item has none)'],
];

export function datasetCard(label: string, info: CardInfo): string {
  const split = hfSplitName(label);
  const files = hfDataFiles(label);
  const front = {
    pretty_name: info.title,
    license: 'other',
    license_name: 'copyright-of-the-exam-authorities',
    language: Object.keys(info.counts.language ?? {}).filter(l => l && l !== 'unknown'),
    task_categories: ['question-answering', 'visual-question-answering', 'multiple-choice'],
    configs: (['all', 'TO', 'TI', 'IO'] as const).map(c => ({
      config_name: c,
      ...(c === 'all' && { default: true }),
      data_files: [{ split, path: files[c] }],
    })),
  };
  const table = (name: string) => Object.entries(info.counts[name] ?? {}).map(([k, n]) => `${k} ${n}`).join(', ') || '—';
  return [
    '---',
    // Strings double-quoted: the Hub reads the card with YAML 1.1, where a plain 22_08 is the number 2208.
    YAML.stringify(front, { lineWidth: 0, defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN', doubleQuotedAsJSON: true }).trimEnd(),
    '---',
    '',
    `# ${info.title}`,
    '',
    info.scope,
    '',
    `Items: ${info.counts.total?.items ?? 0}. By family: ${table('family')}. By type: ${table('type')}. By difficulty: ${table('difficulty')}. By modality: ${table('modality')}.`,
    '',
    '## Loading',
    '',
    '```python',
    'from datasets import load_dataset',
    `ds = load_dataset("json", data_files={"${split}": "${files.all}"})  # every column`,
    `ti = load_dataset("json", data_files={"${split}": "${files.TI}"})   # or TO / IO`,
    '# or, from this folder: load_dataset(".", "TI")',
    '```',
    '',
    'Image columns hold paths relative to this folder (`images/pages/…`, `images/figures/…`); cast them with',
    '`datasets.Image()` after joining them to the folder. Everything is local: set `HF_DATASETS_OFFLINE=1`.',
    '',
    '## Licence and sources',
    '',
    'The questions, figures and page images are reproduced from official exam papers; their copyright stays',
    'with the authorities that set them (for the Korean CSAT and its mock exams, the Korea Institute for',
    'Curriculum and Evaluation, KICE; for the others, the body named on each paper). This dataset is for',
    'research and evaluation; check each authority\'s terms before redistributing it. The structure, tags and',
    'metadata were produced by exam-ingest. Sources (file, sha256, exam date):',
    '',
    ...info.sources.map(s => `- \`${s.file}\` \`${s.sha256}\` ${s.exam_date}`),
    '',
    '## Fields',
    '',
    '| field | meaning |',
    '|---|---|',
    ...FIELDS.map(([f, m]) => `| ${f} | ${m} |`),
    '',
  ].join('\n');
}

export function writeHf(root: string, label: string, rows: readonly ExportRow[], card: CardInfo): string[] {
  const files = hfDataFiles(label);
  // Each language its own columns, the same in every row (a nested map of varying keys loads badly).
  const langs = translationLanguages(rows);
  const all = rows.map(r => {
    const { translations, ...rest } = r;
    return { ...rest, ...translationColumns({ ...rest, translations }, langs) };
  });
  return [
    writeFile(root, files.all, jsonl(all)),
    writeFile(root, files.TO, jsonl(rows.map(r => modalityRow(r, 'TO', langs)))),
    writeFile(root, files.TI, jsonl(rows.map(r => modalityRow(r, 'TI', langs)))),
    writeFile(root, files.IO, jsonl(rows.map(r => modalityRow(r, 'IO')))),
    writeFile(root, 'README.md', datasetCard(label, card)),
  ];
}
