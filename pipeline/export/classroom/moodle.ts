// Moodle XML (Question bank → Import → "Moodle XML format"), as Moodle's own qformat_xml reads it:
// one category per paper under `$course$/top/<export>/`, then its questions. Text is HTML in CDATA
// with format="html"; formulas stay TeX between \( … \) / \[ … \] for Moodle's MathJax filter;
// figures travel inside the file as base64 <file> elements that the HTML names @@PLUGINFILE@@/<name>.
// Answer fractions are percentages Moodle accepts (its import refuses any grade outside
// question_bank::fraction_options_full(), e.g. 100/3 must be written 33.33333).
import fs from 'node:fs';
import { escapeXml, markdownToInlineMarkup, markdownToMarkup } from './markup.ts';
import { questionLabel, type ChoiceOption, type ClassroomQuestion, type ImageFile } from './question.ts';

/** The grades Moodle allows an answer, in percent (its fraction_options_full, positive side). */
export const MOODLE_FRACTIONS = [100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20, 16.66667, 14.28571, 12.5, 11.11111, 10, 5, 0];

/** The allowed grade nearest to `percent` (the sign kept): each of k correct answers gets 100/k, exact for k ≤ 10. */
export function moodleFraction(percent: number): number {
  const size = Math.abs(percent);
  const nearest = MOODLE_FRACTIONS.reduce((best, f) => (Math.abs(f - size) < Math.abs(best - size) ? f : best), 100);
  return percent < 0 ? -nearest : nearest;
}

/** Moodle's answernumbering for the labels as printed, or `none` (the labels then go in the answers' text). */
export function answerNumbering(labels: readonly string[]): string {
  // `A)`, `(A)`, `A.` count as A.
  const core = labels.map(l => l.replace(/^[(\[]|[)\].．、:]$/g, ''));
  const seq = (first: number, map: (i: number) => string) => core.every((c, i) => c === map(first + i));
  const circled = (i: number) => String.fromCodePoint(0x2460 + i - 1);
  if (seq(1, i => String(i)) || seq(1, circled)) return '123';
  if (seq(0, i => String.fromCharCode(65 + i))) return 'ABCD';
  if (seq(0, i => String.fromCharCode(97 + i))) return 'abc';
  return 'none';
}

const cdata = (html: string) => `<![CDATA[${html.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
const text = (value: string) => `<text>${escapeXml(value)}</text>`;
const html = (tag: string, body: string, files: readonly ImageFile[] = [], attrs = '') =>
  `<${tag}${attrs} format="html"><text>${body ? cdata(body) : ''}</text>${files.map(fileElement).join('')}</${tag}>`;
const grade = (n: number) => n.toFixed(7);

function fileElement(f: ImageFile): string {
  return `\n      <file name="${escapeXml(f.name)}" path="/" encoding="base64">${fs.readFileSync(f.file).toString('base64')}</file>`;
}

const img = (f: ImageFile, alt: string) => `<img src="@@PLUGINFILE@@/${encodeURIComponent(f.name)}" alt="${escapeXml(alt)}">`;

function optionHtml(o: ChoiceOption, withLabel: boolean): string {
  const body = markdownToInlineMarkup(o.text, 'moodle');
  return [withLabel ? `${escapeXml(o.label)} ` : '', body, o.image ? `${body ? '<br>' : ''}${img(o.image, `${o.label}`)}` : ''].join('');
}

function questionText(q: ClassroomQuestion, withOptions: boolean): { body: string; files: ImageFile[] } {
  const figures = q.figures.map((f, i) => `<p>${img(f, `Figure ${i + 1}`)}</p>`);
  const options = withOptions && q.options.length ? [`<ol style="list-style: none">${q.options.map(o => `<li>${optionHtml(o, true)}</li>`).join('')}</ol>`] : [];
  const files = [...q.figures, ...(withOptions ? q.options.flatMap(o => (o.image ? [o.image] : [])) : [])];
  return { body: [markdownToMarkup(q.stem, 'moodle'), ...figures, ...options].join('\n'), files };
}

function tags(q: ClassroomQuestion): string {
  // Moodle keeps tags to 50 characters and splits on commas.
  const clean = (t: string) => t.replace(/[,<>`]/g, ' ').trim().slice(0, 50);
  const list = ['exam-ingest', q.paper, `question ${q.number}`, ...(q.section ? [q.section] : []), q.type];
  return `<tags>${[...new Set(list.map(clean).filter(Boolean))].map(t => `<tag>${text(t)}</tag>`).join('')}</tags>`;
}

function header(q: ClassroomQuestion, type: string, penalty: number, textBody: { body: string; files: ImageFile[] }, points: number): string[] {
  return [
    `  <question type="${type}">`,
    `    <name>${text(questionLabel(q))}</name>`,
    `    ${html('questiontext', textBody.body, textBody.files)}`,
    `    ${html('generalfeedback', '')}`,
    `    <defaultgrade>${grade(points)}</defaultgrade>`,
    `    <penalty>${grade(penalty)}</penalty>`,
    '    <hidden>0</hidden>',
    `    <idnumber>${escapeXml(q.id.slice(0, 100))}</idnumber>`,
  ];
}

const feedback = `<feedback format="html"><text></text></feedback>`;

function multichoice(q: ClassroomQuestion, points: number): string[] {
  const numbering = answerNumbering(q.options.map(o => o.label));
  const correct = q.options.filter(o => o.correct).length;
  const wrong = q.options.length - correct;
  const single = q.kind === 'choice';
  // Several answers: each right one earns its share, each wrong one takes a share back, so ticking every box earns nothing.
  const fraction = (o: ChoiceOption) => (o.correct ? (single ? 100 : moodleFraction(100 / correct)) : single || !wrong ? 0 : moodleFraction(-100 / wrong));
  const answers = q.options.map(o => {
    const files = o.image ? [o.image] : [];
    return `    <answer fraction="${fraction(o)}" format="html"><text>${cdata(optionHtml(o, numbering === 'none'))}</text>${files.map(fileElement).join('')}${feedback}</answer>`;
  });
  return [
    ...header(q, 'multichoice', 1 / 3, questionText(q, false), points),
    `    <single>${single}</single>`,
    '    <shuffleanswers>false</shuffleanswers>',
    `    <answernumbering>${numbering}</answernumbering>`,
    '    <showstandardinstruction>0</showstandardinstruction>',
    `    ${html('correctfeedback', '')}`,
    `    ${html('partiallycorrectfeedback', '')}`,
    `    ${html('incorrectfeedback', '')}`,
    ...(single ? [] : ['    <shownumcorrect/>']),
    ...answers,
  ];
}

function numerical(q: ClassroomQuestion, points: number): string[] {
  const v = q.value!;
  return [
    ...header(q, 'numerical', 1 / 3, questionText(q, false), points),
    `    <answer fraction="100" format="moodle_auto_format">${text(String(v.number))}${feedback}<tolerance>${v.tolerance}</tolerance></answer>`,
    '    <unitgradingtype>0</unitgradingtype>',
    '    <unitpenalty>0.1000000</unitpenalty>',
    '    <showunits>3</showunits>',
    '    <unitsleft>0</unitsleft>',
  ];
}

function shortanswer(q: ClassroomQuestion, points: number): string[] {
  // In a short answer `*` is a wildcard; the key's own asterisks are literal.
  const key = (q.answer ?? '').replace(/\*/g, '\\*');
  return [
    ...header(q, 'shortanswer', 1 / 3, questionText(q, false), points),
    '    <usecase>0</usecase>',
    `    <answer fraction="100" format="moodle_auto_format">${text(key)}${feedback}</answer>`,
  ];
}

/** What a person grading an essay is told: the key where there is one, each part's marks and answer. */
export function graderInfo(q: ClassroomQuestion): string {
  const lines: string[] = [];
  if (q.answer !== null) {
    const chosen = q.options.filter(o => o.correct);
    lines.push(`<p>Key: ${chosen.length ? chosen.map(o => optionHtml(o, true)).join('; ') : escapeXml(q.answer)}</p>`);
  }
  if (q.parts.length) {
    lines.push(`<ul>${q.parts.map(p => `<li>${escapeXml(p.label)}${p.marks !== null ? ` [${p.marks}]` : ''}${p.answer ? `: ${escapeXml(p.answer)}` : ''}</li>`).join('')}</ul>`);
  }
  if (q.essayReason && q.type !== 'free') lines.push(`<p>Graded by hand: ${escapeXml(q.essayReason)}.</p>`);
  return lines.join('\n');
}

function essay(q: ClassroomQuestion, points: number): string[] {
  return [
    ...header(q, 'essay', 0, questionText(q, true), points),
    '    <responseformat>editor</responseformat>',
    '    <responserequired>1</responserequired>',
    `    <responsefieldlines>${q.type === 'free' ? 15 : 5}</responsefieldlines>`,
    '    <minwordlimit></minwordlimit>',
    '    <maxwordlimit></maxwordlimit>',
    '    <attachments>0</attachments>',
    '    <attachmentsrequired>0</attachmentsrequired>',
    '    <maxbytes>0</maxbytes>',
    '    <filetypeslist></filetypeslist>',
    `    ${html('graderinfo', graderInfo(q))}`,
    `    ${html('responsetemplate', '')}`,
  ];
}

/** Moodle's default mark where a paper prints none. */
export const DEFAULT_POINTS = 1;

function question(q: ClassroomQuestion): string {
  const points = q.points ?? DEFAULT_POINTS;
  const body = q.kind === 'choice' || q.kind === 'multi' ? multichoice(q, points) : q.kind === 'numerical' ? numerical(q, points) : q.kind === 'short' ? shortanswer(q, points) : essay(q, points);
  return [...body, `    ${tags(q)}`, '  </question>'].join('\n');
}

/** A category path segment: Moodle reads `/` as the separator, `//` as a slash in a name. */
const segment = (name: string) => name.replace(/\//g, '//').trim() || '-';

/** The whole file: a category per paper (under `$course$/top/<root>`), each followed by its questions. */
export function moodleXml(questions: readonly ClassroomQuestion[], root: string): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', '<quiz>'];
  let paper: string | null = null;
  for (const q of questions) {
    if (q.paper !== paper) {
      paper = q.paper;
      out.push('  <question type="category">',
        `    <category>${text(`$course$/top/${segment(root)}/${segment(paper)}`)}</category>`,
        `    <info format="html"><text>${cdata(`<p>Questions of ${escapeXml(paper)}, exported by exam-ingest.</p>`)}</text></info>`,
        '  </question>');
    }
    out.push(`<!-- question ${q.n}: ${escapeXml(questionLabel(q)).replace(/--/g, '- -')} -->`, question(q));
  }
  out.push('</quiz>', '');
  return out.join('\n');
}
