// Exports of a split, each checked the way its tool reads it: VLMEvalKit's TSVs (columns, base64
// PNG pages), the Hugging Face JSONL and dataset card (configs whose files exist), lm-eval's task
// YAMLs (parsed as YAML 1.1, as PyYAML reads them, naming data that exists), the same items in all
// of them with points and difficulty, and the selection of items sat after a model's cut-off.
// Built from the shipped sample paper with a CSV key and published error rates beside it.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import YAML from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, resolveRefreshConfig, resolveSelectConfig } from '../pipeline/config.ts';
import { selectAfter } from '../pipeline/export/select.ts';
import { parseTsv } from '../pipeline/export/tsv.ts';
import { writeExports } from '../pipeline/export/write-exports.ts';
import { copyImages } from '../pipeline/splits/images.ts';
import type { SplitItem } from '../pipeline/splits/item.ts';
import { earliestKeyOf } from '../pipeline/splits/month.ts';
import { refresh } from '../pipeline/splits/refresh.ts';
import { TEST_OUT } from './helpers.ts';

const SAMPLE = path.join(ROOT, 'fixtures/samples/2026-sample-math-dif.pdf');
const work = path.join(TEST_OUT, 'export');
const out = path.join(work, 'out');
const dir = path.join(out, 'splits', '25-06'); // the sample is a 2026학년도 June mock: sat June 2025
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const readJsonl = <T = Record<string, unknown>>(file: string): T[] => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l) as T);
const tsv = (name: string) => parseTsv(fs.readFileSync(path.join(dir, 'vlmevalkit', name), 'utf8'));
/** An image cell: one base64 PNG, or a JSON list of them. */
const images = (cell: string) => (cell.startsWith('[') ? (JSON.parse(cell) as string[]) : [cell]).map(b => Buffer.from(b, 'base64'));
let items: SplitItem[];

beforeAll(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  const inbox = path.join(work, 'inbox');
  fs.mkdirSync(inbox, { recursive: true });
  fs.copyFileSync(SAMPLE, path.join(inbox, path.basename(SAMPLE)));
  // A key and error rates beside the paper: 1–6 and 23–24 are multiple choice, 7 and 8 short answers.
  const mcq = [['common', 1], ['common', 2], ['common', 3], ['common', 4], ['common', 5], ['common', 6], ['calculus', 23], ['calculus', 24]];
  fs.writeFileSync(path.join(inbox, '2026-sample-math-dif-answer.csv'), ['section,number,answer', ...mcq.map(([s, n], i) => `${s},${n},${'①②③④⑤'[i % 5]}`), 'common,7,12', 'common,8,305'].join('\n') + '\n');
  fs.writeFileSync(path.join(inbox, '2026-sample-math-dif-stats.csv'), 'section,number,error_rate\ncommon,1,31.5\ncommon,7,62\ncalculus,24,88.2\n');
  const r = await refresh(resolveRefreshConfig({ inDir: inbox, outDir: out, cutoff: '2025-06', dpi: 72, progress: false }, {}));
  expect(r.split, r.lines.join('\n')).toBe('25-06');
  items = readJsonl<SplitItem>(path.join(dir, 'items.jsonl'));
}, 300_000);

describe('exports of a split', () => {
  it('VLMEvalKit: the columns it reads, and every row\'s image decodes to the PNG of the page(s) its question is on', async () => {
    const mcq = tsv('exam_ingest_25-06_mcq.tsv');
    const free = tsv('exam_ingest_25-06_free.tsv');
    const head = ['index', 'image', 'question', 'A', 'B', 'C', 'D', 'E', 'answer', 'category', 'l2-category', 'split'];
    expect(mcq.columns.slice(0, head.length)).toEqual(head);
    expect(free.columns.slice(0, 3)).toEqual(['index', 'image', 'question']);
    expect(free.columns).toEqual(expect.arrayContaining(['answer', 'category', 'l2-category', 'split', 'points', 'difficulty']));
    expect(free.columns).not.toContain('A');
    expect(mcq.rows.length).toBe(8);
    expect(free.rows.length).toBe(2);
    const byId = new Map(items.map(i => [i.id, i]));
    for (const [t, rows] of [['mcq', mcq.rows], ['free', free.rows]] as const) {
      expect(rows.map(r => r.index)).toEqual(rows.map((_, i) => String(i)));
      for (const row of rows) {
        const item = byId.get(row.id)!;
        expect(row.split).toBe('25-06');
        const pngs = images(row.image);
        expect(pngs.length).toBe(item.modalities.IO.page_image.length);
        for (const [i, png] of pngs.entries()) {
          expect(png.subarray(0, 8).equals(PNG), `${t} ${row.id}`).toBe(true);
          expect(png.equals(fs.readFileSync(path.join(dir, item.modalities.IO.page_image[i])))).toBe(true);
          const meta = await sharp(png).metadata();
          expect([meta.format, meta.width! > 300, meta.height! > 300]).toEqual(['png', true, true]);
        }
        if (t === 'mcq') {
          expect(row.answer).toBe('ABCDE'[item.options.findIndex(o => o.label === item.answer)]);
          expect(['A', 'B', 'C', 'D', 'E'].map(l => row[l])).toEqual(item.options.map(o => o.text));
          expect(row.question).toBe(item.stem);
        } else {
          expect(row.answer).toBe(item.answer);
        }
      }
    }
  });

  it('a question over two pages gets a JSON list of its page images', () => {
    const one = items.find(i => i.modalities.IO.page_image.length === 1)!;
    const pages = [...new Set(items.flatMap(i => i.modalities.IO.page_image))].slice(0, 2);
    const twoPage: SplitItem = { ...one, id: `${one.id}-two`, modalities: { ...one.modalities, IO: { ...one.modalities.IO, page_image: pages } } };
    const target = path.join(work, 'two-page');
    fs.rmSync(target, { recursive: true, force: true });
    const copied = copyImages([twoPage], dir, target);
    writeExports(target, 'two', copied.items, { title: 't', scope: 's', counts: {}, sources: [] });
    const row = parseTsv(fs.readFileSync(path.join(target, 'vlmevalkit', 'exam_ingest_two_mcq.tsv'), 'utf8')).rows[0];
    expect(row.image.startsWith('["')).toBe(true);
    expect(images(row.image).map(b => b.equals(fs.readFileSync(path.join(dir, pages[0]))) || b.equals(fs.readFileSync(path.join(dir, pages[1]))))).toEqual([true, true]);
  });

  it('carries each language of a translated item as its own columns (HF files and VLMEvalKit), null or empty where an item has none', () => {
    const [a, b, c] = items.filter(i => i.modalities.IO.page_image.length === 1);
    const en = (i: SplitItem, status: string) => ({ en: { stem: `EN ${i.stem}`, options: i.options.map(o => ({ label: o.label, text: `EN ${o.text}` })), status, checks: [] } });
    const translated: SplitItem[] = [{ ...a, translations: en(a, 'ok') }, { ...b, translations: en(b, 'failed') }, c];
    const target = path.join(work, 'translated');
    fs.rmSync(target, { recursive: true, force: true });
    const copied = copyImages(translated, dir, target);
    writeExports(target, 'tr', copied.items, { title: 't', scope: 's', counts: {}, sources: [] });
    for (const file of ['data/tr.jsonl', 'data/TO/tr.jsonl', 'data/TI/tr.jsonl']) {
      const rows = readJsonl(path.join(target, file));
      expect(rows.map(r => r.question_en), file).toEqual([`EN ${a.stem}`, null, null]);
      expect(rows[0].options_en, file).toEqual(a.options.map(o => ({ label: o.label, text: `EN ${o.text}` })));
      expect(rows.every(r => !('translations' in r)), file).toBe(true);
    }
    const tsvRows = ['mcq', 'free'].flatMap(t => parseTsv(fs.readFileSync(path.join(target, 'vlmevalkit', `exam_ingest_tr_${t}.tsv`), 'utf8')).rows);
    const byId = new Map(tsvRows.map(r => [r.id, r]));
    expect(byId.get(a.id)!.question_en.startsWith(`EN ${a.stem}`)).toBe(true);
    expect(byId.get(b.id)!.question_en).toBe('');
  });

  it('the JSONL, the TSVs and the lm-eval data hold the same items, with points, error rates and difficulty', () => {
    const rows = readJsonl(path.join(dir, 'data', '25-06.jsonl'));
    expect(rows.map(r => r.id)).toEqual(items.map(i => i.id));
    const mcq = tsv('exam_ingest_25-06_mcq.tsv').rows;
    const free = tsv('exam_ingest_25-06_free.tsv').rows;
    expect([...mcq, ...free].map(r => r.id).sort()).toEqual(items.map(i => i.id).sort());
    const lm = [...readJsonl(path.join(dir, 'lm-eval', '25-06-mcq.jsonl')), ...readJsonl(path.join(dir, 'lm-eval', '25-06-free.jsonl'))];
    expect(lm.map(r => r.id).sort()).toEqual(items.map(i => i.id).sort());
    const tsvById = new Map([...mcq, ...free].map(r => [r.id, r]));
    const lmById = new Map(lm.map(r => [r.id, r]));
    for (const [i, item] of items.entries()) {
      const row = rows[i];
      expect([row.points, row.error_rate, row.difficulty]).toEqual([item.points, item.error_rate, item.difficulty]);
      expect([lmById.get(item.id)!.points, lmById.get(item.id)!.difficulty]).toEqual([item.points, item.difficulty]);
      const t = tsvById.get(item.id)!;
      expect([t.points, t.error_rate, t.difficulty]).toEqual([String(item.points ?? ''), String(item.error_rate ?? ''), item.difficulty ?? '']);
      expect(row.exam_date).toBe('2025-06');
    }
    // The published error rates came through: one item of each difficulty.
    expect(items.filter(i => i.difficulty).map(i => [i.number, i.error_rate, i.difficulty])).toEqual([[1, 31.5, 'easy'], [7, 62, 'medium'], [24, 88.2, 'hard']]);
    for (const m of ['TO', 'TI', 'IO']) expect(readJsonl(path.join(dir, 'data', m, '25-06.jsonl')).map(r => r.id)).toEqual(items.map(i => i.id));
  });

  it('lm-eval: the task YAMLs parse (as YAML 1.1) and name data files that exist, with the fields their templates use', () => {
    const files = fs.readdirSync(path.join(dir, 'lm-eval')).filter(f => f.endsWith('.yaml')).sort();
    expect(files).toEqual(['exam_ingest_25_06.yaml', 'exam_ingest_25_06_free.yaml', 'exam_ingest_25_06_mcq.yaml']);
    const load = (f: string) => YAML.parse(fs.readFileSync(path.join(dir, 'lm-eval', f), 'utf8'), { version: '1.1' }) as Record<string, any>;
    const group = load('exam_ingest_25_06.yaml');
    expect(group.group).toBe('exam_ingest_25_06');
    for (const [file, type] of [['exam_ingest_25_06_mcq.yaml', 'multiple_choice'], ['exam_ingest_25_06_free.yaml', 'generate_until']]) {
      const task = load(file);
      expect(group.task).toContain(task.task);
      expect([task.dataset_path, task.output_type, task.test_split]).toEqual(['json', type, 'test']);
      const data = path.join(dir, task.dataset_kwargs.data_files.test); // relative to the split: lm_eval runs from there
      expect(fs.existsSync(data), data).toBe(true);
      const docs = readJsonl(data);
      expect(docs.length).toBeGreaterThan(0);
      const vars = [...String(task.doc_to_text).matchAll(/\{\{\s*(\w+)/g)].map(m => m[1]).filter(v => v !== 'o');
      for (const d of docs) {
        for (const v of [...vars, task.doc_to_target, ...(task.doc_to_choice ? [task.doc_to_choice] : [])]) expect(d, `${file}: ${v}`).toHaveProperty(v);
        if (type === 'multiple_choice') expect(d.answer_index as number).toBeLessThan((d[task.doc_to_choice] as string[]).length);
      }
    }
  });

  it('the dataset card: YAML front matter whose configs name files that exist, split names the Hub accepts, licence and fields', () => {
    const card = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
    const m = /^---\n([\s\S]*?)\n---\n/.exec(card)!;
    const front = YAML.parse(m[1], { version: '1.1' }) as { configs: { config_name: string; data_files: { split: unknown; path: string }[] }[]; license: string };
    expect(front.configs.map(c => c.config_name)).toEqual(['all', 'TO', 'TI', 'IO']);
    for (const c of front.configs) for (const f of c.data_files) {
      expect(typeof f.split).toBe('string');
      expect(String(f.split)).toMatch(/^\w+(\.\w+)*$/);
      expect(fs.existsSync(path.join(dir, f.path)), f.path).toBe(true);
    }
    expect(card).toMatch(/copyright stays\s+with the authorities/);
    expect(card).toMatch(/\| difficulty|error_rate, difficulty/);
    // The image columns of each modality point at files of the split.
    for (const r of readJsonl<{ images: string[] }>(path.join(dir, 'data', 'TI', '25-06.jsonl'))) for (const p of r.images) expect(fs.existsSync(path.join(dir, p)), p).toBe(true);
    for (const r of readJsonl<{ images: string[] }>(path.join(dir, 'data', 'IO', '25-06.jsonl'))) expect(r.images.length).toBeGreaterThan(0);
    expect(items.some(i => i.modalities.TI.images.length)).toBe(true);
  });

  it('select AFTER= keeps the items sat after a model\'s cut-off, per item', () => {
    const before = selectAfter(resolveSelectConfig({ after: '2025-05', outDir: out }, {}));
    expect(before.items).toBe(items.length);
    const target = path.join(out, 'select', 'after-2025-05');
    expect(readJsonl(path.join(target, 'data', 'after-2025-05.jsonl')).map(r => r.id)).toEqual(items.map(i => i.id));
    expect(fs.existsSync(path.join(target, 'vlmevalkit', 'exam_ingest_after-2025-05_mcq.tsv'))).toBe(true);
    const selection = JSON.parse(fs.readFileSync(path.join(target, 'selection.json'), 'utf8'));
    expect(selection.splits.map((s: { split: string }) => s.split)).toEqual(['25-06']);
    expect(selectAfter(resolveSelectConfig({ after: '2025-06', outDir: out }, {})).items).toBe(0);
    // A cover with a year and no month counts from January: after 2024-12 it is in, after 2025-01 it is not.
    expect(earliestKeyOf('2025') > 202412 && !(earliestKeyOf('2025') > 202501)).toBe(true);
  });

  it('reviewers\' decisions: REVIEWED_ONLY=1 keeps verified records only; the rest are withdrawn in the next split, the frozen one untouched', async () => {
    const [rejected, verified] = [items[0], items[1]];
    const db = new Database(path.join(out, 'corpus', 'store.sqlite'));
    const put = db.prepare('INSERT INTO reviews (item, version, status, edits, original, history, updated_at) VALUES (?, 1, ?, \'{}\', \'{}\', ?, ?)');
    for (const [it, status] of [[rejected, 'rejected'], [verified, 'verified']] as const) put.run(it.id, status, JSON.stringify([{ who: 'test', when: '2025-07-01', version: 1, status }]), '2025-07-01');
    db.close();
    const frozen = fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8');
    const r = await refresh(resolveRefreshConfig({ inDir: path.join(work, 'inbox'), outDir: out, cutoff: '2025-07', dpi: 72, progress: false, reviewedOnly: true }, {}));
    expect(r.split, r.lines.join('\n')).toBe('25-07');
    const next = readJsonl<SplitItem>(path.join(out, 'splits', '25-07', 'items.jsonl'));
    // Verified now: its review status is part of what it says, so it is published again as version 2.
    expect(next.map(i => [i.id, i.version, i.review?.status])).toEqual([[verified.id, 2, 'verified']]);
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'splits', '25-07', 'manifest.json'), 'utf8'));
    expect(manifest.settings.reviewed_only).toBe(true);
    expect(manifest.withdrawn.map((w: { id: string }) => w.id).sort()).toEqual(items.filter(i => i.id !== verified.id).map(i => i.id).sort());
    expect(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')).toBe(frozen);
    expect(selectAfter(resolveSelectConfig({ after: '2025-05', outDir: out }, {})).items).toBe(1);
  });
});
