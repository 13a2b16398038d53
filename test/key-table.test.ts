// The official CSAT key table: (문항 번호, 정답, 배점) triples under header cells, a 공통 과목 block and
// a 선택 과목 block whose column groups sit under 확률과 통계 / 미적분 / 기하, 홀수형 on page 1 and
// 짝수형 on page 2, drawn as outlines with no text. The key is built here from the 2024-11 truth
// (HTML printed by Chromium, turned into glyph outlines by pdftocairo -svg, printed again), and
// joined to a 20-page booklet assembled from the three 202411 booklets: common 1–22, then each
// elective 23–30.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaperDocument } from '../pipeline/document.ts';
import { closeOcr } from '../pipeline/providers/ocr.ts';
import { joinAnswers, readKey, type Answer } from '../pipeline/stages/answers.ts';
import { keyFileFor } from '../pipeline/keys/companions.ts';
import { analyse, parseCsv } from './analyse.ts';
import { haveShared, KCSAT, TRUTH } from './helpers.ts';
import { haveChromium, launch } from './review-browser.ts';

type Row = Record<string, string>;
const CIRCLED = '①②③④⑤';
/** The 짝수형 page's options are another order: its circled answers are shifted, so reading the wrong page fails. */
const EVEN_SHIFT = 2;
const shown = (r: Row, shift: number) => (r.type === 'mcq' ? CIRCLED[(Number(r.answer) - 1 + shift) % 5] : r.answer);

function keyPageHtml(form: string, common: Row[], electives: [string, Row[]][], shift: number): string {
  const triple = (r?: Row) => (r ? `<td>${r.number}</td><td>${shown(r, shift)}</td><td>${r.points}</td>` : '<td></td><td></td><td></td>');
  const header = (n: number) => '<th>문항<br>번호</th><th>정답</th><th>배점</th>'.repeat(n);
  const perColumn = 6, groups = Math.ceil(common.length / perColumn);
  let html = `<section><h1>2025학년도 대학수학능력시험 정답표</h1><h2>수학 영역 (${form})</h2>`;
  html += `<table><tr><th colspan="${groups * 3}">공통과목</th></tr><tr>${header(groups)}</tr>`;
  for (let i = 0; i < perColumn; i++) html += `<tr>${Array.from({ length: groups }, (_, g) => triple(common[g * perColumn + i])).join('')}</tr>`;
  html += `</table><table><tr><th colspan="${electives.length * 3}">선택과목</th></tr>`;
  html += `<tr>${electives.map(([name]) => `<th colspan="3">${name}</th>`).join('')}</tr><tr>${header(electives.length)}</tr>`;
  const rows = Math.max(...electives.map(([, r]) => r.length));
  for (let i = 0; i < rows; i++) html += `<tr>${electives.map(([, r]) => triple(r[i])).join('')}</tr>`;
  return `${html}</table></section>`;
}

/** The same key with its header cells down the left edge and the items along the rows. */
function rowKeyPageHtml(form: string, common: Row[], electives: [string, Row[]][], shift: number): string {
  const rowsOf = (label: string, items: (Row | undefined)[], value: (r: Row) => string) => `<tr><th>${label}</th>${items.map(r => `<td>${r ? value(r) : ''}</td>`).join('')}</tr>`;
  const block = (items: (Row | undefined)[]) => rowsOf('문항<br>번호', items, r => r.number) + rowsOf('정답', items, r => shown(r, shift)) + rowsOf('배점', items, r => r.points);
  const half = Math.ceil(common.length / 2);
  const first = common.slice(0, half), second: (Row | undefined)[] = common.slice(half);
  while (second.length < half) second.push(undefined);
  let html = `<section><h1>2025학년도 대학수학능력시험 정답표</h1><h2>수학 영역 (${form})</h2>`;
  html += `<table class="rows"><tr><th colspan="${half + 1}">공통과목</th></tr>${block(first)}${block(second)}</table>`;
  const width = Math.max(...electives.map(([, r]) => r.length));
  html += `<table class="rows"><tr><th colspan="${electives.length * width + 1}">선택과목</th></tr><tr><th></th>${electives.map(([name]) => `<th colspan="${width}">${name}</th>`).join('')}</tr>`;
  return `${html}${block(electives.flatMap(([, r]) => r))}</table></section>`;
}

/**
 * One table for every form and elective, as newspapers and academies reprint the key: the common
 * items with an answer column per form under 정답, and the elective items with a column per form
 * and elective (홀수형 over 확률과 통계 / 미적분 / 기하, 정답 under each); header cells span rows and columns.
 */
function combinedKeyPageHtml(common: Row[], electives: [string, Row[]][]): string {
  const forms: [string, number][] = [['홀수형', 0], ['짝수형', EVEN_SHIFT]];
  const half = Math.ceil(common.length / 2);
  let html = '<section><h1>2025학년도 대학수학능력시험 수학 영역 정답표</h1>';
  html += `<table><tr><th colspan="8">공통과목</th></tr><tr>${'<th rowspan="2">문항<br>번호</th><th colspan="2">정답</th><th rowspan="2">배점</th>'.repeat(2)}</tr>`;
  html += `<tr>${forms.map(([f]) => `<th>${f}</th>`).join('').repeat(2)}</tr>`;
  const cells = (r?: Row) => (r ? `<td>${r.number}</td>${forms.map(([, shift]) => `<td>${shown(r, shift)}</td>`).join('')}<td>${r.points}</td>` : '<td></td><td></td><td></td><td></td>');
  for (let i = 0; i < half; i++) html += `<tr>${cells(common[i])}${cells(common[half + i])}</tr>`;
  html += `</table><table><tr><th rowspan="3">문항<br>번호</th>${forms.map(([f]) => `<th colspan="${electives.length}">${f}</th>`).join('')}<th rowspan="3">배점</th></tr>`;
  html += `<tr>${forms.map(() => electives.map(([name]) => `<th>${name}</th>`).join('')).join('')}</tr><tr>${'<th>정답</th>'.repeat(forms.length * electives.length)}</tr>`;
  electives[0][1].forEach((first, i) => {
    html += `<tr><td>${first.number}</td>${forms.map(([, shift]) => electives.map(([, r]) => `<td>${shown(r[i], shift)}</td>`).join('')).join('')}<td>${first.points}</td></tr>`;
  });
  return `${html}</table></section>`;
}

/** HTML → PDF (Chromium) → SVG with every glyph a path (pdftocairo) → PDF again: a key with no text layer. */
async function outlineKeyPdf(dir: string, html: string, out: string): Promise<void> {
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const style = `body{font-family:'Noto Sans CJK KR',sans-serif} section{page-break-after:always} table{border-collapse:collapse;margin:18px 0}
      td,th{border:1.2px solid #000;padding:3px 10px;text-align:center;font-size:13px} h1{font-size:20px;text-align:center} h2{font-size:16px}
      table.rows td, table.rows th{padding:3px 4px;font-size:11px}`;
    await page.setContent(`<!doctype html><meta charset="utf-8"><style>${style}</style>${html}`);
    const textPdf = path.join(dir, 'key-text.pdf');
    await page.pdf({ path: textPdf, format: 'A4', printBackground: true });
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [textPdf]).toString())![1]);
    const svgs: string[] = [];
    for (let n = 1; n <= pages; n++) {
      const svg = path.join(dir, `key-${n}.svg`);
      execFileSync('pdftocairo', ['-svg', '-f', String(n), '-l', String(n), textPdf, svg]);
      // Inline SVGs share one id space: each page's glyph and clip ids take the page as a prefix.
      svgs.push(fs.readFileSync(svg, 'utf8').replace(/^<\?xml[^>]*>/, '').replace(/id="/g, `id="p${n}-`).replace(/href="#/g, `href="#p${n}-`).replace(/url\(#/g, `url(#p${n}-`));
    }
    await page.setContent(`<!doctype html><style>@page{size:A4;margin:0} body{margin:0} div{page-break-after:always;width:210mm;height:297mm;overflow:hidden} svg{width:210mm;height:297mm}</style>${svgs.map(s => `<div>${s}</div>`).join('')}`);
    await page.pdf({ path: out, width: '210mm', height: '297mm', printBackground: true });
  } finally {
    await browser.close();
  }
}

const digitOf = (answer: string | null) => answer?.replace(/[①②③④⑤]/, c => String(CIRCLED.indexOf(c) + 1)) ?? null;

describe.skipIf(!haveShared() || !haveChromium())('a CSAT key table of triples, drawn as outlines', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'key-table-'));
  const paper = path.join(dir, '202411-h3-math.pdf');
  const truth: Row[] = [];
  let doc: PaperDocument;
  let answers: Answer[];
  afterAll(() => closeOcr());

  beforeAll(async () => {
    const rows = (stem: string) => parseCsv(fs.readFileSync(path.join(TRUTH, `${stem}.csv`), 'utf8'));
    const pro = rows('202411-h3-math-pro'), dif = rows('202411-h3-math-dif'), geo = rows('202411-h3-math-geo');
    const common = pro.filter(r => r.section === 'common');
    const electives: [string, Row[]][] = [['확률과 통계', pro], ['미적분', dif], ['기하', geo]].map(([name, r]) => [name as string, (r as Row[]).filter(x => x.section !== 'common')]);
    truth.push(...common, ...electives.flatMap(([, r]) => r));
    const booklet = (stem: string) => path.join(KCSAT, `${stem}.pdf`);
    execFileSync('qpdf', ['--empty', '--pages', booklet('202411-h3-math-pro'), '1-12', booklet('202411-h3-math-dif'), '9-12', booklet('202411-h3-math-geo'), '9-12', '--', paper]);
    await outlineKeyPdf(dir, keyPageHtml('홀수형', common, electives, 0) + keyPageHtml('짝수형', common, electives, EVEN_SHIFT), path.join(dir, '202411-h3-math-answer.pdf'));
    doc = await analyse(paper);
  }, 240_000);

  it('the key has no text layer, and the booklet is common 1–22 then three electives 23–30 by their running heads', () => {
    const key = keyFileFor(paper)!;
    expect(path.basename(key)).toBe('202411-h3-math-answer.pdf');
    expect(execFileSync('pdftotext', [key, '-']).toString().trim()).toBe('');
    expect(doc.pageCount).toBe(20);
    expect(doc.exam.form).toBe('odd');
    expect(doc.questions.map(q => `${q.section}:${q.number}`)).toEqual(truth.map(r => `${r.section}:${r.number}`));
  });

  it('joins the 홀수형 page with answer 1.0, every 배점 agreeing with the paper', async () => {
    answers = await readKey(keyFileFor(paper)!, doc);
    joinAnswers(doc, answers, 'key');
    expect(doc.questions.map(q => `${q.section}:${q.number}=${digitOf(q.answer)}`)).toEqual(truth.map(r => `${r.section}:${r.number}=${r.answer}`));
    expect(answers.map(a => `${a.section}:${a.number}@${a.points}`).sort()).toEqual(truth.map(r => `${r.section}:${r.number}@${r.points}`).sort());
    expect(doc.messages.list.filter(m => m.rule.startsWith('answers/') && m.severity !== 'info')).toEqual([]);
  }, 240_000);

  it('reports a 배점 the paper does not print', () => {
    const changed = answers.map(a => (a.section === 'calculus' && a.number === 28 ? { ...a, points: 3 } : a));
    joinAnswers(doc, changed, 'key');
    const q = doc.questions.find(x => x.section === 'calculus' && x.number === 28)!;
    expect(doc.messages.list.filter(m => m.rule === 'answers/points-differ').map(m => m.item)).toEqual([q.id]);
  });

  it('reads a key whose header cells head rows, the electives side by side under their headings', async () => {
    const dir2 = fs.mkdtempSync(path.join(os.tmpdir(), 'key-rows-'));
    const rows = (stem: string) => parseCsv(fs.readFileSync(path.join(TRUTH, `${stem}.csv`), 'utf8'));
    const common = truth.filter(r => r.section === 'common');
    const electives: [string, Row[]][] = [['확률과 통계', rows('202411-h3-math-pro')], ['미적분', rows('202411-h3-math-dif')], ['기하', rows('202411-h3-math-geo')]].map(([name, r]) => [name as string, (r as Row[]).filter(x => x.section !== 'common')]);
    const key = path.join(dir2, 'key.pdf');
    await outlineKeyPdf(dir2, rowKeyPageHtml('홀수형', common, electives, 0), key);
    for (const q of doc.questions) q.answer = null;
    doc.messages.list.length = 0;
    const read = await readKey(key, doc);
    joinAnswers(doc, read, 'key');
    expect(doc.questions.map(q => `${q.section}:${q.number}=${digitOf(q.answer)}`)).toEqual(truth.map(r => `${r.section}:${r.number}=${r.answer}`));
    expect(read.map(a => `${a.section}:${a.number}@${a.points}`).sort()).toEqual(truth.map(r => `${r.section}:${r.number}@${r.points}`).sort());
  }, 240_000);

  it('reads one table for all forms and electives: the columns of the booklet\'s form, each elective\'s under its heading', async () => {
    const dir3 = fs.mkdtempSync(path.join(os.tmpdir(), 'key-combined-'));
    const common = truth.filter(r => r.section === 'common');
    const electives: [string, Row[]][] = [['확률과 통계', 'prob-stat'], ['미적분', 'calculus'], ['기하', 'geometry']].map(([name, id]) => [name, truth.filter(r => r.section === id)]);
    const key = path.join(dir3, 'key.pdf');
    await outlineKeyPdf(dir3, combinedKeyPageHtml(common, electives), key);
    for (const [form, shift] of [['odd', 0], ['even', EVEN_SHIFT]] as const) {
      doc.exam.form = form;
      for (const q of doc.questions) q.answer = null;
      doc.messages.list.length = 0;
      const read = await readKey(key, doc);
      joinAnswers(doc, read, 'key');
      expect(doc.questions.map(q => `${q.section}:${q.number}=${digitOf(q.answer)}`), form).toEqual(truth.map(r => `${r.section}:${r.number}=${digitOf(shown(r, shift))}`));
      expect(read.map(a => `${a.section}:${a.number}@${a.points}`).sort()).toEqual(truth.map(r => `${r.section}:${r.number}@${r.points}`).sort());
      expect(doc.messages.list.filter(m => m.rule.startsWith('answers/') && m.severity !== 'info')).toEqual([]);
    }
    doc.exam.form = 'odd';
  }, 400_000);

  it('reads the 짝수형 page for a booklet of that form', async () => {
    doc.exam.form = 'even';
    for (const q of doc.questions) q.answer = null;
    joinAnswers(doc, await readKey(keyFileFor(paper)!, doc), 'key');
    expect(doc.questions.map(q => `${q.section}:${q.number}=${digitOf(q.answer)}`))
      .toEqual(truth.map(r => `${r.section}:${r.number}=${digitOf(shown(r, EVEN_SHIFT))}`));
  }, 240_000);
});
