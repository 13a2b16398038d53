// segment: numbers that start questions, points by position, options, types and sections.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../pipeline/config.ts';
import type { Column, Line, Span } from '../pipeline/document.ts';
import { findPoints } from '../pipeline/stages/segment.ts';
import { analyse, templates } from './analyse.ts';
import fs from 'node:fs';
import os from 'node:os';
import { loadTemplate, schemaErrors } from '../pipeline/template.ts';
import { sequenceScore } from '../pipeline/structure/conventions.ts';
import type { LineFeatures } from '../pipeline/structure/candidates.ts';
import { decode, selectionLike, type Candidate, type Reading } from '../pipeline/structure/decode.ts';
import { coverageOf, judgeNumbers, leadsUnread, levelTwins, listedWithOptions, numbersPassedOver, numbersSkipped, questionsSwallowing } from '../pipeline/structure/judge.ts';
import { bareNumber, candidatesOf, setAside, type LookAlikes } from '../pipeline/structure/reading-input.ts';
import { lineFeatures } from '../pipeline/structure/candidates.ts';
import { twinOrder } from '../pipeline/structure/twin-columns.ts';
import { appendedKeyStart } from '../pipeline/structure/key-block.ts';
import { SURE_MARGIN } from '../pipeline/structure/model.ts';
import { Diagnostics } from '../pipeline/diagnostics.ts';
import type { PaperDocument } from '../pipeline/document.ts';
import { labelRow, readLead } from '../pipeline/structure/lead.ts';
import { numberedHeadingName } from '../pipeline/structure/numbered-heading.ts';
import { labelGroups } from '../pipeline/structure/label-groups.ts';
import { labelStats } from '../pipeline/structure/label-role.ts';
import { labelAlphabets, learnMarks, learnOtherOptions, marksPattern, optionSchemes, unitGarbled, unitReadAsDigits } from '../pipeline/structure/learn.ts';
import { learnOptionRows } from '../pipeline/structure/option-rows.ts';
import { optionsOf } from '../pipeline/structure/options.ts';
import type { Template } from '../pipeline/template.ts';
import { applyRangeTypes, rangeTypes } from '../pipeline/structure/range-types.ts';
import { applyRangeMarks, rangeMarks } from '../pipeline/structure/range-marks.ts';
import { paperTitle, prominentHeading, type LineRole } from '../pipeline/structure/assemble.ts';
import { joinWrappedMarks, markText, markValue, patternPoints } from '../pipeline/structure/marks.ts';
import type { Question } from '../pipeline/document.ts';
import { haveShared, KCSAT } from './helpers.ts';
import { statedCount, statesUnreadCount } from '../pipeline/text/stated-count.ts';

const kcsat = templates.find(t => t.id === 'kcsat-math')!;
const generic = templates.find(t => t.id === 'generic')!;
const span = (text: string, x: number, baseline: number, size = 11.5): Span =>
  ({ page: 1, text, bbox: [x, baseline - size * 0.85, x + size * text.length * 0.7, baseline + size * 0.2], baseline, size, font: 'Body', math: false });

/** Lines OCR read, one per row of `[text, y, x]`: words 30 points apart at size 10, running to x 400. */
const ocrRows = (rows: readonly (readonly [string, number, number])[]) => rows.map(([text, y, x]) => ({ page: 1, column: 0, rtl: false, bbox: [x, y, 400, y + 12] as [number, number, number, number],
  spans: text.split(' ').map((w, k) => ({ ...span(w, x + k * 30, y + 10, 10), font: 'ocr' })) }));

/** A one-page OCR paper of those lines, its column from x 45 to 400, with the page's shapes (frames). */
const ocrDoc = (lines: Line[], shapes: object[] = []) =>
  ({ lines, template: generic, pages: [{ columns: [{ x0: 45, x1: 400 }], shapes, ocr: true, section: null }] }) as unknown as PaperDocument;

/** The lines the decoder weighs on a one-page OCR paper of these lines. */
const ocrCandidates = (lines: Line[], lookAlikes: LookAlikes = {}) => {
  const doc = ocrDoc(lines);
  return candidatesOf(doc, lineFeatures(doc, 10, generic), new Map(), 10, lookAlikes);
};
/** …as `line:number read` (`null`: a mark whose number is the decoder's to give). */
const ocrReads = (lines: Line[]) => ocrCandidates(lines).map(c => `${c.f.index}:${c.read}`);
/** An OCR line's words set bold. */
const bold = (l: Line): Line => ({ ...l, spans: l.spans.map(sp => ({ ...sp, font: 'ocr-bold' })) });

describe('segment', () => {
  it('reads a point marker split over text lines by position', () => {
    // `[3 점 ]` with 점 set a little lower, as in some KICE booklets.
    const p = findPoints([span('값은?', 100, 300), span('[3', 140, 300), span('점', 156, 302.5), span(']', 168, 300)], kcsat);
    expect(p?.value).toBe(3);
    expect(findPoints([span('값은? [4점]', 100, 300)], kcsat)?.value).toBe(4);
    expect(findPoints([span('[3', 140, 300), span('점', 156, 340), span(']', 168, 300)], kcsat)).toBeNull();
  });

  it('segments the sample into its ten questions with points, options, types, sections and pages', async () => {
    const doc = await analyse(path.join(ROOT, 'fixtures/samples/2026-sample-math-dif.pdf'));
    expect(doc.questions.map(q => `${q.section}:${q.number}:${q.type}:${q.points}:${q.options.length}:p${q.page}`)).toEqual([
      'common:1:mcq:2:5:p1', 'common:2:mcq:2:5:p1', 'common:3:mcq:3:5:p1', 'common:4:mcq:3:5:p1', 'common:5:mcq:4:5:p2',
      'common:6:mcq:4:5:p2', 'common:7:short:3:0:p3', 'common:8:short:4:0:p3', 'calculus:23:mcq:2:5:p4', 'calculus:24:mcq:3:5:p4',
    ]);
    const q24 = doc.questions[9];
    expect(q24.options.map(o => o.text)).toEqual(['1/e', '1', 'e', '2', '2e']);
    expect(q24.stem).toMatch(/^곡선 y = ln x/);
    expect(q24.stem).not.toMatch(/\[3점\]|24\./);
  });
});

/** A paper's line as the decoder reads it: its text at the column's edge, with what it carries. */
function features(rows: { text: string; heading?: LineFeatures['heading']; labelOpens?: boolean; marks?: boolean; part?: boolean; bold?: boolean; hanging?: boolean; indent?: number; options?: number[] }[]): LineFeatures[] {
  return rows.map((r, index) => {
    const line = { page: 1 + Math.floor(index / 4), column: 0, bbox: [70, 100 + index * 20, 400, 112 + index * 20] as [number, number, number, number], spans: [{ ...span(r.text, 70, 110 + index * 20), font: r.bold ? 'Body-Bold' : 'Body' }] };
    const lead = readLead(line);
    return {
      index, line, text: r.text, lead, indent: r.indent ?? 0, atEdge: !r.indent, leftmost: true, bold: !!r.bold, sizeRatio: 1, boxed: false, alone: false, hanging: !!r.hanging,
      heading: r.heading ?? null, headingId: null, headingType: null, optionLabels: r.options ?? [], labelOpens: !!r.labelOpens, marks: !!r.marks, part: !!r.part, keyLike: false, labelRow: lead !== null && labelRow(lead), ocr: false, templateLead: false, sectionChange: false,
      numberedHeading: numberedHeadingName(line, r.text, lead, 1, 0),
      continued: lead !== null && generic.re.continued.some(re => re.test(lead.rest)),
      statesMarks: false,
    };
  });
}
/** A column far wider than the test's lines (none of them runs on into the next). */
const wide = () => ({ x0: 70, x1: 560 }) as Column;
const candidates = (fs: LineFeatures[]): Candidate[] => fs.filter(f => f.lead).map(f => ({ f, lead: f.lead, style: f.lead!.style, read: f.lead!.number, major: f.lead!.major }));
const settings = { opens: (n: number) => n === 1, stated: false, maxJump: 1, restartStops: false, paperCarries: true, max: 200, plainHeadingsSection: true };

describe('decoder', () => {
  it('reads a last subject whose first question carries nothing, not its run as the question before it going on', () => {
    // A third subject under its heading (seed 20261208, paper 0251): its 1 a short answer, its 2
    // with options. Taken into the second subject's last question, its options would be that one's.
    const fs = features([
      { text: 'Physics', heading: 'plain' }, { text: '1. Find x.' }, { text: '(A) 1 (B) 2', options: [0, 1] }, { text: '2. Find y.' }, { text: '(A) 3 (B) 4', options: [0, 1] }, { text: '3. Find z.' },
      { text: 'Chemistry', heading: 'plain' }, { text: '1. Evaluate log 64.' }, { text: '2. Solve 8x = 16.' }, { text: '(A) 2 (B) 17', options: [0, 1] }, { text: '3. Solve 5x = 10.' },
    ]);
    const reading = decode(fs, candidates(fs), { ...settings, paperCarries: true });
    expect(reading.anchors.map(a => `${a.number}@${a.candidate.f.index}`)).toEqual(['1@1', '2@3', '3@5', '1@7', '2@8', '3@10']);
  });

  it('reads `Question 1 (continued)` atop the next page as the question going on, not a section starting over at 1', () => {
    const fs = features([
      { text: 'Question 1 (3 marks)', marks: true }, { text: '(a) Find the value of x.', part: true }, { text: 'NOT TO SCALE', heading: 'plain' },
      { text: 'Question 1 (continued)' }, { text: '(b) Hence find y.', part: true },
      { text: 'Question 2 (4 marks)', marks: true }, { text: '(a) Show that the sum is 4.', part: true },
    ]);
    const reading = decode(fs, candidates(fs), settings);
    expect(reading.anchors.map(a => `${a.number}@${a.candidate.f.index}`)).toEqual(['1@0', '2@5']);
  });

  it('reads a block whose first question\'s lead OCR lost: a label moving on opens late at a cost, the block is not lost whole', () => {
    // Fuzzer seed 20261214, paper 0022 (a Korean scan): `B.1` read as nothing the decoder could take;
    // B.2 could not follow A.3, the label having moved on without opening at 1, and A was lost instead.
    const fs = features([
      { text: 'A.1. Find x. [1]', marks: true }, { text: 'A.2. Find y. [2]', marks: true }, { text: 'A.3. Find z. [2]', marks: true },
      { text: '(00) Evaluate 7 + 8. [4]', marks: true }, { text: 'B.2. Evaluate 5 + 8. [3]', marks: true }, { text: 'B.3. Evaluate 2 + 9. [3]', marks: true },
    ]);
    const reading = decode(fs, candidates(fs), settings);
    expect(reading.anchors.map(a => `${a.candidate.major}${a.number}@${a.candidate.f.index}`)).toEqual(['A1@0', 'A2@1', 'A3@2', 'B2@4', 'B3@5']);
  });

  it('reads a line holding only the paper\'s question word as that question\'s lead with its number lost to OCR, not a heading', () => {
    const rows = [['प्रश्न 1 मान ज्ञात कीजिए।', 60, 45], ['प्रश्न 2 मान ज्ञात कीजिए।', 90, 45], ['प्रश्न 3 मान ज्ञात कीजिए।', 120, 45], ['प्रश्न', 150, 45], ['मान ज्ञात कीजिए।', 170, 45]] as const;
    const lines = ocrRows(rows).map((l, i) => (i === 3 ? bold(l) : l));
    expect(lineFeatures(ocrDoc(lines), 10, generic)[3].heading).toBe(null);
    expect(ocrReads(lines)).toEqual(['0:1', '1:2', '2:3', '3:null']);
    // …or with its number read as letters drawn like digits (`प्रश्न I` for `प्रश्न 1`).
    expect(ocrReads(ocrRows([['प्रश्न I', 30, 45], ['मान ज्ञात कीजिए।', 45, 45], ...rows.slice(1, 3), ['प्रश्न 4 मान ज्ञात कीजिए।', 150, 45]]))).toEqual(['0:null', '2:2', '3:3', '4:4']);
    // A word that leads no run of the paper's questions stays what it is.
    expect(ocrReads(ocrRows([['प्रश्न 1 मान ज्ञात कीजिए।', 60, 45], ['खंड', 90, 45]]).map((l, i) => (i === 1 ? bold(l) : l)))).toEqual(['0:1']);
  });

  it('marks every candidate under an instructions heading on a scan as an instruction, however OCR read its number', () => {
    // Fuzzer seed 20261214, paper 0077 (a Greek scan): `1.` … `6.` in a box under `Οδηγίες`, set in
    // from the margin; a selection's questions `Question 3` … after it. The items read as questions
    // 1 and 2 before `Question 3`, costing nothing as instructions, and took the statement of marks
    // (`6. Τα θέματα 3 έως 14 …`) into question 2.
    const lines = ocrRows([['Οδηγίες', 40, 50], ['1. Να απαντήσετε σε όλα τα θέματα.', 60, 60], ['2. Δεν επιτρέπεται η χρήση αριθμομηχανής.', 80, 60],
      ['Question 3 Πόσο είναι το 25% του 100;', 120, 45]]);
    const doc = ocrDoc(lines);
    const aside = new Map([[0, 'instructions'], [1, 'instructions'], [2, 'instructions']] as const);
    const cands = candidatesOf(doc, lineFeatures(doc, 10, generic), aside, 10);
    expect(cands.map(c => `${c.f.index}:${c.read}:${!!c.instructions}`)).toEqual(['1:1:true', '2:2:true', '3:3:false']);
  });

  it('takes no option OCR could read as a number (`A. 84` as `4. 84`) for a question, in a row or atop a stack of the next labels', () => {
    // Fuzzer seed 20261219, paper 0046 (a Russian scan, options one under another): `A. 84` taken as
    // question 4, its question's options then question 4's, and 4's own lead passed over.
    const pattern = '(?:^|(?<=[\\s:：]))(A|B|C|D|E)\\s*[.．](?![0-9０-９])';
    const t = { ...generic, options: { ...generic.options, markers: ['A', 'B', 'C', 'D', 'E'], pattern }, re: { ...generic.re, option: new RegExp(pattern, 'gu') } } as Template;
    const reads = (rows: ReadonlyArray<readonly [string, number, number]>) => {
      const doc = { ...ocrDoc(ocrRows(rows)), template: t } as PaperDocument;
      return candidatesOf(doc, lineFeatures(doc, 10, t), new Map(), 10).map(c => `${c.f.index}:${c.read}`);
    };
    const stacked = reads([['3. Find the area.', 60, 45], ['A. 84', 80, 45], ['B. 85', 100, 45], ['C. 89', 120, 45], ['4. Find x.', 140, 45]]);
    expect(stacked.filter(c => c.startsWith('1:'))).toEqual([]);
    expect(stacked).toContain('4:4');
    expect(reads([['3. Find the area.', 60, 45], ['A. 84 B. 85 C. 89', 80, 45], ['4. Find x.', 140, 45]])).toEqual(['0:3', '2:4']);
    // A line `A. 84` with no label after it, in its row or under it, may still be a misread `4.`.
    expect(reads([['3. Find the area.', 60, 45], ['A. 84', 80, 45], ['Find y.', 100, 45]])).toContain('1:4');
  });

  it('takes a block\'s letter OCR read as a digit (`8.4.`, `81.`) where another of its letters is read cleanly, the decoder to choose', () => {
    // Fuzzer seed 20261214, paper 0042 (a Korean scan): `B.1.` read `81.`, `B.4.` read `8.4.`, `B.7.` read `87.`.
    const { lookAlikes } = labelAlphabets(ROOT);
    const cands = (more: ReadonlyArray<readonly [string, number, number]>) =>
      ocrCandidates(ocrRows([['A.1. 주머니에 빨간 공 2개가 있다.', 60, 45], ['A.2. 함수 f(x)의 값을 구하시오.', 90, 45], ...more]), lookAlikes);
    const read = (cs: Candidate[]) => cs.filter(c => c.lookAlike).map(c => `${c.f.index}:${c.major}${c.read}`);
    expect(read(cands([['81. 주머니에 파란 공 3개가 있다.', 120, 45], ['B.2. 함수 f(x)를 구하시오.', 150, 45], ['8.4. 함수 g(x)를 구하시오.', 180, 45]]))).toEqual(['2:B1', '4:B4']);
    // A part set in under its question is no block's question; a letter far from any the paper prints is none.
    expect(read(cands([['  4.1. 값을 구하시오.', 120, 60], ['B.2. 함수 f(x)를 구하시오.', 150, 45], ['54. 함수 g(x)를 구하시오.', 180, 45]]))).toEqual([]);
    // A paper numbered without letters reads its `81.` as 81 alone.
    expect(ocrCandidates(ocrRows([['80. 값을 구하시오.', 60, 45], ['81. 값을 구하시오.', 90, 45]]), lookAlikes).filter(c => c.lookAlike)).toEqual([]);
  });

  it('reads a run whose numbers all lost their `1` to OCR (`Question 12` read `Question 2`), and a lead whose number OCR lost whole, in its place', () => {
    // Fuzzer seed 20261214, paper 0005 (a Hindi scan): `प्रश्न 10` read `प्रश्न 0`, `प्रश्न 11` read
    // `प्रश्न` alone, 12–17 read 2–7. Read as a new section numbered from 1 at the word alone, or
    // questions 13–15 left out: each lost `1` cost as much as the first.
    const fs = features([
      { text: 'Question 8 Find x.' }, { text: '(1) 2 (2) 3', options: [0, 1], indent: 15 }, { text: 'Question 9 Find y.' }, { text: '(1) 4 (2) 5', options: [0, 1], indent: 15 },
      { text: 'Question 0 Find z.' }, { text: '(1) 6 (2) 7', options: [0, 1], indent: 15 }, { text: 'Question' }, { text: '(1) 8 (2) 9', options: [0, 1], indent: 15 },
      { text: 'Question 2 Find w.' }, { text: '(1) 1 (2) 2', options: [0, 1], indent: 15 }, { text: 'Question 3 Find v.' }, { text: '(1) 3 (2) 4', options: [0, 1], indent: 15 },
      { text: 'Question 4 Find u.' }, { text: '(1) 5 (2) 6', options: [0, 1], indent: 15 },
    ]).map(f => ({ ...f, ocr: true, lead: readLead(f.line, true) }));
    const cands = [...candidates(fs), { f: fs[6], lead: null, style: 'ocr', read: null, major: null }].sort((a, b) => a.f.index - b.f.index);
    const reading = decode(fs, cands, { ...settings, opens: (n: number) => n === 1 || n === 8 });
    expect(reading.anchors.map(a => `${a.number}@${a.candidate.f.index}`)).toEqual(['8@0', '9@2', '10@4', '11@6', '12@8', '13@10', '14@12']);
  });

  it('reads a number OCR ran on into its text (`Question 29+4` for `Question 2 9+4`) by its leading digits', () => {
    // Fuzzer seed 20261216, paper 0005 (a Hindi scan): the space after `Question 2` lost before a stem
    // opening with a digit. Taken as a misread number of more digits, it cost more than leaving
    // question 2 out (its text and options then question 1's).
    const fs = features([
      { text: 'Question 1 Find x.' }, { text: '(1) 2 (2) 3', options: [0, 1], indent: 15 }, { text: 'Question 29+4 = ?' }, { text: '(1) 4 (2) 5', options: [0, 1], indent: 15 },
      { text: 'Question 3 Find z.' }, { text: '(1) 6 (2) 7', options: [0, 1], indent: 15 }, { text: 'Question 4 Find w.' }, { text: '(1) 8 (2) 9', options: [0, 1], indent: 15 },
    ]).map(f => ({ ...f, ocr: true }));
    const read = [1, null, 29, null, 3, null, 4, null];
    const cands = (runsOn: boolean): Candidate[] => fs.flatMap((f, i) => (read[i] === null ? [] : [{ f, lead: null, style: 'ocr', read: read[i], major: null, ...(runsOn && i === 2 ? { runsOn } : {}) }]));
    const numbers = (runsOn: boolean) => decode(fs, cands(runsOn), settings).anchors.map(a => `${a.number}@${a.candidate.f.index}`);
    expect(numbers(true)).toEqual(['1@0', '2@2', '3@4', '4@6']);
    // A `29` standing apart from its text is no number run on: read as printed, it is no 2.
    expect(numbers(false)).not.toContain('2@2');
  });

  it('reads a numbered instruction list as no run the questions go on from: stepping from its `3.` over its `4.` to a question\'s `4` costs as a later twin', () => {
    // Fuzzer seed 20261218, paper 0027 (a Greek scan, a selection opening at 3 under `Μέρος Α`): the
    // list's 1–3 were read as questions, the third taking the heading and question 3 into its block.
    const fs = features([
      { text: '1. Write in ink.' }, { text: '2. Answer every question.' }, { text: '3. Choose one answer.' }, { text: '4. Good luck!' }, { text: 'Part A', heading: 'plain' },
      { text: '3 Find x.' }, { text: '(1) 2 (2) 3', options: [0, 1], indent: 15 }, { text: '4 Find y.' }, { text: '(1) 4 (2) 5', options: [0, 1], indent: 15 },
      { text: '5 Find z.' }, { text: '(1) 6 (2) 7', options: [0, 1], indent: 15 },
    ]).map(f => ({ ...f, ocr: true }));
    // (The questions' numbers read at the margin, in OCR's style; the list's in its own.)
    const cands = candidates(fs).map(c => (c.f.index >= 5 ? { ...c, lead: null, style: 'ocr' } : c));
    const reading = decode(fs, cands, { ...settings, stated: true });
    expect(reading.anchors.map(a => `${a.number}@${a.candidate.f.index}`)).toEqual(['3@5', '4@7', '5@9']);
  });

  it('weighs each anchor by `perAnchor`: a stated count\'s pull takes in a question a gap left in the text before it', () => {
    // Fuzzer seed 20261218, paper 0053 (a selection of 8 keeping its numbers, `10．` a short answer,
    // then `15．` with options): leaving 15 in question 10's text cost less than the gap.
    const fs = features([
      { text: '1. Find x.' }, { text: 'A) 1 B) 2', options: [0, 1], indent: 15 }, { text: '2. Find y.' }, { text: 'A) 3 B) 4', options: [0, 1], indent: 15 },
      { text: '9. Find the angle C.' }, { text: '10. Evaluate log 32.' }, { text: '15. Find a10.' }, { text: 'A) 64 B) 61', options: [0, 1], indent: 15 },
    ]);
    const numbers = (perAnchor: number) => decode(fs, candidates(fs), { ...settings, stated: true, perAnchor }).anchors.map(a => a.number);
    expect(numbers(0)).toEqual([1, 2, 9, 10]);
    expect(numbers(0.5)).toEqual([1, 2, 9, 10, 15]);
  });

  it('reads a line led by words the paper leads no question with (a translation\'s `What is 3 times 4?`) as no OCR reading of its lead', () => {
    // Fuzzer seed 20261218, paper 0054 (a Japanese scan numbered in boxes, each question printed in
    // English under it): the chain stepped from the boxes' numbers OCR read to `What is 25` free, as
    // if OCR had read the paper's own lead another way, and the questions after it ended in 25's text.
    const fs = features([
      { text: '1 20+7×9 の値を求めよ。' }, { text: 'A. 80 B. 87', options: [0, 1], indent: 15 }, { text: '2 3×4 の値を求めよ。' }, { text: 'What is 3 times 4?' }, { text: 'A. 12 B. 7', options: [0, 1], indent: 15 },
    ]).map(f => ({ ...f, ocr: true }));
    const cands = candidates(fs).map(c => (c.lead?.word ? c : { ...c, lead: null, style: 'ocr' }));
    expect(cands.find(c => c.f.index === 3)?.lead?.word).toBeTruthy();
    const reading = decode(fs, cands, { ...settings, stated: true });
    expect(reading.anchors.map(a => `${a.number}@${a.candidate.f.index}`)).toEqual(['1@0', '2@2']);
  });

  it('reads a scan opening late as opening there, not its first number misread as a 1 before a gap; where a count is stated, opening where the count says', () => {
    // Fuzzer seed 20261219, paper 0026 (a Russian scan stating 14 questions, numbered 5 to 18 after
    // an instruction list 1–4): `5.` was read as question 1, a misread and a jump to 6 costing less
    // than opening late; question 5 lost, and the paper ended done.
    const rows = (first: number, count: number) => features(Array.from({ length: count }, (_, k) => [{ text: `${first + k}. Find x.` }, { text: '(1) 2 (2) 3', options: [0, 1], indent: 15 }]).flat()).map(f => ({ ...f, ocr: true }));
    // (The numbers read at the margin, in OCR's style; the option rows no candidates.)
    const ocrCands = (fs: LineFeatures[]) => candidates(fs).filter(c => !c.f.optionLabels.length).map(c => ({ ...c, lead: null, style: 'ocr' }));
    // A scan opening at 2: its `2.` read as a 1 would open where papers open, at a misread and a gap.
    const fs = rows(2, 4);
    const first = (more: Partial<typeof settings>) => decode(fs, ocrCands(fs), { ...settings, ...more }).anchors.map(a => a.number);
    expect(first({})).toEqual([2, 3, 4, 5]);
    expect(first({ stated: true })).toEqual([2, 3, 4, 5]);
    // An instruction list `1.`–`4.` before it, carrying nothing: the stated count places the opening at 5.
    const listed = [...features(['1. Write in ink.', '2. Answer every question.', '3. Choose one answer.', '4. No calculators.'].map(text => ({ text }))), ...rows(5, 4)].map((f, index) => ({ ...f, index, ocr: true }));
    const cands = candidates(listed).filter(c => !c.f.optionLabels.length).map(c => (c.f.index >= 4 ? { ...c, lead: null, style: 'ocr' } : c));
    const read = (more: Partial<typeof settings> & { statedCount?: number }) => decode(listed, cands, { ...settings, ...more }).anchors.map(a => `${a.number}@${a.candidate.f.index}`);
    expect(read({ stated: true, statedCount: 4 })).toEqual(['5@4', '6@6', '7@8', '8@10']);
  });

  it('reads a paper that skips numbers again and again as a selection: a gap before its last number and a late first number as printed', () => {
    // Fuzzer seed 20261214, paper 0175 (a scan that keeps a longer form's numbers, `2:` … `30:`):
    // read as questions 1 … 28, `2:` and `30:` taken for misread numbers, a step costing less than
    // a gap or a late opening on a paper that states no count.
    const printed = [2, 3, 4, 5, 6, 10, 11, 12, 15, 16, 20, 21, 22, 24, 25, 26, 27, 30];
    const ocr = (ns: number[]) => features(ns.flatMap(n => [{ text: `${n}: Find x.` }, { text: '1. 2 2. 3', options: [0, 1], indent: 15 }])).map(f => ({ ...f, ocr: true, lead: readLead(f.line, true) }));
    // (Numbers OCR read at the margin: their style is OCR's, each may be a misreading.)
    const ocrCands = (fs: LineFeatures[]) => candidates(fs).map(c => ({ ...c, style: 'ocr' }));
    const fs = ocr(printed);
    const first = decode(fs, ocrCands(fs), settings);
    expect(selectionLike(first)).toBe(true);
    const reading = decode(fs, ocrCands(fs), { ...settings, skips: true });
    expect(reading.anchors.map(a => a.number)).toEqual(printed);
    // One gap, or two, are questions lost: no selection.
    const lost = ocr([1, 2, 3, 5, 6, 7, 9, 10]);
    expect(selectionLike(decode(lost, ocrCands(lost), settings))).toBe(false);
  });

  it('reads a two-part number under the question of its first part (`Task 4`, then `4.1.`) as that question\'s part, not a new block of questions', () => {
    // Fuzzer seed 20261214, paper 0086 (a Russian scan, `Задание N` with parts `N.1.` set a little
    // in, subjects restarting at 1): 4.1–4.3 read as a block numbered 1–3, Задание 5–9 as more.
    const task = (n: number, parts: number) => [{ text: `Task ${n}`, bold: true }, { text: 'Given f(x) = 3x + 3.' }, ...Array.from({ length: parts }, (_, k) => ({ text: `${n}.${k + 1}. (0-3) Find f(${k + 2}).`, marks: true, indent: 15 }))];
    // Task 4's parts set in less than the template's tolerance (the scan askew), at the column's
    // edge; every number OCR's, each may be a misreading.
    const fs = features([1, 2, 3, 4, 5, 6].flatMap(n => task(n, n === 4 ? 3 : 2)))
      .map(f => ({ ...f, ocr: true, lead: readLead(f.line, true), atEdge: f.atEdge || f.text.startsWith('4.') }));
    const reading = decode(fs, candidates(fs).map(c => (c.major === null ? { ...c, style: 'ocr' } : c)), { ...settings, opens: (n: number) => n === 1 });
    expect(reading.anchors.map(a => `${a.candidate.major ?? ''}${a.number}`)).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('reads a question surely where it goes on over the page (`Question 2 (continued)`), in the languages the generic template names', () => {
    const paper = (continued: string) => features([
      { text: 'Question 1 (3 marks)', marks: true }, { text: '(a) Find the value of x.', part: true },
      { text: 'Question 2 (4 marks)', marks: true }, { text: '(a) Show that the sum is 4.', part: true },
      { text: `Question 2 ${continued}` }, { text: '(b) Hence find the product.', part: true },
      { text: 'Question 3 (5 marks)', marks: true }, { text: '(a) Prove it.', part: true },
    ]);
    for (const continued of ['(continued)', '(cont.)', '(suite)', '（续）', 'continues on page 3']) {
      const fs = paper(continued);
      expect(fs[4].continued, continued).toBe(true);
      const reading = decode(fs, candidates(fs), settings);
      expect(reading.anchors.map(a => `${a.number}@${a.candidate.f.index}`), continued).toEqual(['1@0', '2@2', '3@6']);
      // A reading that opened question 2 at its continuation (a page late) scores well below.
      expect(reading.anchors[1].margin, continued).toBeGreaterThanOrEqual(SURE_MARGIN);
    }
    // The same page read by a template that names no such words: the continuation could as well be the opening.
    const plain = paper('(continued)').map(f => ({ ...f, continued: false }));
    const marked = paper('(continued)');
    expect(decode(marked, candidates(marked), settings).anchors[1].margin).toBeGreaterThan(decode(plain, candidates(plain), settings).anchors[1].margin + 2);
    expect(features([{ text: '1. Continued fractions: write 7/3 as one.' }])[0].continued).toBe(false);
  });

  it('takes a run whose option rows lost their second label to OCR (`1. 10 223 3. 20 4. 27`) for one carrying options, so the next part starts over', () => {
    const row = (options: number[]) => ({ text: `1. 10 ${options.includes(1) ? '2. 23' : '223'} 3. 20 4. 27`, indent: 16, options });
    const fs = features([
      { text: 'Part A', heading: 'plain', bold: true },
      { text: 'A.1. What is 50% of 40?' }, row([0, 2, 3]),
      { text: 'A.2. Solve 6x + 2 = 20.' }, row([0, 2, 3]),
      { text: 'A.3. What is 2 to the 4th?' }, row([0, 2, 3]),
      { text: 'Part B', heading: 'plain', bold: true },
      { text: 'B.1. Solve 9x + 18 = 45.' }, row([0, 1, 2, 3]),
      { text: 'B.2. Solve 6x + 15 = 57.' }, row([0, 1, 2, 3]),
    ]);
    const reading = decode(fs, candidates(fs), settings);
    expect(reading.anchors.map(a => `${a.candidate.major}${a.number}@${a.candidate.f.index}`)).toEqual(['A1@1', 'A2@3', 'A3@5', 'B1@8', 'B2@10']);
  });

  it('takes no question\'s own number for its first option where options are numbered as questions are (an instruction list `1.`–`7.` before them carries nothing)', () => {
    // Options `1.`–`4.` set in under their question; the cover's instructions `1.`–`7.` at the edge.
    const option = (k: number) => ({ text: `${k + 1}. ${k * 3 + 2}`, indent: 14, options: [k], labelOpens: true });
    const instructions = [1, 2, 3, 4, 5, 6, 7].map(n => ({ text: `${n}. Read the instructions before you start.`, options: [n - 1], labelOpens: true }));
    const question = (n: number) => [{ text: `${n}. What is ${n} + ${n}?`, options: [n - 1], labelOpens: true }, ...[0, 1, 2, 3].map(option)];
    const fs = features([...instructions, { text: 'Part 1 — Mathematics', bold: true }, ...question(1), ...question(2), ...question(3)]);
    const reading = decode(fs, candidates(fs), { ...settings, stated: true });
    expect(reading.anchors.map(a => `${a.number}@${a.candidate.f.index}`)).toEqual(['1@8', '2@13', '3@18']);
    // Read with a question's number as its first option, instruction 1 and the option `2.` under it carried options.
    const asOptions = fs.map(f => ({ ...f, labelOpens: false }));
    expect(decode(asOptions, candidates(asOptions), { ...settings, stated: true }).anchors[0].candidate.f.index).toBe(0);
  });

  it('restarts the numbering under a numbered subject heading (`Part 2 — Physics`) and takes no such heading as a question', () => {
    const fs = features([
      { text: 'Part 1 — Mathematics', bold: true },
      { text: '(1) Find the value of f(2) when f(x) = 3x + 6.', marks: true }, { text: '(a) Show your working.', part: true },
      { text: '(2) Solve the equation 2x + 4 = 10.', marks: true },
      { text: 'Part 2 — Physics', bold: true },
      // Drawn on the first subject's pattern, with other quantities: another question, not the first printed again.
      { text: '(1) Find the value of f(3) when f(x) = 5x + 2.', marks: true }, { text: '(a) Show your working.', part: true },
      { text: '(2) Solve the equation 3x + 1 = 7.', marks: true },
    ]);
    expect(fs.map(f => f.numberedHeading)).toEqual(['Mathematics', null, null, null, 'Physics', null, null, null]);
    const reading = decode(fs, candidates(fs), settings);
    expect(reading.anchors.map(a => `${a.number}@${a.candidate.f.index}`)).toEqual(['1@1', '2@3', '1@5', '2@7']);
  });

  it('reads a scan whose questions are numbered from 17 as 17, 18, 19, 20: OCR is taken to make up no digit so the paper can open at 1', () => {
    // As OCR reads a paper printing bold numbers without a stop (`17 (0–5) 计算…`): the margin marks read as bare numbers.
    const fs = features([
      { text: '17 (0-5) 计算 15 + 6 × 7 的结果是', marks: true }, { text: '1. 57', indent: 14 },
      { text: '18 (0-5) 260 的 20% 是', marks: true }, { text: '1. 52', indent: 14 },
      { text: '19 (0-3) 3 的平方是', marks: true }, { text: '1. 9', indent: 14 },
      { text: '20 (0-1) 60 的 50% 是', marks: true }, { text: '1. 28', indent: 14 },
    ]).map(f => ({ ...f, ocr: true }));
    const ocr = fs.filter(f => !f.indent).map(f => ({ f, lead: null, style: 'ocr', read: bareNumber(f.text.split(' ')[0], 200), major: null }));
    expect(ocr.map(c => c.read)).toEqual([17, 18, 19, 20]);
    // The options' `1.` are candidates too (in their own style, off the edge): 1 is among the numbers OCR's neighbours allow.
    const all = [...ocr, ...candidates(fs.filter(f => f.indent))].sort((a, b) => a.f.index - b.f.index);
    // The paper states its count: opening late is cheap only at 2 or 3, and 17 read as 1 then a gap to 18 would cost less.
    const reading = decode(fs, all, { ...settings, stated: true });
    expect(reading.anchors.map(a => `${a.number}@${a.candidate.f.index}`)).toEqual(['17@0', '18@2', '19@4', '20@6']);
    // A mark that is no number is left for the decoder to number.
    expect([bareNumber('S.', 200), bareNumber('0', 200), bareNumber('300', 200)]).toEqual([null, null, null]);
    // A number with a colon where the paper's numbering reads a stop (`2:` among `1.` `3.`) is that number.
    expect([bareNumber('2:', 200), bareNumber('12;', 200), bareNumber('2:5', 200)]).toEqual([2, 12, null]);
  });

  it('reads a bracketed number OCR read cleanly but with a digit wrong (`[29]` between 24 and 26) as the number the run gives it, keeping its count of digits', () => {
    // Fuzzer seed 20261214, paper 0041 (a Vietnamese scan numbered `[13]` … `[27]`): `[25]` read `[29]`.
    const paper = (instructions: string[], ...numbers: string[]) => {
      const fs = features([...instructions.map(text => ({ text })), ...numbers.flatMap(n => [{ text: `[${n}] Tính giá trị của biểu thức (2 điểm)`, marks: true }, { text: '(A) 3 (B) 8', indent: 16, options: [0, 1] }])]).map(f => ({ ...f, ocr: true }));
      return decode(fs, candidates(fs.filter(f => !f.indent)), { ...settings, opens: (n: number) => n === 1 }).anchors.map(a => `${a.number}@${a.candidate.f.index}`);
    };
    expect(paper([], '23', '24', '29', '26', '27')).toEqual(['23@0', '24@2', '25@4', '26@6', '27@8']);
    // …or a `1` lost inside the bracket (seed 20261213, paper 0428: `[17]` read `[7]` between 16 and 18).
    expect(paper([], '15', '16', '7', '18')).toEqual(['15@0', '16@2', '17@4', '18@6']);
    // A bracket holds its digits: `[13]` after an instruction list `1.`–`2.` is not taken for a 3 OCR
    // made a 1 up in front of, to follow the list on.
    expect(paper(['1. Đề thi gồm 15 câu.', '2. Giám thị không giải thích.', '3. Không sử dụng tài liệu.', '4. Không được sử dụng máy tính.', '5. Mỗi câu chỉ chọn một phương án.', '6. Làm tất cả các câu hỏi.'], '13', '14', '15', '16')).toEqual(['13@6', '14@8', '15@10', '16@12']);
  });

  it('reads a scan\'s `1` between 10 and 12 as question 11, OCR having lost one of its `1`s, and a `3` there as a gap', () => {
    // The Greek scan 0127 (seed 20261201): its bold `11.` read `1.`, and the run went 10 → 12 without
    // it. (Bold numbers set without a stop here, as OCR's margin marks are read: bare.)
    const paper = (lost: string) => {
      const fs = features([
        { text: '9 Να υπολογίσετε το 23. (2 μονάδες)', marks: true }, { text: '1. 57 2. 66', indent: 16 },
        { text: '10 Σε αριθμητική πρόοδο είναι a1 = 4. (3 μονάδες)', marks: true }, { text: '1. 57 2. 66', indent: 16 },
        { text: `${lost} Στο τρίγωνο ΑΒΓ είναι A = 30°. (4 μονάδες)`, marks: true }, { text: '1. 57 2. 66', indent: 16 },
        { text: '12 Πόσο είναι το 10% του 280; (1 μονάδα)', marks: true }, { text: '1. 57 2. 66', indent: 16 },
      ]).map(f => ({ ...f, ocr: true }));
      const ocr = fs.filter(f => !f.indent).map(f => ({ f, lead: null, style: 'ocr', read: bareNumber(f.text.split(' ')[0], 200), major: null }));
      const all = [...ocr, ...candidates(fs.filter(f => f.indent))].sort((a, b) => a.f.index - b.f.index);
      return decode(fs, all, { ...settings, opens: (n: number) => n === 9 }).anchors.map(a => `${a.number}@${a.candidate.f.index}`);
    };
    expect(paper('1')).toEqual(['9@0', '10@2', '11@4', '12@6']);
    // A digit read in place of another (`3` for 11) is no lost `1`: the run steps over it.
    expect(paper('3')).toEqual(['9@0', '10@2', '12@6']);
  });

  it('reads bare numbers in the margin as questions where they run on, their text hanging past them, whether or not they carry marks', () => {
    const fs = features([
      { text: '1 Solve 2x + 3 = 11. [2 marks]', marks: true }, { text: 'Show your working.', indent: 20 },
      { text: '2 Evaluate log2 8. [3 marks]', marks: true }, { text: 'Give an exact value.', indent: 20 },
      { text: '3 Explain why f is increasing.' }, { text: 'Use the derivative.', indent: 20 },
      { text: '4 What is 20% of 60?' }, { text: 'Write the answer.', indent: 20 },
    ]);
    const reading = decode(fs, candidates(fs), settings);
    expect(reading.anchors.map(a => `${a.number}@${a.candidate.f.index}`)).toEqual(['1@0', '2@2', '3@4', '4@6']);
  });

  it('opens the reading at the first of two languages set side by side, surely (each number printed twice)', () => {
    const fs = features([
      { text: 'Question 1 Solve 2x + 3 = 11. [2 marks]', marks: true }, { text: 'Question 2 Evaluate log2 8. [3 marks]', marks: true },
      { text: 'Question 1 حل المعادلة 2x + 3 = 11. [2 درجات]', marks: true }, { text: 'Question 2 احسب log2 8. [3 درجات]', marks: true },
    ]);
    const reading = decode(fs, candidates(fs), settings);
    expect(reading.anchors.map(a => `${a.number}@${a.candidate.f.index}`)).toEqual(['1@0', '2@1']);
    // A reading opening at the second language's 1 passes over the first's: it costs what a step to a later twin costs.
    for (const a of reading.anchors) expect(a.margin).toBeGreaterThanOrEqual(SURE_MARGIN);
  });

  it('still ends the questions where a question is printed again with its own quantities (worked solutions)', () => {
    const fs = features([
      { text: '(1) Find the value of f(2) when f(x) = 3x + 6.', marks: true }, { text: '(2) Solve the equation 2x + 4 = 10.', marks: true },
      { text: 'Solutions', heading: 'plain' },
      { text: '(1) Find the value of f(2) when f(x) = 3x + 6.' }, { text: '(2) Solve the equation 2x + 4 = 10.' },
    ]);
    const reading = decode(fs, candidates(fs), settings);
    expect(reading.anchors.map(a => `${a.number}@${a.candidate.f.index}`)).toEqual(['1@0', '2@1']);
    expect(reading.endReason).toBe('the paper repeats itself');
  });

  it('opens the questions at a task led by a word that carries nothing (its parts unread), not after it, past a numbered instruction list', () => {
    const fs = features([
      { text: '1. Write your solutions in full.' }, { text: '2. Calculators are not allowed.' },
      { text: 'Task 14' }, { text: 'Let f(x) = 2x + 7. Find f(2) and solve f(x) = 17.' },
      { text: 'Task 15' }, { text: 'A bag holds 3 red balls and 6 blue ones.' }, { text: 'b) Find the probability of red.', part: true },
      { text: 'Task 16' }, { text: 'A bag holds 3 red balls and 7 blue ones.' }, { text: 'b) List the outcomes.', part: true },
    ]);
    // (A paper that opens at 14, as a selection keeping its long form's numbers does.)
    const reading = decode(fs, candidates(fs), { ...settings, opens: () => true });
    expect(reading.anchors.map(a => `${a.number}@${a.candidate.f.index}`)).toEqual(['14@2', '15@4', '16@7']);
  });

  it('takes the numbers a heading states marks for under it as questions, though their blocks carry nothing of their own', () => {
    // Fuzzer seed 20261207, paper 0178: short answers first, options only under each subject's last
    // question. Without the statements, one question swallowing the first subject read best.
    const opts = { text: '(A) 51 (B) 49', options: [0, 1], labelOpens: true };
    const fs = features([
      { text: 'Mathematics: questions 1 to 4 carry 5 marks each.', heading: 'plain' }, { text: '1. Evaluate 5².' }, { text: '2. A bag holds 6 red balls.' },
      { text: '3. Evaluate 3².' }, { text: '4. What is 8 × 4 + 19?' }, opts,
      { text: 'Physics: questions 1 to 2 carry 2 marks each.', heading: 'plain' }, { text: '1. Evaluate 3².' }, { text: '2. Solve 7x + 20 = 83.' }, opts,
    ]);
    const ranges = [{ from: 1, to: 4, line: 0 }, { from: 1, to: 2, line: 6 }];
    const read = (r?: typeof ranges) => decode(fs, candidates(fs), { ...settings, ranges: r }).anchors.map(a => `${a.number}@${a.candidate.f.index}`);
    expect(read(ranges)).toEqual(['1@1', '2@2', '3@3', '4@4', '1@7', '2@8']);
    expect(read()).not.toEqual(read(ranges));
  });

  it('takes a first section of short answers whose heading states their marks as a run that a later section may follow', () => {
    // Fuzzer seed 20261209, paper 0100: `Sezione A (5 punti ciascuno)` over A.1–A.3, short answers
    // carrying nothing of their own, then B.1 … with options. A run that carries nothing may not
    // be followed by a new one (an instruction list), but the heading says these are questions.
    const opts = { text: '① 38 ② 45', options: [0, 1] };
    const fs = features([
      { text: 'Sezione A (5 punti ciascuno)', heading: 'plain' }, { text: 'A.1. Quanto è il 20% di 280?' }, { text: 'A.2. Quanto è il 10% di 320?' }, { text: 'A.3. Calcola a7.' },
      { text: 'Sezione B (3 punti ciascuno)', heading: 'plain' }, { text: 'B.1. Quanto è il 20% di 240?' }, opts, { text: 'B.2. Quanto misura l’angolo C?' }, opts,
    ]);
    const ranges = [{ from: 1, to: 200, line: 0, until: 4 }, { from: 1, to: 200, line: 4, until: 9 }];
    const read = (r?: typeof ranges) => decode(fs, candidates(fs), { ...settings, ranges: r }).anchors.map(a => `${a.candidate.major}.${a.number}@${a.candidate.f.index}`);
    expect(read(ranges)).toEqual(['A.1@1', 'A.2@2', 'A.3@3', 'B.1@5', 'B.2@7']);
    expect(read()).toEqual(['B.1@5', 'B.2@7']);
    // A range stated once for the paper vouches for no list numbered again after its questions (NSW
    // HSC 2022: `Attempt Questions 1–10`, and a reference sheet's `1.`–`9.` at the back).
    const sheet = features([
      { text: 'Section I: attempt Questions 1–3, 1 mark each', heading: 'plain' }, { text: '1. Find x. [1 mark]', marks: true }, { text: '2. Find y. [1 mark]', marks: true }, { text: '3. Find z. [1 mark]', marks: true },
      { text: 'Reference sheet', heading: 'plain' }, { text: '1. Arithmetic series' }, { text: '2. Geometric series' }, { text: '3. Logarithms' },
      { text: 'Probability', heading: 'plain' }, { text: '1. Binomial' }, { text: '2. Normal' }, { text: '3. Poisson' },
    ]);
    // (Its first list the statement's reward may still take, as before: the second, after a list
    // that carries nothing, no reading takes.)
    const sheetRead = decode(sheet, candidates(sheet), { ...settings, ranges: [{ from: 1, to: 3, line: 0 }] }).anchors.map(a => `${a.number}@${a.candidate.f.index}`);
    expect(sheetRead.slice(0, 3)).toEqual(['1@1', '2@2', '3@3']);
    expect(sheetRead).not.toContain('1@9');
  });

  it('does not end the questions at a row of option labels that every question prints alike', () => {
    // Fuzzer seed 20261209, paper 0259: pictured options under `1. 2. 3. 4.` after each question,
    // the last question's row the same as the first's: no repeat of the paper, only its options.
    const row = { text: '1. 2. 3. 4.', options: [0, 1, 2, 3], labelOpens: true, indent: 14 };
    const fs = features([
      { text: 'ข้อ 01' }, { text: 'จงหาค่าของ 5³ (4 คะแนน)', marks: true }, row, { text: 'ข้อ 02' }, { text: 'จงหาค่าของ log2 8 (2 คะแนน)', marks: true }, row,
      { text: 'ข้อ 03' }, { text: 'รูปสี่เหลี่ยมผืนผ้ากว้าง 11 ซม. (3 คะแนน)', marks: true }, row,
    ]);
    const reading = decode(fs, fs.filter(f => f.lead).map(f => ({ f, lead: f.lead, style: f.lead!.style, read: f.lead!.number, major: f.lead!.major })), { ...settings, opens: () => true });
    expect(reading.anchors.map(a => `${a.number}@${a.candidate.f.index}`)).toEqual(['1@0', '2@3', '3@6']);
    expect(reading.end).toBeNull();
  });

  it('reads a question a second subject prints again after questions of its own as that subject\'s, not as the paper repeating itself', () => {
    // Physics draws its third question from mathematics' (the same words, a table's numbers below
    // them): its 1 and 2 are questions of its own, so its 3 is no repeat of the paper.
    const rows = [
      { text: 'Mathematics', heading: 'plain' as const }, { text: '1. Solve 2x + 1 = 17.', marks: true }, { text: '2. Solve 4x + 8 = 20.', marks: true },
      { text: '3. The table shows how many books a class read each day. How many in total?', marks: true },
      { text: 'Physics', heading: 'plain' as const }, { text: '1. A sequence has a1 = 2 and difference 2. Find a6.', marks: true }, { text: '2. Find the value of 3 to the 4th.', marks: true },
      { text: '3. The table shows how many books a class read each day. How many in total?', marks: true },
    ];
    const fs = features(rows);
    const reading = decode(fs, candidates(fs), settings);
    expect(reading.anchors.map(a => `${a.number}@${a.candidate.f.index}`)).toEqual(['1@1', '2@2', '3@3', '1@5', '2@6', '3@7']);
    expect(reading.endReason).toBeNull();
  });

  it('reads a run\'s last question surely where it carries nothing (a grid-in before the next section)', () => {
    // Without it, question 2 would run on over a `3.` of its own style: a reading passing over its number.
    const fs = features([
      { text: '1. Find x. (2 marks)', marks: true }, { text: '2. Find y. (2 marks)', marks: true }, { text: '3. Enter the value of z in the grid.' },
      { text: 'Section B', heading: 'section' }, { text: '1. A train leaves at noon; when does it arrive? (3 marks)', marks: true }, { text: '2. Show that the triangle is right-angled. (3 marks)', marks: true },
    ]);
    const reading = decode(fs, candidates(fs), settings);
    expect(reading.anchors.map(a => `${a.number}@${a.candidate.f.index}`)).toEqual(['1@0', '2@1', '3@2', '1@4', '2@5']);
    expect(reading.anchors[2].margin).toBeGreaterThanOrEqual(SURE_MARGIN);
  });
});

describe('papers that read nothing', () => {
  const line = (text: string, rtl = false, spans?: Span[]) => ({ page: 1, column: 0, rtl, bbox: [70, 100, 400, 112] as [number, number, number, number], spans: spans ?? [span(text, 70, 110)] });

  it('reads a lead word with a glyph its font maps to no character (`कार्य 1` as `काय\\0 1`)', () => {
    const lead = readLead(line('काय\u0000 1'));
    expect(lead && { number: lead.number, word: lead.word }).toEqual({ number: 1, word: 'काय\u0000' });
    expect(readLead(line('काय\u0000 12 एक थैले'))?.number).toBe(12);
  });

  it('reads a lead word the text layer spaces after its virama (`प्रश् न 04`) and one it does not (`प्रश्न 05`) as one lead', () => {
    const a = readLead(line('प्रश् न 04'));
    const b = readLead(line('प्रश्न 05'));
    expect(a?.style).toBe(b?.style);
    expect([a?.number, b?.number]).toEqual([4, 5]);
  });

  it('reads `№. 1` and `No. 2` (the numero sign, and OCR\'s reading of it) as one lead, and learns it as the paper\'s numbering', async () => {
    const a = readLead(line('№. 1 Вычислите 4⁴.'));
    const b = readLead(line('No. 2 Стороны прямоугольника равны 17 см и 11 см.'));
    expect(a?.style).toBe(b?.style);
    expect([a?.number, b?.number]).toEqual([1, 2]);
    const { inferConventions } = await import('../pipeline/structure/conventions.ts');
    const texts = ['№. 1 Вычислите 4⁴. [1.5 балла]', '1. 257', '2. 261', 'No. 2 Найдите площадь. [1.5 балла]', '1. 188', '2. 189', '№. 3 Вычислите 2⁴. [3 балла]', '1. 16', '2. 18', 'No. 4 Вычислите 4³. [2 балла]', '1. 64', '2. 61'];
    const lines = texts.map((t, i) => ({ ...line(t), bbox: [t.startsWith('N') || t.startsWith('№') ? 70 : 90, 100 + 14 * i, 400, 112 + 14 * i] as [number, number, number, number], spans: [span(t, t.startsWith('N') || t.startsWith('№') ? 70 : 90, 110 + 14 * i)] }));
    const doc = { lines, pages: [{ columns: [{ x0: 70, x1: 400 }], shapes: [], ocr: false }] } as unknown as PaperDocument;
    const inferred = inferConventions(doc, 11.5, generic)!;
    // Both forms open questions, the options' `1.` `2.` none.
    expect(lines.filter(l => inferred.template.re.numbering.test(l.spans[0].text)).map(l => l.spans[0].text.slice(0, 5))).toEqual(['№. 1 ', 'No. 2', '№. 3 ', 'No. 4']);
  });

  it('learns a number closed by a counter word (`1번`, `2번26 + 9`, `3题`) as the paper\'s numbering, not a word OCR made of one lead (`TA 첫째항이`)', async () => {
    const { inferConventions } = await import('../pipeline/structure/conventions.ts');
    for (const [texts, want] of [
      [['1번 첫째항이 4인 등차수열 [2점]', '① 11 ② 12 ③ 13 ④ 14', '2번26 + 9 × 3의 값은? [5점]', '① 51 ② 53 ③ 55 ④ 57', 'TA 첫째항이 9인 등차수열 [2점]', '① 1 ② 2 ③ 3 ④ 4', '4번 방정식 7x + 9 = 93의 해는? [1점]', '① 12 ② 13 ③ 14 ④ 15'], ['1번', '2번', '4번']],
      [['1题 计算 2+3 (5分)', 'A. 4 B. 5 C. 6 D. 7', '2题 计算 3+3 (5分)', 'A. 5 B. 6 C. 7 D. 8', '3题 计算 4+3 (5分)', 'A. 6 B. 7 C. 8 D. 9'], ['1题', '2题', '3题']],
    ] as const) {
      const lines = texts.map((t, i) => ({ ...line(t), bbox: [70, 100 + 14 * i, 400, 112 + 14 * i] as [number, number, number, number], spans: [span(t, 70, 110 + 14 * i)] }));
      const doc = { lines, pages: [{ columns: [{ x0: 70, x1: 400 }], shapes: [], ocr: false }] } as unknown as PaperDocument;
      const inferred = inferConventions(doc, 11.5, generic)!;
      expect(inferred.conventions.numbering.id).toBe('counter');
      expect(lines.map(l => inferred.template.re.numbering.exec(l.spans[0].text)?.[0]).filter(Boolean)).toEqual(want);
    }
  });

  it('reads a lead word of a script without spaces run into its number (`課題1`, `문제3`), and a Latin word so run in as a formula', () => {
    expect([readLead(line('課題1'))?.word, readLead(line('課題1'))?.number]).toEqual(['課題', 1]);
    expect(readLead(line('문제3 다음을 구하시오.'))?.number).toBe(3);
    expect(readLead(line('x2 + 3x = 10'))).toBeNull();
    expect(readLead(line('log10 100 = 2'))).toBeNull();
  });

  it('reads a number\'s stop that OCR read as a comma (`A.2, 2⁴ …`, `12, Find …`) as its stop, on an OCR line only, and no decimal', () => {
    const ocr = readLead(line('A.2, 24 の値を求めよ'), true);
    expect(ocr && { major: ocr.major, number: ocr.number, style: ocr.style, rest: ocr.rest }).toEqual({ major: 'A', number: 2, style: 'L.#.', rest: '24 の値を求めよ' });
    expect(readLead(line('12, Find the value of x.'), true)?.style).toBe('#.');
    // Typeset, a comma after a number is what was printed.
    expect(readLead(line('A.2, 24 の値を求めよ'))).toBeNull();
    expect(readLead(line('12,5 kg of flour'), true)).toBeNull();
    // A number within a sentence is no lead, however OCR read what opens the line.
    expect(readLead(line('TA 첫째항이 9, 공차가 3인 등차수열'), true)).toBeNull();
  });

  it('reads a worded lead\'s digits OCR read as letters drawn like them (`प्रश्न i9`, `प्रश्न 2I`), and a number 0 only where OCR lost a digit', () => {
    // Fuzzer seed 20261214, paper 0015 (a Hindi scan): questions 19 and 21 were no leads at all.
    const read = (text: string, ocr = true) => { const l = readLead(line(text), ocr); return l && `${l.word}|${l.number}|${l.rest}`; };
    expect([read('प्रश्न i9'), read('प्रश्न 2I'), read('Câu 1O. Tính')]).toEqual(['प्रश्न|19|', 'प्रश्न|21|', 'câu|10|Tính']);
    // Numerals of letters alone are numerals (`Part I`); typeset, letters are what was printed.
    expect([read('Part I'), read('Section II'), read('प्रश्न i9', false)]).toEqual([null, null, null]);
    // `प्रश्न 10` read `प्रश्न 0`: on an OCR line a worded 0 is a number whose digit was lost (the decoder numbers it); a bare 0 is none.
    expect([read('प्रश्न 0'), read('0. Find x.'), read('प्रश्न 0', false)]).toEqual(['प्रश्न|0|', null, null]);
  });

  it('names a numbered heading read by OCR whose dash came back as `一` or `ㅡ`, bold though the thin stroke read light', () => {
    const words = (text: string, light: string) => text.split(' ').map((w, i) => ({ ...span(w, 70 + i * 40, 110), font: w === light ? 'ocr' : 'ocr-bold' }));
    const heading = (text: string, light: string) => { const l = line(text, false, words(text, light)); return numberedHeadingName(l, text, readLead(l), 1, 0); };
    expect(heading('第1部 一 数学', '一')).toBe('数学');
    expect(heading('3 영역ㅡ 화학', '')).toBe('화학');
    // On a text layer `一` is a word like any other.
    const typed = line('第1部 一次関数', false, [{ ...span('第1部 一次関数', 70, 110), font: 'Body-Bold' }]);
    expect(numberedHeadingName(typed, '第1部 一次関数', readLead(typed), 1, 0)).toBe('部 一次関数');
  });

  it('names a long numbered heading read by OCR, bold though a few of its short pieces read light, and not a line half light', () => {
    // A Thai heading that runs on into its ranges' marks: OCR gives it in pieces, and the strokes of
    // a digit or a one-letter piece are misjudged here and there.
    const text = 'ตอนที 3 - เคมี ข้อ 1 ถึงข้อ 2 ข้อละ 4 คะแนน ข้อ 3 ถึงข้อ 3 ข้อละ 1 คะแนน';
    const read = (light: (w: string, i: number) => boolean) => {
      const l = line(text, false, text.split(' ').map((w, i) => ({ ...span(w, 70 + i * 30, 110), font: light(w, i) ? 'ocr' : 'ocr-bold' })));
      return numberedHeadingName(l, text, readLead(l), 1, 0);
    };
    expect(read((w, i) => i === 1 || i === 15)).toContain('เคมี');
    expect(read((_, i) => i % 2 === 0)).toBeNull();
  });

  it('reads a right-to-left line\'s number whose stop comes first in visual order (`.2` is `2.`), and only there', () => {
    const rtl = readLead(line('.2 مستطيل طوله 15 سم', true));
    expect(rtl && { number: rtl.number, close: rtl.close, style: rtl.style, rest: rtl.rest }).toEqual({ number: 2, close: '.', style: '#.', rest: 'مستطيل طوله 15 سم' });
    expect(readLead(line('.2 is a decimal', false))).toBeNull();
    expect(readLead(line('.25 مستطيل', true))?.number).toBe(25);
  });

  it('takes bare numbers hung a tab before their text as questions, not bare numbers set a word space before it', () => {
    const rows = (hanging: boolean) => features([
      { text: '1 What is 25% of 240?', hanging }, { text: '2 Solve 2x + 3 = 11.', hanging }, { text: '3 Expand (x + 2)(x − 5).', hanging },
    ]);
    const hung = rows(true);
    expect(decode(hung, candidates(hung), { ...settings, paperCarries: false }).anchors.map(a => a.number)).toEqual([1, 2, 3]);
    const plain = rows(false);
    expect(decode(plain, candidates(plain), { ...settings, paperCarries: false }).anchors).toEqual([]);
    // A first look that lets bare numbers open questions (to learn the paper's options from) takes them too.
    expect(decode(plain, candidates(plain), { ...settings, paperCarries: false, bareNumbersFree: true }).anchors.map(a => a.number)).toEqual([1, 2, 3]);
  });

  it('takes a lead\'s closing word that OCR set in a run of its own (`第12` `题`) into the anchor, not the stem', async () => {
    // Fuzzer seed 20261216, paper 0033 (a Chinese scan): every stem began `题`.
    const { matchAnchor } = await import('../pipeline/structure/anchors.ts');
    const words = (...ws: [string, number][]) => ws.map(([w, x]) => ({ ...span(w, x, 110, 10), font: 'ocr' }));
    // The lead the paper's lines teach (templates/generic.json's `第1题` candidate).
    const numbering = new RegExp('^\\s*(?:問|第)\\s*(\\d{1,3})\\s*(?:题|題|問)?\\s*[.．、:：]?', 'u');
    const taught = { ...generic, re: { ...generic.re, numbering } };
    const at = matchAnchor(line('', false, words(['第12', 70], ['题', 95], ['logs', 115], ['512', 140])), { x0: 70, x1: 560 }, 10, taught, true);
    expect([at?.number, at?.spans.map(s => s.text).join('')]).toEqual([12, '第12题']);
    // A word the pattern does not read as the lead's stays the stem's.
    const plain = matchAnchor(line('', false, words(['1.', 70], ['Find', 85], ['x', 110])), { x0: 70, x1: 560 }, 10, generic, true);
    expect([plain?.number, plain?.spans.map(s => s.text).join('')]).toEqual([1, '1.']);
  });

  it('tells a number OCR ran on into its text (`Question 29+4~`), read again after its run was cut, and cuts the anchor at the number the reading gives it', async () => {
    // Fuzzer seed 20261216, paper 0005 (a Hindi scan): `Question 2 9+4×2` read `Question 29+4~ 2`.
    const { matchAnchor, runOnCut } = await import('../pipeline/structure/anchors.ts');
    const numbering = new RegExp('^\\s*(?:Question)\\s*(\\d{1,3})(?![0-9])\\s*[.:：．)]?', 'u');
    const taught = { ...generic, re: { ...generic.re, numbering } };
    const words = (...ws: [string, number][]) => ws.map(([w, x]) => ({ ...span(w, x, 110, 10), bbox: [x, 100, x + w.length * 6, 112] as [number, number, number, number], font: 'ocr' }));
    const glued = line('', false, words(['Question', 70], ['29+4~', 125], ['2', 160]));
    const first = matchAnchor(glued, { x0: 70, x1: 560 }, 10, taught, true);
    expect([first?.number, first?.runsOn]).toEqual([29, true]);
    // The first look cut `29` from `+4~`: read again, the touching run still says it ran on.
    expect(glued.spans.map(s => s.text)).toEqual(['Question', '29', '+4~', '2']);
    const again = matchAnchor(glued, { x0: 70, x1: 560 }, 10, taught, true)!;
    expect(again.runsOn).toBe(true);
    expect(runOnCut(glued, again.spans, 2).map(s => s.text)).toEqual(['Question', '2']);
    expect(glued.spans.map(s => s.text)).toEqual(['Question', '2', '9', '+4~', '2']);
    // A number a space apart from its text did not run on.
    expect(matchAnchor(line('', false, words(['Question', 70], ['2', 125], ['9+4', 140])), { x0: 70, x1: 560 }, 10, taught, true)?.runsOn).toBe(false);
  });

  it('takes a long line read by OCR with every word bold for a heading, and one with only its number bold for none', async () => {
    const { lineFeatures } = await import('../pipeline/structure/candidates.ts');
    const words = (text: string, bold: (i: number) => boolean) => text.split(' ').map((w, i) => ({ ...span(w, 45 + i * 30, 110, 10), font: bold(i) ? 'ocr-bold' : 'ocr' }));
    const heading = 'Hóa học Từ câu 1 đến câu 2, mỗi câu 4 điểm. Từ câu 3 đến câu 3, mỗi câu 2 điểm.';
    const doc = (spans: Span[]) => ({ lines: [line('', false, spans)], pages: [{ columns: [{ x0: 45, x1: 560 }], shapes: [], ocr: true, section: null }] }) as unknown as PaperDocument;
    expect(lineFeatures(doc(words(heading, () => true)), 10, generic)[0].heading).toBe('plain');
    expect(lineFeatures(doc(words(heading, i => i < 2)), 10, generic)[0].heading).toBe(null);
  });

  it('takes a form\'s row of fields for no heading, however large OCR measures it', async () => {
    // Fuzzer seed 20261208, paper 0047 (a scan): the name line, its blank's rule under it, measured
    // 16 pt against a body of 10, named the first subject in place of `Μαθηματικά`.
    const { lineFeatures } = await import('../pipeline/structure/candidates.ts');
    const words = (text: string, size: number) => text.split(' ').map((w, i) => ({ ...span(w, 45 + i * 60, 110, size), font: 'ocr' }));
    const doc = (spans: Span[]) => ({ lines: [line('', false, spans)], pages: [{ columns: [{ x0: 45, x1: 560 }], shapes: [], ocr: true, section: null }] }) as unknown as PaperDocument;
    expect(lineFeatures(doc(words('Ονοματεπώνυμο: Διάρκεια:45λεπτά', 16)), 10, generic)[0].heading).toBe(null);
    expect(lineFeatures(doc(words('Nome e cognome: ________ Durata: 50 minuti', 16)), 10, generic)[0].heading).toBe(null);
    expect(lineFeatures(doc(words('Sezione A: algebra', 16)), 10, generic)[0].heading).toBe('plain');
  });

  it('reads an OCR option row opening with `A,` as options, not as question 4 (OCR reads `A.` as `4.`)', async () => {
    const { lineFeatures } = await import('../pipeline/structure/candidates.ts');
    const { candidatesOf } = await import('../pipeline/structure/reading-input.ts');
    const rows = [['14 380 の 10% は いくつか。', 45], ['A, 28 B. 41', 59], ['C. 76 D. 38', 59], ['15 240 の 10% は いくつか。', 45], ['A. 14 B. 22', 59], ['C. 24 D. 28', 59]] as const;
    const lines = rows.map(([text, x], i) => ({ page: 1, column: 0, rtl: false, bbox: [x, 100 + i * 20, 400, 112 + i * 20] as [number, number, number, number],
      spans: text.split(' ').map((w, k) => ({ ...span(w, x + k * 24, 110 + i * 20, 10), font: 'ocr' })) }));
    const doc = ocrDoc(lines);
    const fs = lineFeatures(doc, 10, generic);
    // Both rows hold the first two labels (the comma read as the label's stop)…
    expect([fs[1].optionLabels, fs[4].optionLabels]).toEqual([[0, 1], [0, 1]]);
    // …and of the numbers read at the margin through OCR's misreadings, only the questions' are candidates
    // (`C. 76` is one in its own style, a lettered lead, as on any page).
    expect(candidatesOf(doc, fs, new Map(), 10).filter(c => c.style === 'ocr').map(c => `${c.f.index}:${c.read}`)).toEqual(['0:14', '3:15']);
  });

  it('takes no mark OCR could not read for a number where the line goes on with the paragraph a number opened, nor a letter of a script OCR makes no digit of', () => {
    // `18. In triangle ABC …` / `∠C …` (the ∠C read `LC`) set close under it; `Ab` opening a question after a gap.
    const rows = [['18. चित्र में त्रिभुज ABC में ZA = 30°', 100, 45], ['LC का मान ज्ञात कीजिए।', 114, 45], ['① 125', 132, 60], ['Ab मान ज्ञात कीजिए।', 160, 45], ['ถุ ง ใบ ห นึ่ง', 190, 45]] as const;
    expect(ocrReads(ocrRows(rows))).toEqual(['0:18', '3:null']);
  });

  it('takes a sentence opening with a one-letter word for no mark OCR could not read, but a lone letter before a capital for one', () => {
    // Fuzzer seed 20261208, paper 0047 (a Greek scan, each question's English under it): `A rectangle
    // measures …` opens a paragraph after a gap, its `A` read by the Greek model as an alpha.
    const rows = [['6. Ένα ορθογώνιο έχει διαστάσεις 7 cm', 100, 45], ['είναι το εμβαδόν του σε cm²;', 114, 45], ['Α rectangle measures 7 cm by 6 cm.', 128, 45], ['S Find the value of x.', 170, 45]] as const;
    expect(ocrReads(ocrRows(rows))).toEqual(['0:6', '3:null']);
  });

  it('takes a capitalised word before a word in small letters for no mark, unless its letters are drawn like digits (`Il` for 11)', () => {
    // Fuzzer seed 20261214, paper 0041: a Vietnamese cover's `Họ và tên:` (name:) was read as question 1.
    const rows = [['Họ và tên:', 60, 45], ['7. Tính giá trị của biểu thức', 100, 45], ['Le nom de la classe', 140, 45], ['Il tính giá trị của x', 180, 45]] as const;
    expect(ocrReads(ocrRows(rows))).toEqual(['1:7', '3:null']);
  });

  it('measures where a line starts along a column that leans (a page scanned askew), so a number high on the page is at the edge', async () => {
    const { lineFeatures } = await import('../pipeline/structure/candidates.ts');
    const { candidatesOf } = await import('../pipeline/structure/reading-input.ts');
    // A column leaning 1.3° clockwise: every line starts 0.0227 points further left for each point lower
    // down. Questions 14 and 15 at the edge, 700 points apart (15 starts 15.9 points left of 14); the
    // options set in 20 points from their question.
    const tan = Math.tan((1.3 * Math.PI) / 180);
    const rows = [['14 What is 12 + 5?', 100, 0], ['A. 17 B. 18', 114, 20], ['Some words of a long text here', 400, 0], ['15 What is 40% of 20?', 800, 0], ['A. 8 B. 9', 814, 20]] as const;
    const lines = rows.map(([text, y, dx]) => {
      const x = 60 + dx - tan * (y - 100);
      return { page: 1, column: 0, rtl: false, bbox: [x, y, 400, y + 12] as [number, number, number, number],
        spans: text.split(' ').map((w, k) => ({ ...span(w, x + k * 24, y + 10, 10), font: 'ocr' })) };
    });
    const column = { x0: 60 - tan * 700, x1: 400 };
    const read = (c: object) => {
      const doc = { lines, template: generic, pages: [{ columns: [c], shapes: [], ocr: true, section: null }] } as unknown as PaperDocument;
      return candidatesOf(doc, lineFeatures(doc, 10, generic), new Map(), 10).filter(c => c.read === 14).map(c => c.f.atEdge);
    };
    // Measured from the column's box, question 14 stands 15.9 points in, further than a question's
    // number may (the generic template's indentTolerance, 14)…
    expect(read(column)).toEqual([false]);
    // …measured along the lean, it is at the edge.
    expect(read({ ...column, lean: { tan, y: 100, x0: 60, x1: 400 } })).toEqual([true]);
  });

  it('reads a question\'s number as hanging out of the lines under it along a column that leans', async () => {
    const { lineFeatures } = await import('../pipeline/structure/candidates.ts');
    // Short questions 60 points apart down a page leaning 1.3° clockwise: each starts 1.4 points left
    // of the one above, so the third is 2.7 points left of the first, past the 2 allowed for OCR's boxes
    // (fuzzer seed 20261214, paper 0238, where the same lean ran the other way on a right-to-left page).
    const tan = Math.tan((1.3 * Math.PI) / 180);
    const lines = [100, 160, 220].map((y, k) => {
      const x = 60 - tan * (y - 100);
      return { page: 1, column: 0, rtl: false, bbox: [x, y, 300, y + 12] as [number, number, number, number], spans: [{ ...span(`${k + 1}. Calculate ${k + 2}²`, x, y + 10, 10), font: 'ocr' }] };
    });
    const doc = (lean?: object) => ({ lines, template: generic, pages: [{ columns: [{ x0: 60 - tan * 120, x1: 400, ...(lean ? { lean } : {}) }], shapes: [], ocr: true, section: null }] } as unknown as PaperDocument);
    expect(lineFeatures(doc({ tan, y: 100, x0: 60, x1: 400 }), 10, generic)[0].leftmost).toBe(true);
    // Level, the same lines stand further and further left: the first does not hang out of them.
    expect(lineFeatures(doc(), 10, generic)[0].leftmost).toBe(false);
  });

  it('keeps a stacked option\'s bracketed `(2)` read by OCR in its own style, and reads a lead `3)` of a kind the template does not name as a guess at that number', async () => {
    const { lineFeatures } = await import('../pipeline/structure/candidates.ts');
    const { candidatesOf } = await import('../pipeline/structure/reading-input.ts');
    const rows = [['Задача 2', 100, 45], ['Вычислите 24.', 114, 45], ['(1) 14', 128, 45], ['(2) 17', 142, 45], ['3) Решите уравнение 2x = 8.', 170, 45]] as const;
    const lines = ocrRows(rows);
    const doc = ocrDoc(lines);
    const got = candidatesOf(doc, lineFeatures(doc, 10, generic), new Map(), 10).map(c => `${c.f.index}:${c.style}:${c.read}${c.guess ? '?' : ''}`);
    // `3)` is a number at the margin OCR read cleanly in a kind the template does not name: a guess.
    expect(got).toEqual(expect.arrayContaining(['2:(#):1', '3:(#):2', '4:ocr:3?']));
  });

  it('reads a mark OCR could not read inside a small frame at the margin as a question number\'s place (the frame\'s padding sets the digit in)', async () => {
    const { lineFeatures } = await import('../pipeline/structure/candidates.ts');
    const { candidatesOf } = await import('../pipeline/structure/reading-input.ts');
    // `;` for a boxed `6`: its glyph 6 points in from the column's edge, its frame at the edge.
    const rows = [['; Cho cấp số cộng có u1 = 8 và công sai 2.', 100, 51], ['A) 20 B) 22', 114, 65], ['Other text of the paper at the edge', 140, 45]] as const;
    const lines = ocrRows(rows);
    const frame = { page: 1, kind: 'rect', visible: true, bbox: [45, 98, 62, 114] };
    const read = (shapes: object[]) => {
      const doc = ocrDoc(lines, shapes);
      return candidatesOf(doc, lineFeatures(doc, 10, generic), new Map(), 10).filter(c => c.f.index === 0).map(c => `${c.style}:${c.read}`);
    };
    expect(read([])).toEqual([]);
    expect(read([frame])).toEqual(['ocr:null']);
  });

  it('sees the hanging number from the gap between the number and its text', async () => {
    const { lineFeatures } = await import('../pipeline/structure/candidates.ts');
    const at = (gap: number) => ({ ...line('', false, [span('1', 45, 110, 10), span('Wie viel sind 25 % von 240?', 45 + 7 + gap, 110, 10)]) });
    const doc = (l: ReturnType<typeof at>) => ({ lines: [l], pages: [{ columns: [{ x0: 45, x1: 300 }], shapes: [], ocr: false, section: null }] }) as unknown as PaperDocument;
    expect(lineFeatures(doc(at(22)), 10, generic)[0].hanging).toBe(true);
    expect(lineFeatures(doc(at(3)), 10, generic)[0].hanging).toBe(false);
  });

  it('ends an instructions block at a line set out of it, back at the column\'s edge', () => {
    const fs = features([
      { text: 'Instrucciones', heading: 'instructions', indent: 10 }, { text: 'Responda en la hoja de respuestas.', indent: 29 }, { text: 'Dispone de 45 minutos.', indent: 29 },
      { text: 'Pregunta 1 ¿Cuál es el valor de 10 + 6 · 8?', indent: 0 }, { text: 'Pregunta 2 Si 9x + 4 = 49, ¿cuál es x?', indent: 0 },
    ]).map(f => ({ ...f, line: { ...f.line, page: 1 } }));
    expect([...setAside(fs, {} as PaperDocument).keys()]).toEqual([0, 1, 2]);
    // Items level with their heading stay in the block to the page's end.
    const level = fs.map(f => ({ ...f, indent: 0 }));
    expect([...setAside(level, {} as PaperDocument).keys()]).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('structural verdict', () => {
  const doc = (pageCount: number, questions: number[], key: number[] | null = null) => ({
    pageCount, questions: questions.map(n => ({ number: n, section: null })), keyEntries: key && key.map(number => ({ section: null, number })),
    messages: new Diagnostics('p.pdf'), reading: { coverage: 1, unsure: [], reasons: [], endReason: null },
  }) as unknown as PaperDocument;

  it('finds the numbers a run steps over, further than the template lets a family skip', () => {
    const fs = features([{ text: '1. What is 2 + 2?', marks: true }, { text: '2. Solve x + 1 = 3.', marks: true }, { text: '4. What is 3 · 3?', marks: true }, { text: '7. Solve 2x = 8.', marks: true }]);
    const reading = decode(fs, candidates(fs), { ...settings, maxJump: 6 });
    expect(reading.anchors.map(a => a.number)).toEqual([1, 2, 4, 7]);
    expect(numbersSkipped(reading, fs, 1)).toEqual([3, 5, 6]);
    expect(numbersSkipped(reading, fs, 3)).toEqual([]);
    // Under a section's heading a run may open at its own number.
    const sectioned = fs.map(f => (f.index === 3 ? { ...f, sectionChange: true } : f));
    expect(numbersSkipped(reading, sectioned, 1)).toEqual([3]);
    // On a scan a number stepped over is a question OCR may have lost, whatever the family allows.
    const scanned = fs.map(f => ({ ...f, ocr: true }));
    const read = decode(scanned, candidates(scanned), { ...settings, maxJump: 6 });
    expect(read.anchors.map(a => a.number)).toEqual([1, 2, 4, 7]);
    expect(numbersSkipped(read, scanned, 3)).toEqual([3, 5, 6]);
  });

  it('finds numbers the paper prints where the reading skips them, not a sentence opening on a number', () => {
    const fs = features([
      { text: 'Question 1 (2 marks)', marks: true }, { text: '6 red balls are in a bag.' }, { text: 'Question 2 (2 marks)', marks: true },
      { text: '3. Find the value of x.' }, { text: 'Question 4 (2 marks)', marks: true },
    ]);
    const reading = decode(fs, candidates(fs), settings);
    expect(reading.anchors.map(a => a.number)).toEqual([1, 2, 4]);
    expect(numbersPassedOver(reading, fs)).toEqual([3]);
    const sure = features([{ text: 'Question 1 (2 marks)', marks: true }, { text: '6 red balls are in a bag.' }, { text: 'Question 2 (2 marks)', marks: true }]);
    expect(numbersPassedOver(decode(sure, candidates(sure), settings), sure)).toEqual([]);
  });

  it('hears of questions printed as the others are (word or label) that the reading did not take, not of bare numbers', () => {
    const fs = features([
      { text: 'A.1. Find x. (2 marks)', marks: true }, { text: 'A.2. Find y. (2 marks)', marks: true },
      { text: 'B.2. Solve 2x = 4. (2 marks)', marks: true }, { text: 'B.3. Solve 3x = 9. (2 marks)', marks: true }, { text: '3. a list item' },
    ]);
    const reading = decode(fs, candidates(fs).filter(c => c.f.index < 2), settings);
    const roles: LineRole[] = ['question', 'question', 'question', 'question', 'question'];
    expect(leadsUnread(reading, fs, roles)).toEqual(['B.2', 'B.3']);
    // Section B read from its first question: nothing printed is left unread.
    const whole = features([
      { text: 'A.1. Find x. (2 marks)', marks: true }, { text: 'A.2. Find y. (2 marks)', marks: true },
      { text: 'B.1. Solve 2x = 4. (2 marks)', marks: true }, { text: 'B.2. Solve 3x = 9. (2 marks)', marks: true }, { text: '3. a list item' },
    ]);
    const all = decode(whole, candidates(whole), settings);
    expect(all.anchors.map(a => `${a.candidate.major}${a.number}`)).toEqual(['A1', 'A2', 'B1', 'B2']);
    expect(leadsUnread(all, whole, roles)).toEqual([]);
  });

  it('hears of a question whose text holds a run of numbers printed as the questions are (a subject restarting at 1 under a heading not seen)', () => {
    // 物理 set in the body's weight: no heading, so the decoder cannot restart; No. 1 and No. 2 of the
    // second subject become question 2's text, their numbers already read in the first run.
    const rows = [
      { text: 'No. 1 340 的 50% 是 [4]', marks: true }, { text: 'No. 2 5³ 的值是 [2]', marks: true }, { text: 'A. 125 B. 115' },
      { text: '物理' }, { text: 'No. 1 等差数列 a1 = 6 [3]', marks: true }, { text: 'A. 35 B. 33' }, { text: 'No. 2 log2 512 的值为 [3]', marks: true },
    ];
    const fs = features(rows);
    const reading = decode(fs, candidates(fs), settings);
    expect(reading.anchors.map(a => a.number)).toEqual([1, 2]);
    const roles = fs.map(() => 'question' as LineRole);
    expect(questionsSwallowing(reading, fs, roles)).toEqual([2]);
    expect(leadsUnread(reading, fs, roles)).toEqual([]);
    // One line of the question's own number (its twin in a second language) swallows nothing.
    const twin = features([rows[0], { text: 'No. 1 What is 50% of 340? [4]', marks: true }, rows[1], rows[2]]);
    expect(questionsSwallowing(decode(twin, candidates(twin), settings), twin, twin.map(() => 'question' as LineRole))).toEqual([]);
  });

  it('hears of a question holding bare numbers with options under them, as questions have, and not of a numbered list inside a question', () => {
    // 物理 set in the body's weight: the second subject's `1.` and `2.` become question 2's text.
    const opts = { text: '(A) 170 (B) 160', options: [0, 1], labelOpens: true };
    const rows = [
      { text: '1. 340 的 50% 是', marks: true }, opts, { text: '2. 5³ 的值是', marks: true }, opts,
      { text: '物理' }, { text: '1. 等差数列 a1 = 6', marks: true }, opts, { text: '2. log2 512 的值为', marks: true }, opts,
    ];
    const fs = features(rows);
    const reading = decode(fs, candidates(fs), settings);
    expect(reading.anchors.map(a => a.number)).toEqual([1, 2]);
    expect(questionsSwallowing(reading, fs, fs.map(() => 'question' as LineRole))).toEqual([2]);
    // The same numbers as a list of steps inside question 2: no options under them, nothing swallowed.
    const list = features([...rows.slice(0, 4), { text: 'Follow these steps:' }, { text: '1. Write the sequence.' }, { text: '2. Find its sixth term.' }]);
    expect(questionsSwallowing(decode(list, candidates(list).filter(c => c.f.index < 4), settings), list, list.map(() => 'question' as LineRole))).toEqual([]);
  });

  it('hears of the bare number just before the reading\'s first, above it (an offset paper\'s first question taken for the instructions\' last)', () => {
    const fs = features([
      { text: '1. Answer every question.' }, { text: '2. No calculators.' }, { text: '25. Solve 2x + 2 = 8.' },
      { text: '26. Solve 3x = 9.' }, { text: '(A) 3' }, { text: '(B) 4' }, { text: '27. Solve 4x = 8.' }, { text: '(A) 2' }, { text: '(B) 5' },
    ]);
    // The reading as an offset paper's came out: 26 and 27 its questions, 25 left in the front.
    const anchors = candidates(fs).filter(c => c.f.index === 3 || c.f.index === 6).map(c => ({ candidate: c, number: c.f.lead!.number }));
    const reading = { ...decode(fs, [], settings), anchors } as unknown as ReturnType<typeof decode>;
    expect(reading.anchors.map(a => a.number)).toEqual([26, 27]);
    const roles: LineRole[] = ['front', 'front', 'front', 'question', 'question', 'question', 'question', 'question', 'question'];
    expect(leadsUnread(reading, fs, roles)).toEqual(['25']);
    // The instructions' own numbers are no question left unread.
    expect(leadsUnread(reading, fs.filter(f => f.index !== 2).map((f, index) => ({ ...f, index })), roles)).toEqual([]);
  });

  it('names a run by a heading set over two lines as one heading, not by the line it runs on into', () => {
    // The first line runs to its column's far edge (x1 400): the heading goes on below it.
    const fs = features([
      { text: '第1部 — 数学 問1から問4は各4.5点。 問5か', heading: 'plain' }, { text: 'ら問6は各1.5点。', heading: 'plain' }, { text: 'Question 1 袋の中に', bold: true },
    ]);
    const narrow = () => ({ x0: 70, x1: 400 }) as Column;
    expect(prominentHeading(fs.slice(0, 2), null, narrow)).toBe('第1部 — 数学 問1から問4は各4.5点。 問5から問6は各1.5点。');
    // Two headings of a wide column, the first ending well short of its edge, are two: the nearer names the run.
    expect(prominentHeading(fs.slice(0, 2), null, wide)).toBe('ら問6は各1.5点。');
  });

  it('names a run by the heading nearest above it, not by the paper\'s title that a page in three columns reads between them', () => {
    const fs = features([
      { text: 'Математика', heading: 'plain' }, { text: 'Задача 1', bold: true }, { text: 'Итоговый тест по алгебре', heading: 'plain' },
      { text: 'Физика', heading: 'plain' }, { text: 'Задача 1', bold: true },
    ]).map(f => (f.text.startsWith('Итоговый') ? { ...f, sizeRatio: 1.45 } : f));
    const title = paperTitle(fs);
    expect(title?.text).toBe('Итоговый тест по алгебре');
    expect(prominentHeading(fs.slice(2, 4), title, wide)).toBe('Физика');
    // Where the title is the only heading before a run, it still names it; with no title, the largest heading does.
    expect(prominentHeading(fs.slice(2, 3), title, wide)).toBe('Итоговый тест по алгебре');
    expect(prominentHeading(fs.slice(2, 4), null, wide)).toBe('Итоговый тест по алгебре');
    // A heading no larger than the others by a title's margin is no title.
    expect(paperTitle(fs.map(f => ({ ...f, sizeRatio: 1 })))).toBeNull();
  });

  it('hears of a numbered list set aside before the questions whose items have options under them, as questions do', () => {
    const rows = [
      { text: '01. 5 + 8 × 2의 값은?' }, { text: '(A) 22 (B) 24' }, { text: '02. 2의 세제곱은?' }, { text: '(A) 6 (B) 8' },
      { text: '01. 180의 50%는?' }, { text: '(A) 88 (B) 90' }, { text: '02. 3의 제곱은?' }, { text: '(A) 6 (B) 9' },
    ];
    const fs = features(rows).map(f => (f.text.startsWith('(A)') ? { ...f, optionLabels: [0, 1] } : f));
    // The reading the decoder gave a paper whose subject heading it did not see: the second run only.
    const anchors = candidates(fs).filter(c => c.f.index >= 4).map(c => ({ candidate: c, number: c.f.lead!.number }));
    const reading = { ...decode(fs, [], settings), anchors } as unknown as ReturnType<typeof decode>;
    const roles: LineRole[] = ['front', 'front', 'front', 'front', 'question', 'question', 'question', 'question'];
    expect(listedWithOptions(reading, fs, roles)).toBe('1–2');
    // An instruction list that names the option labels in its text opens no run of them under its items.
    const told = features([{ text: '1. Answer every question.' }, { text: '2. Mark (A) or (B) on the sheet.' }, ...rows.slice(4)])
      .map(f => (f.text.startsWith('(A)') || f.text.startsWith('2. Mark') ? { ...f, optionLabels: [0, 1] } : f));
    const second = { ...decode(told, [], settings), anchors: candidates(told).filter(c => c.f.index >= 2).map(c => ({ candidate: c, number: c.f.lead!.number })) } as unknown as ReturnType<typeof decode>;
    expect(listedWithOptions(second, told, ['front', 'front', 'question', 'question', 'question', 'question'])).toBeNull();
  });

  it('hears of a run standing level with the same numbers of a run in the next column (a translation set beside)', () => {
    const at = (f: LineFeatures, column: number, y: number) => ({ ...f, line: { ...f.line, page: 1, column, bbox: [70, y, 400, y + 12] as [number, number, number, number] } });
    const fs = features([
      { text: '1 Find x. (2 marks)', marks: true, bold: true }, { text: '2 Find y. (2 marks)', marks: true, bold: true },
      { text: 'Verifica', heading: 'plain' }, { text: '1 Trova x. (2 punti)', marks: true, bold: true }, { text: '2 Trova y. (2 punti)', marks: true, bold: true },
    ]);
    const side = [at(fs[0], 0, 100), at(fs[1], 0, 200), at(fs[2], 1, 80), at(fs[3], 1, 100), at(fs[4], 1, 200)].map((f, index) => ({ ...f, index }));
    const reading = decode(side, candidates(side), settings);
    expect(reading.anchors.map(a => a.number)).toEqual([1, 2, 1, 2]);
    expect(levelTwins(reading, side)).toBe(2);
    // The same runs one under the other (a second section on the next page of one column) are no twins.
    const below = side.map(f => (f.line.column === 1 ? { ...f, line: { ...f.line, column: 0, page: 2 } } : f));
    expect(levelTwins(decode(below, candidates(below), settings), below)).toBe(0);
    // Another subject's questions beside these, level by chance, print other numbers: no translation.
    const other = side.map(f => (f.line.column === 1 && f.lead ? { ...f, text: `${f.lead.number} Trova ${f.lead.number * 7 + 3}. (5 punti)` } : f));
    expect(levelTwins(decode(other, candidates(other), settings), other)).toBe(0);
  });

  it('reads a paper printed twice side by side twin by twin: each question\'s twin after its block, its number a repeat', () => {
    const at = (f: LineFeatures, column: number, y: number) => ({ ...f, line: { ...f.line, page: 1, column, bbox: [70, y, 400, y + 12] as [number, number, number, number] } });
    const fs = features([
      { text: '1 Find x. (2 marks)', marks: true, bold: true }, { text: 'x + 1 = 3', indent: 10 }, { text: '2 Find y. (2 marks)', marks: true, bold: true },
      { text: 'Verifica', heading: 'plain' }, { text: '1 Trova x. (2 punti)', marks: true, bold: true }, { text: 'x + 1 = 3', indent: 10 }, { text: '2 Trova y. (2 punti)', marks: true, bold: true },
    ]);
    const side = [at(fs[0], 0, 100), at(fs[1], 0, 120), at(fs[2], 0, 200), at(fs[3], 1, 80), at(fs[4], 1, 100), at(fs[5], 1, 120), at(fs[6], 1, 200)].map((f, index) => ({ ...f, index }));
    const order = twinOrder(side, decode(side, candidates(side), settings))!;
    const featureOf = (l: Line) => side.find(f => f.line.column === l.column && f.line.bbox[1] === l.bbox[1])!;
    expect(order.map(l => featureOf(l).text)).toEqual(['Verifica', '1 Find x. (2 marks)', 'x + 1 = 3', '1 Trova x. (2 punti)', 'x + 1 = 3', '2 Find y. (2 marks)', '2 Trova y. (2 punti)']);
    // The twins' lines say so: their marks and options are not read again.
    expect(order.map(l => !!l.twin)).toEqual([false, false, false, true, true, false, true]);
    // Read again in that order: two questions, each with its twin's lines, and no twins left.
    const again = order.map((l, index) => ({ ...featureOf(l), line: l, index }));
    const reading = decode(again, candidates(again), settings);
    expect(reading.anchors.map(a => a.candidate.f.text)).toEqual(['1 Find x. (2 marks)', '2 Find y. (2 marks)']);
    expect(levelTwins(reading, again)).toBe(0);
    // A paper of one column has no twins to read.
    expect(twinOrder(fs, decode(fs.slice(0, 3), candidates(fs.slice(0, 3)), settings))).toBeNull();
  });

  it('reads twins the reading passed over: the next column\'s lines level with its questions, labelled otherwise, printing the same numbers', () => {
    // `Δραστηριότητα 1` beside `Task 1` (fuzzer paper 0167): the reading takes one language's labels only.
    const at = (f: LineFeatures, column: number, y: number) => ({ ...f, line: { ...f.line, page: 1, column, bbox: [70, y, 400, y + 12] as [number, number, number, number] } });
    const fs = features([
      { text: '1 Να βρείτε το x αν x + 1 = 3. (2 μονάδες)', marks: true, bold: true }, { text: 'Δίνεται ότι x > 0.', indent: 10 }, { text: '2 Να βρείτε το y αν y + 4 = 9. (2 μονάδες)', marks: true, bold: true },
      { text: 'Task 1 Find x if x + 1 = 3. (2 marks)', marks: true, bold: true }, { text: 'It is given that x > 0.', indent: 10 }, { text: 'Task 2 Find y if y + 4 = 9. (2 marks)', marks: true, bold: true },
    ]);
    const side = [at(fs[0], 0, 100), at(fs[1], 0, 120), at(fs[2], 0, 200), at(fs[3], 1, 100), at(fs[4], 1, 120), at(fs[5], 1, 200)].map((f, index) => ({ ...f, index }));
    const greek = side.slice(0, 3);
    const order = twinOrder(side, decode(greek, candidates(greek), settings))!;
    const featureOf = (l: Line) => side.find(f => f.line.column === l.column && f.line.bbox[1] === l.bbox[1])!;
    expect(order.map(l => [featureOf(l).text.slice(0, 6), !!l.twin])).toEqual([['1 Να β', false], ['Δίνετα', false], ['Task 1', true], ['It is ', true], ['2 Να β', false], ['Task 2', true]]);
    // Beside other numbers (another subject's questions level by chance) they are no twins.
    const others = ['Task 1 Find 25% of 320. (5 marks)', 'Give your answer to 3 s.f.', 'Task 2 Find 7 × 8. (4 marks)'];
    const other = side.map(f => (f.line.column === 1 ? { ...f, text: others[f.index - 3] } : f));
    expect(twinOrder(other, decode(greek, candidates(greek), settings))).toBeNull();
  });

  it('starts a key whose title opens its page there, the last question\'s options before it set as pairs are', () => {
    // Page 1: the last question and its options `1. 82` … (each a pair, as a key's rows of one pair are); page 2: the key, a digit of its row of numbers misread.
    const fs = features([
      { text: '19 Find 25% of 320.', marks: true }, { text: '1. 82' }, { text: '2. 83' }, { text: '3. 80' },
      { text: 'Answers', heading: 'plain' }, { text: '№ 1 2 8 4 5 6 7' }, { text: '✓ 3 1 4 1 1 4 1' },
    ]);
    expect(appendedKeyStart(fs)).toBe(4);
    expect([...setAside(fs, {} as PaperDocument)].filter(([, k]) => k === 'key').map(([i]) => i)).toEqual([4, 5, 6]);
  });

  it('takes into a scanned key one short line after its last row that OCR garbled past reading', () => {
    // Seed 20261211's scan 0184: `1.5 2.1 3.1 4.4 5.4` under 物理 read `Ls 2はる1 44 5.4`.
    const ocr = (fs: LineFeatures[]) => fs.map(f => ({ ...f, line: { ...f.line, spans: f.line.spans.map(x => ({ ...x, font: 'ocr' })) } }));
    const rows = [
      { text: '5 Solve 8y + 10 = 18.', marks: true }, { text: '(1) 3 (2) 4 (3) 5', options: [0, 1, 2] }, { text: 'Give your reasoning.' }, { text: 'It is worth 4 points.' },
      { text: 'Answers', heading: 'plain' as const }, { text: 'Mathematics' }, { text: '12 2.5 3.3 4.5 5,2' }, { text: '15 2はる1 44 5.4' },
    ];
    expect(appendedKeyStart(ocr(features(rows)))).toBe(4);
    // Not on a text layer's lines, and not where no row stands above it.
    expect(appendedKeyStart(features(rows))).toBeNull();
    expect(appendedKeyStart(ocr(features([...rows.slice(0, 6), { text: 'Mathematics again' }, rows[7]])))).toBeNull();
  });

  it('counts a heading\'s front that no question follows as text the reading leaves unexplained', () => {
    const fs = features([
      { text: 'Mathematics', heading: 'plain' }, { text: '1) Find x.', marks: true }, { text: '2) Find y.', marks: true },
      { text: 'Physics', heading: 'plain' }, { text: 'a1 A ball falls from a height of ten metres.' }, { text: 'a2 How long does it take to land?' },
    ]);
    const reading = decode(fs, candidates(fs).filter(c => c.f.index < 3), settings);
    const roles = ['front', 'question', 'question', 'front', 'front', 'front'] as const;
    const coverage = coverageOf(doc(1, [1, 2]), reading, fs, [...roles]);
    expect(coverage).toBeLessThan(0.6);
  });

  it('hears of a key with numbers no question read has, unless the stated count is what was read', () => {
    const d = doc(1, [1, 2, 3], [1, 2, 3, 4, 5]);
    judgeNumbers(d, null);
    expect(d.reading!.reasons).toEqual(['the key answers 4, 5, numbers no question read has']);
    const selection = doc(1, [1, 2, 4], [1, 2, 3, 4]);
    judgeNumbers(selection, 3);
    expect(selection.reading!.reasons).toEqual([]);
    const stray = doc(1, [1, 2, 3], [1, 2, 3, 15]);
    judgeNumbers(stray, null);
    expect(stray.reading!.reasons).toEqual([]);
    const next = doc(1, [1, 2, 3], [1, 2, 3, 4]);
    judgeNumbers(next, null);
    expect(next.reading!.reasons).toEqual(['the key answers 4, number no question read has']);
    const short = doc(1, [1, 2, 3]);
    judgeNumbers(short, 5);
    expect(short.reading!.reasons).toEqual(['the paper states 5 questions; 3 were read']);
  });

  it('hears of a count the paper states but OCR read as 0 (`इस प्रश्न-पत्र में 0 प्रश्न हैं`: the `1` of `10` lost)', () => {
    // Seed 20261211's scan 0235: its question 10 was lost into 9, and the paper ended `done`.
    expect(statedCount('इस प्रश्न-पत्र में 0 प्रश्न हैं।', generic.re.count)).toBeNull();
    expect(statesUnreadCount('« इस प्रश्न-पत्र में 0 प्रश्न हैं।', generic.re.count)).toBe(true);
    expect(statesUnreadCount('इस प्रश्न-पत्र में 10 प्रश्न हैं।', generic.re.count)).toBe(false);
    expect(statesUnreadCount('Answer all questions. Time: 0 hours', generic.re.count)).toBe(false);
    const lost = doc(1, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    judgeNumbers(lost, null, true);
    expect(lost.reading!.reasons).toEqual(['the paper states how many questions it holds, but its number reads 0 (9 were read)']);
  });

  it('hears of a key that gives its numbers again under a heading the paper was not read with (a section that restarts, unread)', () => {
    const d = doc(1, [1, 2, 3, 4], [1, 2, 3, 4]);
    d.keyEntries!.push(...[1, 2, 3, 4].map(number => ({ section: null, number, again: true as const })));
    judgeNumbers(d, null);
    expect(d.reading!.reasons).toEqual(['the key gives 1, 2, 3, 4 again under a heading the paper was not read with: a run of those numbers the reading does not hold']);
    const once = doc(1, [1, 2, 3, 4], [1, 2, 3, 4]);
    judgeNumbers(once, null);
    expect(once.reading!.reasons).toEqual([]);
  });
});

describe('learning from a partial reading', () => {
  it('learns from every number read at the margin of a scan, whichever lead OCR made of it (`1` bold, then `2` read without)', async () => {
    const { learningBlocks } = await import('../pipeline/stages/segment.ts');
    const rows = [1, 2, 3, 4, 5].flatMap(n => [{ text: `${n} Решите уравнение ${n}x + 17 = 61.`, bold: n === 1 }, { text: `(1) ${n + 7} (2) ${n + 9}`, indent: 18 }, { text: `(3) ${n + 11} (4) ${n + 13}`, indent: 18 }]);
    const fs = features(rows).map(f => ({ ...f, ocr: true }));
    // The first number read with its lead (a bold bare number); the rest read at the margin by OCR.
    const cands: Candidate[] = fs.filter(f => f.atEdge).map((f, k) => (k === 0 ? { f, lead: f.lead, style: f.lead!.style, read: 1, major: null } : { f, lead: null, style: 'ocr', read: k + 1, major: null }));
    // A first reading that took the first number only (no option scheme named `(1)`, nothing carried).
    const reading = { anchors: [{ candidate: cands[0], number: 1 }], end: null, endReason: null, score: 0 } as unknown as Reading;
    const blocks = learningBlocks({ features: fs, reading, candidates: cands });
    expect(blocks).toHaveLength(5);
    expect(blocks.map(b => b.lines.length)).toEqual([3, 3, 3, 3, 3]);
  });
});

describe('labels decided per scheme', () => {
  const generic = templates.find(t => t.id === 'generic')!;
  const scheme = (id: string) => optionSchemes(ROOT).find(s => s.id === id)!;
  const using = (id: string): Template => ({ ...generic, options: { ...generic.options, markers: scheme(id).markers, pattern: scheme(id).pattern }, re: { ...generic.re, option: new RegExp(scheme(id).pattern!, 'gu') } });
  const lines = (...texts: string[]) => texts.map((text, i) => ({ page: 1, column: 0, bbox: [70, 100 + i * 14, 500, 112 + i * 14] as [number, number, number, number], spans: [span(text, 70, 110 + i * 14)] }));
  const choice = (n: number) => lines(`${n} Which of the following is the value of x?`, 'A. 3', 'B. 4', 'C. 5', 'D. 6');
  const parted = (n: number, k: number) => lines(`Question ${n} (4 marks)`, ...['(a)', '(b)', '(c)'].slice(0, k).map(l => `${l} Find the value of the expression above and show your working in full. 2`));

  it('reads choices `A.`–`D.` in one section as options and `(a)`, `(b)` in another as parts', () => {
    const questions = [choice(1), choice(2), choice(3), parted(4, 2), parted(5, 3), parted(6, 2)];
    const groups = labelGroups(questions, using('latin-lower-paren'), [scheme('latin-upper-stop')]);
    expect(groups.map(g => [g.markers[0], g.parts, g.questions])).toEqual([['a', true, [3, 4, 5]], ['A', false, [0, 1, 2]]]);
    expect(groups[1].template.options.markers.slice(0, 4)).toEqual(['A', 'B', 'C', 'D']);
    // With one scheme, one decision over all questions, as before.
    expect(labelGroups(questions, using('latin-lower-paren'), []).map(g => g.questions)).toEqual([[0, 1, 2, 3, 4, 5]]);
  });

  it('reads a question\'s labels one to a line, fewer than the paper\'s choices set in a row, as parts', () => {
    // Fuzzer seed 20261209, paper 0069 (Thai, no sentence stops): choices `a) 147 b) 148 c) 152 d) 150`
    // on one line; `a) จงหา f(2)` / `b) จงแก้สมการ f(x) = 14` under one question, short prompts.
    const row = (n: number) => lines(`ข้อ ${n} ค่าของ 27 + 7 × 8 เท่ากับเท่าใด`, `a) ${n + 140} b) ${n + 141} c) ${n + 145} d) ${n + 143}`);
    const prompts = lines('ข้อ 02 กำหนดให้ f(x) = 2x + 4', 'a) จงหา f(2)', 'b) จงแก้สมการ f(x) = 14');
    const questions = [row(1), prompts, row(3), row(4), row(5), row(6)];
    const groups = labelGroups(questions, using('latin-lower-close'), []);
    expect(groups.map(g => [g.parts, g.questions])).toEqual([[false, [0, 2, 3, 4, 5]], [true, [1]]]);
    // Four choices set one to a line are the paper's choices still.
    const stacked = lines('ข้อ 02 ค่าของ 5 + 3 เท่ากับเท่าใด', 'a) 8', 'b) 9', 'c) 7', 'd) 6');
    expect(labelGroups([row(1), stacked, row(3), row(4), row(5), row(6)], using('latin-lower-close'), []).map(g => [g.parts, g.questions])).toEqual([[false, [0, 1, 2, 3, 4, 5]]]);
    // Nor are a grid's choices read a column at a time (`a) 31` `c) 34` `b) 35`, seed 20261206 paper 0081).
    const grid = lines('ข้อ 02 10% ของ 340', 'a) 31', 'c) 34', 'b) 35');
    expect(labelGroups([row(1), grid, row(3), row(4), row(5), row(6)], using('latin-lower-close'), []).map(g => [g.parts, g.questions])).toEqual([[false, [0, 1, 2, 3, 4, 5]]]);
  });

  it('reads a question\'s five short values as choices where the paper\'s labels open two or three parts', () => {
    // Seed 20261210, paper 0293: `a)`–`e)` one to a line under `2⁴ 的值是` on a paper whose other
    // questions ask `a) 求 f(2) 的值；` `b) 解方程 f(x) = 26；`: the same labels, prompts there, values here.
    const prompts = (n: number) => lines(`${n}. 已知函数 f(x) = ${n}x + 1。`, 'a) 求 f(2) 的值；', 'b) 解方程 f(x) = 26；');
    const values = (n: number) => lines(`${n}. 2⁴ 的值是`, 'a) 17', 'b) 19', 'c) 16', 'd) 21', 'e) 32');
    const questions = [values(1), prompts(2), prompts(3), prompts(4), values(5), prompts(6)];
    expect(labelGroups(questions, using('latin-lower-close'), []).map(g => [g.parts, g.questions])).toEqual([[true, [1, 2, 3, 5]], [false, [0, 4]]]);
    // Five parts with sentences, or with marks, stay parts.
    const worded = lines('5. Simplify.', 'a) Expand the brackets fully;', 'b) Collect like terms;', 'c) Factorise;', 'd) Check;', 'e) State the answer.');
    expect(labelGroups([worded, prompts(2), prompts(3), prompts(4)], using('latin-lower-close'), []).map(g => [g.parts, g.questions])).toEqual([[true, [0, 1, 2, 3]]]);
  });

  it('learns the scheme a section prints besides the paper\'s first', () => {
    const blocks = [choice(1), choice(2), parted(3, 2), parted(4, 3)].map(l => ({ lines: l, skip: new Set<Span>() }));
    expect(learnOtherOptions(blocks, ROOT, scheme('latin-lower-paren')).map(s => s.id)).toEqual(['latin-upper-stop']);
    expect(learnOtherOptions(blocks.slice(2), ROOT, scheme('latin-lower-paren'))).toEqual([]);
  });

  it('takes a question\'s longest run of labels as its own: `Using parts (a) and (b)` inside part (c) names parts, it sets no labels side by side', () => {
    const q = lines('Question 7 (7 marks)', '(a) Show that the derivative is zero at the point.', '(b) Find the stationary points.', '(c) Using parts (a) and (b), find the exact area.');
    expect(labelStats([q], using('latin-lower-paren'), null)?.sideBySide).toBe(0);
  });

  it('reads two or three lettered prompts with no marks as parts, four or five short values as options', () => {
    // A paper with no marks at all: its parts are known by being few to a question and ending as sentences do.
    const prompts = (n: number, k: number) => lines(`Problem ${n}. 已知函数 f(x) = ${n}x + 3。`, ...['a) 求 f(2) 的值；', 'b) 解方程 f(x) = 13；', 'c) 说明 f 是增函数的理由。'].slice(0, k));
    const papers = [prompts(1, 3), prompts(2, 2), prompts(3, 3), prompts(4, 2), prompts(5, 3)];
    const stats = labelStats(papers, using('latin-lower-close'), null)!;
    expect([stats.modalCount, stats.sentences]).toEqual([3, 1]);
    expect(labelGroups(papers, using('latin-lower-close'), [])[0].parts).toBe(true);
    // Choices of the same shape, four to a question and no sentences, stay options.
    const values = (n: number) => lines(`Problem ${n}. 求 f(${n}) 的值。`, 'a) 12', 'b) 13', 'c) 14', 'd) 15');
    expect(labelGroups([1, 2, 3, 4].map(values), using('latin-lower-close'), [])[0].parts).toBe(false);
  });

  it('keeps as parts a question\'s `a)`–`c)` prompts on a paper that chooses with `a)`–`d)`, its wide characters measured as wide', () => {
    // Fuzzer seed 20261201, paper 0043: choices `a) 12` … `d) 15` in most questions, then worked questions
    // whose parts are short Chinese sentences (`a) 求摸出红球的概率；`), as long in columns as English ones.
    const values = (n: number) => lines(`${n}. 求 f(${n}) 的值。`, 'a) 12', 'b) 13', 'c) 14', 'd) 15');
    const prompts = (n: number) => lines(`${n}. 袋中有 4 个红球和 6 个蓝球。`, 'a) 求摸出红球的概率；', 'b) 不放回地摸出两个球，写出样本空间；', 'c) 求两个球都是蓝球的概率。');
    const groups = labelGroups([values(1), values(2), values(3), values(4), prompts(5)], using('latin-lower-close'), []);
    expect(groups.map(g => [g.parts, g.questions])).toEqual([[false, [0, 1, 2, 3]], [true, [4]]]);
    // One question of three choices set as sentences, on a paper choosing with `A.`–`D.`, stays options.
    const upper = (n: number) => lines(`${n}. 求 f(${n}) 的值。`, 'A. 12', 'B. 13', 'C. 14', 'D. 15');
    const sentences = lines('5. Which statement is true?', 'A. The sum of two odd numbers is even.', 'B. Every prime number is odd.', 'C. A square has three sides.');
    expect(labelGroups([upper(1), upper(2), upper(3), upper(4), sentences], using('latin-upper-stop'), []).map(g => [g.parts, g.questions])).toEqual([[false, [0, 1, 2, 3, 4]]]);
  });

  it('reads rows of a table to mark true or false (`1. 8 · 2 = 17 ☐ ☐`) as neither options nor parts', () => {
    // Fuzzer seed 20261204, paper 0011: numbered statements under `✓ ✗`, then the question's parts.
    const table = (n: number, k: number) => lines(`Câu 0${n}: Một hộp có 3 quả cầu đỏ và 8 quả cầu xanh.`, '✓ ✗', ...['1. 8 · 2 = 17 ☐ ☐', '2. 82 = 16 ☐ ☐', '3. √64 = 8 ☐ ☐', '4. 8 + 2 = 10 ☐ ☐', '5. 48 > 14 ☐ ☐'].slice(0, k), `${n}.1. Tính xác suất lấy được quả cầu đỏ.`);
    const groups = labelGroups([table(3, 4), table(5, 5)], using('digits-stop'), []);
    expect(groups[0].stats?.ticked).toBe(1);
    expect([groups[0].parts, groups[0].template.options.markers, groups[0].template.re.option]).toEqual([false, [], null]);
    // Choices of the same numbering stay options.
    const values = (n: number) => lines(`Câu 0${n}: Giá trị của 8 · 2 bằng`, '1. 16', '2. 17', '3. 18', '4. 19');
    expect(labelGroups([values(1), values(2)], using('digits-stop'), [])[0].template.options.markers.length).toBeGreaterThan(0);
  });

  it('reads a range of questions at the end of a line (`Attempt Questions 1–10`)', () => {
    const m = generic.re.pointsRange[0].exec('Attempt Questions 1–10');
    expect([m?.groups?.from, m?.groups?.to]).toEqual(['1', '10']);
  });
});

describe('answer kinds stated for a range of questions', () => {
  const generic = templates.find(t => t.id === 'generic')!;

  it('reads grid-ins and choices from the directions\' sentences, and types the questions of each range that print no choices', () => {
    const texts = [
      'For questions 1-3, solve each problem, choose the best answer from the choices',
      'provided, and fill in the corresponding bubble on your answer sheet. For questions 4-5,',
      'solve the problem and enter your answer in the grid on the answer sheet. Please refer to',
      'the directions before question 4 on how to enter your answers in the grid.',
    ];
    const ranges = rangeTypes(texts, generic);
    expect(ranges.map(r => [r.from, r.to, r.type])).toEqual([[1, 3, 'mcq'], [4, 5, 'numeric']]);
    const q = (number: number, type: Question['type'], options: number) => ({ number, type, options: Array.from({ length: options }, (_, i) => ({ label: 'ABCD'[i], text: '' })) }) as unknown as Question;
    // 2 prints its options as graphs (none read), 5 prints choices after all.
    const questions = [q(1, 'mcq', 4), q(2, 'free', 0), q(3, 'mcq', 4), q(4, 'free', 0), q(5, 'mcq', 4)];
    expect(applyRangeTypes(questions, ranges, new Map(questions.map(x => [x, 10])))).toBe(2);
    expect(questions.map(x => x.type)).toEqual(['mcq', 'mcq', 'mcq', 'numeric', 'mcq']);
  });

  it('takes the statement before the question where two sections state the same numbers', () => {
    const texts = ['For questions 4-5, enter your answer in the grid.', 'x', 'For questions 1-8, choose the best answer from the choices provided.'];
    const ranges = rangeTypes(texts, generic);
    const q = { number: 4, type: 'free', options: [] } as unknown as Question;
    applyRangeTypes([q], ranges, new Map([[q, 5]]));
    expect(q.type).toBe('mcq');
  });
});

describe('marks stated for many questions at once', () => {
  const generic = templates.find(t => t.id === 'generic')!;
  const doc = { template: generic } as unknown as PaperDocument;
  const read = (rows: { text: string; role?: LineRole }[], head: { text: string; before: number }[] = []) =>
    rangeMarks(features(rows), rows.map(r => r.role ?? 'aside'), doc, head).map(r => [r.from, r.to, r.each]);

  it('reads a range\'s marks each in the languages papers print them, words ending where their letters do', () => {
    expect(read([
      { text: 'Question numbers 13 to 22 carry 3 marks each.' },
      { text: 'Задания 1–3 оцениваются в 5 баллов каждое.' },
      { text: 'Τα θέματα 4 έως 6 βαθμολογούνται με 2 μονάδες το καθένα.' },
      { text: 'Die Aufgaben 7 bis 9 werden mit je 2 Punkten bewertet.' },
      { text: '4. 10번부터 12번까지는 각 3점입니다.' },
      { text: 'Từ câu 23 đến câu 24, mỗi câu 1,25 điểm.' },
    ])).toEqual([[13, 22, 3], [1, 3, 5], [4, 6, 2], [7, 9, 2], [10, 12, 3], [23, 24, 1.25]]);
  });

  it('reads a statement worded as the paper\'s others that give marks each as one too, where OCR joined its word for "each" to the word before', () => {
    // Fuzzer seed 20261214, paper 0080 (a German scan): `mit je` read `mitje` on two of five lines;
    // divided over their ranges, 2 marks gave 0.4 and 0.67, and the questions none.
    expect(read([
      { text: 'Die Aufgaben 1 bis 6 werden mit je 1 Punkten bewertet.' },
      { text: 'Die Aufgaben 16 bis 20 werden mitje 2 Punkten bewertet.' },
      { text: 'DieAufgaben 21 bis 23 werden mitje 5 Punkten bewertet.' },
    ])).toEqual([[1, 6, 1], [16, 20, 2], [21, 23, 5]]);
    // A section's total, worded but for its word for "each" as a statement of marks each, is divided.
    expect(read([{ text: 'Questions 1 to 5 carry 2 marks each.' }, { text: 'Questions 6 to 10 carry 10 marks.' }])).toEqual([[1, 5, 2], [6, 10, 2]]);
  });

  it('reads a Korean range as OCR spaces it out syllable by syllable (`3 번 부터 11 번까지는 각 1 점입니다`)', () => {
    expect(read([{ text: '3 번 부터 11 번까지는 각 2점입니다.' }, { text: '19번 부터 20번까지는 각 1 점입니다.' }])).toEqual([[3, 11, 2], [19, 20, 1]]);
  });

  it('reads Arabic set in presentation forms as its letters, and a range of one question', () => {
    // ﻟﻜﻞ ﻣﻨﻬﺎ … درﺟﺎت as a PDF's text layer gives them (U+FExx), not لكل منها … درجات.
    expect(read([{ text: 'الأﺳﺌﻠﺔ ﻣﻦ 2 إﻟﻰ 4 ﻟﻜﻞ ﻣﻨﻬﺎ 4 درﺟﺎت.' }, { text: 'Question numbers 6 to 6 carry 1 mark each.' }])).toEqual([[2, 4, 4], [6, 6, 1]]);
  });

  it('reads statements set apart above the body with the page\'s head, before the questions they give marks', () => {
    const rows = [{ text: '1. Solve 2x = 6.', role: 'question' as const }, { text: '2. Solve 3x = 9.', role: 'question' as const }];
    expect(read(rows, [{ text: '第1～2题每小题4分。', before: 0 }])).toEqual([[1, 2, 4]]);
    const q = (number: number) => ({ number, points: null }) as unknown as Question;
    const questions = [q(1), q(2)];
    const ranges = rangeMarks(features(rows), ['question', 'question'], doc, [{ text: '第1～2题每小题4分。', before: 0 }]);
    expect(applyRangeMarks(questions, ranges, new Map(questions.map((x, i) => [x, i])))).toBe(2);
    expect(questions.map(x => x.points)).toEqual([4, 4]);
  });

  it('reads every statement a line makes, and one a heading wraps onto its next line', () => {
    expect(read([
      { text: 'Phần 1 — Toán học Từ câu 1 đến câu 7, mỗi', role: 'front' },
      { text: 'câu 5 điểm. Từ câu 8 đến câu 10, mỗi câu 1', role: 'front' },
      { text: 'điểm. Từ câu 11 đến câu 11, mỗi câu 2 điểm.', role: 'front' },
    ])).toEqual([[1, 7, 5], [8, 10, 1], [11, 11, 2]]);
  });

  it('reads a range a heading breaks over two lines between its numbers, and a range drawn with a wave dash', () => {
    // An Arabic section heading (fuzzer seed 20261206, paper 0238): `… الأسئلة من 3` / `إلى 5 لكل منها 3 درجات.`
    expect(read([
      { text: 'الجزء B الأسئلة من 1 إلى 2 لكل منها 3 درجات. الأسئلة من 3', role: 'front' },
      { text: 'إلى 5 لكل منها 4 درجات.', role: 'front' },
    ])).toEqual([[1, 2, 3], [3, 5, 4]]);
    // `第27〜34题每小题4.75分` (0063): U+301C, as Japanese and Chinese word processors set a range.
    expect(read([{ text: '5. 第27〜34题每小题4.75分。' }])).toEqual([[27, 34, 4.75]]);
    // A Japanese heading broken inside a word, no space at the break (seed 20261208, paper 0204).
    expect(read([
      { text: '第1部 — 数学 問1から問4は各4.5点。 問5か', role: 'front' },
      { text: 'ら問6は各1.5点。', role: 'front' },
    ])).toEqual([[1, 4, 4.5], [5, 6, 1.5]]);
  });

  it('reads Devanagari whose text layer split a conjunct after its virama (`प्रत् येक`)', () => {
    expect(read([], [{ text: 'प्रश् न संख् या 12 से 15 तक प्रत् येक प्रश् न 2 अंक का है।', before: 0 }])).toEqual([[12, 15, 2]]);
  });

  it('reads a `1` OCR read as a danda or a bar opening a mark (`(। अंक)`) as 1, and a danda ending a sentence as none', () => {
    expect(markText('समीकरण हल कीजिए। (। अंक)')).toBe('समीकरण हल कीजिए। (1 अंक)');
    expect(markText('[| mark]')).toBe('[1 mark]');
    expect(markText('यह सही है। (2 अंक)')).toBe('यह सही है। (2 अंक)');
  });

  it('reads Thai that OCR spaced letter by letter (`ข้อ 1 ถึงข้อ 3 ข้อ ละ 5 ค ะแนน`)', () => {
    expect(read([], [{ text: 'คณิตศาสตร์ ข้ อ 1 ถึ ง ข้ อ 3 ข้ อ ละ 5 ค ะ แน น', before: 0 }])).toEqual([[1, 3, 5]]);
  });

  it('reads a heading\'s marks for each question under it, with a decimal comma, in any language', () => {
    const value = (text: string) => { const m = generic.re.sectionPoints!.exec(markText(text)); return m ? markValue(m) : null; };
    expect(['Section B (5 marks each)', 'Parte A (2,5 puntos cada una)', 'Часть 1 (по 2 балла)', 'Μέρος Α (3 μονάδες η καθεμία)', 'القسم أ (3 درجات لكل سؤال)',
      '一、选择题（本大题共6小题，每小题5分，共30分）', 'Ⅰ 選択問題（各3点）', '객관식 (각 2점)', 'Phần I (mỗi câu 0,25 điểm)', 'ก. ปรนัย (ข้อละ 2 คะแนน)'].map(value))
      .toEqual([5, 2.5, 2, 3, 3, 5, 3, 2, 0.25, 2]);
    // A question's own mark with a decimal in its text is no heading's.
    expect(value('1. Calcule f(2,5). (1 punto)')).toBeNull();
  });
});

describe('marks printed by a question or its parts', () => {
  const line = (...texts: (string | [string])[]): Line => {
    let x = 70;
    const spans = texts.map(t => {
      const text = typeof t === 'string' ? t : t[0];
      const s = { ...span(text, x, 300), math: typeof t !== 'string' };
      x = s.bbox[2] + (typeof t === 'string' && t.endsWith(' ') ? 4 : 0);
      return s;
    });
    return { page: 1, column: 0, bbox: [70, 290, x, 303], spans };
  };
  const block = (...lines: Line[]) => ({ lines, skip: new Set<Span>() });

  it('reads the units every pattern of the generic template shares, in brackets at a part\'s end', () => {
    const value = (text: string) => { const m = [...markText(text).matchAll(generic.re.points!)][0]; return m ? markValue(m) : null; };
    expect(['1.1. 赤玉を取り出す確率を求めよ。 [3.5 点]', 'a) Tính f(2). (2 điểm)', '(a) Найдите f(2). (3 балла)', '(α) Να βρείτε (2 μονάδες)', 'أ) احسب (3 درجات)', '(क) हल कीजिए (2 अंक)', 'ก. จงหา (4 คะแนน)', 'a) Berechne (2 Punkte)'].map(value))
      .toEqual([3.5, 2, 3, 2, 3, 2, 4, 2]);
    // A number in round brackets still needs its unit: f(1) is no mark.
    expect(value('Calcule f(1) + 2.')).toBeNull();
  });

  it('reads a mark the line breaks inside its brackets (`（1` / `点）`) on the line it opens on', () => {
    expect(joinWrappedMarks(['b. x を求めよ。 （1', '点）', 'Solve f(x) = 15.'])).toEqual(['b. x を求めよ。 （1 点）', '', 'Solve f(x) = 15.']);
    const lines = [line('b. x を求めよ。 （1'), line('点）'), line('c. y を求めよ。 （2点）')];
    expect(patternPoints(lines, generic, new Set())).toMatchObject({ value: 3, markers: [{ line: 0, value: 1 }, { line: 2, value: 2 }] });
    // A bracket that opens no number (an aside in brackets) takes nothing from the next line.
    expect(joinWrappedMarks(['see (the figure', 'below) 2 marks'])).toEqual(['see (the figure', 'below) 2 marks']);
  });

  it('learns a unit of one letter without case, and a range from 0 with any dash', () => {
    const shapes = learnMarks([block(line('1.1. 確率を求めよ。 [1 点]'), line('1.2. 標本空間を書け。 [3.5 点]')), block(line('(0‒5) 初項 5 の数列'), line('(0‒1) 方程式を解け。'))]);
    expect(shapes.map(s => [s.open, s.range, s.word])).toEqual([['[', false, '点'], ['(', true, '']]);
    const re = new RegExp(marksPattern(shapes)!, 'u');
    expect(re.exec('(0–3) 縦 15 cm')?.[2]).toBe('3');
    // A range from 0 read backwards, as a right-to-left line after a Latin label gives it (`(a) (3–0) احسب`):
    // learned as the same shape, its value the number that is not 0 (seed 20261208, paper 0048).
    const backwards = learnMarks([block(line('(a) (3–0) احسب f(2).'), line('(b) (4–0) حل المعادلة')), block(line('(a) (2–0) أوجد'))]);
    expect(backwards.map(s => [s.open, s.range, s.word])).toEqual([['(', true, '']]);
    expect(markValue(new RegExp(marksPattern(backwards)!, 'u').exec('(b) (4–0) حل')!)).toBe(4);
    expect(markValue(new RegExp(marksPattern(backwards)!, 'u').exec('(b) (0–4) حل')!)).toBe(4);
    // A letter with case is a formula's variable: (2x), not a unit.
    expect(learnMarks([block(line('Solve (2x) = 4 (2x)'), line('then (3x)'))])).toEqual([]);
  });

  it('reads marks as OCR misreads their brackets and dashes: `《2分)`, `〈4分)`, `(0--3)`', () => {
    // A full-width bracket read as an angle, closed by a round one.
    expect(patternPoints([line('log, 32 的 值为《1分)')], generic, new Set())?.value).toBe(1);
    expect(patternPoints([line('计算16+2x9的结果是〈4分)')], generic, new Set())?.value).toBe(4);
    // An angle bracket a round one does not close is a title's (《数学》), no mark.
    expect(patternPoints([line('阅读《数学 2》 一书')], generic, new Set())).toBeNull();
    // A right-to-left line's brackets, read by their look.
    expect(patternPoints([line('احسب log2 128]3.5[')], generic, new Set())?.value).toBe(3.5);
    expect(patternPoints([line('احسب 34]5[')], generic, new Set())?.value).toBe(5);
    // …a heading's opening bracket alone read by its look (fuzzer seed 20261214, paper 0238: each
    // question of `الجزء 2 — الفيزياء (1.75 درجات لكل سؤال)` is worth 1.75).
    expect(markText('الجزء 2 — الفيزياء )1.75 درجات لكل سؤال)')).toBe('الجزء 2 — الفيزياء (1.75 درجات لكل سؤال)');
    expect(generic.re.sectionPoints!.exec(markText('الجزء 2 — الفيزياء )1.75 درجات لكل سؤال)'))?.[1]).toBe('1.75');
    // A value alone between two closing brackets is no mark's.
    expect(markText('احسب ) 3 )')).toBe('احسب ) 3 )');
    // A range from 0 whose dash OCR read as two.
    const shapes = learnMarks([block(line('11. (0--3) Ποια είναι η τιμή;')), block(line('12. (0--5) Ένα ορθογώνιο')), block(line('16. (0–4) Πόσο είναι;'))]);
    expect(shapes.map(s => [s.open, s.range, s.word])).toEqual([['(', true, '']]);
    expect(new RegExp(marksPattern(shapes)!, 'u').exec('(0--5) Ένα')?.[1]).toBe('5');
    // …or lost: a font whose dash glyph the text layer gives as a space (NanumGothic printed by Chromium, `(0 4)`).
    const spaced = learnMarks([block(line('Q3. 함수 f(x) = 2x + 7'), line('(i) (0 4) f(2)의 값을 구하시오.'), line('(ii) (0 1) x의 값을 구하시오.'))]);
    expect(spaced.map(s => [s.open, s.range, s.word])).toEqual([['(', true, '']]);
    expect(new RegExp(marksPattern(spaced)!, 'u').exec('(i) (0 4) f(2)의')?.[1]).toBe('4');
    // Coordinates are no range: `(0, 4)`.
    expect(learnMarks([block(line('A(0, 4) and B(0, 2)'), line('C (0, 3)'))])).toEqual([]);
    // A range from 0 on a right-to-left line, its brackets read by their look (`)2-0(`).
    expect(patternPoints([line('1.1. )2-0( أوجد احتمال سحب كرة حمراء')], { ...generic, re: { ...generic.re, points: new RegExp(marksPattern(shapes)!, 'gu') } }, new Set())?.value).toBe(2);
    // A mark broken over a line break whose full-width bracket OCR read as an angle (`《2.25` / `分)`).
    expect(patternPoints([line('写出样本空间; 《2.25'), line('分)')], generic, new Set())?.value).toBe(2.25);
  });

  it('reads a mark whose unit OCR read as digits (`(1.2577)`, `(44)`) as a value the paper prints with its unit, on a scan', () => {
    const shapes = learnMarks([block(line('1.1. 求概率; 《1分)'), line('1.2. 写出样本空间; (1.25分)')), block(line('2.1. 求概率; (4分)'), line('2.2. 解方程; 〈3.5分)'))]);
    const misread = unitReadAsDigits(shapes)!;
    const t = { ...generic, re: { ...generic.re, points: new RegExp(`${misread}|${marksPattern(shapes)}`, 'gu') } };
    const value = (text: string) => patternPoints([line(text)], t, new Set())?.value ?? null;
    expect(['写出样本空间; = (1.2577)', '解方程 = 22; (44)', '求值; (3.554)', '求概率; (1分)', '求概率; (4)'].map(value)).toEqual([1.25, 4, 3.5, 1, null]);
    // A formula's argument is no mark, nor a number inside a line.
    expect(value('求 f(12)')).toBeNull();
    expect(value('(12) 个球')).toBeNull();
    // A paper that prints no unit gives no such reading.
    expect(unitReadAsDigits(learnMarks([block(line('Find x.  (3)')), block(line('Find y.  (2)'))]))).toBeNull();
  });

  it('reads a mark whose unit or closing bracket OCR garbled (`[2 4]`, `[3 分|`, `(3A)`) by the bracket the paper opens its marks with, on a scan', () => {
    // Measured on seed 20261210's scans: 0123 (`[2 分]` read `[2 4]`, `[3 分|`), 0294 of 20261208 (`(3点)` read `(3A)`).
    const square = learnMarks([block(line('求概率; [3 分]')), block(line('写出样本空间; [4 分]'))]);
    const t = (shapes: ReturnType<typeof learnMarks>) => ({ ...generic, re: { ...generic.re, points: new RegExp([marksPattern(shapes), unitGarbled(shapes), generic.re.points!.source].join('|'), 'gu') } });
    const value = (template: Template, text: string) => patternPoints([line(text)], template, new Set())?.value ?? null;
    expect(['它的面积是多少 cm2? [2 4]', '写出样本空间; [3 分|', '求概率; [1.25 점|', '求概率; [2 分]'].map(text => value(t(square), text))).toEqual([2, 3, 1.25, 2]);
    // Twenty-four is no two with its unit read as a four; a formula's argument, a label and a number inside the line are no marks.
    expect(['它的面积是 [24]', '求 f[2x]', '求概率 [3]', '[2 a] 个球'].map(text => value(t(square), text))).toEqual([24, null, 3, null]);
    const round = learnMarks([block(line('を解け。 (3点)')), block(line('を求めよ。 (2点)'))]);
    expect(['を解け。 (3A)', 'を求めよ。(1Am)', 'の値を求めよ。 (2. 75京)', '求 f(2x)', '(3A) を求めよ'].map(text => value(t(round), text))).toEqual([3, 1, 2.75, null, null]);
    // A paper that prints no unit after its marks gives no such reading.
    expect(unitGarbled(learnMarks([block(line('Find x.  [3]')), block(line('Find y.  [2]'))]))).toBeNull();
  });

  it('reads a decimal mark OCR split after its point (`(1. 75 点 )`) as one value, and a list\'s `3. 5` as none', () => {
    expect(markText('を求めよ。 (1. 75 点 )')).toBe('を求めよ。 (1.75 点 )');
    expect(markText('値 [3. 5]')).toBe('値 [3.5]');
    expect(markText('Items 3. 5 and 6 (see 2. 4 below)')).toBe('Items 3. 5 and 6 (see 2. 4 below)');
  });

  it('learns no bare mark from a formula\'s argument or from a label at a line\'s head', () => {
    // `f(2).` with f set as a formula, at the line's end; `(2)` opening a line (its formula lost).
    const blocks = [block(line('Calculate ', ['f'], '(2).')), block(line('Solve ', ['f'], '(3).')), block(line('(2) を求めよ。'), line('(3) を求めよ。'))];
    expect(learnMarks(blocks)).toEqual([]);
    // A right-aligned `(3)` at the line's end is a mark.
    expect(learnMarks([block(line('Find x.  (3)')), block(line('Find y.  (2)'))]).map(s => [s.open, s.range, s.word])).toEqual([['(', false, '']]);
  });
});

describe.skipIf(!haveShared())('segment on real papers', () => {
  it('reads a KICE question: stem with formulas, five options, points', async () => {
    const doc = await analyse(path.join(KCSAT, '202311-h3-math-pro.pdf'));
    const q2 = doc.questions.find(q => q.number === 2)!;
    expect(q2.stem).toContain('$f(x)=2x^{3}-5x^{2}+3$');
    expect(q2.stem).toContain('$\\lim_{h\\to0}\\frac{f(2+h)-f(2)}{h}$');
    expect(q2.options.map(o => o.text)).toEqual(['$1$', '$2$', '$3$', '$4$', '$5$']);
    expect(q2.points).toBe(2);
    const q22 = doc.questions.find(q => q.number === 22)!;
    expect(q22.type).toBe('short');
    expect(q22.stem).not.toMatch(/확인 사항/);
  });

  it('scores numbering candidates by how their numbers run, restarts per section included', () => {
    expect(sequenceScore([1, 2, 3, 4])).toBe(3);
    // Numbered instructions, then the questions from 1 again.
    expect(sequenceScore([1, 2, 3, 1, 2, 3, 4, 5])).toBe(6);
    // Quantities that happen to open lines (`2.` `12.` `3.`) run nowhere.
    expect(sequenceScore([2, 12, 3, 40])).toBe(0);
    // A selection that keeps its questions' numbers opens at 6; a year before it opens nothing.
    expect(sequenceScore([6, 7, 8, 9])).toBe(3);
    expect(sequenceScore([2019, 6, 7, 8])).toBe(2);
  });

  it('rejects a template that departs from the schema, naming the template, the field and what was expected', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'template-schema-'));
    fs.mkdirSync(path.join(dir, 'schema'));
    fs.copyFileSync(path.join(ROOT, 'templates', 'schema', 'template.schema.json'), path.join(dir, 'schema', 'template.schema.json'));
    const data = JSON.parse(fs.readFileSync(path.join(ROOT, 'templates', 'generic.json'), 'utf8'));
    data.numbering.max = 'many';
    data.options.typeWithout = 'essay';
    delete data.points.unit;
    fs.writeFileSync(path.join(dir, 'broken.json'), JSON.stringify(data));
    expect(() => loadTemplate(path.join(dir, 'broken.json'), ROOT)).toThrow(/template broken\.json: .*numbering\.max: expected integer, found string.*options\.typeWithout: expected one of "short", "free", found "essay".*points\.unit: expected \(required\)/);
    fs.rmSync(dir, { recursive: true, force: true });
    // Every template shipped passes.
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'templates', 'schema', 'template.schema.json'), 'utf8'));
    for (const f of fs.readdirSync(path.join(ROOT, 'templates')).filter(f => f.endsWith('.json'))) {
      expect(schemaErrors(JSON.parse(fs.readFileSync(path.join(ROOT, 'templates', f), 'utf8')), schema), f).toEqual([]);
    }
  });
});

describe('option labels on a page read by OCR', () => {
  const generic = templates.find(t => t.id === 'generic')!;
  const row = (text: string, k: number): Line => ({ page: 1, column: 0, bbox: [90, 200 + k * 16, 300, 212 + k * 16], spans: text.split(' ').map((w, i) => span(w, 90 + i * 30, 210 + k * 16)) });

  it('takes a label OCR read glued to its value (`C19` for `C. 19`) where the run expects it, at its labels\' edge', async () => {
    const { optionsOf } = await import('../pipeline/structure/options.ts');
    const lines = [row('A.5', 0), row('B. 17', 1), row('C19', 2), row('D. 84', 3)];
    expect(optionsOf(lines, generic, new Set(), true).options.map(o => `${o.label} ${o.text}`)).toEqual(['A 5', 'B 17', 'C 19', 'D 84']);
    // On a page with a text layer a word such as `C19` is no label.
    expect(optionsOf(lines, generic, new Set(), false).options.map(o => o.label)).not.toContain('C');
  });

  it('takes the one label-shaped word between two labels read as the label OCR misread there (`8.` for `B.`, `Cc.` for `C.`)', async () => {
    // Seed 20261211, paper 0261: `A. 40° 8. 41 C, 39` / `D. 46`, and `A. 25 B. 24 Cc. 28` / `D. 29`.
    const { optionsOf } = await import('../pipeline/structure/options.ts');
    const read = (lines: Line[], ocr = true) => optionsOf(lines, generic, new Set(), ocr).options.map(o => `${o.label} ${o.text}`);
    expect(read([row('Question 8 What is 29 + 5 - 2?', 0), row('A. 40° 8. 41 C, 39', 1), row('D. 46', 2)])).toEqual(['A 40°', 'B 41', 'C 39', 'D 46']);
    expect(read([row('Question 7 How many books?', 0), row('A. 25 B. 24 Cc. 28', 1), row('D. 29', 2)])).toEqual(['A 25', 'B 24', 'C 28', 'D 29']);
    // Two such words between them (values printed with a stop) pin nothing; nor does a text layer.
    expect(read([row('Question 3 Pick one.', 0), row('A. 5. 8. 6. C. 7.', 1)])).not.toContain('B 6.');
    expect(read([row('Question 8 What is 29 + 5 - 2?', 0), row('A. 40° 8. 41 C, 39', 1), row('D. 46', 2)], false)).not.toContain('B 41');
  });
});

describe('a row of labels numbered as questions are', () => {
  const leadOf = (text: string) => features([{ text }])[0].lead!;

  it('tells a line that goes on to print its lead\'s next numbers in its shape (`(1) 56 (2) 64 (3) 54`) from a question\'s lead', () => {
    expect(labelRow(leadOf('(1) 56 (2) 64 (3) 54 (4) 48'))).toBe(true);
    expect(labelRow(leadOf('1. 90  2. 88  3. 86'))).toBe(true);
    // OCR garbles a label now and then: two of the next three still make a row.
    expect(labelRow(leadOf('(1)26 (241 (3)46 (4) 36'))).toBe(true);
    // A question's text may hold one later number, never its next questions' labels in a row.
    expect(labelRow(leadOf('1. Evaluate 4 × 2.'))).toBe(false);
    expect(labelRow(leadOf('(1) Find f(2) and f(3).'))).toBe(false);
    expect(labelRow(leadOf('Question 1 (2) (3)'))).toBe(false);
  });

  it('costs a row of labels its opening in the decoder: the question\'s own lead opens it', () => {
    const fs = features([
      { text: '(1) 56 (2) 64 (3) 54 (4) 48', options: [0, 1, 2, 3] }, { text: '(1) Evaluate 7 × 8.' }, { text: '(1) 56 (2) 64 (3) 54 (4) 48', options: [0, 1, 2, 3] },
      { text: '(2) Evaluate 8 × 8.' }, { text: '(1) 49 (2) 64 (3) 72 (4) 81', options: [0, 1, 2, 3] },
    ]);
    expect(fs.map(f => f.labelRow)).toEqual([true, false, true, false, true]);
    const reading = decode(fs, candidates(fs), settings);
    expect(reading.anchors.map(a => `${a.number}@${a.candidate.f.index}`)).toEqual(['1@1', '2@3']);
  });
});

describe('options read by place on a scan', () => {
  const using = (id: string): Template => {
    const s = optionSchemes(ROOT).find(x => x.id === id)!;
    return { ...generic, options: { ...generic.options, markers: s.markers, pattern: s.pattern }, re: { ...generic.re, option: new RegExp(s.pattern!, 'gu') } };
  };
  /** A line of cells: words a third of the type size apart, cells `gap` type sizes apart. */
  const row = (y: number, cells: string[], gap = 2): Line => {
    let x = 70;
    const spans = cells.flatMap(cell => {
      const words = cell.split(' ').map(w => { const s = span(w, x, y); x = s.bbox[2] + 11.5 * 0.3; return s; });
      x += 11.5 * (gap - 0.3);
      return words;
    });
    return { page: 1, column: 0, bbox: [70, y - 10, x, y + 2], spans };
  };
  const question = (n: number, y: number, ...rows: string[][]) => ({ lines: [row(y, [`${n}. Tính giá trị của biểu thức sau đây`]), ...rows.map((r, k) => row(y + 14 * (k + 1), r))], anchor: [] as Span[] });
  const labels = labelAlphabets(ROOT);
  const scanned = () => true;

  it('learns that a paper ends its questions in rows of four, and reads a row whose labels OCR garbled by place', () => {
    const t = using('digits-stop');
    const qs = [
      question(1, 100, ['1. 44', '2. 46', '3. 51', '4. 53']),
      question(2, 200, ['13', '2. 7', '3. 16', '4. 6']),
      question(3, 300, ['1. 25', '2.20)', '3. 30', '4, 50']),
      question(4, 400, ['1. 124', '3. 125', '3. 127', '4. 250']),
    ];
    const rows = learnOptionRows(qs, t, scanned, labels)!;
    expect(rows).toEqual({ count: 4, labels: ['1', '2', '3', '4'] });
    // Read strictly, the garbled rows have no run of labels; by place, four options each.
    expect(optionsOf(qs[2].lines, t, new Set(), true).options).toEqual([]);
    const read = optionsOf(qs[2].lines, t, new Set(), true, rows);
    expect([read.byPlace, read.firstLine, read.options.map(o => `${o.label}:${o.text}`)]).toEqual([true, 1, ['1:25', '2:20)', '3:30', '4:50']]);
    expect(optionsOf(qs[1].lines, t, new Set(), true, rows).options.map(o => o.text)).toEqual(['3', '7', '16', '6']);
    // On a text layer the labels are read as printed: nothing by place.
    expect(optionsOf(qs[2].lines, t, new Set(), false, rows).options).toEqual([]);
  });

  it('names the options in the alphabet their garbled labels vote for (`(a) (B) (y) (5)` is α β γ δ), a 2×2 grid and a wrapped fifth included', () => {
    const greek = [1, 2, 3].map(n => question(n, n * 100, ['(a) 57', '(β) 60', '(y) 58', '(5) 61']));
    expect(learnOptionRows(greek, using('latin-upper-paren'), scanned, labels)?.labels).toEqual(['α', 'β', 'γ', 'δ']);
    const grid = [1, 2, 3].map(n => question(n, n * 100, ['(A) 27', '(B) 24'], ['(C) 29', '(D) 31']));
    expect(learnOptionRows(grid, using('latin-upper-paren'), scanned, labels)).toEqual({ count: 4, labels: ['A', 'B', 'C', 'D'] });
    const wrapped = [1, 2, 3].map(n => question(n, n * 100, ['(Aio', 'EBP) I20', '(C) 121', '(D) 123'], ['(E) 127']));
    expect(learnOptionRows(wrapped, using('latin-upper-paren'), scanned, labels)?.count).toBe(5);
  });

  it('reads a row whose cells open with the labels in order, their brackets lost or read as letters (`Ai87 B88 Co95 Do97`), by place', () => {
    // Seed 20261211, paper 0013: `A) 87 B) 88 C) 95 D) 97` / `E) 90` read beside Chinese.
    const t = using('latin-upper-paren');
    const qs = [
      question(1, 100, ['A) 50', 'B) 60', 'C) 63', 'D) 120'], ['E) 64']),
      question(2, 200, ['Ai87', 'B88', 'Co95', 'Do97'], ['E) 90']),
      question(3, 300, ['AI3', 'B5', 'C4', 'D11'], ['E) 8']),
    ];
    const rows = learnOptionRows(qs, t, scanned, labels)!;
    expect(rows).toEqual({ count: 5, labels: ['A', 'B', 'C', 'D', 'E'] });
    expect(optionsOf(qs[1].lines, t, new Set(), true, rows).options.map(o => `${o.label}:${o.text}`)).toEqual(['A:87', 'B:88', 'C:95', 'D:97', 'E:90']);
    expect(optionsOf(qs[2].lines, t, new Set(), true, rows).options.map(o => o.text)).toEqual(['3', '5', '4', '11', '8']);
    // A question of four in a paper of five, its labels in order: four options.
    expect(optionsOf(question(4, 400, ['AI3', 'B5', 'C4', 'D11']).lines, t, new Set(), true, rows).options.map(o => `${o.label}:${o.text}`)).toEqual(['A:3', 'B:5', 'C:4', 'D:11']);
    // A figure's letters in order carry no values, and two cells in order are as likely text: no row.
    const figure = [1, 2, 3].map(n => question(n, n * 100, ['A', 'B', 'C']));
    expect(learnOptionRows(figure, t, scanned, labels)).toBeNull();
    const two = [1, 2, 3].map(n => question(n, n * 100, ['A7', 'B8']));
    expect(learnOptionRows(two, t, scanned, labels)).toBeNull();
    // Parts one under another (`(а)` in Cyrillic, `(b)`, its `(i)` `(ii)`), the parts' labels read
    // clean and in order (seed 20261210, paper 0116): a question's parts, not four options by place.
    const parts = question(5, 500, ['(а) Найдите f(2).'], ['(b)'], ['(i) Решите f(x) = 23.'], ['(ii) Почему?']);
    expect(optionsOf(parts.lines, t, new Set(), true, rows).options).toEqual([]);
    // The same labels side by side in a row (options drawn as pictures above them) are options.
    const pictures = question(7, 700, ['(а)', '(b)', '(c)', '(d)']);
    expect(optionsOf(pictures.lines, t, new Set(), true, rows).options.map(o => o.label)).toEqual(['A', 'B', 'C', 'D']);
    // Values one under another under labels read clean in the parts' order (a Greek paper's `(α)`
    // beside Latin `(b) (c) (d)`, seed 20261210, paper 0057): choices, read by place.
    const values = question(8, 800, ['(α) 37'], ['(b) 36'], ['(c) 42'], ['(d) 44']);
    expect(optionsOf(values.lines, t, new Set(), true, rows).options.map(o => o.text)).toEqual(['37', '36', '42', '44']);
    // Garbled options out of the parts' order are still read by place.
    const garbled = question(6, 600, ['(a) 3', '(B) 5', '(c) 4', '(0) 11'], ['E) 8']);
    expect(optionsOf(garbled.lines, t, new Set(), true, rows).options.map(o => o.text)).toEqual(['3', '5', '4', '11', '8']);
  });

  it('learns one count for a paper of fours and fives, and reads parts that carry marks as parts (seed 20261214, paper 0152)', () => {
    const t = using('latin-upper-paren');
    // Five options, (E) wrapped; two rows of five whose cells OCR ran together (four cells); three
    // questions of four; two questions whose parts `a.` `b.` `c.` each carry a mark, one wrapped
    // to a line of its own. Most rows hold four cells, yet the paper is one of five.
    const qs = [
      question(1, 100, ['(A) 2', '(B) 3', '(C) 4', '(D) 1'], ['(E) 8']),
      question(2, 200, ['(A) 60', '(B) 57', '(C) 59', '(D) 67'], ['(E) 120']),
      question(3, 300, ['(6) 38', '(B) 44 _ (0) 45', '(0) 80'], ['(E) 40']),
      question(4, 400, ['(6) 23', '(6) 24 (C) 26', '(0) 50'], ['(E) 25']),
      question(5, 500, ['(A) 58', '(B) 68', '(C) 69', '(D) 72']),
      question(6, 600, ['(6) 56', '(B) 55', '(0) 57', '(0) 66']),
      question(7, 700, ['(A) 2', '(B) 3', '(C4', '(D6']),
      question(8, 800, ['오.'], ['a. f(2)의 값을 구하시오. [3]'], ['6. f(x) = 34를 만족시키는 x의 값을 구하시오.'], ['[1]']),
      question(9, 900, ['a. f(2)의 값을 구하시오. [3]'], ['6. f(x) = 24를 만족시키는 x의 값을 구하시오.'], ['[3]'], ['<. f가 증가함수인 이유를 설명하시오. [4]']),
    ];
    const rows = learnOptionRows(qs, t, scanned, labels)!;
    expect(rows).toEqual({ count: 5, labels: ['A', 'B', 'C', 'D', 'E'] });
    expect(optionsOf(qs[1].lines, t, new Set(), true, rows).options.map(o => o.text)).toEqual(['60', '57', '59', '67', '120']);
    expect(optionsOf(qs[5].lines, t, new Set(), true, rows).options.map(o => `${o.label}:${o.text}`)).toEqual(['A:56', 'B:55', 'C:57', 'D:66']);
    // Parts each with its mark are no options, by place or otherwise.
    expect(optionsOf(qs[7].lines, t, new Set(), true, rows).options).toEqual([]);
    expect(optionsOf(qs[8].lines, t, new Set(), true, rows).options).toEqual([]);
    // A paper of fours whose rows of five are fours with a cell split (`C.` `199`, seed 20261210,
    // paper 0079), or one block of five parts (seed 20261208, paper 0252): a paper of fours.
    const fours = [1, 2, 3, 4].map(n => question(n, n * 100, ['A. 38', 'B. 53', 'C. 48', 'D. 55']));
    const split = [5, 6].map(n => question(n, n * 100, ['A. 200', 'B. 198', 'C.', '199', 'D. 205']));
    expect(learnOptionRows([...fours, ...split], using('latin-upper-stop'), scanned, labels)?.count).toBe(4);
    const parts = question(7, 700, ['a) 꺼낼 확률', 'b) 나타내시오', 'c) 구하시오', '(i) 구하시오', '(ii) 구하시오']);
    expect(learnOptionRows([...fours, parts], using('latin-upper-stop'), scanned, labels)?.count).toBe(4);
  });

  it('takes a question\'s prompt into none of its rows: under a number alone on its line, or a line of fewer cells above a row (seed 20261214, paper 0005)', () => {
    const t = using('digits-paren');
    // `प्रश्न 08` alone on its line, its prompt `3² का मान ज्ञात कीजिए।` read `32. …` (like a label),
    // its options one under another: read with the prompt, three such questions made the paper one
    // of five options labelled A–E, and its key's `3` matched none.
    const stacked = (n: number, y: number, prompt: string, values: number[]) => {
      const number = row(y, [`प्रश्न ${n}`]);
      return { lines: [number, row(y + 14, [prompt]), ...values.map((v, k) => row(y + 28 + 14 * k, [`(${k + 1}) ${v}`]))], anchor: number.spans };
    };
    const qs = [
      stacked(1, 100, 'log₂ 8 का मान ज्ञात कीजिए।', [3, 1, 6, 13]),
      stacked(2, 200, '32. का मान ज्ञात कीजिए।', [10, 12, 13, 9]),
      stacked(3, 300, '42. का मान ज्ञात कीजिए।', [16, 6, 20, 32]),
      stacked(4, 400, '22. 224+5x2 का मान क्या है?', [30, 32, 31, 37]),
    ];
    expect(learnOptionRows(qs, t, scanned, labels)).toEqual({ count: 4, labels: ['1', '2', '3', '4'] });
    // A prompt on the number's line, then a line of one cell above a row of four, on a paper of five: the row alone.
    const above = question(5, 500, ['32. का मान ज्ञात कीजिए।'], ['(1) 10', '(2) 12', '(3) 13', '(4) 9']);
    const rows = { count: 5, labels: ['1', '2', '3', '4', '5'] };
    expect(optionsOf(above.lines, t, new Set(), true, rows).options.map(o => o.text)).toEqual(['10', '12', '13', '9']);
  });

  it('parts a row\'s cells at a bracketed label OCR read as words of its own (`(` `ㄴ` `)86`), set closer than cells are', () => {
    const t = using('hangul-jamo-paren');
    // Cells 0.9 type sizes apart, each label's bracket, letter and stop read as words: `( 7 ) 79`.
    const tight = [1, 2, 3].map(n => ({ lines: [row(n * 100, [`${n}번 다음 값을 구하시오`]), row(n * 100 + 14, ['( 7 ) 79', '( ㄴ ) 86', '( ㄷ )81', '( 2 ) 91'], 0.9)], anchor: [] as Span[] }));
    const rows = learnOptionRows(tight, t, scanned, labels)!;
    expect(rows).toEqual({ count: 4, labels: ['ㄱ', 'ㄴ', 'ㄷ', 'ㄹ'] });
    expect(optionsOf(tight[0].lines, t, new Set(), true, rows).options.map(o => `${o.label}:${o.text}`)).toEqual(['ㄱ:79', 'ㄴ:86', 'ㄷ:81', 'ㄹ:91']);
    // A formula's bracket a word space after its letter opens no cell.
    const formula = [1, 2, 3].map(n => ({ lines: [row(n * 100, [`${n}. Tính giá trị của biểu thức sau đây`]), row(n * 100 + 14, ['f (x) = 3x + 2 khi x = 1'], 0.9)], anchor: [] as Span[] }));
    expect(learnOptionRows(formula, t, scanned, labels)).toBeNull();
  });

  it('finds no rows where questions end in prose OCR spaced wide, in two cells, or in a table of values', () => {
    const t = using('latin-upper-paren');
    const prose = [1, 2, 3].map(n => question(n, n * 100, ['袋の中に赤玉 4 個と青玉', '5 個が入っている。']));
    expect(learnOptionRows(prose, t, scanned, labels)).toBeNull();
    const table = [1, 2, 3].map(n => question(n, n * 100, [`${n * 3}`, `${n * 7 + 1}`, `${20 - n}`, `${n + 40}`]));
    expect(learnOptionRows(table, t, scanned, labels)).toBeNull();
    // Parts numbered `1.1.`, each with its marks (`(0-1)`), set one under another: no options.
    const parts = [1, 2, 3].map(n => question(n, n * 100, [`${n}.1.`, '(0-1) f(2) を求めよ。'], [`${n}.2.`, '(0-4) f(x) = 37 を満たす x を求めよ。']));
    expect(learnOptionRows(parts, t, scanned, labels)).toBeNull();
    // Questions on text-layer pages teach nothing here.
    expect(learnOptionRows([1, 2, 3].map(n => question(n, n * 100, ['(A) 1', '(B) 2', '(C) 3', '(D) 4'])), t, () => false, labels)).toBeNull();
  });
});

describe('a question\'s options are no parts of it', () => {
  it('reads `(a)`–`(d)` to choose from as options only, and parts before them as parts', async () => {
    const { buildQuestion } = await import('../pipeline/structure/question.ts');
    const s = optionSchemes(ROOT).find(x => x.id === 'latin-lower-paren')!;
    const t: Template = { ...generic, options: { ...generic.options, markers: s.markers, pattern: s.pattern }, re: { ...generic.re, option: new RegExp(s.pattern!, 'gu') } };
    const doc = { sha256: 'a'.repeat(64), template: t, pages: [{ ocr: false }], messages: new Diagnostics('q.pdf') } as unknown as PaperDocument;
    const lines = (...texts: string[]): Line[] => texts.map((text, i) => ({ page: 1, column: 0, bbox: [70, 100 + i * 14, 500, 112 + i * 14], spans: [span(text, 70, 110 + i * 14)] }));
    const q = buildQuestion(doc, { section: null, number: 1, anchor: [], lines: lines('1. What is the value of x?', '(a) 3', '(b) 4', '(c) 5', '(d) 6'), typeHint: null, sectionPoints: null });
    expect([q.type, q.options.map(o => o.label), q.parts]).toEqual(['mcq', ['a', 'b', 'c', 'd'], []]);
    // Parts, then the options the last of them chooses from.
    const both = buildQuestion(doc, { section: null, number: 2, anchor: [], lines: lines('2. Read the table.', '(i) Name the largest value.', '(ii) Which value is the smallest?', '(a) 3', '(b) 4', '(c) 5', '(d) 6'), typeHint: null, sectionPoints: null });
    expect([both.options.length, both.parts.map(p => p.label)]).toEqual([4, ['(i)', '(ii)']]);
  });

  it('reads a one-line prompt with a figure\'s letters under it (`O x`, `A B`, set small) as asking for a value', async () => {
    const { buildQuestion } = await import('../pipeline/structure/question.ts');
    const doc = { sha256: 'b'.repeat(64), template: generic, pages: [{ ocr: false }], messages: new Diagnostics('q.pdf') } as unknown as PaperDocument;
    const at = (text: string, i: number, size = 11.5): Line => ({ page: 1, column: 0, bbox: [70, 100 + i * 14, 500, 112 + i * 14], spans: [span(text, 70, 110 + i * 14, size)] });
    const ask = (...small: [string, number][]) => buildQuestion(doc, { section: null, number: 5, anchor: [], lines: [at('5. What is the value of 23 + 3 · 9?', 0), ...small.map(([t, size], i) => at(t, i + 1, size))], typeHint: null, sectionPoints: null }).type;
    expect(ask(['y', 7], ['O x', 7])).toBe('short');
    // A second line of the prompt's own size is the prompt's, however short.
    expect(ask(['x=3', 11.5])).toBe('free');
  });

  it('reads one sentence wrapped at its column\'s edge as one line of prompt, and its translation under it as no line of it', async () => {
    const { buildQuestion } = await import('../pipeline/structure/question.ts');
    // A narrow column (x 45–290): the Chinese sentence runs to the edge and wraps; the English under it
    // is its translation (fuzzer seed 20261204, paper 0023).
    const doc = { sha256: 'b'.repeat(64), template: generic, pages: [{ ocr: false, width: 595, columns: [{ x0: 45, x1: 290 }] }], messages: new Diagnostics('q.pdf') } as unknown as PaperDocument;
    const at = (text: string, i: number, x1: number): Line => ({ page: 1, column: 0, bbox: [45, 100 + i * 14, x1, 112 + i * 14], spans: [{ ...span(text, 45, 110 + i * 14, 11), bbox: [45, 100 + i * 14, x1, 112 + i * 14] }] });
    const typeOf = (...lines: Line[]) => buildQuestion(doc, { section: null, number: 7, anchor: [], lines, typeHint: null, sectionPoints: null }).type;
    const zh = [at('7) 一个长方形的长为 19 cm，宽为 11 cm，它的', 0, 288), at('面积是多少 cm2？', 1, 140)];
    expect(typeOf(...zh)).toBe('short');
    expect(typeOf(...zh, at('A rectangle measures 19 cm by 11 cm. What', 2, 285), at('is its area in cm2?', 3, 130))).toBe('short');
    // …and a translation whose last word wraps onto a line of its own, too short to count as words (seed 20261218, paper 0006).
    expect(typeOf(...zh, at('A rectangle measures 19 cm by 11 cm. What is its area in', 2, 285), at('cm2?', 3, 70))).toBe('short');
    // Lines that end short of the edge are lines of their own (a given, then what to find in parts).
    expect(typeOf(at('7) Let f(x) = 5x + 9.', 0, 150), at('3.1 Calculate f(2).', 1, 140), at('3.2 Solve f(x) = 34.', 2, 150))).toBe('free');
  });
});
