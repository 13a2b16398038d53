// The review server's part of `make bench`: a 5,000-question set built from real records straight
// into a set's store (test/synthetic-set.ts), the server started on a loopback port in this
// process, and then, over keep-alive HTTP: GET of one item (JSON and its <article>), one decision
// at a time, and 50 reviewers deciding at once on a shared pool of items (each reads the item's
// version, decides, and on 409 reads it again), after which every accepted decision is looked for
// in the store: none may be lost, none counted twice. Also the time to write the set's items.jsonl
// (now done after decisions pause, not per decision) and to read the whole set (what one GET or
// one decision cost before).
// Records: the store `make test` left in out/test/kcsat/2099 (KICE booklets), else the shipped
// sample ingested into a temporary folder; BENCH_SOURCE=<a year folder with store.sqlite> for another.
// QUESTIONS (default 5000), REVIEWERS (50), DECISIONS_EACH (20).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { resolveConfig, ROOT } from '../pipeline/config.ts';
import { runBatch } from '../pipeline/run.ts';
import { startReviewServer } from '../pipeline/server/server.ts';
import { resolveServerSettings } from '../pipeline/server/settings.ts';
import { buildSyntheticSet } from './synthetic-set.ts';
// A seeded generator (mulberry32), so every run picks the same items.
import { rng } from './translate-property.ts';

const QUESTIONS = Number(process.env.QUESTIONS ?? 5000);
const REVIEWERS = Number(process.env.REVIEWERS ?? 50);
const DECISIONS_EACH = Number(process.env.DECISIONS_EACH ?? 20);
const SAMPLES = 500;
const SET = 'bench';
const YEAR = '2099';

async function sourceYearDir(): Promise<string> {
  if (process.env.BENCH_SOURCE) return path.resolve(process.env.BENCH_SOURCE);
  const kcsat = path.join(ROOT, 'out', 'test', 'kcsat', YEAR);
  if (fs.existsSync(path.join(kcsat, 'store.sqlite'))) return kcsat;
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-server-src-'));
  const result = await runBatch(resolveConfig({ year: YEAR, inDir: path.join(ROOT, 'fixtures', 'samples'), outDir: out, progress: false }, { WORKERS: '1' }));
  if (result.papers.some(p => p.status === 'failed')) throw new Error('the shipped sample failed to ingest');
  return path.join(out, YEAR);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: REVIEWERS + 4 });

function request(base: string, pathname: string, body?: unknown, who?: string): Promise<{ status: number; text: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(new URL(pathname, base), {
      agent, method: data ? 'POST' : 'GET',
      headers: data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), ...(who && { 'x-reviewer': who }) } : {},
    }, res => {
      const parts: Buffer[] = [];
      res.on('data', c => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8'), ms: performance.now() - t0 }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

function summary(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(2);
  return `median ${q(0.5)} ms, p95 ${q(0.95)} ms, p99 ${q(0.99)} ms, max ${s.at(-1)!.toFixed(2)} ms (${s.length} requests)`;
}

async function main(): Promise<void> {
  const from = await sourceYearDir();
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-server-'));
  const yearDir = path.join(out, 'sets', SET, YEAR);
  const built = buildSyntheticSet(from, yearDir, QUESTIONS);
  console.log(`server bench: ${built.items} questions in ${built.papers} papers copied from ${path.relative(ROOT, from) || from} into a set's store in ${built.seconds.toFixed(2)} s; ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} (client and server share this process)`);
  // A short pause before items.jsonl is written, so that it is written (stepwise) while the 50 reviewers decide.
  const server = await startReviewServer(resolveServerSettings({ port: 0, outDir: out, year: YEAR, itemsWriteDelayMs: 500 }, {}));
  const random = rng(24);
  const pick = () => built.ids[Math.floor(random() * built.ids.length)];
  try {
    const base = server.url;
    const item = (id: string) => `/api/items/${encodeURIComponent(id)}?set=${SET}`;
    // Warm-up: the store opened, statements prepared, KaTeX loaded.
    for (let i = 0; i < 20; i++) { await request(base, item(pick())); await request(base, `/api/items/${encodeURIComponent(pick())}/html?set=${SET}`); }

    const get: number[] = [], html: number[] = [], decision: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const r = await request(base, item(pick()));
      if (r.status !== 200) throw new Error(`GET item: ${r.status} ${r.text}`);
      get.push(r.ms);
    }
    for (let i = 0; i < SAMPLES; i++) {
      const r = await request(base, `/api/items/${encodeURIComponent(pick())}/html?set=${SET}`);
      if (r.status !== 200) throw new Error(`GET item html: ${r.status}`);
      html.push(r.ms);
    }
    // One decision at a time, each on an item nobody decided on yet (version 0).
    for (const id of built.ids.slice(0, SAMPLES)) {
      const r = await request(base, `/api/items/${encodeURIComponent(id)}/review?set=${SET}`, { status: 'verified', version: 0, who: 'solo' });
      if (r.status !== 200) throw new Error(`decision: ${r.status} ${r.text}`);
      decision.push(r.ms);
    }
    console.log(`GET one item (JSON):      ${summary(get)}`);
    console.log(`GET one item (<article>): ${summary(html)}`);
    console.log(`one decision (POST):      ${summary(decision)}`);
    const pages: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await request(base, `/api/sets/${SET}/items.html?offset=${i * 1000}&limit=100`);
      if (r.status !== 200) throw new Error(`page: ${r.status}`);
      pages.push(r.ms);
    }
    console.log(`a page of 100 items (<article>s, what the review page loads): ${summary(pages)}`);

    // 50 reviewers at once on a shared pool of items, so that some decide on the same item together.
    const pool = built.ids.slice(SAMPLES, SAMPLES + REVIEWERS * 4);
    const accepted = new Map<string, { who: string; version: number }[]>();
    let conflicts = 0;
    const underLoad: number[] = [];
    // How often items.jsonl is written while they decide (it is, stepwise, each time decisions pause or have waited 10 pauses).
    const itemsFile = path.join(yearDir, 'items.jsonl');
    const mtime = () => (fs.existsSync(itemsFile) ? fs.statSync(itemsFile).mtimeMs : 0);
    let writes = 0, last = mtime();
    const watch = setInterval(() => { const m = mtime(); if (m !== last) { writes++; last = m; } }, 50);
    const t0 = performance.now();
    await Promise.all(Array.from({ length: REVIEWERS }, async (_, n) => {
      const who = `reviewer-${n + 1}`;
      const mine = rng(1000 + n);
      for (let k = 0; k < DECISIONS_EACH; k++) {
        const id = pool[Math.floor(mine() * pool.length)];
        const status = mine() < 0.7 ? 'verified' : 'rejected';
        for (let attempt = 0; attempt < 5; attempt++) {
          const current = JSON.parse((await request(base, item(id))).text);
          const r = await request(base, `/api/items/${encodeURIComponent(id)}/review?set=${SET}`, { status, version: current.review?.version ?? 0, who });
          underLoad.push(r.ms);
          if (r.status === 200) {
            const list = accepted.get(id) ?? [];
            list.push({ who, version: JSON.parse(r.text).version });
            accepted.set(id, list);
            break;
          }
          if (r.status !== 409) throw new Error(`decision under load: ${r.status} ${r.text}`);
          conflicts++;
        }
      }
    }));
    const loadSeconds = (performance.now() - t0) / 1000;
    clearInterval(watch);
    const total = [...accepted.values()].reduce((n, l) => n + l.length, 0);
    // Every accepted decision is in the store: the item's version counts them, its history names each.
    let lost = 0;
    for (const [id, list] of accepted) {
      const stored = server.sets.record(SET, id).review!;
      const history = new Set((stored.history ?? []).map(h => `${h.who}@${h.version}`));
      lost += list.filter(a => !history.has(`${a.who}@${a.version}`)).length;
      if (stored.version !== list.length || (stored.history ?? []).length !== list.length) lost += Math.abs(list.length - (stored.version ?? 0));
    }
    console.log(`${REVIEWERS} reviewers at once: ${total} decisions accepted on ${accepted.size} items, ${conflicts} refused as stale (409) and decided again, ${lost} lost, in ${loadSeconds.toFixed(1)} s (${(total / loadSeconds).toFixed(0)} decisions/s), items.jsonl written ${writes} times meanwhile; each POST ${summary(underLoad)}`);

    const w0 = performance.now();
    server.sets.writeItems(SET);
    const written = fs.readFileSync(path.join(yearDir, 'items.jsonl'), 'utf8').trim().split('\n');
    const writeMs = performance.now() - w0;
    const r0 = performance.now();
    const all = server.sets.records(SET);
    const readMs = performance.now() - r0;
    console.log(`items.jsonl of ${written.length} records written in ${writeMs.toFixed(0)} ms (after decisions pause ${server.settings.itemsWriteDelayMs} ms, or on export; no longer per decision); reading the whole set, as every GET and decision did before: ${readMs.toFixed(0)} ms for ${all.length} records`);
    const verdict = (ms: number[], limit: number) => { const s = [...ms].sort((a, b) => a - b); return s[Math.floor(s.length / 2)] <= limit ? 'within' : 'OVER'; };
    console.log(`targets: GET one item median ≤ 5 ms: ${verdict(get, 5)}; one decision median ≤ 20 ms: ${verdict(decision, 20)}; decisions lost: ${lost === 0 ? 'none' : lost}`);
    if (lost) process.exitCode = 1;
  } finally {
    agent.destroy();
    await server.close();
    fs.rmSync(out, { recursive: true, force: true });
  }
}

main().catch(e => {
  console.error(e);
  process.exitCode = 1;
});
