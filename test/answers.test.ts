// answers: keys as CSV, as a grid image and as an image-only PDF, joined by section and number;
// every conflict a diagnostic, no answer guessed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, ROOT } from '../pipeline/config.ts';
import { readKeyImage } from '../pipeline/keys/image-key.ts';
import { fallsAcross, readGridKey, sameShapeAgree } from '../pipeline/keys/grid-key.ts';
import { answerCharacters } from '../pipeline/keys/option-answer.ts';
import { loadGray, type Gray } from '../pipeline/pixels/gray.ts';
import sharp from 'sharp';
import { imagesToPdf } from '../pipeline/providers/image-pdf.ts';
import { closeOcr, ocrPool } from '../pipeline/providers/ocr.ts';
import { runBatch } from '../pipeline/run.ts';
import { answersStage, joinAnswers, readKey } from '../pipeline/stages/answers.ts';
import { readPairKey, textLine, tokensOfSpans } from '../pipeline/keys/pair-key.ts';
import { joinReadings } from '../pipeline/keys/two-readings.ts';
import { labelKey, shownLabel } from '../pipeline/keys/option-answer.ts';
import { numberRun } from '../pipeline/keys/number-run.ts';
import { Diagnostics } from '../pipeline/diagnostics.ts';
import type { PaperDocument } from '../pipeline/document.ts';
import type { StageContext } from '../pipeline/stage.ts';
import { rawText } from '../pipeline/text/line-text.ts';
import { printHtml, printingPage } from '../fixtures/chromium.ts';
import { haveChromium } from './review-browser.ts';
import { keyFileFor } from '../pipeline/keys/companions.ts';
import { parseTextKey } from '../pipeline/keys/text-key.ts';
import { finalValue, plainValue, readWorkedKey } from '../pipeline/keys/worked-key.ts';
import { loadTemplates } from '../pipeline/template.ts';
import { analyse, parseCsv } from './analyse.ts';
import { haveShared, KCSAT, TRUTH } from './helpers.ts';

const SAMPLE = path.join(ROOT, 'fixtures/samples/2026-sample-math-dif.pdf');
afterAll(() => closeOcr());

describe('answers', () => {
  it('joins a CSV key and reports every conflict instead of guessing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'answers-'));
    const paper = path.join(dir, 'paper.pdf');
    fs.copyFileSync(SAMPLE, paper);
    fs.writeFileSync(path.join(dir, 'paper-answer.csv'), [
      'section,number,answer,points',
      '공통,1,③,2', 'common,2,4,3', 'common,3,②,', 'common,4,①,', 'common,5,②,', 'common,6,⑤,',
      'common,7,①,', // a circled answer on a short-answer item
      '미적분,23,②,', 'calculus,24,①,', '미적분,25,③,', // 25: no such question; common 8 missing
    ].join('\n'));
    expect(keyFileFor(paper)).toBe(path.join(dir, 'paper-answer.csv'));
    const doc = await analyse(paper);
    joinAnswers(doc, await readKey(keyFileFor(paper)!, doc), 'paper-answer.csv');
    const got = Object.fromEntries(doc.questions.map(q => [`${q.section}:${q.number}`, q.answer]));
    expect(got).toEqual({
      'common:1': '③', 'common:2': '④', 'common:3': '②', 'common:4': '①', 'common:5': '②', 'common:6': '⑤',
      'common:7': null, 'common:8': null, 'calculus:23': '②', 'calculus:24': '①',
    });
    const rules = doc.messages.list.map(m => `${m.rule} ${m.item ?? ''}`.trim());
    expect(rules).toContain(`answers/choice-on-short ${doc.questions[6].id}`);
    expect(rules).toContain(`answers/missing ${doc.questions[7].id}`);
    expect(rules).toContain('answers/no-question');
    expect(rules).toContain(`answers/points-differ ${doc.questions[1].id}`);
  });
});

describe('a key\'s value for a question read without options or parts', () => {
  const PARTS = path.join(ROOT, 'fixtures/educator/fr-exercice-parts.pdf');
  it('makes it a short-answer question; a worked answer in words, or a question with parts, stays free', async () => {
    const read = async () => {
      const doc = await analyse(PARTS);
      expect(doc.questions.map(q => [q.number, q.type, q.parts.length > 0])).toEqual([[1, 'free', true], [2, 'free', true], [3, 'free', false]]);
      return doc;
    };
    const valued = await read();
    joinAnswers(valued, [{ section: null, number: 1, value: '12', choice: null, points: null }, { section: null, number: 3, value: '-3/4', choice: null, points: null }], 'key.csv');
    expect(valued.questions.map(q => [q.type, q.answer])).toEqual([['free', '12'], ['free', null], ['short', '-3/4']]);
    expect(valued.messages.list.filter(m => m.rule === 'answers/typed-short').map(m => m.item)).toEqual([valued.questions[2].id]);
    const worded = await read();
    joinAnswers(worded, [{ section: null, number: 3, value: 'On montre par récurrence que la suite est croissante puis bornée', choice: null, points: null }], 'key.csv');
    expect(worded.questions[2].type).toBe('free');
  });

  it('makes it a choice question whose options were not read where the key names an option, and says so', async () => {
    // A question of pictures whose labels OCR lost (fuzzer seed 20261201, paper 0134): the key's `B`
    // says it is a choice; the answer is kept, not dropped as a choice on a short answer.
    const doc = await analyse(PARTS);
    joinAnswers(doc, [{ section: null, number: 3, value: 'B', choice: true, points: null }], 'key.csv');
    expect([doc.questions[2].type, doc.questions[2].answer]).toEqual(['mcq', 'B']);
    expect(doc.messages.list.filter(m => m.rule === 'answers/options-unread').map(m => m.item)).toEqual([doc.questions[2].id]);
    // A question with parts stays as it is.
    joinAnswers(doc, [{ section: null, number: 1, value: 'C', choice: true, points: null }], 'key.csv');
    expect(doc.questions[0].type).toBe('free');
  });

  it('reads a CSV key\'s single option letter (`D`) as naming an option, a word or a later letter (`x`) as a value', async () => {
    // Seed 20261210's scan 0243: pictures labelled A.–E. whose labels OCR lost, its CSV key giving `D`.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'answers-csv-letter-'));
    try {
      const paper = path.join(dir, 'paper.pdf');
      fs.copyFileSync(PARTS, paper);
      const key = path.join(dir, 'paper-answer.csv');
      const read = async (answer: string) => {
        fs.writeFileSync(key, `section,number,answer\n,3,${answer}\n`);
        const doc = await analyse(paper);
        const answers = await readKey(key, doc);
        joinAnswers(doc, answers, 'paper-answer.csv');
        return [answers[0].choice, doc.questions[2].type, doc.questions[2].answer];
      };
      expect(await read('D')).toEqual([true, 'mcq', 'D']);
      expect(await read('x')).toEqual([null, 'short', 'x']);
      expect(await read('12')).toEqual([null, 'short', '12']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('text keys', () => {
  const templates = loadTemplates(path.join(ROOT, 'templates'), ROOT);
  const of = (id: string) => templates.find(t => t.id === id)!;

  it('take the column of the paper\'s form from a key printed for many forms', () => {
    const lines = ['Câu hỏi', '101 102 103', '1 D B C', '2 A C D', '3 B A A'];
    expect(parseTextKey(lines, of('generic'), '102').map(e => e.answer)).toEqual(['B', 'C', 'A']);
    // A form the key does not print: no column can be trusted, nothing is read.
    expect(parseTextKey(lines, of('generic'), '999')).toEqual([]);
  });

  it('give each section its own column where headings name sections over one number (ENEM INGLÊS / ESPANHOL)', () => {
    const lines = ['QUESTÃO GABARITO QUESTÃO GABARITO', 'INGLÊS ESPANHOL', '1 D E 46 D', '2 C D 47 E', '6 E 51 E'];
    const got = parseTextKey(lines, of('enem')).map(e => `${e.section ?? ''}:${e.number}${e.answer}`);
    expect(got).toEqual(['linguagens inglês:1D', 'linguagens espanhol:1E', 'linguagens inglês:2C', 'linguagens espanhol:2D', ':6E', ':46D', ':47E', ':51E']);
  });
});

describe('worked keys (the paper again, a solution under each part)', () => {
  const generic = loadTemplates(path.join(ROOT, 'templates'), ROOT).find(t => t.id === 'generic')!;
  const line = (text: string) => ({ raw: text.replace(/\$|\\frac\{([^{}]*)\}\{([^{}]*)\}/g, '$1 $2'), text });
  const paper = [
    { number: 1, opening: 'Find the derivative of f(x) = x^2 at x = 3.' },
    { number: 2, opening: 'Compute the following limits:' },
  ];

  it('read each part\'s value from where its solution ends, and nothing from one that ends in words', () => {
    const key = [
      'Quiz 4 (KEY)', '1 Note the structure of the response.', // a footnote's number is not a question
      '1. Find the derivative of f(x) = x^2 at x = 3.', "Solution. f'(x) = 2x, so f'(3) = 6.",
      '2. Compute the following limits:', '(a) $\\lim_{x\\to0}\\frac{\\sin 3x}{\\tan 7x}=$', 'Solution. By L\'Hôpital, $=\\frac{3}{7}$',
      '(b) $\\lim_{x\\to\\infty} x e^{-x} =$', 'Solution. It tends to 0 = lim, so the limit is zero by the squeeze theorem.',
      '(c) Which is larger?', 'Solution. $e^{\\pi} > \\pi^{e}$',
    ].map(line);
    const got = readWorkedKey(key, generic, paper)!.map(e => `${e.number}${e.part ?? ''}=${e.value}`);
    expect(got).toEqual(['1=6', '2=null', '2(a)=3/7', '2(b)=null', '2(c)=null']);
  });

  it('are not taken for a list of entries or another paper', () => {
    expect(readWorkedKey(['1. A', '2. C'].map(line), generic, paper)).toBeNull();
    expect(readWorkedKey(['1. Solve 3x = 6.', 'x = 2'].map(line), generic, paper)).toBeNull();
  });

  it('write values the way keys print them', () => {
    expect(plainValue('-\\frac{2}{\\sqrt{3}}')).toBe('-2/sqrt(3)');
    expect(plainValue('\\frac{\\pi}{4}')).toBe('pi/4');
    expect(plainValue('\\frac{1+\\sqrt{5}}{2}')).toBe('(1+sqrt(5))/2');
    expect(plainValue('−√2')).toBe('-sqrt(2)');
    expect(plainValue('x+1')).toBeNull();
    expect(plainValue('5(2')).toBeNull();
    expect(finalValue(['f(0) = 4 and f(2) = 6.', 'So c ≤ 2'].map(line))).toBeNull();
    expect(finalValue(['= \\frac{e^{0}}{1} = 1'].map(line))).toBe('1');
  });
});

describe('a key added after the first run', () => {
  it('is joined on the next run, which renders no page and leaves the other papers alone', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'answers-later-'));
    const inDir = path.join(dir, 'in');
    fs.mkdirSync(inDir);
    const bytes = fs.readFileSync(SAMPLE);
    fs.writeFileSync(path.join(inDir, 'a.pdf'), bytes);
    // Another paper: the same pages with a trailing comment, so another hash.
    fs.writeFileSync(path.join(inDir, 'b.pdf'), Buffer.concat([bytes, Buffer.from('\n% another copy\n')]));
    const config = resolveConfig({ year: '2099', inDir, outDir: path.join(dir, 'out'), progress: false }, {});
    const first = await runBatch(config);
    expect(first.papers.map(p => [p.file, p.status, p.pagesRendered])).toEqual([['a.pdf', 'done', 4], ['b.pdf', 'done', 4]]);
    const key = ['section,number,answer', '공통,1,③', '공통,2,④', '공통,3,②', '공통,4,①', '공통,5,②', '공통,6,⑤', '공통,7,12', '공통,8,7', '미적분,23,②', '미적분,24,①'];
    fs.writeFileSync(path.join(inDir, 'a-answer.csv'), key.join('\n'));
    const second = await runBatch(config);
    expect(second.papers.map(p => [p.file, p.status, p.pagesRendered])).toEqual([['a.pdf', 'done', 0], ['b.pdf', 'skipped', 0]]);
    const records = fs.readFileSync(second.itemsFile, 'utf8').trim().split('\n').map(l => JSON.parse(l) as { source: { file: string }; number: number; answer: string | null });
    expect(records.filter(r => r.source.file === 'a.pdf').map(r => `${r.number}=${r.answer}`)).toEqual(key.slice(1).map(l => l.split(',')).map(([, n, a]) => `${n}=${a}`));
    expect(records.filter(r => r.source.file === 'b.pdf').every(r => r.answer === null)).toBe(true);
    const third = await runBatch(config);
    expect(third.papers.map(p => p.status)).toEqual(['skipped', 'skipped']);
  }, 300_000);
});

describe.skipIf(!haveShared())('answers from real KICE keys', () => {
  const truth = (stem: string) => parseCsv(fs.readFileSync(path.join(TRUTH, `${stem}.csv`), 'utf8'));

  it('reads a key image: numbers by their run, circled options by their ring, values by OCR', async () => {
    const r = await readKeyImage(path.join(KCSAT, '202311-h3-math-pro-answer.png'), ocrPool('eng'), ocrPool('kor'));
    expect(r.problems).toEqual([]);
    expect(r.entries.map(e => `${e.number}=${e.answer}`)).toEqual(truth('202311-h3-math-pro').map(t => `${t.number}=${t.answer}`));
    expect(r.entries.filter(e => e.circled).map(e => e.number)).toEqual([...Array(15).keys()].map(i => i + 1).concat([23, 24, 25, 26, 27, 28]));
  });

  it('reads a key PDF drawn without text by rendering it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'answers-pdf-'));
    const paper = path.join(dir, '202106-h3-math-dif.pdf');
    fs.copyFileSync(path.join(KCSAT, '202106-h3-math-dif.pdf'), paper);
    fs.writeFileSync(path.join(dir, '202106-h3-math-dif-answer.pdf'), await imagesToPdf([{ image: fs.readFileSync(path.join(KCSAT, '202106-h3-math-dif-answer.png')), width: 432, height: 432 }]));
    const doc = await analyse(paper);
    joinAnswers(doc, await readKey(keyFileFor(paper)!, doc), 'key');
    const want = truth('202106-h3-math-dif');
    expect(doc.questions.map(q => `${q.section}:${q.number}=${q.answer?.replace(/[①②③④⑤]/, c => String('①②③④⑤'.indexOf(c) + 1))}`))
      .toEqual(want.map(t => `${t.section}:${t.number}=${t.answer}`));
    expect(doc.messages.list.filter(m => m.severity !== 'info')).toEqual([]);
  }, 60_000);
});

describe('a key picture of numbers over answers', () => {
  /** A table of one row of numbers over one of answers, drawn at 200 dpi from SVG in points (cells 40 pt wide), under a heading. */
  async function table(numbers: string[], answers: string[]): Promise<Gray> {
    const S = 200 / 72;
    const cells = numbers.map((n, i) => `<rect x="${300 - 40 * numbers.length + 40 * i}" y="60" width="40" height="24" fill="#eee" stroke="black"/>
      <text x="${314 - 40 * numbers.length + 40 * i}" y="77" font-size="13">${n}</text>
      <rect x="${300 - 40 * numbers.length + 40 * i}" y="84" width="40" height="24" fill="none" stroke="black"/>
      <text x="${312 - 40 * numbers.length + 40 * i}" y="101" font-size="13">${answers[i]}</text>`).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${320 * S}" height="${130 * S}" viewBox="0 0 320 130"><rect width="320" height="130" fill="white"/>
      <g font-family="DejaVu Sans"><text x="200" y="40" font-size="14" font-weight="bold">Physics</text>${cells}</g></svg>`;
    return loadGray(await sharp(Buffer.from(svg)).png().toBuffer());
  }
  const read = async (g: Gray) => {
    const pool = ocrPool('eng', 1);
    const r = await readGridKey(g, pool, pool, pool, { ...answerCharacters([...'ABCDE']) });
    await closeOcr();
    return r?.blocks.map(b => `${b.headings.join('/')}: ${b.entries.map(e => `${e.number}=${e.answer}${e.circled ? 'o' : ''}`).join(' ')}`);
  };

  it('reads a table\'s last cell wrapped onto a table of its own (`11` under 1–10, `16` under a selection\'s 2 … 14)', async () => {
    const S = 200 / 72;
    const grid = (y: number, numbers: string[], answers: string[]) => numbers.map((n, i) => `<rect x="${20 + 30 * i}" y="${y}" width="30" height="22" fill="#eee" stroke="black"/>
      <text x="${26 + 30 * i}" y="${y + 16}" font-size="12">${n}</text><rect x="${20 + 30 * i}" y="${y + 22}" width="30" height="22" fill="none" stroke="black"/>
      <text x="${29 + 30 * i}" y="${y + 38}" font-size="12">${answers[i]}</text>`).join('');
    const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="${360 * S}" height="${150 * S}" viewBox="0 0 360 150"><rect width="360" height="150" fill="white"/><g font-family="DejaVu Sans">${body}</g></svg>`;
    const picture = async (body: string) => loadGray(await sharp(Buffer.from(svg(body))).png().toBuffer());
    const title = '<text x="20" y="22" font-size="14" font-weight="bold">Answers</text>';
    const wrapped = await picture(title + grid(30, ['2', '3', '5', '6', '8', '9', '10', '12', '13', '14'], [...'BCDAEBCDAB']) + grid(90, ['16'], ['D']));
    expect(await read(wrapped)).toEqual(['Answers: 2=B 3=C 5=D 6=A 8=E 9=B 10=C 12=D 13=A 14=B 16=D']);
    // A lone cell under a heading starts no run of its own.
    const headed = await picture(title + grid(30, ['1', '2', '3'], [...'ABC']) + '<text x="20" y="95" font-size="14" font-weight="bold">Physics</text>' + grid(105, ['4'], ['D']));
    expect(await read(headed)).toEqual(['Answers: 1=A 2=B 3=C']);
  }, 120_000);

  it('reads a selection\'s numbers as printed where most cells run by one (`1 2 4 … 9 11 12`), and a Hangul ㄹ that OCR reads as the syllable 근', async () => {
    const S = 200 / 72;
    const grid = (numbers: string[], answers: string[]) => numbers.map((n, i) => `<rect x="${20 + 30 * i}" y="30" width="30" height="22" fill="#eee" stroke="black"/>
      <text x="${26 + 30 * i}" y="46" font-size="12">${n}</text><rect x="${20 + 30 * i}" y="52" width="30" height="22" fill="none" stroke="black"/>
      <text x="${28 + 30 * i}" y="68" font-size="12">${answers[i]}</text>`).join('');
    const picture = async (body: string) => loadGray(await sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${360 * S}" height="${90 * S}" viewBox="0 0 360 90"><rect width="360" height="90" fill="white"/><g font-family="Noto Serif CJK KR">${body}</g></svg>`)).png().toBuffer());
    // Questions 3 and 10 are answered elsewhere: eight of ten cells run from 2, and 11 and 12 were read 10 and 11.
    expect(await read(await picture(grid(['1', '2', '4', '5', '6', '7', '8', '9', '11', '12'], [...'BCDAEBCDAB'])))).toEqual([': 1=B 2=C 4=D 5=A 6=E 7=B 8=C 9=D 11=A 12=B']);
    const native = [...'ㄱㄴㄷㄹㅁ'];
    const pool = ocrPool('eng', 1), kor = ocrPool('kor', 1);
    const r = await readGridKey(await picture(grid(['1', '2', '3', '4'], [...'ㄷㄱㄴㄹ'])), pool, kor, kor, { ...answerCharacters(native), native });
    await closeOcr();
    expect(r?.blocks.flatMap(b => b.entries.map(e => `${e.number}=${labelKey(e.answer)}`))).toEqual(['ㄷ', 'ㄱ', 'ㄴ', 'ㄹ'].map((l, i) => `${i + 1}=${labelKey(l)}`));
  }, 120_000);

  it('gives cells of one shape the reading most of them have, and the letter one of them was also read as', () => {
    const g = { width: 40, height: 10, data: new Uint8Array(400).fill(255) };
    // Three glyphs alike (a bar with a dot under it), one unlike (a bar alone).
    for (const x0 of [2, 12, 22, 32]) for (let x = x0; x < x0 + 6; x++) { g.data[2 * 40 + x] = 0; g.data[3 * 40 + x] = 0; }
    for (const x0 of [2, 12, 22]) for (const [x, y] of [[x0 + 2, 6], [x0 + 3, 6], [x0 + 2, 7], [x0 + 3, 7]]) g.data[y * 40 + x] = 0;
    const box = (x0: number, tall: boolean): [number, number, number, number] => [x0, 2, x0 + 6, tall ? 8 : 4];
    const cells = [
      { number: 1, ink: box(2, true), read: { answer: '3', circled: false }, table: 0 },
      { number: 2, ink: box(12, true), read: { answer: '3', circled: false, alternative: 'ج' }, table: 0 },
      { number: 3, ink: box(22, true), read: null, table: 0 },
      { number: 4, ink: box(32, false), read: { answer: '7', circled: false }, table: 0 },
    ];
    sameShapeAgree(g, cells);
    expect(cells.map(c => `${c.number}=${c.read?.answer}/${c.read?.alternative ?? ''}`)).toEqual(['1=3/ج', '2=3/ج', '3=3/ج', '4=7/']);
  });

  it('reads a table set right to left (4 3 2 1 across, as an Arabic key prints it) from its right end, as one block', async () => {
    expect(fallsAcross([4, 3, null, 1])).toBe(true);
    expect(fallsAcross([1, 2, 3, 4])).toBe(false);
    expect(fallsAcross([4])).toBe(false);
    expect(await read(await table(['4', '3', '2', '1'], ['②', '90', '③', '②']))).toEqual(['Physics: 1=2o 2=3o 3=90 4=2o']);
    expect(await read(await table(['1', '2', '3'], ['①', '15', '④']))).toEqual(['Physics: 1=1o 2=15 3=4o']);
  }, 120_000);
});

describe('keys read by their structure', () => {
  const rows = (...lines: string[]) => readPairKey(lines.map(l => textLine(l))).map(b => `${b.headings.join('/')}: ${b.entries.map(e => `${e.number}=${e.answer}`).join(' ')}`);

  it('read a row of numbers over a row of answers where the numbers leave some out (a selection, a question answered in words)', () => {
    expect(rows('Answer key', '№ 1 2 3 4 8 9 10 12', '✓ A E E A C B 34 A')).toEqual(['Answer key: 1=A 2=E 3=E 4=A 8=C 9=B 10=34 12=A']);
    expect(rows('Физика', '2 3 5 9', 'б 7 г а')).toEqual(['Физика: 2=б 3=7 5=г 9=а']);
  });

  it('read a table of number | answer rows as pairs where a short answer is a larger number than its item (`10 20`)', () => {
    expect(rows('数学', '# 参考答案', '1 4', '2 4', '3 2', '物理', '# 参考答案', '1 2', '2 4', '3 20', '4 1')).toEqual(['# 参考答案/数学: 1=4 2=4 3=2', '# 参考答案/物理: 1=2 2=4 3=20 4=1']);
    // Two rows that do not go on from each other are still numbers over answers.
    expect(rows('Key', '1 2 3 4', '3 1 4 2')).toEqual(['Key: 1=3 2=1 3=4 4=2']);
  });

  it('name an option by its label as the paper prints it: widths folded, a Hangul letter kept', () => {
    // NFKC would take ㄹ (U+3139) to the conjoining ᄅ (U+1105): a key's answer would name no option (fuzzer paper 0052).
    expect(['ㄹ', '(ㄱ)', 'Ａ．', '(1)', '⑴', '③'].map(shownLabel)).toEqual(['ㄹ', 'ㄱ', 'A', '1', '1', '③']);
  });

  it('read a row that skips a number (a worked question the key has no value for) as the table\'s row where it stands in its columns', () => {
    // Fuzzer seed 20261204, paper 0011: `2 5`, then `4 7` under it (question 3 is worked), then `6 C`.
    const at = (y: number, ...cells: [string, number][]) => ({ page: 1, tokens: cells.map(([text, x]) => ({ text, x0: x, x1: x + 6 * text.length })) });
    const lines = [at(0, ['#', 40], ['Đáp', 60], ['án', 80]), at(1, ['1', 40], ['D', 62]), at(2, ['2', 40], ['5', 62]), at(3, ['4', 40], ['7', 62]), at(4, ['6', 40], ['C', 62]), at(5, ['7', 40], ['A', 62])];
    expect(readPairKey(lines).flatMap(b => b.entries.map(e => `${e.number}=${e.answer}`))).toEqual(['1=D', '2=5', '4=7', '6=C', '7=A']);
    // Without positions (OCR text) the same rows stay numbers over answers: nothing says they stand in columns.
    expect(rows('1 D', '2 5', '4 7', '6 C')).not.toContain(': 1=D 2=5 4=7 6=C');
  });

  it('read a table of number | answer rows whose first row leaves a number out (`2 20` then `4 C`) as pairs, and a row a page break printed twice once', () => {
    // Fuzzer seed 20261201, paper 0110: `2 20` over `4 C` is no row of numbers over answers, the rows under it go on in its columns.
    const at = (page: number, ...cells: [string, number][]) => ({ page, tokens: cells.map(([text, x]) => ({ text, x0: x, x1: x + 6 * text.length })) });
    const lines = [at(1, ['#', 40], ['Answer', 60]), at(1, ['2', 40], ['20', 62]), at(1, ['4', 40], ['C', 62]), at(1, ['5', 40], ['D', 62]), at(1, ['6', 40], ['8', 62]), at(2, ['6', 40], ['8', 62]), at(2, ['7', 40], ['A', 62])];
    expect(readPairKey(lines).map(b => b.entries.map(e => `${e.number}=${e.answer}`).join(' '))).toEqual(['2=20 4=C 5=D 6=8 7=A']);
    // Two rows are no table: `1 2` over `A B` stays numbers over answers.
    expect(readPairKey([at(1, ['1', 40], ['2', 62]), at(1, ['A', 40], ['B', 62])]).flatMap(b => b.entries.map(e => `${e.number}=${e.answer}`))).toEqual(['1=A', '2=B']);
  });

  it('read a line of pairs whose producer set each glyph as a run of its own, words told by the gaps between runs', () => {
    // Fuzzer seed 20261209, paper 0259: `1.2 4.2 5.3` as runs `1` `.` `2` touching, 8 pt between pairs.
    const glyphs = (text: string, x: number) => [...text].map((c, k) => ({ text: c, bbox: [x + k * 5, 100, x + (k + 1) * 5, 110] as [number, number, number, number], size: 10.5 }));
    const line = { page: 3, tokens: tokensOfSpans([...glyphs('1.2', 40), ...glyphs('4.2', 63), ...glyphs('5.3', 86)]) };
    expect(line.tokens.map(t => t.text)).toEqual(['1.2', '4.2', '5.3']);
    expect(readPairKey([line]).flatMap(b => b.entries.map(e => `${e.number}=${e.answer}`))).toEqual(['1=2', '4=2', '5=3']);
    // A space inside a run still parts two words, however close the next run stands.
    expect(tokensOfSpans([{ text: '1. ', bbox: [40, 100, 52, 110], size: 10 }, { text: 'B', bbox: [52, 100, 58, 110], size: 10 }]).map(t => t.text)).toEqual(['1.', 'B']);
  });

  it('read a table set right to left from the right, and a right-to-left run of pairs with its first number moved to the end by bidi', () => {
    // `№ 1 2 3 4` over `✓ C D A B` as an Arabic paper prints them: the labels at the right.
    expect(rows('مفتاح الإجابة', '4 3 2 1 №', 'B A D C ✓')).toEqual(['مفتاح الإجابة: 1=C 2=D 3=A 4=B']);
    // `1.D 2.C 3.A 4.60 5.B` in a right-to-left paragraph, as it stands on the page.
    expect(rows('مفتاح الإجابة', 'D 2.C 3.A 4.60 5.B.1')).toEqual(['مفتاح الإجابة: 1=D 2=C 3=A 4=60 5=B']);
    // A line that opens on a letter and ends on a number that does not rise into the pairs is no such run.
    expect(rows('D 2.C 3.A.7')).toEqual([]);
    // A run whose first and last answers are values (`1.36`, `6.38`) stands as it is.
    expect(rows('1.36 2.B 4.D 6.38')).toEqual([': 1=36 2=B 4=D 6=38']);
  });

  it('read a long row of numbers OCR read a digit of wrong (`3` as `8`) by the run its other numbers agree on; a short row not', () => {
    expect(rows('Απαντήσεις', 'Νο 1 2 8 4 5 6 7', '✓ 3 1 4 1 1 4 1')).toEqual(['Απαντήσεις: 1=3 2=1 3=4 4=1 5=1 6=4 7=1']);
    // Four numbers, one of them off the run: as likely a question's line of values as a key's row.
    expect(rows('№ 1 2 8 4', '✓ A B C D')).toEqual([]);
  });

  it('take a row of rising numbers alone for a header, not for pairs', () => {
    expect(rows('2 3 5 9')).toEqual([]);
    expect(rows('1.B 2.A 3.60 5.ख')).toEqual([': 1=B 2=A 3=60 5=ख']);
  });
});

/**
 * A paper of two subjects whose numbering restarts (Mathematics 1–4, Physics 1–4, Physics 3
 * answered in words), set in two ruled columns, with its key appended on a page of its own: the
 * key's title and each subject's table of numbers over answers sit across the top of that page,
 * above an empty ruled grid. Or one column with Greek option letters and a key run of pairs.
 */
function paperHtml(key: 'tables' | 'pairs'): string {
  const mcq = (n: number, stem: string, opts: string[], labels: string[]) =>
    `<p class="q"><b>${n}.</b> ${stem}</p><p class="o">${opts.map((o, i) => `(${labels[i]}) ${o}`).join('&emsp;')}</p>`;
  const latin = ['A', 'B', 'C', 'D'], greek = ['α', 'β', 'γ', 'δ'];
  const labels = key === 'tables' ? latin : greek;
  const maths = [
    mcq(1, 'What is 2 + 3?', ['4', '5', '6', '7'], labels),
    mcq(2, 'What is 3 × 4?', ['7', '10', '12', '14'], labels),
    mcq(3, 'What is 10 − 6?', ['4', '5', '6', '3'], labels),
    mcq(4, 'What is 9 ÷ 3?', ['1', '2', '6', '3'], labels),
  ].join('');
  const physics = [
    mcq(1, 'Which unit measures force?', ['newton', 'joule', 'watt', 'pascal'], labels),
    mcq(2, 'Which unit measures power?', ['newton', 'joule', 'pascal', 'watt'], labels),
    '<p class="q"><b>3.</b> A car covers 120 km in 2 hours. Find its average speed in km/h.</p>',
    mcq(4, 'Which quantity is a vector?', ['mass', 'velocity', 'time', 'energy'], labels),
  ].join('');
  const style = `@page { size: A4; margin: 15mm } body { font: 11pt 'DejaVu Serif', serif; margin: 0 }
    h1 { font-size: 16pt } h2 { font-size: 14pt } h3 { font-size: 12pt; margin: 8pt 0 } p { margin: 0 0 5pt } .q { margin-top: 10pt } .o { padding-left: 14pt }
    .cols { display: flex; height: 215mm } .cols > div { flex: 1; padding: 0 5mm } .cols > div:first-child { border-right: 1px solid #000 }
    table { border-collapse: collapse; margin: 3pt 0 } td, th { border: 0.6pt solid #000; padding: 1mm 3mm; text-align: center } .next { break-before: page }`;
  const table = (ns: number[], as: string[]) => `<table><tr><th>№</th>${ns.map(n => `<td>${n}</td>`).join('')}</tr><tr><th>✓</th>${as.map(a => `<td>${a}</td>`).join('')}</tr></table>`;
  if (key === 'tables') {
    return `<!doctype html><html><head><meta charset="utf-8"><style>${style}</style></head><body>
      <h1>Science and Mathematics Test</h1>
      <div class="cols"><div><h3>Mathematics</h3>${maths}</div><div><h3>Physics</h3>${physics}</div></div>
      <div class="next"><h2>Answer key</h2><p>Mathematics</p>${table([1, 2, 3, 4], ['B', 'C', 'A', 'D'])}<p>Physics</p>${table([1, 2, 4], ['A', 'D', 'B'])}</div>
      <div class="cols"><div></div><div></div></div></body></html>`;
  }
  return `<!doctype html><html><head><meta charset="utf-8"><style>${style}</style></head><body>
    <h1>Mathematics Test</h1>${maths}
    <div class="next"><h2>Απαντήσεις</h2><p>1.β &emsp; 2.γ &emsp; 3.α</p><p>4.δ</p></div></body></html>`;
}

describe.skipIf(!haveChromium())('a key appended to the paper', () => {
  let dir = '';
  const made: Record<string, string> = {};
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'answers-appended-'));
    const { browser, page } = await printingPage();
    try {
      for (const key of ['tables', 'pairs'] as const) {
        made[key] = path.join(dir, `${key}.pdf`);
        fs.writeFileSync(made[key], await printHtml(page, paperHtml(key)));
      }
    } finally {
      await browser.close();
    }
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const read = async (file: string) => {
    const doc = await analyse(file);
    await answersStage().run(doc, {} as StageContext);
    return doc;
  };

  it('is the tail, not questions: each subject\'s table joined to that subject, the numbers it leaves out unanswered', async () => {
    const doc = await read(made.tables);
    expect(doc.questions.map(q => `${q.section}:${q.number}=${q.answer}`)).toEqual([
      'Mathematics:1=B', 'Mathematics:2=C', 'Mathematics:3=A', 'Mathematics:4=D',
      'Physics:1=A', 'Physics:2=D', 'Physics:3=null', 'Physics:4=B',
    ]);
    // The key's lines are no question's text.
    expect(doc.questions.flatMap(q => q.lines).map(l => rawText(l.spans)).join('\n')).not.toMatch(/Answer key|✓/u);
    expect(doc.messages.list.filter(m => m.rule.startsWith('answers/') && m.rule !== 'answers/missing').map(m => m.message)).toEqual([]);
  }, 120_000);

  it('reads a run of pairs in the letters the options are printed in', async () => {
    const doc = await read(made.pairs);
    expect(doc.questions.map(q => `${q.number}=${q.answer}`)).toEqual(['1=β', '2=γ', '3=α', '4=δ']);
    expect(doc.tail.map(l => rawText(l.spans)).join(' ')).toMatch(/Απαντήσεις/u);
  }, 120_000);
});

describe('a row of item numbers in a key picture', () => {
  it('runs by one where most cells agree, keeps its readings where they rise by more, and leaves unread one that breaks the rise', () => {
    expect(numberRun([1, 2, 3, 7, 5])).toEqual([1, 2, 3, 4, 5]);
    expect(numberRun([2, 6, 7, 8, 9, 10, 42, 15, 16, 21])).toEqual([2, 6, 7, 8, 9, 10, null, 15, 16, 21]);
    // A row of number, value, number, value breaks the rise too often to be a row of numbers.
    expect(numberRun([1, 12, 2, 5, 3, 100])).toBeNull();
    // A selection's numbers, in blocks that each run by one: as printed, not the run most cells agree on.
    expect(numberRun([1, 2, 4, 5, 6, 7, 8, 9, 11, 12])).toEqual([1, 2, 4, 5, 6, 7, 8, 9, 11, 12]);
    expect(numberRun([13, 14, 15, 16, 17, 18, 20, 21, 22, 23])).toEqual([13, 14, 15, 16, 17, 18, 20, 21, 22, 23]);
    // One cell off the run is a misreading, at the end as in the middle.
    expect(numberRun([1, 2, 3, 4, 5, 6, 7, 8, 9, 70])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(numberRun([1, 2, 3, 4, 8, 6, 7, 8])).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe('answers read by OCR in the letters a paper labels its options with', () => {
  const doc = () => ({
    template: { re: { sections: [] }, options: { markers: [] }, sections: { default: null } },
    questions: [['а', 'б', 'в', 'г'], ['а', 'б', 'в', 'г'], ['а', 'б', 'в', 'г'], []].map((labels, i) => ({
      id: `q${i + 1}`, number: i + 1, section: null, type: labels.length ? 'mcq' : 'short', options: labels.map(label => ({ label: `(${label})` })),
      parts: [], flags: [], points: null, page: 1, answer: null,
    })),
    messages: new Diagnostics('paper.pdf'),
  }) as unknown as PaperDocument;

  it('take the letter a glyph also reads as for a multiple-choice question, its digit for a short one, and no lone digit in place of a letter', () => {
    const d = doc();
    joinAnswers(d, [
      { section: null, number: 1, value: '6', choice: null, points: null, alternative: 'б' },
      { section: null, number: 2, value: 'в', choice: true, points: null },
      { section: null, number: 3, value: '2', choice: null, points: null },
      { section: null, number: 4, value: '6', choice: null, points: null, alternative: 'б' },
    ], 'key.png');
    expect(d.questions.map(q => q.answer)).toEqual(['б', 'в', null, '6']);
    expect(d.messages.list.map(m => `${m.rule} ${m.item}`)).toContain('answers/digit-for-letter q3');
  });
});

// Keys appended to scanned papers, as OCR reads their lines: a pair's mark lost (`43` for `4.3`), a
// stray glyph in a row of item numbers (`355` for `35`).
const readOcrKey = (lines: string[]) => readPairKey(lines.map(l => textLine(l, 1, true))).map(b => b.entries.map(e => `${e.number}=${e.answer}`).join(' '));

describe('a key read by OCR off a scan', () => {
  it('cuts a glued pair whose mark was lost where the numbers go on rising', () => {
    expect(readOcrKey(['2.2 3.3 43 5.1 6.1 7.56 10.2 12.3 13.2 14.82'])).toEqual(['2=2 3=3 4=3 5=1 6=1 7=56 10=2 12=3 13=2 14=82']);
    expect(readOcrKey(['Math', '14 3.4 44 5.5', 'Physics', '2.5 3.30 4.1 5.8'])).toEqual(['1=4 3=4 4=4 5=5', '2=5 3=30 4=1 5=8']);
    expect(readOcrKey(['1D 2.A 3.B 4C'])).toEqual(['1=D 2=A 3=B 4=C']);
  });
  it('leaves a line alone where more tokens lost the mark than kept it, or a cut is not the only one', () => {
    expect(readOcrKey(['12 13 14'])).toEqual([]);
    expect(readOcrKey(['1.4 23 34'])).toEqual([]);
    expect(readOcrKey(['1.2 234 25.4'])).toEqual([]); // 234 cuts as 2|34 and as 23|4
  });
  it('reads a line OCR misread by one decision over its tokens: marks lost, misread or moved, a garbled pair left out', () => {
    // seed 20261211's scans: `1.B … 10.B 11.C` read beside Vietnamese, `1.2 … 5.2` beside Japanese.
    expect(readOcrKey(['16. 2A 3E 4C 5C 6B 7C 8B 9A 106 11C'])).toEqual(['1=6 2=A 3=E 4=C 5=C 6=B 7=C 8=B 9=A 10=6 11=C']);
    expect(readOcrKey(['12 2.5 3.3 4.5 5,2'])).toEqual(['1=2 2=5 3=3 4=5 5=2']);
    expect(readOcrKey(['13. 5 14. 150 15, 168 16. 36'])).toEqual(['13=5 14=150 15=168 16=36']);
    expect(readOcrKey(['LA 2.60 3B 4.D 5A 6E 7.B 8.C'])).toEqual(['2=60 3=B 4=D 5=A 6=E 7=B 8=C']);
    // seed 20261208, paper 0264: `10.エ` read as `19.エ` between `9.ア` and `11.ウ`, three pairs garbled besides.
    expect(readOcrKey(['Lo 2.エ 3.イ 4.ウ 5ウ 64 Tt BF 9.ア 19.エ 11. ウ 12. 7 13. 5 14. 159 15, 168 16.36 17. 17 18.41'])).toEqual(['2=エ 3=イ 4=ウ 5=ウ 6=4 9=ア 10=エ 11=ウ 12=7 13=5 14=159 15=168 16=36 17=17 18=41']);
    // A key that leaves a question out keeps its numbers: a skip costs less than a misread digit.
    expect(readOcrKey(['1.A 2.B 3.C 7.D 8.A'])).toEqual(['1=A 2=B 3=C 7=D 8=A']);
  });
  it('reads no key from a line of values, lengths, or a line the text layer printed', () => {
    expect(readOcrKey(['12 23 34 45 56'])).toEqual([]);
    expect(readOcrKey(['3cm 4cm 5cm 6cm'])).toEqual([]);
    expect(readOcrKey(['x 2A 3B'])).toEqual([]);
    expect(readPairKey([textLine('2A 3B 4C 5D')])).toEqual([]);
  });
  it('reads a row of numbers with a stray digit in one cell as the number between its neighbours', () => {
    expect(readOcrKey(['№ 2 3 5 8 10 11 14 15 20 21 24 28 29 30 31 32 33 34 355 40', '✓ 24 D A 105 A D B C A D C E D A B B C A D B'])).toEqual(['2=24 3=D 5=A 8=105 10=A 11=D 14=B 15=C 20=A 21=D 24=C 28=E 29=D 30=A 31=B 32=B 33=C 34=A 35=D 40=B']);
    // Two cells astray, or a cell no single character's loss puts in place: no row.
    expect(readOcrKey(['№ 2 3 5 8 10 11 145 15 20 21 24 355 40', '✓ A B C D A B C D A B C D A'])).toEqual([]);
  });
  it('reads a row of answers OCR garbled in places under a row of numbers: each cell under its number, the garbled ones unread', () => {
    // seed 20261213, paper 0932: `No, 1 2 … 12` over `\ E 6 120 B E ^ B Cc E E 64 ^` (Korean OCR of A–C).
    const row = (label: string, cells: string[], ocr = true, shift = 0) => ({ page: 3, ocr, tokens: [{ text: label, x0: 40, x1: 52 }, ...cells.map((text, i) => ({ text, x0: 80 + 30 * i + shift, x1: 80 + 30 * i + shift + 6 * text.length }))] });
    const numbers = row('No,', Array.from({ length: 12 }, (_, i) => String(i + 1)));
    const read = (...lines: ReturnType<typeof row>[]) => readPairKey(lines).flatMap(b => b.entries.map(e => `${e.number}=${e.answer}`));
    expect(read(numbers, row('\\', ['E', '6', '^', 'B', 'E', '(ES', 'B', 'Cc', 'E', 'E', '©', '^']))).toEqual(['1=E', '2=6', '4=B', '5=E', '7=B', '8=Cc', '9=E', '10=E']);
    // A text layer's row is printed, not misread: a cell that is no answer leaves it no row.
    expect(read({ ...numbers, ocr: false }, row('\\', ['E', '6', '^', 'B', 'E', '(ES', 'B', 'Cc', 'E', 'E', '©', '^'], false))).toEqual([]);
    // Fewer than half the cells read, or a second token outside the numbers' columns: no row.
    expect(read(numbers, row('\\', ['E', '^', '^', 'B', '©', '(ES', 'B', '^', '^', 'E', '©', '^']))).toEqual([]);
    expect(read(numbers, { ...row('\\', ['E', '6', 'B', 'B', 'E', 'C', 'B', 'C', 'E', 'E', 'A', '^']), tokens: [...row('\\', ['E', '6', '^', 'B', 'E', 'C', 'B', 'C', 'E', 'E', 'A', '^']).tokens, { text: 'x', x0: 500, x1: 506 }] })).toEqual([]);
  });
});

describe('a key read twice, joined item by item', () => {
  const a = (number: number, value: string) => ({ section: null, number, value });
  const letters = (x: { value: string }) => /^[A-E]$/.test(x.value);
  it('keeps what both read, what one alone read, and where they differ the one its question can take', () => {
    const { answers, differ } = joinReadings([a(1, '6'), a(2, 'A'), a(3, 'C')], [a(1, 'B'), a(2, 'A'), a(4, 'D')], letters);
    expect(answers.map(x => `${x.number}=${x.value}`)).toEqual(['1=B', '2=A', '3=C', '4=D']);
    expect(differ).toEqual([]);
  });
  it('takes neither where both or neither fit, and says which differ', () => {
    const { answers, differ } = joinReadings([a(1, 'E'), a(2, '0')], [a(1, 'B'), a(2, '8')], letters);
    expect(answers).toEqual([]);
    expect(differ.map(d => `${d.first.value}/${d.second.value}`)).toEqual(['E/B', '0/8']);
  });
});
