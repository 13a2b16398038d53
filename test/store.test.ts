// store and ids: one transaction per document, unchanged records not rewritten, stable ids.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { questionId } from '../pipeline/ids.ts';
import { Store } from '../pipeline/store/db.ts';
import { writeJsonl } from '../pipeline/store/jsonl.ts';

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

  it('leaves items.jsonl untouched when its content would not change', () => {
    const file = path.join(dir, 'items.jsonl');
    expect(writeJsonl(file, ['{"a":1}'])).toBe(true);
    expect(writeJsonl(file, ['{"a":1}'])).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"a":1}\n');
  });
});
