// Papers no family template claims, as teachers print them (fixtures/educator, built by
// fixtures/make-educator.ts): each in its own numbering, option and marks convention, language and
// layout. They are read by the conventions inferred from each paper and scored with the shared
// scorer against the expected tables beside them; an image-only copy goes through OCR.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import stringSimilarity from 'string-similarity';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, ROOT } from '../pipeline/config.ts';
import { runBatch, type BatchResult } from '../pipeline/run.ts';
import { haveShared, SCORER, TEST_OUT } from './helpers.ts';
import { imageOnlyCopy } from './image-only.ts';

const YEAR = '2099';
const PAPERS = path.join(ROOT, 'fixtures', 'educator');
const TRUTH = path.join(PAPERS, 'truth');
const OUT = path.join(TEST_OUT, 'educator');
const SCAN_IN = path.join(TEST_OUT, 'educator-scan-in');
const SCAN_OUT = path.join(TEST_OUT, 'educator-scan');
/** The paper whose image-only copy is read by OCR: numbered instructions, marks, two pages. */
const SCANNED = 'en-dot-upper';

interface Scored { summary: Record<string, number | null>; papers: { paper: string; expected: number; matched: number; extra: number; [k: string]: unknown }[] }
const score = (out: string): Scored => JSON.parse(execFileSync('node', [SCORER, '--items', path.join(out, YEAR, 'items.jsonl'), '--truth', TRUTH, '--json'], { encoding: 'utf8' }));
const records = (out: string) => fs.readFileSync(path.join(out, YEAR, 'items.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l));

describe.skipIf(!haveShared())('educator papers read by inferred conventions', () => {
  let text: BatchResult;
  beforeAll(async () => {
    fs.rmSync(OUT, { recursive: true, force: true });
    fs.rmSync(SCAN_IN, { recursive: true, force: true });
    fs.rmSync(SCAN_OUT, { recursive: true, force: true });
    text = await runBatch(resolveConfig({ year: YEAR, inDir: PAPERS, outDir: OUT, progress: false }, {}));
    expect(text.papers.filter(p => p.status === 'failed').map(p => p.file)).toEqual([]);
    await imageOnlyCopy(path.join(PAPERS, `${SCANNED}.pdf`), SCAN_IN);
    const scan = await runBatch(resolveConfig({ year: YEAR, inDir: SCAN_IN, outDir: SCAN_OUT, progress: false }, {}));
    expect(scan.papers.filter(p => p.status === 'failed').map(p => p.file)).toEqual([]);
  }, 1_200_000);

  it('scores ≥ 0.98 over the set: recall, precision, points, options, page and type', () => {
    const { summary, papers } = score(OUT);
    console.log(`educator: ${JSON.stringify(summary)}`);
    const truths = fs.readdirSync(TRUTH).filter(f => f.endsWith('.csv'));
    expect(truths.length).toBeGreaterThanOrEqual(10);
    expect(papers.length).toBe(truths.length);
    for (const k of ['recall', 'precision', 'points', 'options', 'page', 'type']) expect(summary[k], k).toBeGreaterThanOrEqual(0.98);
  });

  it('records on every paper the conventions it found, one numbering scheme per convention printed', () => {
    const byPaper = new Map<string, { numbering: { id: string }; options: { id: string } | null }>();
    for (const r of records(OUT)) byPaper.set(r.source.file, r.exam.conventions);
    const want: Record<string, [string, string | null]> = {
      'en-dot-upper.pdf': ['dot', 'upper'],
      'en-question-inline.pdf': ['word:Question', 'upper'],
      'es-pregunta-lower.pdf': ['word:Pregunta', 'lower'],
      'pt-questao-two-columns.pdf': ['word:QUESTÃO', 'upper'],
      'vi-cau-inline.pdf': ['word:Câu', 'upper'],
      'ko-circled.pdf': ['dot', 'circled'],
      'zh-di-ti.pdf': ['cjk', 'upper'],
      'fr-exercice-parts.pdf': ['word:Exercice', null],
      'en-q-lower-two-columns.pdf': ['q', 'lower'],
      'en-paren-close.pdf': ['paren-close', 'upper'],
      'es-seleccion-numeros.pdf': ['dot', 'upper'],
      'es-ensayo-paes.pdf': ['word:Pregunta', 'lower'],
    };
    for (const [file, [numbering, options]] of Object.entries(want)) {
      const c = byPaper.get(file);
      expect(c?.numbering.id, file).toBe(numbering);
      expect(c?.options?.id ?? null, file).toBe(options);
    }
  });

  it('keeps a selection\'s own numbers (2, 3, 5, 6, 8, 9): its stated count explains the gaps and its opening at 2, and its key joins by them', () => {
    const own = records(OUT).filter(r => r.source.file === 'es-seleccion-numeros.pdf').sort((a, b) => a.number - b.number);
    expect(own.map(r => `${r.number}${r.answer}`)).toEqual(['2A', '3B', '5B', '6C', '8C', '9B']);
    const messages = text.papers.find(p => p.file === 'es-seleccion-numeros.pdf')!.messages;
    expect(messages.filter(m => m.rule.startsWith('gaps/')).map(m => `${m.severity} ${m.rule}`)).toEqual(['info gaps/by-design']);
  });

  it('reads a practice paper the PAES template claims by the paper\'s own conventions, where the template\'s options open none of its questions', () => {
    // The cover names PAES, but the paper prints `Pregunta N` and a)–d), none of PAES's A)–E): the
    // template does not fit it, and it is read as no family's (a school's test titled 수학 영역 is
    // claimed by the KICE cover patterns the same way).
    const own = records(OUT).filter(r => r.source.file === 'es-ensayo-paes.pdf');
    expect(own.map(r => r.number)).toEqual([1, 2, 3, 4, 5]);
    expect(own.map(r => r.options.map((o: { label: string }) => o.label).join(''))).toEqual(Array(5).fill('abcd'));
    expect(new Set(own.map(r => r.exam.template))).toEqual(new Set(['generic']));
    const messages = text.papers.find(p => p.file === 'es-ensayo-paes.pdf')!.messages;
    expect(messages.filter(m => m.rule.startsWith('segment/template')).map(m => m.rule)).toEqual(['segment/template-unfit']);
  });

  it('gives options clean text: no label or bracket of the next option left at the end', () => {
    for (const r of records(OUT)) {
      for (const o of r.options) expect(o.text, `${r.source.file} ${r.number} ${o.label}`).not.toMatch(/[(（]\s*$|\s[A-Ea-e][.)]\s*$/);
    }
  });

  it('reads the image-only copy ≥ 0.95 and renumbers no question', () => {
    const { summary } = score(SCAN_OUT);
    console.log(`educator image-only: ${JSON.stringify(summary)}`);
    for (const k of ['recall', 'precision', 'points', 'options', 'page']) expect(summary[k], k).toBeGreaterThanOrEqual(0.95);
    const printed = records(OUT).filter(r => r.source.file === `${SCANNED}.pdf`);
    const scanned = records(SCAN_OUT);
    expect(scanned.map(r => r.number).sort((a, b) => a - b)).toEqual(printed.map(r => r.number).sort((a, b) => a - b));
    // The words too: a stem OCR read is the printed stem but for a character or two (x² as x?), with
    // nothing of another line (option labels) mixed in.
    for (const r of scanned) {
      const p = printed.find(q => q.number === r.number)!;
      expect(stringSimilarity.compareTwoStrings(r.stem, p.stem), `${r.number}: ${r.stem}`).toBeGreaterThanOrEqual(0.85);
    }
  });
});
