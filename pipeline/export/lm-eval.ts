// lm-evaluation-harness: a group of two tasks per split, read offline from JSONL beside them
// (`dataset_path: json`): multiple choice scored by the log-likelihood of the answer's letter, and
// the rest (short answers, worked answers) generated and compared by exact match on the last number
// or the whole reply. The text-only (TO) modality: a language model sees the stem and options.
// data_files are relative to the folder holding the export, so lm_eval runs from there.
import YAML from 'yaml';
import { writeFile, jsonl } from './files.ts';
import { LETTERS, isChoice, questionWithOptions, type ExportRow } from './rows.ts';

/** lm-eval task names: letters, digits and underscores. */
export function taskName(label: string): string {
  return `exam_ingest_${label.replace(/[^\w]/g, '_')}`;
}

export function lmEvalFiles(label: string): { group: string; mcqTask: string; freeTask: string; mcqData: string; freeData: string } {
  const t = taskName(label);
  return { group: `lm-eval/${t}.yaml`, mcqTask: `lm-eval/${t}_mcq.yaml`, freeTask: `lm-eval/${t}_free.yaml`, mcqData: `lm-eval/${label}-mcq.jsonl`, freeData: `lm-eval/${label}-free.jsonl` };
}

const MCQ_PROMPT = '{{question}}\n{% for o in choices %}{{letters[loop.index0]}}. {{o}}\n{% endfor %}Answer:';
const FREE_PROMPT = '{{question}}\nAnswer:';

export function writeLmEval(root: string, label: string, rows: readonly ExportRow[]): string[] {
  const f = lmEvalFiles(label);
  const t = taskName(label);
  const meta = (r: ExportRow) => ({ id: r.id, version: r.version, split: r.split, exam_date: r.exam_date, points: r.points, difficulty: r.difficulty, error_rate: r.error_rate, category: r.category });
  const mcq = rows.filter(isChoice).map(r => ({
    ...meta(r), question: r.question, choices: r.options.map(o => o.text), letters: LETTERS.slice(0, r.options.length), answer_index: r.answer_index,
  }));
  // Without a known answer an item cannot be scored: it stays in the other exports, not here.
  const free = rows.filter(r => !isChoice(r) && r.answer !== null).map(r => ({ ...meta(r), question: questionWithOptions(r), answer: r.answer }));
  const common = { dataset_path: 'json', test_split: 'test', metadata: { version: 1, split: label } };
  const mcqTask = {
    task: `${t}_mcq`,
    ...common,
    dataset_kwargs: { data_files: { test: f.mcqData } },
    output_type: 'multiple_choice',
    doc_to_text: MCQ_PROMPT,
    doc_to_choice: 'letters',
    doc_to_target: 'answer_index',
    target_delimiter: ' ',
    metric_list: [{ metric: 'acc', aggregation: 'mean', higher_is_better: true }],
  };
  const freeTask = {
    task: `${t}_free`,
    ...common,
    dataset_kwargs: { data_files: { test: f.freeData } },
    output_type: 'generate_until',
    doc_to_text: FREE_PROMPT,
    doc_to_target: 'answer',
    generation_kwargs: { until: ['\n\n'], do_sample: false },
    // Short answers are numbers: the reply's last number is compared with the key.
    filter_list: [{ name: 'last-number', filter: [{ function: 'regex', regex_pattern: '(-?[0-9]+(?:\\.[0-9]+)?)', group_select: -1 }, { function: 'take_first' }] }],
    metric_list: [{ metric: 'exact_match', aggregation: 'mean', higher_is_better: true, ignore_case: true, ignore_punctuation: false }],
  };
  const group = { group: t, task: [`${t}_mcq`, `${t}_free`], metadata: { version: 1 } };
  // Every string double-quoted: PyYAML (YAML 1.1, what lm-eval reads with) takes 22_08 for a number, and "\n\n" reads plainly.
  const yaml = (o: unknown) => YAML.stringify(o, { lineWidth: 0, defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN', doubleQuotedAsJSON: true });
  return [
    writeFile(root, f.mcqData, jsonl(mcq)),
    writeFile(root, f.freeData, jsonl(free)),
    writeFile(root, f.mcqTask, yaml(mcqTask)),
    writeFile(root, f.freeTask, yaml(freeTask)),
    writeFile(root, f.group, yaml(group)),
  ];
}
