// Formulas outside the KICE equation font, against a table checked by eye on the rendered pages
// (test/fixtures/formulas/: Cambridge 9709, PAES M1 and gaokao chemistry papers in ../shared).
// The papers are read fresh, their records scored with the scorer's own `--math` normalisation,
// and every formula of the table and of the records must typeset in KaTeX.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../pipeline/config.ts';
import { formulas, katexError, mathStage } from '../pipeline/stages/math.ts';
import type { StageContext } from '../pipeline/stage.ts';
import { analyse } from './analyse.ts';
import { haveShared, SCORER, SHARED, TEST_OUT, TRUTH } from './helpers.ts';

const TABLE = path.join(ROOT, 'test', 'fixtures', 'formulas');
const PAPERS = path.join(SHARED, 'fixtures', 'papers');
const OUT = path.join(TEST_OUT, 'formulas');

/** The table's rows (CSV as the scorer reads it: paper_id,number,where,index,latex; latex may be quoted). */
function tableRows(): { paper: string; number: number; latex: string }[] {
  const rows: { paper: string; number: number; latex: string }[] = [];
  for (const f of fs.readdirSync(TABLE).filter(n => n.endsWith('.csv'))) {
    const [, ...lines] = fs.readFileSync(path.join(TABLE, f), 'utf8').trim().split(/\r?\n/);
    for (const line of lines) {
      const m = /^([^,]+),(\d+),([^,]+),(\d+),(.*)$/.exec(line);
      if (!m) throw new Error(`${f}: a row that is not paper,number,where,index,latex: ${line}`);
      const latex = m[5].startsWith('"') ? m[5].slice(1, -1).replace(/""/g, '"') : m[5];
      rows.push({ paper: m[1], number: Number(m[2]), latex });
    }
  }
  return rows;
}

describe('the formula table', () => {
  it('holds at least 150 formulas over PAES, Cambridge and gaokao, each one typesetting in KaTeX', () => {
    const rows = tableRows();
    expect(rows.length).toBeGreaterThanOrEqual(150);
    const family = (p: string) => (p.startsWith('9709') ? 'cambridge' : /^M\d|^C-/.test(p) ? 'paes' : 'gaokao');
    expect(new Set(rows.map(r => family(r.paper)))).toEqual(new Set(['cambridge', 'paes', 'gaokao']));
    expect(rows.filter(r => katexError(r.latex))).toEqual([]);
  });
});

describe.skipIf(!haveShared())('formulas of PAES, Cambridge and gaokao papers', () => {
  let score: { formulas: number; math_exact: number };
  const produced: string[] = [];
  beforeAll(async () => {
    const papers = [...new Set(tableRows().map(r => r.paper))];
    const records: string[] = [];
    for (const paper of papers) {
      const family = fs.readdirSync(PAPERS).find(d => fs.existsSync(path.join(PAPERS, d, `${paper}.pdf`)));
      if (!family) throw new Error(`the table names ${paper}, which is not among ../shared's papers`);
      const doc = await analyse(path.join(PAPERS, family, `${paper}.pdf`));
      await mathStage().run(doc, {} as StageContext);
      for (const q of doc.questions) {
        records.push(JSON.stringify({ source: { file: `${paper}.pdf` }, section: q.section, number: q.number, page: q.page, stem: q.stem, options: q.options.map(o => ({ label: o.label, text: o.text })) }));
        produced.push(...formulas(q.stem), ...q.options.flatMap(o => formulas(o.text)));
      }
    }
    fs.mkdirSync(OUT, { recursive: true });
    // Not named items.jsonl: these partial records (stems and options only) must not be taken for an
    // ingest by `score.mjs --items out`, which reads every items.jsonl under a folder.
    const file = path.join(OUT, 'formula-records.jsonl');
    fs.rmSync(path.join(OUT, 'items.jsonl'), { force: true });
    fs.writeFileSync(file, records.join('\n') + '\n');
    const json = execFileSync('node', [SCORER, '--items', file, '--truth', TRUTH, '--math', TABLE, '--json'], { encoding: 'utf8' });
    score = JSON.parse(json).summary ?? JSON.parse(json);
  }, 900_000);

  it('finds at least 90% of the table exactly (scorer normalisation)', () => {
    expect(score.formulas).toBe(tableRows().length);
    expect(score.math_exact).toBeGreaterThanOrEqual(0.9);
  });

  it('emits only formulas that typeset in KaTeX', () => {
    expect(produced.length).toBeGreaterThan(150);
    expect(produced.filter(f => katexError(f))).toEqual([]);
  });
});
