// answers: keys as CSV, as a grid image and as an image-only PDF, joined by section and number;
// every conflict a diagnostic, no answer guessed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../pipeline/config.ts';
import { readKeyImage } from '../pipeline/keys/image-key.ts';
import { imagesToPdf } from '../pipeline/providers/image-pdf.ts';
import { closeOcr, ocrPool } from '../pipeline/providers/ocr.ts';
import { joinAnswers, keyFileFor, readKey } from '../pipeline/stages/answers.ts';
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
