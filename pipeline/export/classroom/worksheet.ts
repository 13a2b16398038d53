// A printable worksheet and its answer key, as two self-contained HTML files: formulas typeset by
// KaTeX at build time (the review site's renderer), KaTeX's stylesheet and fonts and every figure
// inlined as data, so a file opens anywhere and prints the same with no network. Questions are
// numbered afresh 1..N with their points; two columns on request. The key repeats each number with
// its answer (the option's label and text), points, and where the question came from, in two
// columns whatever the worksheet's.
import fs from 'node:fs';
import path from 'node:path';
import { KATEX_DIST } from '../../review/assets.ts';
import { escapeHtml } from '../../review/escape.ts';
import { markdownToHtml, markdownToInlineHtml } from '../../review/markdown.ts';
import { CJK_SANS } from '../../review/style.ts';
import { questionLabel, type ClassroomQuestion, type ImageFile } from './question.ts';

interface Strings {
  name: string;
  date: string;
  score: string;
  answer: string;
  key: string;
  points: (n: number) => string;
  questions: (n: number) => string;
  total: (n: number) => string;
  byHand: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The few words a worksheet prints, in the languages of the curriculum trees; English elsewhere. */
export const STRINGS: Record<string, Strings> = {
  en: { name: 'Name', date: 'Date', score: 'Score', answer: 'Answer', key: 'Answer key', points: n => plural(n, 'point', 'points'), questions: n => plural(n, 'question', 'questions'), total: n => `${plural(n, 'point', 'points')} in all`, byHand: 'marked by hand' },
  ko: { name: '이름', date: '날짜', score: '점수', answer: '답', key: '정답', points: n => `${n}점`, questions: n => `${n}문항`, total: n => `총 ${n}점`, byHand: '채점자 판단' },
  es: { name: 'Nombre', date: 'Fecha', score: 'Nota', answer: 'Respuesta', key: 'Clave de respuestas', points: n => plural(n, 'punto', 'puntos'), questions: n => plural(n, 'pregunta', 'preguntas'), total: n => `${plural(n, 'punto', 'puntos')} en total`, byHand: 'a criterio del docente' },
  pt: { name: 'Nome', date: 'Data', score: 'Nota', answer: 'Resposta', key: 'Gabarito', points: n => plural(n, 'ponto', 'pontos'), questions: n => plural(n, 'questão', 'questões'), total: n => `${plural(n, 'ponto', 'pontos')} no total`, byHand: 'correção do professor' },
  fr: { name: 'Nom', date: 'Date', score: 'Note', answer: 'Réponse', key: 'Corrigé', points: n => `${n} ${n <= 1 ? 'point' : 'points'}`, questions: n => `${n} ${n <= 1 ? 'question' : 'questions'}`, total: n => `${n} ${n <= 1 ? 'point' : 'points'} au total`, byHand: "à l'appréciation du correcteur" },
  zh: { name: '姓名', date: '日期', score: '得分', answer: '答案', key: '参考答案', points: n => `${n}分`, questions: n => `共${n}题`, total: n => `总分${n}分`, byHand: '由教师评分' },
  vi: { name: 'Họ và tên', date: 'Ngày', score: 'Điểm', answer: 'Trả lời', key: 'Đáp án', points: n => `${n} điểm`, questions: n => `${n} câu`, total: n => `Tổng ${n} điểm`, byHand: 'giáo viên chấm' },
};

/** The language most questions are in (what the paper says; `und` does not count), English where none says. */
export function worksheetLanguage(questions: readonly ClassroomQuestion[]): string {
  const counts = new Map<string, number>();
  for (const q of questions) if (q.language && q.language !== 'und') counts.set(q.language, (counts.get(q.language) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'en';
}

let katexCss: string | null = null;
/** katex.min.css with its woff2 fonts inlined (the woff/ttf fallbacks dropped: Chromium reads woff2). */
export function inlineKatexCss(): string {
  katexCss ??= fs.readFileSync(path.join(KATEX_DIST, 'katex.min.css'), 'utf8').replace(/src:url\(fonts\/([^)]+\.woff2)\) format\("woff2"\)[^;}]*/g,
    (_, font: string) => `src:url(data:font/woff2;base64,${fs.readFileSync(path.join(KATEX_DIST, 'fonts', font)).toString('base64')}) format("woff2")`);
  return katexCss;
}

const MIME: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp', '.svg': 'image/svg+xml' };
const dataUrl = (f: ImageFile) => `data:${MIME[path.extname(f.file).toLowerCase()] ?? 'application/octet-stream'};base64,${fs.readFileSync(f.file).toString('base64')}`;

const CSS = `
@page { size: A4; margin: 16mm 15mm; }
* { box-sizing: border-box; }
html { font-family: "Noto Sans", "Liberation Sans", Arial, ${CJK_SANS}; font-size: 11pt; line-height: 1.5; color: #000; }
body { margin: 0; }
header.sheet { border-bottom: 1.5pt solid #000; padding-bottom: 6pt; margin-bottom: 10pt; }
header.sheet h1 { font-size: 15pt; margin: 0 0 6pt; }
header.sheet .fields { display: flex; gap: 18pt; flex-wrap: wrap; }
header.sheet .fields span { flex: 1 1 auto; white-space: nowrap; }
header.sheet .fields .blank { display: inline-block; min-width: 38mm; border-bottom: .75pt solid #000; }
header.sheet .meta { color: #333; font-size: 9.5pt; margin: 6pt 0 0; }
.questions.columns-2 { column-count: 2; column-gap: 9mm; column-rule: .5pt solid #999; }
.question { break-inside: avoid; page-break-inside: avoid; margin: 0 0 14pt; }
.question .head { display: flex; gap: 6pt; align-items: baseline; }
.question .num { font-weight: 700; min-width: 2.2em; }
.question .points { margin-left: auto; font-size: 9.5pt; white-space: nowrap; }
.question .stem p { margin: 0 0 4pt; }
.question figure { margin: 4pt 0 6pt; text-align: center; }
.question figure img { max-width: 100%; max-height: 70mm; }
.options { list-style: none; margin: 4pt 0 0; padding: 0 0 0 2.2em; }
.options li { margin: 2pt 0; break-inside: avoid; }
.options.row { display: grid; grid-template-columns: repeat(var(--n), 1fr); gap: 2pt 8pt; }
.options .label { font-weight: 600; margin-right: .35em; }
.options img { max-width: 100%; max-height: 45mm; vertical-align: top; }
.answer-line { margin: 6pt 0 0 2.2em; }
.answer-line .blank { display: inline-block; min-width: 40mm; border-bottom: .75pt solid #000; }
.answer-box { margin: 6pt 0 0 2.2em; border: .75pt solid #666; border-radius: 2pt;
  background: repeating-linear-gradient(#fff 0, #fff 7.2mm, #bbb 7.2mm, #bbb 7.4mm); }
.key-item { break-inside: avoid; margin: 0; padding: 3pt 0 3pt 2.2em; text-indent: -2.2em; border-bottom: .5pt solid #ccc; }
.key-item .num { font-weight: 700; display: inline-block; min-width: 2.2em; text-indent: 0; }
.key-item .points { color: #333; font-size: 9.5pt; margin-left: .5em; }
.key-item .source { display: block; text-indent: 0; color: #444; font-size: 8.5pt; }
.key-item .parts { text-indent: 0; margin: 0; padding-left: 1.2em; }
.key-item .none { color: #666; }
.katex { font-size: 1.05em; }
@media screen { body { max-width: 190mm; margin: 12mm auto; } }
`;

export interface WorksheetOptions {
  title: string;
  columns: 1 | 2;
}

const pointsOf = (q: ClassroomQuestion) => q.points;
const totalPoints = (qs: readonly ClassroomQuestion[]) => Number(qs.reduce((s, q) => s + (pointsOf(q) ?? 0), 0).toFixed(2));

function page(lang: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${inlineKatexCss()}</style>
<style>${CSS}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function head(s: Strings, title: string, questions: readonly ClassroomQuestion[], withFields: boolean): string {
  const total = totalPoints(questions);
  const meta = [s.questions(questions.length), ...(total ? [s.total(total)] : [])].join(' · ');
  const fields = withFields
    ? `<div class="fields"><span>${escapeHtml(s.name)}: <span class="blank"></span></span><span>${escapeHtml(s.date)}: <span class="blank"></span></span><span>${escapeHtml(s.score)}: <span class="blank" style="min-width:18mm"></span>${total ? ` / ${total}` : ''}</span></div>`
    : '';
  return `<header class="sheet"><h1>${escapeHtml(title)}</h1>${fields}<p class="meta">${escapeHtml(meta)}</p></header>`;
}

/** Options short enough to share a row (plain text of a few characters each, no picture). */
function optionsInRow(q: ClassroomQuestion): boolean {
  return q.options.length > 1 && q.options.every(o => !o.image && o.text.replace(/[$\\{}\s]/g, '').length <= 14);
}

function optionsHtml(q: ClassroomQuestion): string {
  if (!q.options.length) return '';
  const row = optionsInRow(q);
  const items = q.options.map(o => {
    const image = o.image ? `<br><img src="${dataUrl(o.image)}" alt="${escapeHtml(o.label)}">` : '';
    return `<li><span class="label">${escapeHtml(o.label)}</span>${markdownToInlineHtml(o.text)}${image}</li>`;
  });
  return `<ol class="options${row ? ' row' : ''}"${row ? ` style="--n:${q.options.length}"` : ''}>${items.join('')}</ol>`;
}

function answerSpace(q: ClassroomQuestion, s: Strings): string {
  if (q.options.length) return '';
  if (q.type === 'free' || q.kind === 'essay') {
    // Room in proportion to the marks: a line and a half per point, 4 to 14 lines.
    const lines = Math.min(14, Math.max(4, Math.round((q.points ?? 3) * 1.5)));
    return `<div class="answer-box" style="height:${(lines * 7.4).toFixed(1)}mm"></div>`;
  }
  return `<div class="answer-line">${escapeHtml(s.answer)}: <span class="blank"></span></div>`;
}

function questionHtml(q: ClassroomQuestion, s: Strings): string {
  const figures = q.figures.map((f, i) => `<figure><img src="${dataUrl(f)}" alt="Figure ${i + 1}"></figure>`).join('');
  const points = q.points !== null ? `<span class="points">[${escapeHtml(s.points(q.points))}]</span>` : '';
  return `<section class="question" id="q${q.n}" data-id="${escapeHtml(q.id)}">
<div class="head"><span class="num">${q.n}.</span><div class="stem">${markdownToHtml(q.stem)}</div>${points}</div>
${figures}${optionsHtml(q)}${answerSpace(q, s)}
</section>`;
}

/** The key of one question as HTML: the keyed options (label and text), else the value as the key gives it. */
function keyHtml(q: ClassroomQuestion, s: Strings): string {
  const chosen = q.options.filter(o => o.correct);
  if (chosen.length) return chosen.map(o => `<span class="label">${escapeHtml(o.label)}</span> ${markdownToInlineHtml(o.text)}`).join('; ');
  if (q.answer !== null) return markdownToInlineHtml(q.answer);
  return `<span class="none">— (${escapeHtml(s.byHand)})</span>`;
}

function keyItemHtml(q: ClassroomQuestion, s: Strings): string {
  const parts = q.parts.some(p => p.answer || p.marks !== null)
    ? `<ul class="parts">${q.parts.map(p => `<li>${escapeHtml(p.label)}${p.marks !== null ? ` [${escapeHtml(s.points(p.marks))}]` : ''}${p.answer ? `: ${markdownToInlineHtml(p.answer)}` : ''}</li>`).join('')}</ul>`
    : '';
  const points = q.points !== null ? `<span class="points">(${escapeHtml(s.points(q.points))})</span>` : '';
  // One line per question (number, answer, points), so it reads in order on paper and in the PDF's text.
  return `<div class="key-item" id="k${q.n}"><span class="num">${q.n}.</span><span class="answer">${keyHtml(q, s)}</span>${points}${parts}<span class="source">${escapeHtml(questionLabel(q))}</span></div>`;
}

export interface WorksheetFiles {
  worksheet: string;
  key: string;
  lang: string;
}

/** The worksheet's and the key's HTML. */
export function worksheetHtml(questions: readonly ClassroomQuestion[], options: WorksheetOptions): WorksheetFiles {
  const lang = worksheetLanguage(questions);
  const s = STRINGS[lang] ?? STRINGS.en;
  const sheet = `${head(s, options.title, questions, true)}
<main class="questions${options.columns === 2 ? ' columns-2' : ''}">
${questions.map(q => questionHtml(q, s)).join('\n')}
</main>`;
  const keyTitle = `${options.title} — ${s.key}`;
  const key = `${head(s, keyTitle, questions, false)}
<main class="key questions columns-2">
${questions.map(q => keyItemHtml(q, s)).join('\n')}
</main>`;
  return { worksheet: page(lang, options.title, sheet), key: page(lang, keyTitle, key), lang };
}
