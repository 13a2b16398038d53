// The local review server (Node's own http): the page, its assets, the set's images, and the
// API (upload → job, job progress by server-sent events, items, review decisions, export).
// Every request passes the checks of security.ts first; a failing request is answered with its
// status and message and the server goes on serving.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { KATEX_DIST } from '../review/assets.ts';
import { REVIEW_CSS } from '../review/style.ts';
import { APP_CSS, appHtml } from './app-html.ts';
import { readJson, readMultipart } from './body.ts';
import { exportVerified } from './export.ts';
import { HttpError } from './http-error.ts';
import { itemsHtml } from './item-views.ts';
import { JobQueue, type Job } from './jobs.ts';
import { decide, decisionFrom } from './reviews.ts';
import { checkHost, checkSetName, checkToken, checkWriteOrigin, isPdf, keyKind, TOKEN_COOKIE } from './security.ts';
import { nextPending, pageParams, setPage, setSummary } from './set-pages.ts';
import { Sets } from './sets.ts';
import { DEFAULTS, ROOT } from '../config.ts';
import { saveTranslationEdit, TranslationEditError, translationEditFrom } from '../translate/edit.ts';
import type { ServerSettings } from './settings.ts';

// From the project root, so the compiled server (dist/) finds it too.
const PUBLIC = path.join(ROOT, 'pipeline', 'server', 'public');
const TYPES: Record<string, string> = { '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.png': 'image/png', '.jpg': 'image/jpeg' };
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  // KaTeX and the region boxes place things with style attributes; scripts only from this server.
  'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'",
};

export interface ReviewServer {
  server: http.Server;
  url: string;
  settings: ServerSettings;
  jobs: JobQueue;
  sets: Sets;
  close(): Promise<void>;
}

type Send = (status: number, body: string | Buffer, type: string, headers?: Record<string, string>) => void;

function sender(res: http.ServerResponse): Send {
  return (status, body, type, headers = {}) => {
    res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', ...headers });
    res.end(body);
  };
}

const json = (send: Send, status: number, value: unknown) => send(status, JSON.stringify(value), 'application/json; charset=utf-8');

function sendFile(send: Send, file: string | null): void {
  if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) throw new HttpError(404, 'not found');
  send(200, fs.readFileSync(file), TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream');
}

/** A file under `dir` named by URL segments; null when the name would leave it. */
function under(dir: string, segments: string[]): string | null {
  const file = path.resolve(dir, ...segments);
  return file.startsWith(dir + path.sep) ? file : null;
}

const jobView = (j: Job) => ({ job: j.id, set: j.set, file: j.file, state: j.state, done: j.done, total: j.total, errors: j.errors, papers: j.papers });

export function createReviewServer(settings: ServerSettings): { server: http.Server; jobs: JobQueue; sets: Sets } {
  const sets = new Sets(settings);
  const jobs = new JobQueue(settings, sets);

  async function upload(req: http.IncomingMessage, send: Send, set: string): Promise<void> {
    const files = await readMultipart(req, settings.uploadLimitBytes);
    const file = files.get('file');
    if (!file) throw new HttpError(400, 'no "file" part: send the paper as the form field "file"');
    if (!isPdf(file.bytes)) throw new HttpError(415, `${path.basename(file.name || 'the file')} is not a PDF (it does not start with %PDF-)`);
    const keyPart = files.get('key');
    let key: { bytes: Uint8Array; ext: string } | null = null;
    if (keyPart && keyPart.bytes.length) {
      const ext = keyKind(keyPart.bytes);
      if (!ext) throw new HttpError(415, `the key ${path.basename(keyPart.name || '')} is not a PNG, JPEG, PDF or CSV`);
      key = { bytes: keyPart.bytes, ext };
    }
    const saved = sets.saveUpload(set, file.name, file.bytes, key);
    const job = jobs.enqueue(set, saved);
    json(send, 202, { job: job.id, file: saved, set });
  }

  function events(req: http.IncomingMessage, res: http.ServerResponse, job: Job): void {
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    const push = (j: Job) => {
      if (j.id !== job.id) return;
      res.write(`event: job\ndata: ${JSON.stringify(jobView(j))}\n\n`);
      if (j.state === 'done' || j.state === 'failed') stop();
    };
    // A comment now and then keeps proxies and idle timers from closing a quiet stream while a long paper runs.
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    const stop = () => {
      clearInterval(keepAlive);
      jobs.off('job', push);
      res.end();
    };
    jobs.on('job', push);
    req.on('close', () => {
      clearInterval(keepAlive);
      jobs.off('job', push);
    });
    push(job);
  }

  async function route(req: http.IncomingMessage, res: http.ServerResponse, url: URL, send: Send): Promise<void> {
    const method = req.method ?? 'GET';
    // Segments are split before decoding, so an encoded "/" or ".." stays inside one segment and is checked as a name.
    const parts = url.pathname.split('/').filter(Boolean).map(s => {
      try { return decodeURIComponent(s); } catch { throw new HttpError(400, 'malformed URL'); }
    });
    const [a, b, c, d] = parts;
    if (method !== 'GET' && method !== 'POST') throw new HttpError(405, `${method} is not allowed`);
    if (method === 'POST') checkWriteOrigin(req);
    if (method === 'GET' && parts.length === 0) return send(200, appHtml(sets.list()), 'text/html; charset=utf-8');
    if (method === 'GET' && a === 'assets') {
      if (b === 'review.css' && parts.length === 2) return send(200, REVIEW_CSS, TYPES['.css']);
      if (b === 'app.css' && parts.length === 2) return send(200, APP_CSS, TYPES['.css']);
      if (b === 'app.js' && parts.length === 2) return sendFile(send, path.join(PUBLIC, 'app.js'));
      if (b === 'katex') return sendFile(send, under(KATEX_DIST, parts.slice(2)));
    }
    if (method === 'GET' && a === 'sets' && c === 'files' && b) return sendFile(send, sets.outputFile(checkSetName(b), parts.slice(3).join('/')));
    if (a !== 'api') throw new HttpError(404, 'not found');
    if (method === 'GET' && b === 'sets' && parts.length === 2) return json(send, 200, { sets: sets.list() });
    if (b === 'sets' && c) {
      const set = checkSetName(c);
      if (method === 'POST' && d === 'papers' && parts.length === 4) return upload(req, send, set);
      // ?offset=&limit= a page of the set (x-total-count: how many it holds); neither: every record.
      if (method === 'GET' && (d === 'items' || d === 'items.html') && parts.length === 4) {
        const paging = pageParams(url.searchParams);
        const page = paging ? setPage(sets, set, paging.offset, paging.limit) : null;
        const records = page?.records ?? sets.records(set);
        const total = { 'x-total-count': String(page?.total ?? records.length) };
        if (d === 'items') return send(200, JSON.stringify(records), 'application/json; charset=utf-8', total);
        return send(200, itemsHtml(sets, set, records), 'text/html; charset=utf-8', total);
      }
      if (method === 'GET' && d === 'summary' && parts.length === 4) return json(send, 200, setSummary(sets, set));
      // The set's papers with pages, coverage and structural status, those needing review first.
      if (method === 'GET' && d === 'papers' && parts.length === 4) return json(send, 200, { papers: sets.papers(set) });
      if (method === 'GET' && d === 'next-pending' && parts.length === 4) return json(send, 200, { next: nextPending(sets, set, url.searchParams.get('after')) });
      if (method === 'GET' && d === 'jobs' && parts.length === 4) return json(send, 200, { jobs: jobs.list(set).map(jobView) });
      if (method === 'GET' && d === 'export' && parts.length === 4) {
        // Asked for: the set's items.jsonl is brought up to date too.
        sets.flush(set);
        const out = exportVerified(sets, set);
        return send(200, out.tar, 'application/x-tar', { 'content-disposition': `attachment; filename="${set}-verified.tar"`, 'x-items': String(out.items) });
      }
    }
    if (b === 'jobs' && c) {
      const job = jobs.get(c);
      if (!job) throw new HttpError(404, `no job ${c}`);
      if (method === 'GET' && parts.length === 3) return json(send, 200, jobView(job));
      if (method === 'GET' && d === 'events' && parts.length === 4) return events(req, res, job);
    }
    if (b === 'items' && c) {
      const set = sets.setOf(c, url.searchParams.get('set'));
      if (method === 'GET' && parts.length === 3) return json(send, 200, sets.record(set, c));
      if (method === 'GET' && d === 'html' && parts.length === 4) return send(200, itemsHtml(sets, set, [sets.record(set, c)]), 'text/html; charset=utf-8');
      if (method === 'POST' && d === 'review' && parts.length === 4) {
        const reviewer = typeof req.headers['x-reviewer'] === 'string' ? req.headers['x-reviewer'] : undefined;
        const decision = decisionFrom(await readJson(req), reviewer);
        const record = sets.record(set, c);
        const store = sets.store(set)!;
        // Only the item's own row of the reviews table is written; items.jsonl follows a moment later (Sets.scheduleWrite).
        const state = decide(store.db, c, record as unknown as Record<string, unknown>, decision);
        sets.scheduleWrite(set);
        return json(send, 200, { id: c, set, version: state.version, status: state.status, review: state });
      }
      // A reviewer's edit of a translation: checked again on save, the earlier text kept (pipeline/translate/edit.ts).
      if (method === 'POST' && d === 'translations' && parts.length === 5) {
        if (!/^[a-z]{2}$/.test(parts[4])) throw new HttpError(400, 'the language must be a two-letter code');
        const reviewer = typeof req.headers['x-reviewer'] === 'string' ? req.headers['x-reviewer'] : undefined;
        try {
          const row = saveTranslationEdit(sets.store(set)!.db, sets.records(set), c, parts[4], translationEditFrom(await readJson(req), reviewer), path.join(ROOT, DEFAULTS.translateGlossaryDir));
          sets.scheduleWrite(set);
          return json(send, 200, { id: c, set, lang: row.lang, version: row.version, status: row.status, checks: [...row.checks, ...row.consistency], history: row.history });
        } catch (e) {
          if (e instanceof TranslationEditError) throw new HttpError(e.status, e.message, e.extra);
          throw e;
        }
      }
    }
    throw new HttpError(404, 'not found');
  }

  const server = http.createServer((req, res) => {
    const send = sender(res);
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      return json(send, 400, { error: 'malformed URL' });
    }
    (async () => {
      checkHost(settings, req);
      checkToken(settings, req, url);
      // A page opened with ?token= keeps it as a cookie (EventSource cannot send headers) and drops it from the address.
      const token = url.searchParams.get('token');
      if (token && req.method === 'GET') {
        url.searchParams.delete('token');
        res.writeHead(303, { ...SECURITY_HEADERS, location: url.pathname + url.search, 'set-cookie': `${TOKEN_COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/` });
        return void res.end();
      }
      await route(req, res, url, send);
    })().catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : 500;
      const body = { error: err instanceof Error ? err.message : String(err), ...(err instanceof HttpError ? err.body : {}) };
      if (res.headersSent) return void res.end();
      // A refused body is not read to its end: the connection closes after the answer, and the rest is drained so the client sees it.
      if (status === 413) {
        res.setHeader('connection', 'close');
        req.resume();
      }
      json(send, status, body);
    });
  });
  return { server, jobs, sets };
}

export async function startReviewServer(settings: ServerSettings): Promise<ReviewServer> {
  const { server, jobs, sets } = createReviewServer(settings);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => resolve());
  });
  // Uploads a stopped server had not ingested yet are taken up again.
  jobs.resume();
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server, jobs, sets, settings,
    url: `http://${host}:${address.port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
      await jobs.idle();
      sets.close();
    },
  };
}
