// The command line over a batch: bad inputs fail alone and say why, the rest is ingested, the exit
// status tells (a paper with no question is a failure, retried next run; a paper whose structure is
// in doubt is needs-review, with why, and stays flagged on a re-run); with no papers given it
// runs the shipped samples; a killed run resumes. Bad settings are refused before any paper is
// read; a full disk stops the batch with its path and leaves the store whole; the bin
// (`npx exam-ingest`) exits with the documented status, and `make ingest` prints it last.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { resolveConfig, ROOT, type ConfigInput } from '../pipeline/config.ts';
import { parseCsv } from './analyse.ts';
import { SHARED } from './helpers.ts';
import { statusesFromLog } from './generality-score.ts';
import { EXIT, exitCode } from '../pipeline/exit-status.ts';
import { paperLine, paperNotes, statusWord, summaryLine } from '../pipeline/run-report.ts';
import { preparePaper, type PaperOutcome } from '../pipeline/run.ts';
import { openStore } from '../pipeline/open-store.ts';

const SAMPLE = path.join(ROOT, 'fixtures/samples/2026-sample-math-dif.pdf');
/** A quiz whose cover says it holds 8 questions and prints 5 (fixtures/make-unsure.ts): its reading disagrees with its own count. */
const STATED_COUNT = path.join(ROOT, 'fixtures/unsure/stated-count.pdf');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const CLI = path.join(ROOT, 'pipeline/cli.ts');
const clean = { ...process.env, IN: '', OUT: '', YEAR: '', CI: 'true', FORCE: '', TEMPLATE: '' };

function ingest(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(TSX, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...clean, ...env }, timeout: 300_000 });
  return { code: r.status, out: r.stdout + r.stderr };
}

/** A one-page PDF of plain prose in Helvetica: a readable paper with no question in it. */
function prosePdf(lines: string[]): Buffer {
  const text = lines.map((l, i) => `BT /F1 12 Tf 72 ${720 - i * 18} Td (${l}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(text)} >>\nstream\n${text}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => { offsets.push(Buffer.byteLength(out)); out += `${i + 1} 0 obj\n${o}\nendobj\n`; });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map(o => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  return Buffer.from(`${out}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
}

const records = (file: string) => fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(l => JSON.parse(l));

describe('ingest command', () => {
  it('runs the shipped samples when no papers are given, and they match their expected table', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-samples-'));
    const r = ingest([], { YEAR: '2026', OUT: out });
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/shipped samples/);
    expect(r.out).toMatch(/summary: 1 papers .* 4 pages .* 10 questions.* 0 failed/);
    const got = records(path.join(out, '2026/items.jsonl'));
    const want = parseCsv(fs.readFileSync(path.join(ROOT, 'fixtures/samples/truth/2026-sample-math-dif.csv'), 'utf8'));
    expect(got.map(r => [r.section, r.number, r.type, r.options.length, r.points, r.page, r.figures.length > 0 ? 'y' : 'n'].join(',')))
      .toEqual(want.map(w => [w.section, w.number, w.type, w.options, w.points, w.page, w.has_figure].join(',')));
    // The graph's labels (y, O, x) belong to the crop, not to the text.
    expect(got.find(r => r.number === 4).stem).toBe('함수 y = f(x)의 그래프가 그림과 같다.\nx = 2에서의 극댓값은?');
    for (const r of got) for (const f of r.figures) expect(fs.statSync(path.join(out, '2026', f.path)).size).toBeGreaterThan(500);
  });

  it('fails each bad input alone, naming the file and the reason, ingests the rest and exits 1', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-bad-'));
    fs.copyFileSync(SAMPLE, path.join(dir, 'good.pdf'));
    fs.writeFileSync(path.join(dir, 'empty.pdf'), '');
    fs.writeFileSync(path.join(dir, 'notes.pdf'), 'plain text\n');
    fs.writeFileSync(path.join(dir, 'cut.pdf'), fs.readFileSync(SAMPLE).subarray(0, 40_000));
    execFileSync('qpdf', ['--encrypt', 'u', 'o', '256', '--', SAMPLE, path.join(dir, 'locked.pdf')]);
    const broken = path.join(SHARED, 'fixtures/broken');
    if (fs.existsSync(broken)) for (const f of fs.readdirSync(broken)) fs.copyFileSync(path.join(broken, f), path.join(dir, f));
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-bad-out-'));
    const r = ingest(['--in', dir, '--out', out, '--year', '2026']);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/FAILED\s+empty\.pdf: .*the file is empty/);
    expect(r.out).toMatch(/FAILED\s+notes\.pdf: .*not a PDF/);
    expect(r.out).toMatch(/FAILED\s+locked\.pdf: .*password-protected/);
    expect(r.out).toMatch(/FAILED\s+cut\.pdf: /);
    if (fs.existsSync(broken)) for (const f of fs.readdirSync(broken)) expect(r.out).toMatch(new RegExp(`FAILED\\s+${f.replace('.', '\\.')}: `));
    expect(r.out).toMatch(/done\s+good\.pdf: 4 pages, 10 questions/);
    expect(records(path.join(out, '2026/items.jsonl'))).toHaveLength(10);
  });

  it('fails a paper with no question, exits 1, and reads it again on the next run', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-prose-'));
    fs.writeFileSync(path.join(dir, 'letter.pdf'), prosePdf(['A letter to parents about the school trip next week.', 'The bus leaves at eight in the morning from the main gate.', 'Please bring a packed lunch, a raincoat and good walking shoes.']));
    fs.copyFileSync(SAMPLE, path.join(dir, 'good.pdf'));
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-prose-out-'));
    for (let run = 0; run < 2; run++) {
      const r = ingest(['--in', dir, '--out', out, '--year', '2026']);
      expect(r.code, r.out).toBe(1);
      expect(r.out).toMatch(/FAILED\s+letter\.pdf: .*no question found/);
      // Every warning of the paper is listed with its place and rule, not only the failure.
      expect(r.out).toMatch(/^ {2}warning: letter\.pdf, page 1: .*\[register\/no-year\]/m);
      expect(r.out).toMatch(/summary: 2 papers .* 0 partial, 1 failed/);
      expect(r.out).toMatch(run === 0 ? /done\s+good\.pdf/ : /skipped good\.pdf/);
    }
    expect(records(path.join(out, '2026/items.jsonl'))).toHaveLength(10);
  }, 400_000);

  it('marks a paper whose reading disagrees with its stated count needs-review, says why, exits 3, and keeps it flagged on a re-run', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-unsure-'));
    fs.copyFileSync(STATED_COUNT, path.join(dir, 'stated-count.pdf'));
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-unsure-out-'));
    const first = ingest(['--in', dir, '--out', out, '--year', '2026']);
    expect(first.code, first.out).toBe(3);
    // The paper's line starts with its status, and says why; the bench's parser reads the word.
    expect(first.out).toMatch(/^needs-review stated-count\.pdf: 1 pages, 5 questions, 1 pages rendered, 5 records written, .*coverage \d+%; needs review: .*states 8 questions/m);
    expect(statusesFromLog(first.out).get('stated-count')).toBe('needs-review');
    // Under the paper in the summary: the reasons, then its diagnostics.
    expect(first.out).toMatch(/^stated-count\.pdf: needs review \(coverage \d+%.*\), 0 errors, \d+ warnings\n {2}needs review: .*states 8 questions/m);
    expect(first.out).toMatch(/summary: 1 papers \(0 unchanged\), .* 1 needs-review, 0 partial, 0 failed/);
    expect(first.out.trim().split('\n').at(-1)).toMatch(/^exit status 3: .*needs review/);
    // Every record says so, apart from the reviewer's status; the store holds the paper as done, flagged.
    const recs = records(path.join(out, '2026/items.jsonl'));
    expect(recs).toHaveLength(5);
    for (const r of recs) {
      expect(r.review).toEqual({ status: 'pending' });
      expect(r.structure).toMatchObject({ status: 'needs-review', reasons: [expect.stringMatching(/states 8 questions/)], unsure: false });
      expect(r.structure.coverage).toBeGreaterThan(0);
    }
    const db = new Database(path.join(out, '2026/store.sqlite'), { readonly: true });
    const row = db.prepare('SELECT status, structure, structure_reasons, coverage FROM papers').get() as { status: string; structure: string; structure_reasons: string; coverage: number };
    db.close();
    expect(row).toMatchObject({ status: 'done', structure: 'needs-review' });
    expect(JSON.parse(row.structure_reasons)).toEqual(recs[0].structure.reasons);
    // Read again: not re-read (same run key), still flagged, still status 3.
    const again = ingest(['--in', dir, '--out', out, '--year', '2026']);
    expect(again.code, again.out).toBe(3);
    expect(again.out).toMatch(/^needs-review stated-count\.pdf: 1 pages, 5 questions \(already in the store\), coverage \d+%; needs review: .*states 8 questions/m);
    expect(again.out).toMatch(/^stated-count\.pdf: needs review \(coverage \d+%\), as stored\n {2}needs review: .*states 8 questions/m);
    expect(again.out).toMatch(/summary: 1 papers \(1 unchanged\), 1 pages \(0 rendered\), .* 0 records written, 1 needs-review, 0 partial, 0 failed/);
  }, 400_000);

  it('prints its usage with --help, exit statuses included', () => {
    const r = ingest(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/--in DIR/);
    expect(r.out).toMatch(/WORKERS=n/);
    expect(r.out).toMatch(/Exit status: 0 .* 1 .* 3 .*partial.*needs review/s);
    expect(r.out).toMatch(/needs-review \(stored, but its structure is in doubt/);
  });

  it('resumes a killed run from the store: finished papers are not redone', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-kill-'));
    // Six distinct papers: the sample with a comment appended after %%EOF changes its bytes, not its content.
    for (let i = 1; i <= 6; i++) fs.writeFileSync(path.join(dir, `v${i}.pdf`), Buffer.concat([fs.readFileSync(SAMPLE), Buffer.from(`\n% variant ${i}\n`)]));
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-kill-out-'));
    // Node with tsx as its loader (not the tsx launcher, whose death leaves the run going), one worker:
    // the kill lands while papers are still to be read.
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--in', dir, '--out', out, '--year', '2026'], { cwd: ROOT, env: { ...clean, WORKERS: '1' } });
    let seen = '';
    await new Promise<void>(resolve => {
      // Killed once two papers are in the store.
      child.stdout.on('data', (b: Buffer) => { seen += b.toString(); if ((seen.match(/^done /gm) ?? []).length >= 2) child.kill('SIGKILL'); });
      child.on('exit', () => resolve());
    });
    const r = ingest(['--in', dir, '--out', out, '--year', '2026']);
    expect(r.code, r.out).toBe(0);
    const skipped = (r.out.match(/^skipped /gm) ?? []).length;
    expect(skipped).toBeGreaterThanOrEqual(2);
    expect(skipped).toBeLessThan(6);
    expect(records(path.join(out, '2026/items.jsonl'))).toHaveLength(60);
  }, 400_000);

  it('refuses bad settings with a clear message', () => {
    expect(ingest(['--year', '26']).out).toMatch(/YEAR must be four digits/);
    expect(ingest(['--dpi', 'x', '--year', '2026']).out).toMatch(/DPI must be a number/);
    expect(ingest(['--in', '/nonexistent', '--year', '2026']).code).toBe(2);
    // The parallel settings, resolved where every setting is (no process needed to see them refused).
    expect(() => resolveConfig({ year: '2026' }, { WORKERS: '0' })).toThrow(/WORKERS must be a whole number/);
    expect(() => resolveConfig({ year: '2026' }, { QUEUE: 'localhost:6379' })).toThrow(/QUEUE must be a Redis URL/);
    expect(() => resolveConfig({ year: '2026' }, { QUEUE_STALL_MS: '10' })).toThrow(/QUEUE_STALL_MS/);
    expect(resolveConfig({ year: '2026' }, { WORKERS: '3', QUEUE: 'redis://127.0.0.1:6380' })).toMatchObject({ workers: 3, queue: 'redis://127.0.0.1:6380', queueStallMs: 30_000 });
  });
});

describe('a paper\'s hash, kept with its stat', () => {
  it('does not read a paper again that is hashed and unchanged, and reads one rewritten even where its time is set back', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-hash-'));
    const file = path.join(dir, 'paper.pdf');
    fs.writeFileSync(file, prosePdf(['first']));
    // A whole second, so that setting it back below restores the time to the nanosecond.
    const time = new Date('2026-11-30T12:00:00Z');
    fs.utimesSync(file, time, time);
    const store = openStore(path.join(dir, 'store.sqlite'));
    const settings = { config: resolveConfig({ year: '2099', inDir: dir, outDir: dir, progress: false }, {}), templates: [] };
    const sha = (p: ReturnType<typeof preparePaper>) => ('job' in p ? p.job.sha256 : p.outcome.sha256);
    const first = sha(preparePaper(file, store, 'k', settings));
    const size = fs.statSync(file).size;
    const reads = vi.spyOn(fs, 'readFileSync');
    try {
      expect(sha(preparePaper(file, store, 'k', settings))).toBe(first);
      expect(reads.mock.calls.filter(([f]) => f === file)).toHaveLength(0);
      // Rewritten, then its modification time put back as it was: the change time still tells.
      fs.writeFileSync(file, prosePdf(['other']));
      fs.utimesSync(file, time, time);
      expect(fs.statSync(file).size).toBe(size); // same size, same time, same inode: only the content differs
      const second = sha(preparePaper(file, store, 'k', settings));
      expect(reads.mock.calls.filter(([f]) => f === file)).toHaveLength(1);
      expect(second).not.toBe(first);
      expect(second).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      reads.mockRestore();
      store.close();
    }
  });
});

describe('the run\'s report: status words, the summary and the exit status', () => {
  const outcome = (o: Partial<PaperOutcome>): PaperOutcome => ({ file: 'p.pdf', sha256: 'ab', status: 'done', pages: 2, questions: 5, pagesRendered: 2, recordsWritten: 5, timings: {}, messages: [], ...o });
  const flagged = { status: 'needs-review' as const, reasons: ['the paper states 8 questions; 5 were read', '1 question read unsurely (4)'], coverage: 0.62, unsure: [4] };
  const error = { severity: 'error' as const, rule: 'answers/missing', message: 'no answer for 3', file: 'p.pdf' };

  it('puts needs-review over partial and done, failed over all, and keeps a skipped paper flagged', () => {
    expect(statusWord(outcome({}))).toBe('done   ');
    expect(statusWord(outcome({ status: 'partial' }))).toBe('PARTIAL');
    expect(statusWord(outcome({ status: 'needs-review', structure: flagged, messages: [error] }))).toBe('needs-review');
    expect(statusWord(outcome({ status: 'skipped', structure: flagged }))).toBe('needs-review');
    expect(statusWord(outcome({ status: 'skipped', structure: { ...flagged, status: 'sure', reasons: [] } }))).toBe('skipped');
    expect(statusWord(outcome({ status: 'failed', structure: flagged }))).toBe('FAILED ');
    // A paper that needs review and has an error: its errors are still counted on its line and listed under it.
    const both = outcome({ status: 'needs-review', structure: flagged, messages: [error] });
    expect(paperLine(both)).toBe('needs-review p.pdf: 2 pages, 5 questions, 2 pages rendered, 5 records written, 1 errors, coverage 62%; needs review: the paper states 8 questions; 5 were read; 1 question read unsurely (4)');
    expect(paperNotes(both)).toEqual([
      'p.pdf: needs review (coverage 62%, unsure questions 4), 1 errors, 0 warnings',
      '  needs review: the paper states 8 questions; 5 were read',
      '  needs review: 1 question read unsurely (4)',
      '  error: p.pdf: no answer for 3 [answers/missing]',
    ]);
    expect(paperNotes(outcome({}))).toEqual([]);
    expect(summaryLine({ papers: [both, outcome({ status: 'skipped', structure: flagged, pagesRendered: 0, recordsWritten: 0 }), outcome({ status: 'partial' }), outcome({})], seconds: 1, itemsFile: '', jsonlRewritten: false, corpus: [] }))
      .toBe('summary: 4 papers (1 unchanged), 8 pages (6 rendered), 20 questions, 15 records written, 2 needs-review, 1 partial, 0 failed, 1.0 s');
  });

  it('exits 3 where a paper needs review (read now or as stored), 1 where one failed, 0 where all are done', () => {
    expect(exitCode([outcome({}), outcome({ status: 'skipped' })])).toBe(EXIT.done);
    expect(exitCode([outcome({}), outcome({ status: 'needs-review', structure: flagged })])).toBe(EXIT.partial);
    expect(exitCode([outcome({ status: 'skipped', structure: flagged })])).toBe(EXIT.partial);
    expect(exitCode([outcome({ status: 'partial' })])).toBe(EXIT.partial);
    expect(exitCode([outcome({ status: 'needs-review', structure: flagged }), outcome({ status: 'failed' })])).toBe(EXIT.failed);
  });
});

/** A tmpfs of `kb` KiB mounted at a new folder, or null where this process may not mount (not root, no CAP_SYS_ADMIN). */
function smallDisk(kb: number): { dir: string; unmount: () => void } | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-full-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${kb}k`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    console.warn(`skipping the full-disk test: cannot mount a tmpfs (${(r.stderr || r.error?.message || '').trim()}); it needs root`);
    fs.rmSync(dir, { recursive: true, force: true });
    return null;
  }
  return { dir, unmount: () => { spawnSync('umount', [dir]); fs.rmSync(dir, { recursive: true, force: true }); } };
}

describe('settings refused before any paper is read, a full disk, and the exit status a script sees', () => {
  const BIN = path.join(ROOT, 'bin/exam-ingest.mjs');
  const lastLine = (out: string) => out.trim().split('\n').at(-1);

  it('refuses an unknown TEMPLATE, an OUT that is a file, a YEAR or DPI out of range with one line and exit 2, reading nothing', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-usage-'));
    const file = path.join(out, 'not-a-folder');
    fs.writeFileSync(file, 'x');
    const cases: [ConfigInput, RegExp][] = [
      [{ template: 'nope' }, /^config: TEMPLATE=nope names no template; there are: cambridge-9709, .*kcsat-math/],
      [{ outDir: file }, /^config: OUT=.*not-a-folder: .*not-a-folder is a file, not a folder$/],
      [{ outDir: path.join(file, 'sub') }, /^config: OUT=.*: .* cannot be made: .*not-a-folder is a file$/],
      [{ year: '0226' }, /^config: YEAR must be from 1900 to 2100, got "0226"$/],
      [{ dpi: '5000' }, /^config: DPI must be a number from 36 to 600, got "5000"$/],
    ];
    for (const [input, reason] of cases) expect(() => resolveConfig({ year: '2026', outDir: out, inDir: path.join(ROOT, 'fixtures/samples'), ...input }, {})).toThrow(reason);
    // The command: one line on stderr, the status last on stdout, no paper read and nothing written.
    const r = spawnSync(TSX, [CLI, '--in', path.join(ROOT, 'fixtures/samples'), '--year', '2026', '--out', out, '--template', 'nope'], { cwd: ROOT, encoding: 'utf8', env: clean });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^ingest: config: TEMPLATE=nope names no template/);
    expect(r.stdout.trim()).toBe('exit status 2: bad usage: nothing was read');
    expect(fs.readdirSync(out)).toEqual(['not-a-folder']);
  });

  it('stops on a full disk with exit 1, "disk full" and the path; the store keeps what it held', () => {
    const disk = smallDisk(3072);
    if (!disk) return;
    try {
      // A first paper fits; then the disk is filled but for 200 KiB, less than one page image.
      const first = ingest(['--in', path.join(ROOT, 'fixtures/samples'), '--out', disk.dir, '--year', '2026']);
      expect(first.code, first.out).toBe(0);
      const itemsFile = path.join(disk.dir, '2026/items.jsonl');
      const itemsBefore = fs.readFileSync(itemsFile, 'utf8');
      const free = Number(execFileSync('df', ['-k', '--output=avail', disk.dir], { encoding: 'utf8' }).trim().split('\n').at(-1));
      fs.writeFileSync(path.join(disk.dir, 'filler'), Buffer.alloc((free - 200) * 1024));
      const inbox = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-full-in-'));
      fs.writeFileSync(path.join(inbox, 'second.pdf'), Buffer.concat([fs.readFileSync(SAMPLE), Buffer.from('\n% another paper\n')]));
      const r = spawnSync(TSX, [CLI, '--in', inbox, '--out', disk.dir, '--year', '2026'], { cwd: ROOT, encoding: 'utf8', env: clean });
      expect(r.status, r.stdout + r.stderr).toBe(1);
      expect(r.stderr.trim()).toMatch(new RegExp(`^ingest: disk full: cannot write ${disk.dir}/2026/\\S+ \\(.*no space left on device.*\\); the store holds what was done before`, 'i'));
      expect(lastLine(r.stdout)).toMatch(/^exit status 1: /);
      expect(r.stderr).not.toMatch(/SqliteError|\n\s+at /);
      // The store is whole and holds the first paper; items.jsonl is as it was; no half-written file is left.
      const db = new Database(path.join(disk.dir, '2026/store.sqlite'), { readonly: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(db.prepare('SELECT count(*) AS n FROM items').get()).toEqual({ n: 10 });
      } finally {
        db.close();
      }
      expect(fs.readFileSync(itemsFile, 'utf8')).toBe(itemsBefore);
      expect(fs.readdirSync(path.join(disk.dir, '2026/pages')).filter(f => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      disk.unmount();
    }
  }, 300_000);

  it('runs as the package\'s bin (npx exam-ingest) with the documented status, printed last', () => {
    const npx = (args: string[]) => {
      const r = spawnSync('npx', ['--no-install', 'exam-ingest', ...args], { cwd: ROOT, encoding: 'utf8', env: clean, timeout: 300_000 });
      return { code: r.status, out: r.stdout + r.stderr, stdout: r.stdout };
    };
    expect(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).bin).toEqual({ 'exam-ingest': 'bin/exam-ingest.mjs' });
    expect(fs.statSync(BIN).mode & 0o111).not.toBe(0);
    const usage = npx(['--template', 'nope']);
    expect(usage.code).toBe(2);
    expect(lastLine(usage.stdout)).toBe('exit status 2: bad usage: nothing was read');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-bin-'));
    fs.writeFileSync(path.join(dir, 'empty.pdf'), '');
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-bin-out-'));
    const failed = npx(['--in', dir, '--out', out, '--year', '2026']);
    expect(failed.code, failed.out).toBe(1);
    expect(lastLine(failed.stdout)).toMatch(/^exit status 1: at least one paper failed/);
    const tagged = npx(['--out', out, '--year', '2026', '--only', 'tag']);
    expect(tagged.code, tagged.out).toBe(0);
    expect(lastLine(tagged.stdout)).toBe('exit status 0: every paper done (or already in the store)');
  }, 300_000);

  it('make ingest prints the status and its meaning last; make itself exits 2 for any failure', () => {
    const make = (vars: string[]) => {
      // deps and ocr-deps are taken as made: what is installed is there.
      const r = spawnSync('make', ['-s', '-o', 'deps', '-o', 'ocr-deps', 'ingest', ...vars], { cwd: ROOT, encoding: 'utf8', env: clean, timeout: 300_000 });
      return { code: r.status, stdout: r.stdout };
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-make-'));
    fs.writeFileSync(path.join(dir, 'empty.pdf'), '');
    const failed = make([`IN=${dir}`, `OUT=${fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-make-out-'))}`, 'YEAR=2026']);
    expect(failed.code).toBe(2);
    expect(lastLine(failed.stdout)).toMatch(/^exit status 1: at least one paper failed/);
  }, 300_000);
});
