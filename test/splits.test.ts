// Timestamped splits: refreshes over real KICE booklets of two sittings give two frozen splits with
// the right records; a refresh with nothing new changes no byte; a corrected answer key re-reads the
// paper and is published as a new version in the next split; a refresh killed before its rename
// leaves no split and the next one completes it. And, without ../shared: the plan (a paper whose
// structure needs review publishes verified records only), the lock, the store migration and the
// run key of a paper with its key.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ROOT, resolveRefreshConfig, resolveSelectConfig } from '../pipeline/config.ts';
import { PIPELINE_VERSION } from '../pipeline/index.ts';
import { paperRunKey } from '../pipeline/run.ts';
import { IngestFailedError, LockHeldError } from '../pipeline/splits/errors.ts';
import type { SplitItem, StoreRecord } from '../pipeline/splits/item.ts';
import { acquireLock } from '../pipeline/splits/lock.ts';
import type { Manifest } from '../pipeline/splits/manifest.ts';
import { planSplit } from '../pipeline/splits/plan.ts';
import { refresh, LOCK_FILE } from '../pipeline/splits/refresh.ts';
import { openStore } from '../pipeline/open-store.ts';
import { loadTemplates } from '../pipeline/template.ts';
import { KCSAT, TEST_OUT, haveShared } from './helpers.ts';

const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const DPI = '72'; // page images small and quick; the splits do not depend on their size

const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const readJsonl = <T>(file: string): T[] => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l) as T);

/** Every file under dir with its bytes' hash and its modification time: equal snapshots mean nothing was touched. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = path.join(rel, e.name);
      if (e.isDirectory()) walk(r);
      else out[r] = `${sha256(path.join(dir, r))} ${fs.statSync(path.join(dir, r)).mtimeMs}`;
    }
  };
  walk('');
  return out;
}

/** The manifest's hashes cover exactly the split's other files, and each one is right. */
function expectManifestHolds(dir: string): Manifest {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const onDisk = Object.keys(snapshot(dir)).map(f => f.split(path.sep).join('/')).filter(f => f !== 'manifest.json').sort();
  expect(Object.keys(manifest.files).sort()).toEqual(onDisk);
  for (const [f, h] of Object.entries(manifest.files)) expect(sha256(path.join(dir, f)), f).toBe(h);
  return manifest;
}

describe.skipIf(!haveShared())('splits from refreshes over KICE booklets of two sittings', () => {
  const work = path.join(TEST_OUT, 'splits');
  const inbox = path.join(work, 'inbox');
  const out = path.join(work, 'out');
  const splits = path.join(out, 'splits');
  const A = '202206-h3-math-pro'; // 2023학년도 6월 모의평가: sat June 2022
  const B = '202211-h3-math-pro'; // 2023학년도 수능: sat November 2022
  const run = (cutoff: string) => refresh(resolveRefreshConfig({ inDir: inbox, outDir: out, cutoff, dpi: DPI, progress: false }, {}));
  const corpus = () => readJsonl<StoreRecord>(path.join(out, 'corpus', 'items.jsonl'));
  const frozen: Record<string, Record<string, string>> = {};

  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(inbox, { recursive: true });
  const add = (stem: string) => { for (const f of [`${stem}.pdf`, `${stem}-answer.png`]) fs.copyFileSync(path.join(KCSAT, f), path.join(inbox, f)); };

  it('two refreshes give two splits, each with the canonical records of the papers sat in its window', async () => {
    add(A);
    const first = await run('2022-08');
    expect(first.split, first.lines.join('\n')).toBe('22-08');
    const dirA = path.join(splits, '22-08');
    const itemsA = readJsonl<SplitItem>(path.join(dirA, 'items.jsonl'));
    const expectedA = corpus().filter(r => r.source.file === `${A}.pdf` && !r.duplicate_of).map(r => r.id);
    expect(expectedA.length).toBeGreaterThanOrEqual(28);
    expect(itemsA.map(i => i.id)).toEqual(expectedA);
    for (const it of itemsA) expect([it.split, it.version, it.exam_date, it.exam_date_source]).toEqual(['22-08', 1, '2022-06', 'cover']);
    const mA = expectManifestHolds(dirA);
    expect(mA.window).toEqual({ after: null, through: '2022-08' });
    expect(mA.previous).toBeNull();
    expect(mA.pipeline_version).toBe(PIPELINE_VERSION);
    expect(mA.templates['kcsat-math.json']).toBe(sha256(path.join(ROOT, 'templates', 'kcsat-math.json')));
    expect(mA.counts.total).toEqual({ items: itemsA.length, new: itemsA.length, corrected: 0 });
    expect(mA.counts.family).toEqual({ kcsat: itemsA.length });
    expect(Object.values(mA.counts.type).reduce((a, b) => a + b, 0)).toBe(itemsA.length);
    expect(mA.sources).toEqual([expect.objectContaining({
      file: `${A}.pdf`, sha256: sha256(path.join(inbox, `${A}.pdf`)), exam_date: '2022-06', items: itemsA.length,
      key: { file: `${A}-answer.png`, sha256: sha256(path.join(inbox, `${A}-answer.png`)) },
    })]);
    frozen['22-08'] = snapshot(dirA);

    add(B);
    const second = await run('2022-12');
    expect(second.split, second.lines.join('\n')).toBe('22-12');
    expect(second.papers.map(p => [p.file, p.status])).toEqual([[`${A}.pdf`, 'skipped'], [`${B}.pdf`, 'done']]);
    const dirB = path.join(splits, '22-12');
    const itemsB = readJsonl<SplitItem>(path.join(dirB, 'items.jsonl'));
    const expectedB = corpus().filter(r => r.source.file === `${B}.pdf` && !r.duplicate_of).map(r => r.id);
    expect(itemsB.map(i => i.id)).toEqual(expectedB);
    for (const it of itemsB) expect([it.split, it.version, it.exam_date]).toEqual(['22-12', 1, '2022-11']);
    const mB = expectManifestHolds(dirB);
    expect([mB.previous, mB.window]).toEqual(['22-08', { after: '2022-08', through: '2022-12' }]);
    expect(mB.sources.map(s => s.file)).toEqual([`${B}.pdf`]);
    expect(snapshot(dirA)).toEqual(frozen['22-08']);
    frozen['22-12'] = snapshot(dirB);
  });

  it('a third refresh with nothing new changes no byte, exits 0 and says so', () => {
    const before = snapshot(splits);
    const r = spawnSync(TSX, [path.join(ROOT, 'pipeline/refresh-cli.ts'), 'refresh', '--cutoff', '2023-01', '--in', inbox, '--out', out, '--dpi', DPI],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CUTOFF: '', IN: '', OUT: '', REVIEWED_ONLY: '', CI: 'true' }, timeout: 300_000 });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/nothing new since split 22-12: no split written/);
    expect(snapshot(splits)).toEqual(before);
    expect(fs.existsSync(path.join(splits, '23-01'))).toBe(false);
  });

  it('a corrected key re-reads its paper; a refresh killed before its rename leaves no split, and the next one publishes the new version', async () => {
    // The corrected key: the answers as the official key gave them, with question 1 changed.
    const itemsA = readJsonl<SplitItem>(path.join(splits, '22-08', 'items.jsonl'));
    const target = itemsA.find(i => i.section === 'common' && i.number === 1)!;
    const other = target.options.map(o => o.label).find(l => l !== target.answer)!;
    const csv = ['section,number,answer,points', ...itemsA.filter(i => i.answer !== null).map(i => `${i.section},${i.number},${i.id === target.id ? other : i.answer},${i.points ?? ''}`)];
    fs.writeFileSync(path.join(inbox, `${A}-answer.csv`), csv.join('\n') + '\n');

    // node with tsx's loader, not the tsx wrapper: the process that kills itself is the one spawned.
    const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/splits-killed-child.ts'), inbox, out, '2023-01', DPI], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 300_000 });
    expect(child.signal, child.stdout + child.stderr).toBe('SIGKILL');
    expect(fs.existsSync(path.join(splits, '23-01'))).toBe(false);
    const partials = fs.readdirSync(splits).filter(f => f.startsWith('.23-01.partial-'));
    expect(partials).toHaveLength(1);
    expect(fs.existsSync(path.join(splits, partials[0], 'manifest.json'))).toBe(true);
    const deadPid = Number(fs.readFileSync(path.join(splits, LOCK_FILE), 'utf8').split('\n')[0]);
    expect(partials[0]).toBe(`.23-01.partial-${deadPid}`);

    // The paper was redone under the new key (its run key holds the key's bytes), so the next refresh has nothing to ingest.
    const next = await run('2023-01');
    expect(next.papers.map(p => p.status)).toEqual(['skipped', 'skipped']);
    expect(next.lines.join('\n')).toMatch(new RegExp(`took over a stale lock of pid ${deadPid}`));
    expect(next.lines.join('\n')).toMatch(/removed \.23-01\.partial-/);
    expect(next.split).toBe('23-01');
    expect(fs.readdirSync(splits).filter(f => f.startsWith('.'))).toEqual([]);

    const dirC = path.join(splits, '23-01');
    const itemsC = readJsonl<SplitItem>(path.join(dirC, 'items.jsonl'));
    expect(itemsC.map(i => [i.id, i.version, i.answer, i.split, i.exam_date])).toEqual([[target.id, 2, other, '23-01', '2022-06']]);
    const mC = expectManifestHolds(dirC);
    expect(mC.superseded).toEqual([{ id: target.id, version: 1, split: '22-08' }]);
    expect(mC.counts.total).toEqual({ items: 1, new: 0, corrected: 1 });
    expect(mC.sources[0].key).toEqual({ file: `${A}-answer.csv`, sha256: sha256(path.join(inbox, `${A}-answer.csv`)) });
    expect(mC.previous).toBe('22-12');
    // The frozen splits are as they were, the old answer in its place.
    expect(snapshot(path.join(splits, '22-08'))).toEqual(frozen['22-08']);
    expect(snapshot(path.join(splits, '22-12'))).toEqual(frozen['22-12']);
    expect(readJsonl<SplitItem>(path.join(splits, '22-08', 'items.jsonl')).find(i => i.id === target.id)!.answer).toBe(target.answer);
  });
});

// A record as the store gives it, with only what the plan reads.
function record(id: string, over: Partial<StoreRecord> = {}): StoreRecord {
  return {
    id, source: { file: `${id.split('-')[0]}.pdf`, sha256: id.split('-')[0] }, exam: { family: 'kcsat', year: 2026, sitting: 'csat', sat: { year: 2025, month: 11 }, subject: 'mathematics' },
    section: 'common', number: Number(id.split('-')[1]), type: 'short', options: [], stem: `question ${id}`, answer: '1', points: 3, page: 1,
    regions: [], figures: [], error_rate: null, difficulty: null,
    modalities: { TO: { text: `question ${id}` }, TI: { text: `question ${id}`, images: [] }, IO: { page_image: [], question: { number: 1, section: 'common', regions: [] } } },
    knowledge: [], duplicate_of: null, review: { status: 'pending' }, ...over,
  };
}

describe('split plan, lock, store and run key', () => {
  const papers = [{ sha256: 'p', added_at: '2026-03-02 10:00:00' }, { sha256: 'q', added_at: '2026-03-02 10:00:00' }, { sha256: 'u', added_at: '2026-04-20 10:00:00' }];
  const none = { live: new Map(), lastVersion: new Map() };

  it('takes canonical, unrejected records sat by the cut-off; dates an undated cover by when the paper was added; REVIEWED_ONLY keeps verified ones', () => {
    const records = [
      record('p-1'), // KICE 2026학년도 수능: sat 2025-11
      record('p-2', { duplicate_of: 'p-1' }),
      record('p-3', { review: { status: 'rejected' } }),
      record('p-4', { review: { status: 'verified' } }),
      record('q-1', { exam: { family: 'kcsat', year: 2027, sitting: 'june-mock', sat: { year: 2026, month: 6 } } }), // sat 2026-06: after the cut-off
      record('u-1', { exam: { family: 'generic', year: null } }), // no date on the cover: added 2026-04
    ];
    const plan = planSplit({ name: '26-05', cutoff: '2026-05', previousCutoff: null, records, papers, published: none, reviewedOnly: false });
    expect(plan.items.map(i => [i.id, i.exam_date, i.exam_date_source, i.version])).toEqual([['p-1', '2025-11', 'cover', 1], ['p-4', '2025-11', 'cover', 1], ['u-1', '2026-04', 'added', 1]]);
    expect(plan.waiting).toBe(1);
    const reviewed = planSplit({ name: '26-05', cutoff: '2026-05', previousCutoff: null, records, papers, published: none, reviewedOnly: true });
    expect(reviewed.items.map(i => i.id)).toEqual(['p-4']);
  });

  it('publishes a record of a paper whose structure needs review only once a reviewer has verified it', () => {
    const unsure = { status: 'needs-review' as const, reasons: ['the paper states 8 questions; 5 were read'], coverage: 0.9, unsure: false };
    const records = [
      record('p-1', { structure: unsure }),
      record('p-2', { structure: unsure, review: { status: 'verified' } }),
      record('p-3', { structure: { ...unsure, status: 'sure', reasons: [] } }),
    ];
    const plan = planSplit({ name: '26-05', cutoff: '2026-05', previousCutoff: null, records, papers, published: none, reviewedOnly: false });
    expect(plan.items.map(i => i.id)).toEqual(['p-2', 'p-3']);
  });

  it('publishes a changed record as its next version, withdraws one no longer eligible, and lists a paper added late', () => {
    const first = planSplit({ name: '26-05', cutoff: '2026-05', previousCutoff: null, records: [record('p-1'), record('p-4')], papers, published: none, reviewedOnly: false });
    const published = {
      live: new Map(first.items.map(i => [i.id, { id: i.id, version: i.version, split: '26-05', fingerprint: i.fingerprint }])),
      lastVersion: new Map(first.items.map(i => [i.id, i.version])),
    };
    const records = [record('p-1', { answer: '2' }), record('p-4', { review: { status: 'rejected' } }), record('q-1', { exam: { family: 'kcsat', year: 2025, sitting: 'csat', sat: { year: 2024, month: 11 } } })];
    const next = planSplit({ name: '26-06', cutoff: '2026-06', previousCutoff: '2026-05', records, papers, published, reviewedOnly: false });
    expect(next.items.map(i => [i.id, i.version, i.answer])).toEqual([['p-1', 2, '2'], ['q-1', 1, '1']]);
    expect(next.superseded).toEqual([{ id: 'p-1', version: 1, split: '26-05' }]);
    expect(next.withdrawn).toEqual([{ id: 'p-4', version: 1, split: '26-05' }]);
    expect(next.late).toEqual(['q-1']); // sat 2024-11, before the previous cut-off
    // Unchanged: nothing to publish.
    const same = planSplit({ name: '26-06', cutoff: '2026-06', previousCutoff: '2026-05', records: [record('p-1'), record('p-4')], papers, published, reviewedOnly: false });
    expect([same.items.length, same.withdrawn.length]).toEqual([0, 0]);
  });

  it('fails a refresh whose inbox holds a paper that cannot be read: a message naming it, no split, the lock released', async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'refresh-broken-'));
    fs.mkdirSync(path.join(work, 'inbox'));
    fs.writeFileSync(path.join(work, 'inbox', 'broken.pdf'), 'this is not a PDF');
    const cfg = resolveRefreshConfig({ inDir: path.join(work, 'inbox'), outDir: path.join(work, 'out'), cutoff: '2026-05', progress: false }, {});
    const failed = await refresh(cfg).then(() => null, (e: Error) => e);
    expect(failed).toBeInstanceOf(IngestFailedError);
    expect(failed!.message).toMatch(/1 paper could not be ingested, so no split was written[\s\S]*broken\.pdf: register\//);
    expect(fs.readdirSync(path.join(work, 'out', 'splits'))).toEqual([]);
  });

  it('resolves the refresh and select settings once: CUTOFF as YYYY-MM or YY-MM, the current month by default, AFTER required', () => {
    const now = new Date(Date.UTC(2026, 4, 17));
    expect(resolveRefreshConfig({}, {}, now).cutoff).toBe('2026-05');
    expect(resolveRefreshConfig({}, { CUTOFF: '26-5', REVIEWED_ONLY: '1' }, now)).toMatchObject({ cutoff: '2026-05', reviewedOnly: true });
    expect(resolveRefreshConfig({}, { OUT: '/tmp/x' }, now)).toMatchObject({ splitsDir: '/tmp/x/splits', batch: { yearDir: '/tmp/x/corpus' } });
    expect(() => resolveRefreshConfig({}, { CUTOFF: '2026-13' })).toThrow(/CUTOFF must be a month as YYYY-MM/);
    expect(() => resolveSelectConfig({}, {})).toThrow(/AFTER .* is required/);
    expect(resolveSelectConfig({}, { AFTER: '2025-06', OUT: '/tmp/x' }).target).toBe('/tmp/x/select/after-2025-06');
  });

  it('refuses a lock a live process holds and takes over one whose pid is dead', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-'));
    const file = path.join(dir, LOCK_FILE);
    fs.writeFileSync(file, `${process.ppid}\n`);
    expect(() => acquireLock(file)).toThrow(LockHeldError);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    fs.writeFileSync(file, `${dead.stdout}\n`);
    const lock = acquireLock(file);
    expect(lock.tookOverFrom).toBe(Number(dead.stdout));
    expect(fs.readFileSync(file, 'utf8').split('\n')[0]).toBe(String(process.pid));
    expect(() => acquireLock(file)).toThrow(/another refresh is running/); // held, if by this very process
    lock.release();
    expect(fs.existsSync(file)).toBe(false);
  });

  it('gives a store made before added_at the column, from each paper\'s last update, and never changes it after', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'store-old-')), 'store.sqlite');
    const old = new Database(file);
    old.exec(`CREATE TABLE papers (sha256 TEXT PRIMARY KEY, file TEXT NOT NULL, pages INTEGER, template TEXT, exam TEXT, status TEXT NOT NULL, error TEXT, run_key TEXT, updated_at TEXT NOT NULL)`);
    old.prepare(`INSERT INTO papers VALUES ('s', 'x.pdf', 1, 'generic', '{}', 'done', NULL, 'k', '2024-02-03 04:05:06')`).run();
    old.close();
    const store = openStore(file);
    expect(store.paperDates()).toEqual([{ sha256: 's', file: 'x.pdf', exam: '{}', added_at: '2024-02-03 04:05:06' }]);
    store.saveDocument({ sha256: 's', file: 'x.pdf', pages: 1, template: 'generic', exam: '{}', run_key: 'k2' }, [], [], []);
    store.saveDocument({ sha256: 't', file: 'y.pdf', pages: 1, template: 'generic', exam: '{}', run_key: 'k2' }, [], [], []);
    const dates = store.paperDates();
    expect(dates[0].added_at).toBe('2024-02-03 04:05:06');
    expect(dates[1].added_at).toMatch(/^\d{4}-\d{2}-\d{2} /);
    store.close();
  });

  it('makes the run key of a paper hold its answer key and stats, so a corrected key redoes it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runkey-'));
    const pdf = path.join(dir, 'x.pdf');
    fs.writeFileSync(pdf, '%PDF-1.4');
    const templates = loadTemplates(path.join(ROOT, 'templates'), ROOT);
    const bare = paperRunKey('batch', pdf, templates);
    expect(bare).toBe('batch');
    fs.writeFileSync(path.join(dir, 'x-answer.csv'), 'section,number,answer\ncommon,1,③\n');
    const keyed = paperRunKey('batch', pdf, templates);
    expect(keyed).not.toBe(bare);
    expect(paperRunKey('batch', pdf, templates)).toBe(keyed);
    fs.writeFileSync(path.join(dir, 'x-answer.csv'), 'section,number,answer\ncommon,1,④\n');
    const corrected = paperRunKey('batch', pdf, templates);
    expect(corrected).not.toBe(keyed);
    fs.writeFileSync(path.join(dir, 'x-stats.csv'), 'section,number,error_rate\ncommon,1,80\n');
    expect(paperRunKey('batch', pdf, templates)).not.toBe(corrected);
    expect(paperRunKey('other', pdf, templates)).not.toBe(paperRunKey('batch', pdf, templates));
  });
});
