// store and ids: one transaction per document, unchanged records not rewritten, stable ids, and
// each paper's structural verdict (needs-review with its reasons) kept beside its done status.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { questionId } from '../pipeline/ids.ts';
import { Store } from '../pipeline/store/db.ts';
import { writeJsonl, writeStoreJsonl } from '../pipeline/store/jsonl.ts';
import type { RecordOverlay } from '../pipeline/store/overlay.ts';
import { openStore } from '../pipeline/open-store.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-'));
const sha = 'ab'.repeat(32);
const paper = { sha256: sha, file: 'x.pdf', pages: 2, template: 'kcsat-math', exam: '{}', run_key: 'k' };
const item = (n: number, text: string) => ({ id: questionId(sha, 'common', n), section: 'common', number: n, page: 1, record: JSON.stringify({ n, text }) });

/** The records as emitted, less what the corpus passes and reviews lay over them (tested in dedup/tag tests). */
const stored = (store: Store) => store.records([sha]).map(r => {
  const { n, text } = JSON.parse(r);
  return JSON.stringify({ n, text });
});

describe('store', () => {
  it('derives ids from hash, section and number, safe for files and anchors', () => {
    expect(questionId(sha, 'prob-stat', 23)).toBe('abababababababab-prob-stat-23');
    expect(questionId(sha, '확률과 통계', 23)).toBe('abababababababab-확률과-통계-23');
    expect(questionId(sha, null, 7)).toBe('abababababababab-main-7');
  });

  it('writes changed records only, and drops records a paper no longer has', () => {
    const store = new Store(path.join(dir, 'a.sqlite'));
    expect(store.saveDocument(paper, [], [item(1, 'a'), item(2, 'b')], [])).toBe(2);
    expect(store.saveDocument(paper, [], [item(1, 'a'), item(2, 'b')], [])).toBe(0);
    expect(store.saveDocument(paper, [], [item(1, 'a'), item(2, 'c')], [])).toBe(1);
    expect(store.saveDocument(paper, [], [item(1, 'a')], [])).toBe(1);
    expect(stored(store)).toEqual([item(1, 'a').record]);
    expect(store.paper(sha)?.status).toBe('done');
    store.saveFailure(sha, 'x.pdf', 'register/invalid: broken');
    expect(store.paper(sha)).toMatchObject({ status: 'failed', error: 'register/invalid: broken' });
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    store.close();
  });

  it('rolls a document back whole when one of its writes fails', () => {
    const store = new Store(path.join(dir, 'b.sqlite'));
    store.saveDocument(paper, [], [item(1, 'a')], []);
    const bad = { ...item(2, 'b'), number: null as unknown as number };
    expect(() => store.saveDocument({ ...paper, pages: 3 }, [], [item(1, 'changed'), bad], [])).toThrow();
    expect(stored(store)).toEqual([item(1, 'a').record]);
    expect(store.paper(sha)?.pages).toBe(2);
    store.close();
  });

  it('reads records as emitted where it is given no overlay, and lays overlays on in their order', () => {
    const file = path.join(fs.mkdtempSync(path.join(dir, 'ov-')), 's.sqlite');
    new Store(file).saveDocument(paper, [], [item(1, 'a')], []);
    expect(new Store(file).records([sha])).toEqual([item(1, 'a').record]);
    // Two overlays reading one table through their own join: the second sees what the first put on.
    const tag: RecordOverlay = { columns: ['k.paths'], joins: ['LEFT JOIN knowledge k ON k.item = i.id'], apply: (rec, row) => ({ ...rec, tags: row.paths }) };
    const count: RecordOverlay = { columns: [], apply: rec => ({ ...rec, seen: rec.tags === null ? 'untagged' : 'tagged' }) };
    const store = new Store(file, [tag, count]);
    expect(JSON.parse(store.records([sha])[0])).toEqual({ n: 1, text: 'a', tags: null, seen: 'untagged' });
    store.saveKnowledge([{ item: item(1, 'a').id, input: 'h', paths: ['x'], note: null }]);
    expect(JSON.parse(store.record(item(1, 'a').id)!)).toEqual({ n: 1, text: 'a', tags: '["x"]', seen: 'tagged' });
  });

  it('keeps a paper\'s structural verdict with it: needs-review is stored as done, with its reasons, coverage and unsure numbers', () => {
    const store = new Store(path.join(dir, 'verdict.sqlite'));
    const verdict = { status: 'needs-review' as const, reasons: ['the paper states 8 questions; 5 were read', '2 questions read unsurely (3, 4)'], coverage: 0.412, unsure: [3, 4] };
    store.saveDocument({ ...paper, verdict }, [], [item(1, 'a')], []);
    // Stored (not failed), so a re-run under the same run key skips it; flagged all the same.
    expect(store.paper(sha)).toMatchObject({ status: 'done', run_key: 'k', structure: 'needs-review', coverage: 0.412 });
    expect(store.verdict(sha)).toEqual(verdict);
    expect(store.donePapers()).toEqual([sha]);
    // Read again and found sure: the flag goes.
    store.saveDocument({ ...paper, verdict: { status: 'sure', reasons: [], coverage: 0.97, unsure: [] } }, [], [item(1, 'a')], []);
    expect(store.verdict(sha)).toEqual({ status: 'sure', reasons: [], coverage: 0.97, unsure: [] });
    // A failure after it keeps the rows and the verdict of the last good read.
    store.saveFailure(sha, 'x.pdf', 'register/invalid: broken');
    expect(store.verdict(sha)?.status).toBe('sure');
    // Not judged: no verdict.
    store.saveDocument(paper, [], [item(1, 'a')], []);
    expect(store.verdict(sha)).toBeNull();
    store.close();
  });

  it('gives a store made before verdicts were kept the columns, its papers unjudged', () => {
    const file = path.join(dir, 'old.sqlite');
    const old = new Database(file);
    old.exec(`CREATE TABLE papers (sha256 TEXT PRIMARY KEY, file TEXT NOT NULL, pages INTEGER, template TEXT, exam TEXT, status TEXT NOT NULL, error TEXT, run_key TEXT, updated_at TEXT NOT NULL, added_at TEXT);
      INSERT INTO papers VALUES ('${sha}', 'x.pdf', 2, 'kcsat-math', '{}', 'done', NULL, 'k', '2025-01-01', '2025-01-01');`);
    old.close();
    const store = new Store(file);
    expect(store.paper(sha)).toMatchObject({ status: 'done', structure: null, coverage: null });
    expect(store.verdict(sha)).toBeNull();
    store.saveDocument({ ...paper, verdict: { status: 'needs-review', reasons: ['r'], coverage: 0.5, unsure: [] } }, [], [], []);
    expect(store.verdict(sha)).toMatchObject({ status: 'needs-review', reasons: ['r'] });
    store.close();
  });

  it('leaves items.jsonl untouched when its content would not change', () => {
    const file = path.join(dir, 'items.jsonl');
    expect(writeJsonl(file, ['{"a":1}'])).toBe(true);
    expect(writeJsonl(file, ['{"a":1}'])).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"a":1}\n');
  });

  it('reads no record for items.jsonl where nothing it is made from changed, and every time something did', () => {
    const sub = fs.mkdtempSync(path.join(dir, 'gen-'));
    const store = openStore(path.join(sub, 'store.sqlite'));
    const file = path.join(sub, 'items.jsonl');
    store.saveDocument(paper, [], [item(1, 'a'), item(2, 'b')], []);
    const reads = vi.spyOn(store, 'records');
    expect(writeStoreJsonl(store, file, [sha])).toBe(true);
    expect(reads).toHaveBeenCalledTimes(1);
    // Nothing new: neither read nor written.
    expect(writeStoreJsonl(store, file, [sha])).toBe(false);
    expect(reads).toHaveBeenCalledTimes(1);
    // Each way a record can change, whoever writes: a paper redone, a pass's table, a reviewer's row.
    const before = store.generation();
    store.saveDocument(paper, [], [item(1, 'a'), item(2, 'c')], []);
    expect(store.generation()).toBeGreaterThan(before);
    expect(writeStoreJsonl(store, file, [sha])).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toContain('"text":"c"');
    const one = item(1, 'a').id;
    store.saveClusters([{ item: one, duplicateOf: null, canonical: one, evidence: null }, { item: item(2, 'c').id, duplicateOf: one, canonical: one, evidence: null }]);
    expect(writeStoreJsonl(store, file, [sha])).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toContain(`"duplicate_of":"${one}"`);
    store.db.prepare(`INSERT INTO reviews (item, version, status, edits, original, history, updated_at) VALUES (?, 1, 'verified', '{}', '{}', '[]', 'now')`).run(item(2, 'c').id);
    expect(writeStoreJsonl(store, file, [sha])).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toContain('"verified"');
    // Another set of papers, or the file changed by hand: read and written again.
    expect(writeStoreJsonl(store, file, [])).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toBe('');
    expect(writeStoreJsonl(store, file, [sha])).toBe(true);
    const good = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, 'edited\n');
    const calls = reads.mock.calls.length;
    expect(writeStoreJsonl(store, file, [sha])).toBe(true);
    expect(reads.mock.calls.length).toBe(calls + 1);
    expect(fs.readFileSync(file, 'utf8')).toBe(good);
    fs.rmSync(file);
    expect(writeStoreJsonl(store, file, [sha])).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toBe(good);
    store.close();
  });
});
