// Exports for the classroom (pipeline/export/classroom), read back the way their readers read them:
// the shipped sample ingested (with a key of ours beside it), some questions verified and one rejected
// through the review store's own decide(); then Moodle XML parsed and checked field by field, every
// QTI item and the test validated by xmllint against the QTI 2.1 XSD in ../shared/reference (fails in
// CI without it, skips elsewhere), the worksheet and key PDFs' text layers (pdftotext) holding every
// number and answer, with each figure on its question's page. The same on an uploaded set, made by
// the review server's own set store and job queue; and the kinds a sample does not have (several
// answers, a value with a decimal comma, a text key, a free answer with parts, no key, a wide set of
// formulas) on records built from a sample record.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../pipeline/config.ts';
import { runClassroomExport } from '../pipeline/export/classroom/command.ts';
import { moodleXml } from '../pipeline/export/classroom/moodle.ts';
import { qtiPackage } from '../pipeline/export/classroom/qti.ts';
import { worksheetHtml } from '../pipeline/export/classroom/worksheet.ts';
import { keyedOptions, numericKey, toQuestions, type ClassroomRecord } from '../pipeline/export/classroom/question.ts';
import { decide } from '../pipeline/server/reviews.ts';
import { JobQueue } from '../pipeline/server/jobs.ts';
import { Sets } from '../pipeline/server/sets.ts';
import { resolveServerSettings } from '../pipeline/server/settings.ts';
import { openStore } from '../pipeline/open-store.ts';
import { SHARED, TEST_OUT } from './helpers.ts';
import { haveChromium } from './review-browser.ts';

const OUT = path.join(TEST_OUT, 'classroom-export');
const YEAR = '2099';
const SAMPLE = path.join(ROOT, 'fixtures', 'samples', '2026-sample-math-dif.pdf');
// Our key to the sample (positions for ①–⑤, values for the short answers).
const KEY = 'section,number,answer\ncommon,1,3\ncommon,2,3\ncommon,3,4\ncommon,4,3\ncommon,5,2\ncommon,6,4\ncommon,7,7\ncommon,8,10\ncalculus,23,2\ncalculus,24,1\n';
const VERIFY = ['common-1', 'common-2', 'common-4', 'common-6', 'common-7', 'calculus-23'];
const REJECT = ['common-3'];

const QTI_SCHEMAS = path.join(SHARED, 'reference', 'qti-2.1');
const QTI_XSD = path.join(QTI_SCHEMAS, 'www.imsglobal.org', 'xsd', 'imsqti_v2p1.xsd');

/** Whether items can be validated here: the schemas in ../shared and xmllint. In CI their absence is an error. */
function canValidate(): boolean {
  const schemas = fs.existsSync(QTI_XSD);
  const xmllint = spawnSync('xmllint', ['--version']).status === 0;
  if ((!schemas || !xmllint) && process.env.CI) throw new Error(`QTI validation needs ${QTI_XSD} and xmllint (make setup installs libxml2-utils)`);
  if (!schemas) console.warn(`skipping QTI schema validation: ${QTI_XSD} is not there`);
  else if (!xmllint) console.warn('skipping QTI schema validation: xmllint is not installed (make setup installs libxml2-utils)');
  return schemas && xmllint;
}

/** xmllint over files against the QTI 2.1 XSD, offline (the catalog maps the W3C imports to local files). */
function validateQti(files: string[]): { status: number; output: string } {
  const r = spawnSync('xmllint', ['--nonet', '--noout', '--schema', QTI_XSD, ...files], {
    encoding: 'utf8', env: { ...process.env, XML_CATALOG_FILES: path.join(QTI_SCHEMAS, 'catalog.xml') },
  });
  return { status: r.status ?? -1, output: `${r.stdout}${r.stderr}` };
}

function parseXml(text: string): Document {
  const errors: string[] = [];
  const doc = new DOMParser({ onError: (level, message) => { if (level !== 'warning') errors.push(message); } }).parseFromString(text, 'text/xml');
  expect(errors).toEqual([]);
  return doc;
}

const children = (e: Element, name: string) => Array.from(e.childNodes).filter((c): c is Element => c.nodeType === 1 && (c as Element).localName === name);
const child = (e: Element, name: string) => children(e, name)[0];
const textOf = (e: Element | undefined) => e?.textContent ?? '';
const elements = (d: Document | Element, name: string) => Array.from(d.getElementsByTagName(name));

async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ status: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runClassroomExport(args, env, { out: l => out.push(l), err: l => err.push(l) });
  return { status, out, err };
}

// -raw: the text in the order Chromium drew it (the document's order), whatever the columns.
const pdfText = (file: string, page?: number) => execFileSync('pdftotext', ['-raw', ...(page ? ['-f', String(page), '-l', String(page)] : []), '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
const pdfPages = (file: string) => Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);
const pdfImagesOn = (file: string, page: number) => execFileSync('pdfimages', ['-list', '-f', String(page), '-l', String(page), file], { encoding: 'utf8' }).trim().split('\n').length - 2;

let records: ClassroomRecord[] = [];

/** Verifies and rejects the chosen questions through the review store's decide(), as the server does. */
function review(storeFile: string): void {
  const store = openStore(storeFile);
  try {
    const all = store.records(store.donePapers()).map(l => JSON.parse(l) as ClassroomRecord);
    for (const r of all) {
      const suffix = r.id.slice(17);
      const status = VERIFY.includes(suffix) ? 'verified' : REJECT.includes(suffix) ? 'rejected' : null;
      if (status) decide(store.db, r.id, r as unknown as Record<string, unknown>, { status, edits: {}, version: 0, who: 'teacher' });
    }
  } finally {
    store.close();
  }
}

beforeAll(() => {
  fs.rmSync(OUT, { recursive: true, force: true });
  const inbox = path.join(OUT, 'inbox');
  fs.mkdirSync(inbox, { recursive: true });
  fs.copyFileSync(SAMPLE, path.join(inbox, path.basename(SAMPLE)));
  fs.writeFileSync(path.join(inbox, '2026-sample-math-dif-answer.csv'), KEY);
  execFileSync('npx', ['tsx', 'pipeline/cli.ts', '--year', YEAR, '--in', inbox, '--out', OUT, '--no-progress'], { cwd: ROOT, env: { ...process.env, WORKERS: '1' }, stdio: 'pipe' });
  const storeFile = path.join(OUT, YEAR, 'store.sqlite');
  const store = openStore(storeFile);
  records = store.records(store.donePapers()).map(l => JSON.parse(l));
  store.close();
  review(storeFile);
});

describe('make export on an ingest (YEAR)', () => {
  const verified = () => records.filter(r => VERIFY.some(s => r.id.endsWith(`-${s}`)));

  it('refuses bad usage with status 2 and a one-line reason', async () => {
    expect((await run(['--year', YEAR, '--out', OUT])).status).toBe(2);
    const bad = await run(['--format', 'docx', '--year', YEAR, '--out', OUT]);
    expect([bad.status, bad.err[0]]).toEqual([2, expect.stringMatching(/FORMAT must be one of moodle, qti, worksheet/)]);
    expect((await run(['--format', 'qti', '--status', 'some', '--year', YEAR, '--out', OUT])).status).toBe(2);
    expect((await run(['--format', 'qti', '--year', '2098', '--out', OUT])).err[0]).toMatch(/nothing ingested in .*2098/);
    expect((await run(['--format', 'qti', '--set', 'no-such-set', '--out', OUT])).status).toBe(2);
  });

  it('moodle: every verified question, and no other, with its key, points, name, tags and figures', async () => {
    const r = await run(['--format', 'moodle', '--year', YEAR, '--out', OUT]);
    expect(r.status).toBe(0);
    const file = r.out.at(-1)!;
    expect(path.resolve(file)).toBe(path.join(OUT, YEAR, 'exports', `${YEAR}-moodle.xml`));
    const doc = parseXml(fs.readFileSync(file, 'utf8'));
    expect(doc.documentElement!.localName).toBe('quiz');
    const all = elements(doc, 'question');
    const categories = all.filter(q => q.getAttribute('type') === 'category');
    expect(categories.map(c => textOf(child(child(c, 'category'), 'text')))).toEqual([`$course$/top/${YEAR}/2026-sample-math-dif.pdf`]);
    const questions = all.filter(q => q.getAttribute('type') !== 'category');
    expect(questions.map(q => textOf(child(q, 'idnumber')))).toEqual(verified().map(v => v.id));
    for (const q of questions) {
      const rec = records.find(x => x.id === textOf(child(q, 'idnumber')))!;
      const name = textOf(child(child(q, 'name'), 'text'));
      expect(name).toContain('2026-sample-math-dif.pdf');
      expect(name).toMatch(new RegExp(`\\b${rec.number}$`));
      expect(Number(textOf(child(q, 'defaultgrade')))).toBe(rec.points);
      const tags = elements(child(q, 'tags'), 'text').map(t => textOf(t));
      expect(tags).toEqual(expect.arrayContaining(['2026-sample-math-dif.pdf', `question ${rec.number}`]));
      const questionText = child(q, 'questiontext');
      expect(questionText.getAttribute('format')).toBe('html');
      if (rec.type === 'mcq') {
        expect(q.getAttribute('type')).toBe('multichoice');
        expect([textOf(child(q, 'single')), textOf(child(q, 'shuffleanswers')), textOf(child(q, 'answernumbering'))]).toEqual(['true', 'false', '123']);
        const answers = children(q, 'answer');
        expect(answers.map(a => textOf(child(a, 'text')))).toEqual(rec.options.map(o => o.text));
        const keyed = answers.map(a => Number(a.getAttribute('fraction')));
        expect(keyed.filter(f => f === 100)).toHaveLength(1);
        expect(keyed.filter(f => f !== 100).every(f => f === 0)).toBe(true);
        expect(rec.options[keyed.indexOf(100)].label).toBe(rec.answer);
      } else {
        expect(q.getAttribute('type')).toBe('numerical');
        const a = child(q, 'answer');
        expect([a.getAttribute('fraction'), textOf(child(a, 'text')), textOf(child(a, 'tolerance'))]).toEqual(['100', rec.answer, '0']);
      }
      // Every picture the text names travels in the file, as the crop's own bytes.
      const html = textOf(child(questionText, 'text'));
      const named = [...html.matchAll(/@@PLUGINFILE@@\/([^"]+)/g)].map(m => decodeURIComponent(m[1]));
      expect(named).toHaveLength(rec.figures.length);
      const files = children(questionText, 'file');
      expect(files.map(f => f.getAttribute('name')).sort()).toEqual([...named].sort());
      for (const f of files) {
        expect([f.getAttribute('path'), f.getAttribute('encoding')]).toEqual(['/', 'base64']);
        const figure = rec.figures.find(g => path.basename(g.path!) === f.getAttribute('name'))!;
        expect(Buffer.from(textOf(f), 'base64').equals(fs.readFileSync(path.join(OUT, YEAR, figure.path!)))).toBe(true);
      }
    }
  });

  it('qti: a package whose manifest names every item and file, every item valid against the QTI 2.1 XSD with its key', async () => {
    const r = await run(['--format', 'qti', '--year', YEAR, '--out', OUT]);
    expect(r.status).toBe(0);
    const zip = unzipSync(new Uint8Array(fs.readFileSync(r.out.at(-1)!)));
    const manifest = parseXml(Buffer.from(zip['imsmanifest.xml']).toString('utf8'));
    const resources = elements(manifest, 'resource');
    const items = resources.filter(x => x.getAttribute('type') === 'imsqti_item_xmlv2p1');
    expect(items).toHaveLength(VERIFY.length);
    expect(resources.filter(x => x.getAttribute('type') === 'imsqti_test_xmlv2p1')).toHaveLength(1);
    for (const f of elements(manifest, 'file')) expect(zip[f.getAttribute('href')!], f.getAttribute('href')!).toBeDefined();
    const dir = path.join(OUT, 'qti-year');
    fs.rmSync(dir, { recursive: true, force: true });
    for (const [name, data] of Object.entries(zip)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), data);
    }
    for (const [k, res] of items.entries()) {
      const rec = verified()[k];
      const item = parseXml(fs.readFileSync(path.join(dir, res.getAttribute('href')!), 'utf8'));
      expect(item.documentElement!.getAttribute('title')).toMatch(new RegExp(`\\b${rec.number}$`));
      const correct = elements(item, 'correctResponse').flatMap(c => elements(c, 'value').map(v => textOf(v)));
      if (rec.type === 'mcq') {
        const choices = elements(item, 'simpleChoice').map(c => c.getAttribute('identifier'));
        expect(choices).toHaveLength(rec.options.length);
        expect(correct).toEqual([choices[rec.options.findIndex(o => o.label === rec.answer)]]);
      } else {
        expect(elements(item, 'textEntryInteraction')).toHaveLength(1);
        expect(correct).toEqual([rec.answer]);
      }
      expect(textOf(elements(item, 'outcomeDeclaration').find(o => o.getAttribute('identifier') === 'MAXSCORE'))).toBe(String(rec.points));
      for (const img of elements(item, 'img')) expect(zip[decodeURIComponent(img.getAttribute('src')!)]).toBeDefined();
      expect(elements(item, 'img')).toHaveLength(rec.figures.length);
    }
    if (canValidate()) {
      const v = validateQti([...items.map(i => path.join(dir, i.getAttribute('href')!)), path.join(dir, 'assessment.xml')]);
      expect(v.output.trim().split('\n').filter(l => !l.endsWith(' validates'))).toEqual([]);
      expect(v.status).toBe(0);
    }
  });

  it.skipIf(!haveChromium())('worksheet: two PDFs, every question numbered afresh with its points and figure, every answer in the key', async () => {
    const r = await run(['--format', 'worksheet', '--year', YEAR, '--out', OUT, '--columns', '2']);
    expect(r.status, r.err.join('\n')).toBe(0);
    const dir = r.out.at(-1)!;
    const sheet = path.join(dir, 'worksheet.pdf');
    const key = path.join(dir, 'answer-key.pdf');
    const text = pdfText(sheet);
    const rec = verified();
    // Each number in turn, with the question's points before the next number.
    let at = 0;
    for (const [i, q] of rec.entries()) {
      const m = new RegExp(`(^|\\s)${i + 1}\\.\\s`).exec(text.slice(at));
      expect(m, `question ${i + 1}`).not.toBeNull();
      at += m!.index + m![0].length;
      const next = new RegExp(`(^|\\s)${i + 2}\\.\\s`).exec(text.slice(at));
      expect(text.slice(at, next ? at + next.index : undefined).replace(/\s+/g, '')).toContain(`[${q.points}점]`);
    }
    expect(text).not.toMatch(new RegExp(`(^|\\s)${rec.length + 1}\\.\\s`));
    // Each figure is drawn on the page that holds its question (number and stem).
    for (const [i, q] of rec.entries()) {
      if (!q.figures.length) continue;
      const words = q.stem.split(/\s+/).slice(0, 3).join('');
      const page = Array.from({ length: pdfPages(sheet) }, (_, p) => p + 1).find(p => { const t = pdfText(sheet, p); return new RegExp(`(^|\\s)${i + 1}\\.\\s`).test(t) && t.replace(/\s+/g, '').includes(words); });
      expect(page, `page of question ${i + 1}`).toBeDefined();
      expect(pdfImagesOn(sheet, page!)).toBeGreaterThanOrEqual(q.figures.length);
    }
    const keyText = pdfText(key).replace(/\s+/g, '');
    for (const [i, q] of rec.entries()) {
      const answer = q.type === 'mcq' ? `${q.answer}${q.options.find(o => o.label === q.answer)!.text}` : q.answer!;
      expect(keyText, `key of ${i + 1}`).toContain(`${i + 1}.${answer}`.replace(/\s+/g, ''));
    }
    // The HTML beside them is one self-contained file each: no URL to fetch.
    const html = fs.readFileSync(path.join(dir, 'worksheet.html'), 'utf8');
    expect(html).not.toMatch(/(src|href)="(https?:|\/\/|figures\/)/);
    expect(html).toContain('src:url(data:font/woff2;base64,');
  });

  it('says so and exits 1 when nothing is verified, and STATUS=all takes every question not rejected', async () => {
    const only = path.join(OUT, 'unreviewed');
    fs.mkdirSync(path.join(only, YEAR), { recursive: true });
    fs.writeFileSync(path.join(only, YEAR, 'items.jsonl'), records.map(r => JSON.stringify({ ...r, review: { status: 'pending' } })).join('\n') + '\n');
    const none = await run(['--format', 'moodle', '--year', YEAR, '--out', only]);
    expect([none.status, none.out]).toEqual([1, []]);
    expect(none.err.join('\n')).toMatch(/no verified question to export .*0 verified, 10 pending.*STATUS=all/);
    expect(fs.existsSync(path.join(only, YEAR, 'exports'))).toBe(false);
    const all = await run(['--format', 'moodle', '--year', YEAR, '--out', OUT, '--status', 'all']);
    expect(all.status).toBe(0);
    const ids = elements(parseXml(fs.readFileSync(all.out.at(-1)!, 'utf8')), 'idnumber').map(e => textOf(e)).filter(Boolean);
    expect(ids).toEqual(records.filter(r => !REJECT.some(s => r.id.endsWith(`-${s}`))).map(r => r.id));
    expect(all.out.at(-1)).toMatch(/2099-all-moodle\.xml$/);
    // DEST naming a folder: the file goes inside it.
    const into = await run(['--format', 'qti', '--year', YEAR, '--out', OUT, '--dest', only]);
    expect(path.resolve(into.out.at(-1)!)).toBe(path.join(only, `${YEAR}-qti.zip`));
  });
});

describe('make export on an uploaded set (SET)', () => {
  const SET = 'algebra-7b';
  let sets: Sets;

  beforeAll(async () => {
    const settings = resolveServerSettings({ port: 0, outDir: OUT, year: YEAR }, { WORKERS: '1' });
    sets = new Sets(settings);
    const queue = new JobQueue(settings, sets);
    const file = sets.saveUpload(SET, 'Algebra quiz.pdf', new Uint8Array(fs.readFileSync(SAMPLE)), { bytes: Buffer.from(KEY), ext: 'csv' });
    queue.enqueue(SET, file);
    await queue.idle();
  });
  afterAll(() => sets?.close());

  it('tells the teacher nothing is verified yet, then exports what they verified, in each format', async () => {
    const none = await run(['--format', 'worksheet', '--set', SET, '--out', OUT], { YEAR });
    expect(none.status).toBe(1);
    expect(none.err[0]).toMatch(/no verified question .*algebra-7b.*10 pending/);
    sets.close();
    review(sets.paths(SET).store);
    const xml = await run(['--format', 'moodle', '--set', SET, '--out', OUT], { YEAR });
    expect(xml.status).toBe(0);
    expect(xml.out.at(-1)).toBe(path.relative(process.cwd(), path.join(OUT, 'sets', SET, YEAR, 'exports', `${SET}-moodle.xml`)));
    const doc = parseXml(fs.readFileSync(xml.out.at(-1)!, 'utf8'));
    expect(elements(doc, 'category').map(c => textOf(c))).toEqual([`$course$/top/${SET}/Algebra_quiz.pdf`]);
    expect(elements(doc, 'idnumber').map(e => textOf(e)).filter(Boolean)).toHaveLength(VERIFY.length);
    expect(elements(doc, 'file')).toHaveLength(2);

    const qti = await run(['--format', 'qti', '--set', SET, '--out', OUT], { YEAR });
    expect(qti.status).toBe(0);
    const zip = unzipSync(new Uint8Array(fs.readFileSync(qti.out.at(-1)!)));
    const itemFiles = Object.keys(zip).filter(n => n.startsWith('item-'));
    expect(itemFiles).toHaveLength(VERIFY.length);
    if (canValidate()) {
      const dir = path.join(OUT, 'qti-set');
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      for (const n of [...itemFiles, 'assessment.xml']) fs.writeFileSync(path.join(dir, n), zip[n]);
      expect(validateQti(itemFiles.map(n => path.join(dir, n))).status).toBe(0);
    }

    if (haveChromium()) {
      const sheet = await run(['--format', 'worksheet', '--set', SET, '--out', OUT, '--dest', path.join(OUT, 'for-monday')], { YEAR });
      expect(sheet.status, sheet.err.join('\n')).toBe(0);
      expect(sheet.out.at(-1)).toBe(path.relative(process.cwd(), path.join(OUT, 'for-monday')));
      const text = pdfText(path.join(OUT, 'for-monday', 'worksheet.pdf'));
      for (let n = 1; n <= VERIFY.length; n++) expect(text).toMatch(new RegExp(`(^|\\s)${n}\\.\\s`));
      expect(pdfText(path.join(OUT, 'for-monday', 'answer-key.pdf')).replace(/\s+/g, '')).toContain('5.7');
    }
  });
});

describe('kinds the sample lacks, on records built from a sample record', () => {
  const FORMULAS = ['\\frac{3}{7}', '\\sqrt[3]{24}\\times3^{\\frac{2}{3}}', '\\lim_{h\\to0}\\frac{f(2+h)-f(2)}{h}', '\\sum_{k=1}^{n}a_k', '\\int_{0}^{2}(3x^2+1)\\,dx',
    '\\overrightarrow{AB}\\cdot\\vec{v}', '\\overline{PQ}', 'f(x)=\\begin{cases}x&(x<0)\\\\x^2&(x\\ge0)\\end{cases}', '\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}',
    '\\mathrm{SO}_{4}^{2-}', '{}^{5}\\mathrm{C}_{4}', '\\left(\\dfrac{1}{2}\\right)^{n}', '\\binom{n}{k}', '\\text{for all } x', '\\raisebox{0.25em}{x}', '\\cancel{x}', '\\boxed{7}', '\\underbrace{a+b}_{2}', '\\hat{\\theta}', '\\operatorname{lcm}(a,b)'];

  function built(): ClassroomRecord[] {
    const base = records.find(r => r.id.endsWith('-common-1'))!;
    const make = (n: number, patch: Partial<ClassroomRecord>): ClassroomRecord => ({ ...base, id: `${base.id.slice(0, 16)}-built-${n}`, section: 'built', number: n, figures: [], parts: [], ...patch });
    return [
      make(1, { type: 'mcq-multi', answer: '①③', stem: 'Which are primes? $p<10$', options: ['2', '4', '5', '9'].map((t, i) => ({ label: '①②③④'[i], text: `$${t}$` })) }),
      make(2, { type: 'numeric', answer: '2,5', stem: 'Half of $5$?', options: [] }),
      make(3, { type: 'short', answer: '3/7', stem: 'Write $\\frac{3}{7}$ as typed.', options: [] }),
      make(4, { type: 'free', answer: null, points: 5, stem: 'Prove:\n\n$$a^2+b^2\\ge 2ab$$\n\n(a) for $a=b$ <b>bold</b> (b) in general', options: [], parts: [{ label: '(a)', marks: 2, answer: '0' }, { label: '(b)', marks: 3 }] }),
      make(5, { type: 'mcq', answer: null, stem: 'No key was found.', options: base.options }),
      make(6, { type: 'mcq', answer: 'Z', stem: 'A key naming no printed option.', options: base.options }),
      make(7, { type: 'short', answer: null, stem: FORMULAS.map(f => `$${f}$`).join(' and '), options: [], points: null }),
      make(8, { type: 'numeric', answer: '0.25 to 0.27', stem: 'A range key.', options: [] }),
    ];
  }

  it('reads keys: labels run together or apart, positions, values and ranges', () => {
    expect([...keyedOptions('①③', ['①', '②', '③'])!]).toEqual([0, 2]);
    expect([...keyedOptions('A, C', ['A', 'B', 'C'])!]).toEqual([0, 2]);
    expect([...keyedOptions('(B)', ['(A)', '(B)'])!]).toEqual([1]);
    expect([...keyedOptions('3', ['①', '②', '③'])!]).toEqual([2]);
    expect(keyedOptions('E', ['A', 'B'])).toBeNull();
    expect(keyedOptions('6', ['①', '②', '③'])).toBeNull();
    expect([numericKey('-2.5'), numericKey('2,5'), numericKey('1,000'), numericKey('0.25 to 0.27')]).toEqual([{ number: -2.5, tolerance: 0 }, { number: 2.5, tolerance: 0 }, null, { number: 0.26, tolerance: expect.closeTo(0.01, 9) }]);
  });

  it('moodle: several answers in shares Moodle accepts, values, text keys, essays with the key for the grader, formulas for MathJax', () => {
    const { questions } = toQuestions(built(), path.join(OUT, YEAR));
    expect(questions.map(q => q.kind)).toEqual(['multi', 'numerical', 'short', 'essay', 'essay', 'essay', 'essay', 'numerical']);
    const doc = parseXml(moodleXml(questions, 'built'));
    const q = elements(doc, 'question').filter(e => e.getAttribute('type') !== 'category');
    expect(q.map(e => e.getAttribute('type'))).toEqual(['multichoice', 'numerical', 'shortanswer', 'essay', 'essay', 'essay', 'essay', 'numerical']);
    expect(textOf(child(q[0], 'single'))).toBe('false');
    expect(children(q[0], 'answer').map(a => Number(a.getAttribute('fraction')))).toEqual([50, -50, 50, -50]);
    expect(textOf(child(child(q[1], 'answer'), 'text'))).toBe('2.5');
    expect(textOf(child(child(q[2], 'answer'), 'text'))).toBe('3/7');
    const essay = textOf(child(child(q[3], 'questiontext'), 'text'));
    expect(essay).toContain('\\[a^2+b^2\\ge 2ab\\]');
    expect(essay).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(textOf(child(child(q[3], 'graderinfo'), 'text'))).toMatch(/\(a\) \[2\]: 0.*\(b\) \[3\]/s);
    expect(textOf(child(child(q[4], 'questiontext'), 'text'))).toContain('① ');
    expect(textOf(child(child(q[5], 'graderinfo'), 'text'))).toMatch(/the key (&quot;|")Z(&quot;|") names no option/);
    expect(textOf(child(q[6], 'defaultgrade'))).toBe('1.0000000');
    expect(textOf(child(child(q[6], 'questiontext'), 'text'))).toContain('\\(\\overrightarrow{AB}\\cdot\\vec{v}\\)');
    expect([textOf(child(child(q[7], 'answer'), 'text')), Number(textOf(child(child(q[7], 'answer'), 'tolerance')))]).toEqual(['0.26', expect.closeTo(0.01, 9)]);
  });

  it('worksheet: formulas typeset by KaTeX, room to answer by kind, the key naming every option keyed', () => {
    const { questions } = toQuestions(built(), path.join(OUT, YEAR));
    const { worksheet, key } = worksheetHtml(questions, { title: 'Built', columns: 1 });
    const stems = worksheet.replace(/<style>[^]*?<\/style>/g, '');
    expect(stems.match(/class="katex"/g)!.length).toBeGreaterThanOrEqual(FORMULAS.length);
    expect(stems).not.toMatch(/\$[^<]*\$/);
    expect(stems.match(/class="answer-box"/g)).toHaveLength(2);
    expect(stems.match(/class="answer-line"/g)).toHaveLength(3);
    const first = /id="k1"[^]*?<\/div>/.exec(key)![0];
    expect(first).toMatch(/①<\/span>[^]*2[^]*③<\/span>[^]*5/);
    expect(/id="k4"[^]*?<\/div>/.exec(key)![0]).toMatch(/\(a\)[^]*: 0/);
  });

  it('qti: every kind valid against the QTI 2.1 XSD, formulas as MathML', () => {
    const { questions } = toQuestions(built(), path.join(OUT, YEAR));
    const pkg = qtiPackage(questions, 'built', 'Built');
    const dir = path.join(OUT, 'qti-built');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    for (const name of [...pkg.items, 'assessment.xml']) fs.writeFileSync(path.join(dir, name), pkg.files.get(name)!);
    const item = (k: number) => parseXml(Buffer.from(pkg.files.get(pkg.items[k])!).toString('utf8'));
    expect(elements(item(0), 'responseDeclaration')[0].getAttribute('cardinality')).toBe('multiple');
    expect(elements(item(0), 'mapEntry').map(e => Number(e.getAttribute('mappedValue')))).toEqual([1, -1, 1, -1]);
    expect(elements(item(3), 'extendedTextInteraction')).toHaveLength(1);
    expect(elements(item(3), 'rubricBlock')[0].getAttribute('view')).toBe('scorer');
    expect(elements(item(4), 'correctResponse')).toHaveLength(0);
    expect(elements(item(6), 'math').length).toBe(FORMULAS.length);
    if (canValidate()) {
      const v = validateQti(fs.readdirSync(dir).map(f => path.join(dir, f)));
      expect(v.output.trim().split('\n').filter(l => !l.endsWith(' validates'))).toEqual([]);
    }
  });
});
