// The generic template on an educator's own paper (made here from HTML by headless Chromium):
// picked when no family claims the cover; numbered instructions before the questions and a
// numbered list inside a question are not questions; options A–D and marks in brackets are read.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../pipeline/config.ts';
import { runBatch } from '../pipeline/run.ts';

const QUIZ = `<!doctype html><meta charset="utf-8"><style>
body { font: 12pt serif; margin: 2cm; } p { margin: 0.4em 0; } .o { margin-left: 2em; } ol { margin-left: 0; padding-left: 0; list-style: none; }
</style>
<h2>Year 9 Science — End of Unit Quiz</h2>
<p>Read these notes before you start.</p>
<p>1. Write your name at the top of the page.</p>
<p>2. Calculators may be used.</p>
<p>3. Answer every question.</p>
<p>&nbsp;</p>
<p>1. Which gas do plants take in for photosynthesis? [1 mark]</p>
<p class="o">A) Oxygen</p><p class="o">B) Carbon dioxide</p><p class="o">C) Nitrogen</p><p class="o">D) Helium</p>
<p>2. A student heats water and records its temperature. The method was:</p>
<p>1. Fill a beaker with 200 ml of water.</p>
<p>2. Heat it for five minutes.</p>
<p>Which variable did the student control? [2 marks]</p>
<p class="o">A) Time</p><p class="o">B) Temperature</p><p class="o">C) Volume of water</p><p class="o">D) Colour</p>
<p>3. Explain why ice floats on water. [3 marks]</p>
<p>4. What is the chemical symbol for sodium? [1 mark]</p>
<p class="o">A) S</p><p class="o">B) So</p><p class="o">C) Na</p><p class="o">D) Sd</p>`;

// Marks stated once for many questions: a range's in the instructions set across the top, over
// the column rule (where text-layer sets them apart with the page's head); a section heading's for
// each question under it, its bracket wrapped onto a second line; a table's bold header row inside
// a question, set smaller than that heading, which does not end the section's marks.
const STATED = `<!doctype html><meta charset="utf-8"><style>
body { font: 11pt serif; margin: 1.5cm; } p { margin: 0.35em 0; }
.cols { height: 190mm; column-fill: balance; column-count: 2; column-gap: 1cm; column-rule: 0.7pt solid #000; }
.instr { border: 0.6pt solid #666; padding: 2mm; margin-bottom: 4mm; font-size: 10pt; }
table { font-size: 9.5pt; margin-left: 2em; } th { font-weight: bold; text-align: left; }
h3 { font-size: 11pt; margin: 0.6em 0 0.3em; }
</style>
<h2>Year 10 Mathematics — Unit Test</h2>
<div class="instr"><p>Answer all questions.</p><p>Question numbers 1 to 3 carry 3 marks each.</p></div>
<div class="cols">
<p>1. Solve 2x + 3 = 11.</p>
<p>2. Expand (x + 2)(x − 5).</p>
<p>3. Find the gradient of the line through (1, 2) and (3, 8).</p>
<h3>Section B (2 marks<br>each)</h3>
<p>4. The table shows how many books a class read each day.</p>
<table><tr><th>Day</th><th>Books read</th></tr><tr><td>Monday</td><td>7</td></tr><tr><td>Tuesday</td><td>12</td></tr><tr><td>Wednesday</td><td>5</td></tr></table>
<p>How many books did the class read in all?</p>
<p>5. What is 25% of 240?</p>
<p>6. Simplify 3a + 4b − a + 2b.</p>
<p>7. Write 0.375 as a fraction in its lowest terms.</p>
<p>8. A rectangle is 9 cm long and 4 cm wide. Find its area.</p>
</div>`;

// Leads a paper sets alone on their line in a script formulas are not written in (`1번`), over a
// line that opens with a power (`3⁴의 값은?`): one question each, not a fraction and its line.
const WORD_LINE = `<!doctype html><meta charset="utf-8"><style>
body { font: 11pt 'Noto Serif CJK KR', serif; margin: 2cm; } p { margin: 0.3em 0; } .o { margin-left: 2em; }
</style>
<h2>수학 단원평가</h2>
${[[1, 3, 4], [2, 2, 2], [3, 4, 3], [4, 5, 2]].map(([n, a, b]) => `<p><b>${n}번</b></p><p>${a}<sup>${b}</sup>의 값은? [${n}점]</p>
<p class="o">1. ${a ** b}</p><p class="o">2. ${a ** b + 1}</p><p class="o">3. ${a ** b + 2}</p><p class="o">4. ${a ** b + 3}</p>`).join('\n')}`;

// A question numbered 第N题 at the top of a page, in its margin, is a question, not a page number
// (第N页 is one).
const TOP_OF_PAGE = `<!doctype html><meta charset="utf-8"><style>
@page { margin: 1cm; } body { font: 11pt 'Noto Serif CJK SC', serif; margin: 0; } p { margin: 0.3em 0; } .o { margin-left: 2em; } .next { break-before: page; }
</style>
<h2>九年级数学模拟考试</h2>
${[1, 2, 3, 4].map(n => `<p${n === 3 ? ' class="next"' : ''}><b>第${n}题</b> 计算 ${n} + ${n + 4} × 3 的结果是 （${n}分）</p>
<p class="o">A. ${n + 12} B. ${n + 13} C. ${n + 14} D. ${n + 15}</p>`).join('\n')}`;

// An Arabic paper (dir="rtl") whose questions open with a Latin label and carry a formula: lines with
// more Latin letters than Arabic ones still read right to left, and `Question 10` starts at the
// line's right end like `Question 9`.
const RTL = `<!doctype html><html dir="rtl" lang="ar"><meta charset="utf-8"><style>
body { font: 11pt 'Noto Naskh Arabic', serif; margin: 2cm; } p { margin: 0.3em 0; } .p { margin-right: 2em; }
</style>
<h2>اختبار الرياضيات — الفصل الأول</h2>
${Array.from({ length: 11 }, (_, k) => k + 1).map(n => `<p>Question ${n} لتكن f(x) = ${n}x + 5.</p>
<p class="p">احسب f(2). [${(n % 4) + 1} درجات]</p>`).join('\n')}`;

// A school's own test whose title names only the subject area (수학 영역), as the KICE booklets'
// covers do: the kcsat-math template matches the cover, but none of its questions prints ①–⑤.
const SCHOOL_KO = `<!doctype html><html lang="ko"><meta charset="utf-8"><style>
body { font: 11pt sans-serif; margin: 2cm; } p { margin: 0.35em 0; } .p { margin-left: 2em; }
</style>
<h2>2학년 기말고사 수학 영역</h2>
<p>1. 함수 f(x) = 3x + 7에 대하여 다음 물음에 답하시오.</p>
<p class="p">1.1. f(2)의 값을 구하시오. [1점]</p><p class="p">1.2. f가 증가함수인 이유를 설명하시오. [3점]</p>
<p>2. 주머니에 빨간 공 4개와 파란 공 6개가 들어 있다.</p>
<p class="p">2.1. 빨간 공을 꺼낼 확률을 구하시오. [2점]</p><p class="p">2.2. 표본공간을 나타내시오. [2점]</p>
<p>3. 함수 f(x) = 2x + 5에 대하여 다음 물음에 답하시오.</p>
<p class="p">3.1. f(2)의 값을 구하시오. [2점]</p><p class="p">3.2. f가 증가함수인 이유를 설명하시오. [4점]</p></html>`;

// Questions with neither options nor parts and no key: a one-line prompt that holds a quantity asks
// for a short answer; one in words alone, or one that runs over lines asking for more, a worked one.
const PROMPTS = `<!doctype html><meta charset="utf-8"><style>
body { font: 12pt serif; margin: 2cm; width: 12cm; } p { margin: 0.5em 0; }
</style>
<h2>Year 8 Mathematics — Homework Check</h2>
<p>1. What is 25% of 240? [1 mark]</p>
<p>2. Explain why every square is a rectangle. [2 marks]</p>
<p>3. Let g(x) = x⁵ − 10x. Find where g is increasing and where it is decreasing, and find any local maxima or minima. [6 marks]</p>
<p>4. Solve 2x + 3 = 11. [1 mark]</p>`;

// A group heading set over the next question (`Part B`), which is no line of the question above
// it, and a figure's bold labels inside a question (`NOT TO` / `SCALE`), which are.
const GROUPS = `<!doctype html><meta charset="utf-8"><style>
body { font: 12pt serif; margin: 2cm; width: 14cm; } p { margin: 0.5em 0; }
</style>
<h2>Year 9 Mathematics — Review</h2>
<p>1. What is 25% of 240? [1 mark]</p>
<p>2. Simplify 3a + 4b − a + 2b. [1 mark]</p>
<p><b>Part B</b></p>
<p>3. A tower BT has height h metres. [2 marks]</p>
<p><b>NOT TO</b></p><p><b>SCALE</b></p>
<p>Find the length of AB in terms of h.</p>
<p>4. Solve 2x + 3 = 11. [1 mark]</p>`;

// Tasks whose lead and marks stand on their own line (`Задача 3 (0–4)`), in three columns under a
// title centred over the middle one: a subject heading at the top of the middle column names the
// run that starts over there, not the title above it; a one-line prompt under such a lead is short.
const TASKS = `<!doctype html><html lang="ru"><meta charset="utf-8"><style>
body { font: 9.5pt serif; margin: 1.2cm; } p { margin: 0.3em 0; } .o, .p { margin-left: 1.4em; } h1 { font-size: 14pt; text-align: center; margin: 0 0 0.2em; }
.school { text-align: center; font-size: 8pt; margin: 0; } .cols { column-count: 3; column-gap: 0.8cm; } h3 { font-size: 9.5pt; margin: 0.6em 0 0.3em; }
</style>
<p class="school">Гимназия № 5</p><h1>Итоговый тест по алгебре</h1>
<p style="display: flex; justify-content: space-between; border-bottom: 0.6pt solid #000"><span>Фамилия, имя: ________________</span><span>Время: 40 минут</span></p>
<div style="border: 0.6pt solid #666; padding: 1mm 3mm; margin: 2mm 0 4mm"><p>1. Работа состоит из 9 заданий.</p><p>2. Выполните все задания.</p></div>
<div class="cols">
<h3>Математика</h3>
${[1, 2, 3, 4, 5, 6].map(n => (n % 3 === 1 ? `<p><b>Задача ${n} (0–2)</b></p><p>Найдите значение выражения ${n * 7} + 6 · 3.</p><p class="o">a) ${n + 40} b) ${n + 41} c) ${n + 42} d) ${n + 43}</p>`
    : n % 3 === 2 ? `<p><b>Задача ${n} (0–4)</b></p><p>Решите уравнение ${n}x + 1 = ${n * 4 + 1}.</p>`
    : `<p><b>Задача ${n}</b></p><p>Дана функция f(x) = ${n}x + 6.</p><p class="p">${n}.1. (0–1) Найдите f(2).</p><p class="p">${n}.2. (0–3) Решите уравнение f(x) = ${n * 3 + 6}.</p>`)).join('\n')}
<h3 style="break-before: column">Физика</h3>
${[1, 2, 3].map(n => `<p><b>Задача ${n} (0–2)</b></p><p>Найдите значение выражения ${n * 9} + 2 · 5.</p><p class="o">a) ${n + 20} b) ${n + 21} c) ${n + 22} d) ${n + 23}</p>`).join('\n')}
</div></html>`;

/** A Korean school test set in NanumGothic, whose subset Chromium embeds with its space glyph mapped to U+0001. */
const NANUM = `<!doctype html><html lang="ko"><meta charset="utf-8"><style>body { font: 10.5pt NanumGothic; margin: 1.5cm; } p { margin: 0.4em 0; } .o { margin-left: 1.4em; }</style>
<h1 style="font-size: 14pt; text-align: center">2학년 기말고사</h1>
<p>1. 방정식 9x + 13 = 58의 해는? [4점]</p><p class="o">(a) 5 (b) 6 (c) 7 (d) 8</p>
<p>2. 360의 10%는? [1점]</p><p class="o">(a) 36 (b) 30 (c) 40 (d) 26</p>
<p>3. 가로가 3cm, 세로가 3cm인 정사각형의 넓이는? [2점]</p><p class="o">(a) 9 (b) 8 (c) 6 (d) 12</p></html>`;

// A school test whose title names the subject as KICE's booklets do (수학 영역), so that the KICE
// template claims it, numbered `Problem 6.` on (a selection that keeps its numbers), its marks stated
// for a range in its instructions and per part as ranges in NanumGothic, whose dash the text layer
// gives as a space (`(0 4)`; its space glyph is U+0001, so the title is set in another font, as the
// fuzzer's papers set it, for the KICE template to match `수학 영역`).
const KO_SCHOOL = `<!doctype html><html lang="ko"><meta charset="utf-8"><style>body { font: 10.5pt NanumGothic; margin: 1.5cm; } p { margin: 0.4em 0; } .o { margin-left: 1.4em; }</style>
<h1 style="font: 14pt 'Noto Serif CJK KR'; text-align: center">2학년 기말고사 수학 영역</h1>
<p>유의 사항</p><p>6번부터 8번까지는 각 5점입니다.</p>
<p>Problem 6. 360의 10%는?</p><p class="o">① 36 ② 30 ③ 40 ④ 26 ⑤ 18</p>
<p>Problem 7. 가로가 3cm, 세로가 4cm인 직사각형의 넓이는?</p><p class="o">① 12 ② 7 ③ 14 ④ 10 ⑤ 9</p>
<p>Problem 8. 방정식 2x + 3 = 11의 해는?</p><p class="o">① 4 ② 3 ③ 5 ④ 6 ⑤ 7</p>
<p>Problem 9. 함수 f(x) = 2x + 7에 대하여 다음 물음에 답하시오.</p>
<p class="o">(i) (0–4) f(2)의 값을 구하시오.</p><p class="o">(ii) (0–2) f(x) = 17을 만족시키는 x의 값을 구하시오.</p></html>`;

// Marks stated in the instructions for runs of questions from their own numbers (`問1から問3は各4点。`):
// statements, not questions 1 and 4, though they open with the questions' lead.
const JA_STATED = `<!doctype html><html lang="ja"><meta charset="utf-8"><style>body { font: 10.5pt IPAMincho, serif; margin: 1.5cm; } p { margin: 0.4em 0; } .o { margin-left: 1.4em; } .i { margin-left: 2em; }</style>
<h1 style="font-size: 14pt; text-align: center">数学Ⅰ 定期考査</h1>
<p><b>注意事項</b></p><p class="i">電卓は使用できません。</p><p class="i">問1から問3は各4点。</p><p class="i">問4から問4は各2点。</p>
<p style="page-break-before: always">問1 180 の 20% はいくつか。</p><p class="o">A. 33 B. 40 C. 36 D. 41</p>
<p>問2 縦 16 cm、横 10 cm の長方形の面積は何 cm² か。</p><p class="o">A. 160 B. 26 C. 52 D. 150</p>
<p>問3 180 の 10% はいくつか。</p><p class="o">A. 18 B. 20 C. 16 D. 9</p>
<p>問4 4³ の値を求めよ。</p><p class="o">A. 64 B. 12 C. 81 D. 16</p></html>`;

// Options printed as pictures, each labelled `(ก)` … `(ง)` beside it, a numbered instruction list
// before the questions (its last items state marks for ranges) and a last question with parts: read
// first, no question carries what questions carry but the last (its parts).
const PIC = (k: number) => `<div class="pic"><span>(${'กขคง'[k]})</span><svg width="64" height="64" viewBox="0 0 80 80"><line x1="0" y1="40" x2="80" y2="40" stroke="#555"/><line x1="40" y1="0" x2="40" y2="80" stroke="#555"/><path d="M5 ${10 + k * 5} Q 40 ${90 - k * 10} 75 ${10 + k * 5}" fill="none" stroke="black" stroke-width="1.6"/></svg></div>`;
const PICS = `<div class="pics">${[0, 1, 2, 3].map(PIC).join('')}</div>`;
const TH_LABELS = `<!doctype html><html lang="th"><meta charset="utf-8"><style>body { font: 10.5pt 'Noto Sans Thai', sans-serif; margin: 1.5cm; } p { margin: 0.4em 0; } .o { margin-left: 1.4em; }
.pics { display: flex; flex-wrap: wrap; gap: 3mm; padding-left: 5mm } .pic { display: flex; align-items: flex-start; gap: 1mm }</style>
<h1 style="font-size: 14pt; text-align: center">แบบฝึกหัดคณิตศาสตร์ ม.4</h1>
<p><b>คำชี้แจง</b></p><p>1. เลือกคำตอบที่ถูกต้องที่สุดเพียงคำตอบเดียว</p><p>2. เขียนคำตอบลงในกระดาษคำตอบ</p><p>3. ข้อ 1 ถึงข้อ 3 ข้อละ 5 คะแนน</p><p>4. ข้อ 4 ถึงข้อ 4 ข้อละ 3 คะแนน</p>
<p style="page-break-before: always">1. จงแก้สมการ 8x + 2 = 90</p>${PICS}
<p>2. จงหาค่าของ 4²</p>${PICS}
<p>3. จงหาค่าของ log₂ 8</p>${PICS}
<p>4. ถุงใบหนึ่งมีลูกบอลสีแดง 6 ลูกและสีน้ำเงิน 8 ลูก</p><p class="o">(i) จงหาความน่าจะเป็นที่จะหยิบได้ลูกบอลสีแดง</p><p class="o">(ii) หยิบลูกบอลสองลูกโดยไม่ใส่คืน จงเขียนปริภูมิตัวอย่าง</p><p class="o">(iii) จงหาความน่าจะเป็นที่ลูกบอลทั้งสองเป็นสีน้ำเงิน</p></html>`;

// Subjects whose headings run on into the marks stated for their questions from the first's own
// number (`物理 第1〜3题每小题5分。`): the subject is what stands before the statement (not the
// statement, twice alike), and physics' third question, drawn from mathematics' with another table,
// is physics' own, not the paper printed again.
const ZH_TABLE = (rows: number[]) => `<p>3: 下表给出了一个班每天读书的数量。一共读了多少本书？</p><table style="margin-left: 2em">${['周一', '周二', '周三'].map((d, k) => `<tr><td>${d}</td><td>${rows[k]}</td></tr>`).join('')}</table><p class="o">① ${rows[0] + rows[1] + rows[2]} ② 30 ③ 12 ④ 41</p>`;
const ZH_SUBJECTS = `<!doctype html><html lang="zh"><meta charset="utf-8"><style>body { font: 10.5pt 'Noto Serif CJK SC', serif; margin: 1.5cm; } p { margin: 0.4em 0; } .o { margin-left: 1.4em; }</style>
<h1 style="font-size: 14pt; text-align: center">高一数学单元检测</h1>
<p><b>第1部分 ― 数学 第1〜3题每小题3分。</b></p>
<p><b>1:</b> 一个长方形的长为 16 cm，宽为 5 cm，它的面积是多少？</p><p class="o">① 70 ② 84 ③ 80 ④ 160</p>
<p><b>2:</b> 方程 2x + 1 = 17 的解是</p><p class="o">① 8 ② 9 ③ 7 ④ 6</p>${ZH_TABLE([8, 12, 4])}
<p style="page-break-before: always"><b>物理 第1〜3题每小题5分。</b></p>
<p><b>1:</b> log₂128 的值为</p><p class="o">① 4 ② 5 ③ 6 ④ 7</p>
<p><b>2:</b> 4² 的值是</p><p class="o">① 13 ② 14 ③ 15 ④ 16</p>${ZH_TABLE([7, 9, 6])}
<p><b>化学 第1〜3题每小题4分。</b></p>
<p><b>1:</b> log₂256 的值为</p><p class="o">① 8 ② 5 ③ 6 ④ 7</p>
<p><b>2:</b> 3² 的值是</p><p class="o">① 9 ② 6 ③ 8 ④ 7</p>
<p><b>3:</b> 等差数列 {aₙ} 中，a₁ = 2，公差为 2，则 a₅ 等于</p><p class="o">① 10 ② 12 ③ 8 ④ 9</p></html>`;

// A paper with one-line short answers: a question with neither parts nor options whose prompt,
// holding a quantity, wraps over two lines and is marked no higher than those asks for a short
// answer as they do; one marked higher (as PROMPTS' question 3) asks for working.
const WRAPPED_SHORT = `<!doctype html><meta charset="utf-8"><style>
body { font: 12pt serif; margin: 2cm; width: 11cm; } p { margin: 0.5em 0; } .p { margin-left: 2em; }
</style>
<h2>Year 10 Mathematics — Unit Test</h2>
<p>1. What is 25% of 240? [2 marks]</p>
<p>2. In an arithmetic sequence the first term is 9 and the common difference is 3. Find the fifth term. [2 marks]</p>
<p>3. Let f(x) = 3x + 2.</p><p class="p">(a) Find f(2). [1 mark]</p><p class="p">(b) Explain why f is increasing. [2 marks]</p>
<p>4. Solve 2x + 3 = 11. [1 mark]</p>`;

/** The paper printed from `html` by headless Chromium, read by the pipeline: the run and its records by number. */
async function readHtml(name: string, html: string) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'generic-'));
  const file = path.join(tmp, `${name}.html`);
  fs.writeFileSync(file, html);
  const inDir = path.join(tmp, 'in');
  fs.mkdirSync(inDir);
  execFileSync('chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
    `--user-data-dir=${path.join(tmp, 'profile')}`, '--no-pdf-header-footer', `--print-to-pdf=${path.join(inDir, `${name}.pdf`)}`, `file://${file}`], { stdio: 'ignore' });
  const out = path.join(tmp, 'out');
  const result = await runBatch(resolveConfig({ year: '2026', inDir, outDir: out, progress: false }, {}));
  const recs = fs.readFileSync(path.join(out, '2026', 'items.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l)).sort((a, b) => a.number - b.number);
  return { result, recs };
}

describe('generic template', () => {
  it('reads an educator\'s quiz: instructions and inner lists are not questions', async () => {
    const { result, recs } = await readHtml('quiz', QUIZ);
    expect(result.papers[0].status).toBe('done');
    expect(recs[0].exam.template).toBe('generic');
    expect(recs.map(r => [r.number, r.type, r.options.length, r.points])).toEqual([[1, 'mcq', 4, 1], [2, 'mcq', 4, 2], [3, 'free', 0, 3], [4, 'mcq', 4, 1]]);
    expect(recs[1].stem).toMatch(/Fill a beaker[\s\S]*Heat it[\s\S]*control\?$/);
    expect(recs[3].options.map((o: { text: string }) => o.text)).toEqual(['S', 'So', 'Na', 'Sd']);
    expect(result.papers[0].messages.map(m => m.rule)).toContain('segment/numbered-instructions');
  }, 60_000);

  it('reads a paper a family template claims by its cover, but whose questions print none of its options, by the paper\'s own conventions', async () => {
    const { result, recs } = await readHtml('school-ko', SCHOOL_KO);
    expect(result.papers[0].messages.map(m => m.rule)).toContain('segment/template-unfit');
    expect(recs[0].exam.template).toBe('generic');
    expect(recs.map(r => [r.number, r.type])).toEqual([[1, 'free'], [2, 'free'], [3, 'free']]);
  }, 60_000);

  it('reads a one-line prompt with a quantity as a short answer, a prompt in words or at length as a worked one', async () => {
    const { recs } = await readHtml('prompts', PROMPTS);
    expect(recs.map(r => [r.number, r.type, r.points])).toEqual([[1, 'short', 1], [2, 'free', 2], [3, 'free', 6], [4, 'short', 1]]);
  }, 60_000);

  it('keeps a group heading set over the next question out of the question above it, and a figure\'s bold labels in theirs', async () => {
    const { recs } = await readHtml('groups', GROUPS);
    expect(recs.map(r => r.number)).toEqual([1, 2, 3, 4]);
    expect(recs[1].stem).toBe('Simplify 3a + 4b − a + 2b.');
    expect(recs[2].stem).toMatch(/NOT TO[\s\S]*SCALE[\s\S]*Find the length of AB in terms of h\.$/);
  }, 60_000);

  it('reads a one-line prompt under a lead line of its own (`Задача 3 (0–4)`) as short, and names the runs of a three-column page by their subject headings', async () => {
    const { recs } = await readHtml('tasks', TASKS);
    const ordered = [...recs].sort((a, b) => (a.section === b.section ? a.number - b.number : a.section === 'Математика' ? -1 : 1));
    expect(ordered.map(r => [r.section, r.number, r.type])).toEqual([
      ['Математика', 1, 'mcq'], ['Математика', 2, 'short'], ['Математика', 3, 'free'], ['Математика', 4, 'mcq'], ['Математика', 5, 'short'], ['Математика', 6, 'free'],
      ['Физика', 1, 'mcq'], ['Физика', 2, 'mcq'], ['Физика', 3, 'mcq'],
    ]);
  }, 60_000);

  it('gives questions the marks stated for a range above the columns and for each question under a heading', async () => {
    const { recs } = await readHtml('stated', STATED);
    expect(recs.map(r => [r.number, r.points])).toEqual([[1, 3], [2, 3], [3, 3], [4, 2], [5, 2], [6, 2], [7, 2], [8, 2]]);
  }, 60_000);

  it('reads a lead alone on its line (`1번`) over a line opening with a power as its own question', async () => {
    const { result, recs } = await readHtml('word-line', WORD_LINE);
    expect(result.papers[0].status).toBe('done');
    expect(recs.map(r => [r.number, r.points, r.options.length])).toEqual([[1, 1, 4], [2, 2, 4], [3, 3, 4], [4, 4, 4]]);
  }, 60_000);

  it('reads a paper whose font gives its space glyph U+0001 (NanumGothic printed by Chromium): spaces, points and options as printed', async () => {
    const { recs } = await readHtml('nanum', NANUM);
    expect(recs.map(r => [r.number, r.points, r.options.map((o: { text: string }) => o.text).join(' ')])).toEqual([[1, 4, '5 6 7 8'], [2, 1, '36 30 40 26'], [3, 2, '9 8 6 12']]);
    expect(recs[0].stem).toMatch(/^방정식 \$?9x ?\+ ?13 ?= ?58\$?의 해는\?$/u);
    expect(recs.every(r => !/[\u0000-\u001f]/u.test(r.stem))).toBe(true);
  }, 60_000);

  it('keeps a question numbered 第N题 at the top of a page', async () => {
    const { recs } = await readHtml('top-of-page', TOP_OF_PAGE);
    expect(recs.map(r => [r.number, r.page])).toEqual([[1, 1], [2, 1], [3, 2], [4, 2]]);
  }, 60_000);

  it('reads a paper a family template claims by its title, but whose numbering it does not know, as no family\'s: its marks stated for a range and per part', async () => {
    const { result, recs } = await readHtml('ko-school', KO_SCHOOL);
    expect(result.papers[0].messages.map(m => m.rule)).toContain('segment/template-fallback');
    expect(recs[0].exam.template).toBe('generic');
    expect(recs.map(r => [r.number, r.points])).toEqual([[6, 5], [7, 5], [8, 5], [9, 6]]);
  }, 60_000);

  it('reads marks stated for runs of questions from their own numbers as statements, not questions', async () => {
    const { result, recs } = await readHtml('ja-stated', JA_STATED);
    expect(result.papers[0].status).toBe('done');
    expect(recs.map(r => [r.number, r.page, r.points])).toEqual([[1, 2, 4], [2, 2, 4], [3, 2, 4], [4, 2, 2]]);
  }, 60_000);

  it('learns option labels no scheme names from a first look that takes the numbered runs as they come', async () => {
    const { result, recs } = await readHtml('th-labels', TH_LABELS);
    expect(result.papers[0].status).not.toBe('failed');
    expect(recs.map(r => [r.number, r.page, r.options.length])).toEqual([[1, 2, 4], [2, 2, 4], [3, 2, 4], [4, 2, 0]]);
  }, 60_000);

  it('names subjects by what their headings print before the marks they state from their first question\'s number, and keeps a question a subject draws from another\'s', async () => {
    const { result, recs } = await readHtml('zh-subjects', ZH_SUBJECTS);
    expect(result.papers[0].status).toBe('done');
    const bySection = recs.map(r => `${r.section}:${r.number}:${r.points}:${r.options.length}`).sort();
    expect(bySection).toEqual(['化学:1:4:4', '化学:2:4:4', '化学:3:4:4', '数学:1:3:4', '数学:2:3:4', '数学:3:3:4', '物理:1:5:4', '物理:2:5:4', '物理:3:5:4']);
  }, 60_000);

  it('reads a question with neither parts nor options, its prompt wrapped over two lines, as a short answer where the paper\'s one-line short answers are marked as high', async () => {
    const { recs } = await readHtml('wrapped-short', WRAPPED_SHORT);
    expect(recs.map(r => [r.number, r.type, r.parts.length])).toEqual([[1, 'short', 0], [2, 'short', 0], [3, 'free', 2], [4, 'short', 0]]);
  }, 60_000);

  it('reads an Arabic paper whose question lines hold more Latin than Arabic (`Question 10 لتكن f(x) = …`)', async () => {
    const { result, recs } = await readHtml('rtl', RTL);
    expect(result.papers[0].status).toBe('done');
    expect(recs.map(r => r.number)).toEqual(Array.from({ length: 11 }, (_, k) => k + 1));
    expect(recs[9].stem.normalize('NFKC')).toMatch(/^لتكن f\(x\) = 10x \+ 5\./);
  }, 60_000);
});
