// The review server against real requests on a loopback port: the token, the upload limit, PDFs
// told by their bytes, names that cannot leave their folder, cross-site writes refused, a broken
// paper failing alone while the server keeps serving; and the review API's versions and export.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../pipeline/config.ts';
import { startReviewServer, type ReviewServer } from '../pipeline/server/server.ts';
import { resolveServerSettings, ServerConfigError, SERVER_DEFAULTS } from '../pipeline/server/settings.ts';
import { TEST_OUT } from './helpers.ts';

const OUT = path.join(TEST_OUT, 'server-security');
const SAMPLE = path.join(ROOT, 'fixtures', 'samples', '2026-sample-math-dif.pdf');

interface Reply { status: number; headers: http.IncomingHttpHeaders; body: Buffer; json: any }

/** One request with full control of its headers (Host, Origin, Sec-Fetch-Site), by node:http. */
function request(base: string, pathname: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer | string; chunks?: Buffer[] } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(pathname, base), { method: options.method ?? 'GET', headers: options.headers }, res => {
      const parts: Buffer[] = [];
      res.on('data', c => parts.push(c));
      res.on('end', () => {
        const body = Buffer.concat(parts);
        let json: unknown = null;
        try { json = JSON.parse(body.toString('utf8')); } catch { /* not JSON */ }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json });
      });
    });
    // A server that answers before the body is sent may close the connection under the writer.
    req.on('error', e => ((e as NodeJS.ErrnoException).code === 'EPIPE' || (e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
    if (options.chunks) {
      for (const c of options.chunks) req.write(c);
      req.end();
    } else req.end(options.body);
  });
}

/** A multipart body as a browser's FormData would send it. */
async function multipart(files: Record<string, { name: string; bytes: Uint8Array }>): Promise<{ body: Buffer; type: string }> {
  const form = new FormData();
  for (const [field, f] of Object.entries(files)) form.append(field, new Blob([new Uint8Array(f.bytes)]), f.name);
  const r = new Request('http://localhost/', { method: 'POST', body: form });
  return { body: Buffer.from(await r.arrayBuffer()), type: r.headers.get('content-type')! };
}

async function upload(base: string, set: string, files: Record<string, { name: string; bytes: Uint8Array }>, headers: Record<string, string> = {}): Promise<Reply> {
  const { body, type } = await multipart(files);
  return request(base, `/api/sets/${set}/papers`, { method: 'POST', headers: { 'content-type': type, ...headers }, body });
}

async function waitJob(base: string, job: string): Promise<any> {
  for (let i = 0; i < 600; i++) {
    const r = await request(base, `/api/jobs/${job}`);
    if (r.json.state === 'done' || r.json.state === 'failed') return r.json;
    await new Promise(res => setTimeout(res, 200));
  }
  throw new Error(`job ${job} did not finish`);
}

const pdf = () => new Uint8Array(fs.readFileSync(SAMPLE));

describe('review server settings', () => {
  it('defaults to 127.0.0.1:8730 and 100 MB, from one place', () => {
    const s = resolveServerSettings({}, {});
    expect([s.host, s.port, s.uploadLimitBytes, s.token]).toEqual(['127.0.0.1', 8730, 100 * 1024 * 1024, null]);
    expect(SERVER_DEFAULTS).toMatchObject({ host: '127.0.0.1', port: 8730, uploadLimitMb: 100 });
    expect(resolveServerSettings({}, { UPLOAD_LIMIT_MB: '2', PORT: '9000', HOST: 'localhost' })).toMatchObject({ uploadLimitBytes: 2 * 1024 * 1024, port: 9000, host: 'localhost' });
  });

  it('refuses to listen beyond loopback without REVIEW_TOKEN', () => {
    expect(() => resolveServerSettings({}, { HOST: '0.0.0.0' })).toThrow(ServerConfigError);
    expect(() => resolveServerSettings({}, { HOST: '0.0.0.0' })).toThrow(/REVIEW_TOKEN/);
    expect(resolveServerSettings({}, { HOST: '0.0.0.0', REVIEW_TOKEN: 'secret' }).token).toBe('secret');
    expect(() => resolveServerSettings({}, { UPLOAD_LIMIT_MB: 'lots' })).toThrow(/UPLOAD_LIMIT_MB/);
  });
});

describe('make serve (the command line)', () => {
  const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');

  it('will not start beyond loopback without a token', () => {
    const r = spawnSync(tsx, ['pipeline/server/cli.ts'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, HOST: '0.0.0.0', REVIEW_TOKEN: '', PORT: '0' } });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/HOST=0\.0\.0\.0 is not a loopback address: set REVIEW_TOKEN/);
  });

  it('starts on 127.0.0.1, serves the page, and stops on SIGTERM', async () => {
    const child = spawn(tsx, ['pipeline/server/cli.ts'], { cwd: ROOT, env: { ...process.env, HOST: '', PORT: '0', REVIEW_TOKEN: '', OUT: path.join(OUT, 'cli') } });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', d => { text += d; if (text.includes('\n')) resolve(text); });
        child.on('exit', code => reject(new Error(`exited ${code}`)));
      });
      const url = /review server: (http:\/\/127\.0\.0\.1:\d+)\//.exec(line)?.[1];
      expect(url, line).toBeTruthy();
      const page = await request(url!, '/');
      expect(page.status).toBe(200);
      expect(page.body.toString()).toContain('id="drop"');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    } finally {
      const exited = new Promise(resolve => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});

describe('review server on a loopback port', () => {
  let server: ReviewServer;
  let base: string;
  beforeAll(async () => {
    fs.rmSync(OUT, { recursive: true, force: true });
    server = await startReviewServer(resolveServerSettings({ port: 0, outDir: OUT, uploadLimitMb: 1, year: '2026', itemsWriteDelayMs: 400 }, {}));
    base = server.url;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is bound to 127.0.0.1 and answers only to a loopback Host', async () => {
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await request(base, '/')).status).toBe(200);
    const rebound = await request(base, '/api/sets', { headers: { host: 'attacker.example' } });
    expect(rebound.status).toBe(403);
  });

  it('refuses an upload over the limit with 413, declared or streamed', async () => {
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(1.5 * 1024 * 1024, 0x20)]);
    const declared = await upload(base, 'limits', { file: { name: 'big.pdf', bytes: big } });
    expect(declared.status).toBe(413);
    expect(declared.json.error).toMatch(/too large/);
    const { body, type } = await multipart({ file: { name: 'big.pdf', bytes: big } });
    const chunks = Array.from({ length: Math.ceil(body.length / 65536) }, (_, i) => body.subarray(i * 65536, (i + 1) * 65536));
    const streamed = await request(base, '/api/sets/limits/papers', { method: 'POST', headers: { 'content-type': type, 'transfer-encoding': 'chunked' }, chunks });
    expect(streamed.status).toBe(413);
    expect(fs.existsSync(path.join(OUT, 'sets', 'limits', 'inbox', 'big.pdf'))).toBe(false);
    expect((await request(base, '/api/sets')).status).toBe(200);
  });

  it('accepts only real PDFs (by their bytes, not their name) and keys it can read, with 415', async () => {
    const text = await upload(base, 'types', { file: { name: 'paper.pdf', bytes: Buffer.from('just text, named like a PDF') } });
    expect(text.status).toBe(415);
    expect(text.json.error).toMatch(/not a PDF/);
    const png = await upload(base, 'types', { file: { name: 'paper.pdf', bytes: fs.readFileSync(path.join(ROOT, 'node_modules', 'katex', 'dist', 'fonts', 'KaTeX_Main-Regular.woff2')) } });
    expect(png.status).toBe(415);
    const badKey = await upload(base, 'types', { file: { name: 'paper.pdf', bytes: pdf() }, key: { name: 'key.png', bytes: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]) } });
    expect(badKey.status).toBe(415);
    expect(badKey.json.error).toMatch(/key/);
    const notMultipart = await request(base, '/api/sets/types/papers', { method: 'POST', headers: { 'content-type': 'application/pdf' }, body: Buffer.from(pdf()) });
    expect(notMultipart.status).toBe(415);
    expect(fs.existsSync(path.join(OUT, 'sets', 'types', 'inbox'))).toBe(false);
  });

  it('keeps set names and file names inside their folders', async () => {
    for (const set of ['..%2F..%2Ftmp', '.hidden', 'a%2Fb', '%2Fetc', 'x'.repeat(65)]) {
      const r = await request(base, `/api/sets/${set}/items`);
      expect(r.status, set).toBe(400);
    }
    // A bare ".." (or %2E%2E) is resolved away by URL parsing before any route sees it.
    for (const dots of ['..', '%2E%2E']) expect((await request(base, `/api/sets/${dots}/items`)).status).toBe(404);
    const up = await upload(base, '..%2Fescape', { file: { name: 'x.pdf', bytes: pdf() } });
    expect(up.status).toBe(400);
    expect(fs.existsSync(path.join(OUT, 'escape'))).toBe(false);
    // A name with path parts and odd characters is cut to its last segment, in safe characters.
    const traversal = await upload(base, 'names', { file: { name: '../../../evil name;rm -rf.pdf', bytes: pdf() } });
    expect(traversal.status).toBe(202);
    expect(traversal.json.file).toBe('evil_name_rm_-rf.pdf');
    expect(fs.readdirSync(path.join(OUT, 'sets', 'names', 'inbox'))).toEqual(['evil_name_rm_-rf.pdf']);
    const windows = await upload(base, 'names', { file: { name: '..\\..\\-answer.pdf', bytes: Buffer.concat([Buffer.from(pdf()), Buffer.from('\n')]) } });
    expect(windows.json.file).toBe('answer.pdf');
    await waitJob(base, windows.json.job);
    // Files are served from the set's pages/ and figures/ only.
    for (const p of ['/sets/names/files/..%2Fstore.sqlite', '/sets/names/files/../../inbox/evil_name_rm_-rf.pdf', '/sets/names/files/pages/..%2F..%2Finbox%2Fevil_name_rm_-rf.pdf', '/assets/katex/..%2F..%2Fpackage.json']) {
      expect((await request(base, p)).status, p).toBe(404);
    }
    const items = (await request(base, '/api/sets/names/items')).json;
    const image = items[0].modalities.IO.page_image[0];
    const served = await request(base, `/sets/names/files/${image}`);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
  }, 120_000);

  it('refuses cross-site writes (Origin, Sec-Fetch-Site) and allows same-origin ones', async () => {
    const files = { file: { name: 'x.pdf', bytes: pdf() } };
    const origin = await upload(base, 'cross', files, { origin: 'http://attacker.example' });
    expect(origin.status).toBe(403);
    const nullOrigin = await upload(base, 'cross', files, { origin: 'null' });
    expect(nullOrigin.status).toBe(403);
    const site = await upload(base, 'cross', files, { 'sec-fetch-site': 'cross-site' });
    expect(site.status).toBe(403);
    const review = await request(base, '/api/items/x/review', { method: 'POST', headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-site' }, body: '{}' });
    expect(review.status).toBe(403);
    expect(fs.existsSync(path.join(OUT, 'sets', 'cross'))).toBe(false);
    const same = await upload(base, 'cross', files, { origin: base, 'sec-fetch-site': 'same-origin' });
    expect(same.status).toBe(202);
    await waitJob(base, same.json.job);
  }, 120_000);

  it('fails a broken PDF alone, with its message in the job and its events, and keeps serving', async () => {
    const broken = await upload(base, 'mixed', { file: { name: 'broken.pdf', bytes: pdf().subarray(0, 4000) } });
    expect(broken.status).toBe(202);
    const good = await upload(base, 'mixed', { file: { name: 'good.pdf', bytes: pdf() } });
    expect(good.status).toBe(202);
    // The broken paper's progress as the page receives it: server-sent events ending with its state.
    const events = await request(base, `/api/jobs/${broken.json.job}/events`);
    expect(events.headers['content-type']).toMatch(/text\/event-stream/);
    const last = JSON.parse(events.body.toString('utf8').trim().split('\n\n').pop()!.split('\n').find(l => l.startsWith('data: '))!.slice(6));
    expect(last.state).toBe('failed');
    const failed = await waitJob(base, broken.json.job);
    expect(failed.state).toBe('failed');
    expect(failed.errors).toHaveLength(1);
    expect(failed.errors[0].file).toBe('broken.pdf');
    expect(failed.errors[0].message).toMatch(/broken\.pdf/);
    const done = await waitJob(base, good.json.job);
    expect(done).toMatchObject({ state: 'done', errors: [] });
    expect(done.total).toBe(1);
    const items = await request(base, '/api/sets/mixed/items');
    expect(items.status).toBe(200);
    expect(items.json).toHaveLength(10);
    expect(fs.existsSync(path.join(OUT, 'sets', 'mixed', 'failed', 'broken.pdf'))).toBe(true);
    expect((await request(base, '/')).status).toBe(200);
  }, 120_000);

  it('records decisions with versions (409 when stale), keeps the parse and the history, writes items.jsonl once decisions pause, and exports the verified items', async () => {
    const items = (await request(base, '/api/sets/mixed/items')).json as any[];
    const itemsFile = path.join(OUT, 'sets', 'mixed', '2026', 'items.jsonl');
    const before = fs.readFileSync(itemsFile, 'utf8');
    const [a, b] = items;
    const post = (id: string, body: unknown) => request(base, `/api/items/${id}/review?set=mixed`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const first = await post(a.id, { status: 'verified', version: 0, who: 'ann', edits: { answer: '③', tags: ['수학II > 미분'] } });
    expect(first.status).toBe(200);
    expect(first.json.version).toBe(1);
    const stale = await post(a.id, { status: 'rejected', version: 0, who: 'bob' });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({ version: 1 });
    expect(stale.json.error).toMatch(/conflict/);
    const second = await post(a.id, { status: 'verified', version: 1, who: 'bob', edits: { points: 3 } });
    expect(second.json.version).toBe(2);
    expect((await post(b.id, { status: 'rejected', version: 0 })).status).toBe(200);
    expect((await post(b.id, { status: 'maybe', version: 1 })).status).toBe(400);
    expect((await post(b.id, { status: 'verified', version: 1, edits: { id: 'x' } })).status).toBe(400);
    expect((await post('nope', { status: 'verified', version: 0 })).status).toBe(404);
    // One item read and paged without reading the set: the same record as the whole list has.
    expect((await request(base, `/api/items/${a.id}?set=mixed`)).json).toMatchObject({ id: a.id, answer: '③', review: { version: 2 } });
    const page = await request(base, '/api/sets/mixed/items?offset=1&limit=2');
    expect(page.json.map((r: any) => r.id)).toEqual(items.slice(1, 3).map(r => r.id));
    expect(page.headers['x-total-count']).toBe(String(items.length));
    expect((await request(base, '/api/sets/mixed/summary')).json).toEqual({ total: items.length, verified: 1, rejected: 1, pending: items.length - 2 });
    expect((await request(base, `/api/sets/mixed/next-pending?after=${a.id}`)).json.next).toEqual({ id: items[2].id, index: 2 });
    expect((await request(base, '/api/sets/mixed/items?limit=0')).status).toBe(400);

    // A decision does not rebuild items.jsonl: it is written once decisions pause (itemsWriteDelayMs).
    expect(fs.readFileSync(itemsFile, 'utf8')).toBe(before);
    await expect.poll(() => fs.readFileSync(itemsFile, 'utf8') !== before, { timeout: 10_000 }).toBe(true);
    const jsonl = fs.readFileSync(itemsFile, 'utf8').trim().split('\n').map(l => JSON.parse(l));
    const ra = jsonl.find(r => r.id === a.id);
    expect(ra.answer).toBe('③');
    expect(ra.points).toBe(3);
    expect(ra.knowledge).toEqual(['수학II > 미분']);
    expect(ra.review.status).toBe('verified');
    expect(ra.review.version).toBe(2);
    expect(ra.review.original).toEqual({ answer: a.answer, knowledge: a.knowledge, points: a.points });
    expect(ra.review.history.map((h: any) => [h.who, h.version, h.status])).toEqual([['ann', 1, 'verified'], ['bob', 2, 'verified']]);
    expect(jsonl.find(r => r.id === b.id).review.status).toBe('rejected');
    expect(jsonl.filter(r => r.review.status === 'pending')).toHaveLength(8);

    const exported = await request(base, '/api/sets/mixed/export');
    expect(exported.status).toBe(200);
    const tar = path.join(OUT, 'export.tar');
    fs.writeFileSync(tar, exported.body);
    const listed = execFileSync('tar', ['-tf', tar], { encoding: 'utf8' }).trim().split('\n');
    expect(listed).toEqual(['items.jsonl', ...ra.modalities.IO.page_image, ...ra.figures.map((f: any) => f.path)].sort((x, y) => (x === 'items.jsonl' ? -1 : y === 'items.jsonl' ? 1 : x.localeCompare(y))));
    const dir = path.join(OUT, 'export');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir);
    execFileSync('tar', ['-xf', tar, '-C', dir]);
    const exportedItems = fs.readFileSync(path.join(dir, 'items.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l));
    expect(exportedItems.map(r => r.id)).toEqual([a.id]);
    expect(fs.readFileSync(path.join(dir, ra.modalities.IO.page_image[0])).equals(fs.readFileSync(path.join(OUT, 'sets', 'mixed', '2026', ra.modalities.IO.page_image[0])))).toBe(true);
  });
});

describe('review server restarted with papers left in an inbox', () => {
  let server: ReviewServer;
  const out = path.join(OUT, 'resume');
  beforeAll(async () => {
    fs.rmSync(out, { recursive: true, force: true });
    const inbox = path.join(out, 'sets', 'left', 'inbox');
    fs.mkdirSync(inbox, { recursive: true });
    fs.copyFileSync(SAMPLE, path.join(inbox, 'left.pdf'));
    server = await startReviewServer(resolveServerSettings({ port: 0, outDir: out, year: '2026' }, {}));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('takes them up again as jobs, listed for the set', async () => {
    const listed = (await request(server.url, '/api/sets/left/jobs')).json.jobs;
    expect(listed.map((j: any) => j.file)).toEqual(['left.pdf']);
    const done = await waitJob(server.url, listed[0].job);
    expect(done.state).toBe('done');
    expect((await request(server.url, '/api/sets/left/items')).json).toHaveLength(10);
    // Done papers are not taken up again by the next start.
    expect(server.jobs.resume()).toEqual([]);
  }, 120_000);
});

describe('review server with REVIEW_TOKEN beyond loopback', () => {
  let server: ReviewServer;
  let base: string;
  beforeAll(async () => {
    server = await startReviewServer(resolveServerSettings({ port: 0, outDir: path.join(OUT, 'token'), year: '2026' }, { HOST: '0.0.0.0', REVIEW_TOKEN: 'open sesame' }));
    base = server.url.replace('0.0.0.0', '127.0.0.1');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 401 without the token, and serves with it (header, bearer, or the cookie ?token= sets)', async () => {
    for (const p of ['/', '/api/sets', '/assets/app.js', '/api/jobs/x']) expect((await request(base, p)).status, p).toBe(401);
    expect((await upload(base, 'any', { file: { name: 'x.pdf', bytes: pdf() } })).status).toBe(401);
    expect((await request(base, '/api/sets', { headers: { 'x-review-token': 'wrong' } })).status).toBe(401);
    expect((await request(base, '/api/sets', { headers: { 'x-review-token': 'open sesame' } })).status).toBe(200);
    expect((await request(base, '/api/sets', { headers: { authorization: 'Bearer open sesame' } })).status).toBe(200);
    const landing = await request(base, '/?token=open%20sesame&set=a');
    expect(landing.status).toBe(303);
    expect(landing.headers.location).toBe('/?set=a');
    const cookie = String(landing.headers['set-cookie']).split(';')[0];
    expect(String(landing.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
    expect((await request(base, '/', { headers: { cookie } })).status).toBe(200);
    expect(fs.existsSync(path.join(OUT, 'token', 'sets', 'any'))).toBe(false);
  });
});
