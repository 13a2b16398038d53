// What keeps a long paper's page reading in bounded memory (pipeline/pages/read.ts and
// providers/canvas-pool.ts): the document's clean-up runs every CLEANUP_EVERY pages even though a
// lane always holds two pages, and canvases let go of are handed out again cleared.
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { CLEANUP_EVERY, readPage } from '../pipeline/pages/read.ts';
import type { PageTask } from '../pipeline/pages/task.ts';
import type { PdfDocument } from '../pipeline/providers/pdf.ts';
import { CanvasPool } from '../pipeline/providers/canvas-pool.ts';
import { collectGarbage } from '../pipeline/providers/gc.ts';
import { MALLOC_SETTINGS, PagePool } from '../pipeline/queue/pool.ts';
import fs from 'node:fs';

/** A document whose pages are read slowly and whose clean-up is counted; it refuses while a page is read, as pdf.js does. */
function countingDocument() {
  let reading = 0;
  const doc = {
    cleanups: 0,
    refused: 0,
    async getPage(n: number) {
      reading++;
      await new Promise(r => setTimeout(r, 1));
      reading--;
      throw new Error(`page ${n} not in this document`);
    },
    async cleanup() {
      if (reading) { doc.refused++; throw new Error('a page is being read'); }
      doc.cleanups++;
    },
  };
  return doc;
}

const task = (page: number): PageTask => ({ file: 'x.pdf', scanFile: 'x.pdf', sha256: 'x', page, size: { width: 595, height: 842 }, image: null, dpi: 72, mathFonts: [], root: '.' });

describe('page memory', () => {
  it('cleans the document up every CLEANUP_EVERY pages while pages are read two at a time', async () => {
    const doc = countingDocument();
    const pages = 5 * CLEANUP_EVERY;
    let next = 1;
    // A lane: two pages in hand, the next taken as soon as one is done.
    const lane = async () => { while (next <= pages) await readPage(doc as unknown as PdfDocument, task(next++)); };
    await Promise.all([lane(), lane()]);
    expect(doc.refused).toBe(0);
    expect(doc.cleanups).toBeGreaterThanOrEqual(4);
  });

  it('collects what is no longer reachable when asked, in a process started without --expose-gc', () => {
    expect(process.execArgv).not.toContain('--expose-gc');
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    collectGarbage();
    const base = process.memoryUsage().heapUsed;
    // Some 100 MB of objects (not buffers: those live outside V8's heap), then dropped.
    let junk: { n: number; s: string }[][] | null = Array.from({ length: 100 }, (_, i) => Array.from({ length: 20_000 }, (_, j) => ({ n: j, s: `${i}-${j}` })));
    expect(process.memoryUsage().heapUsed - base).toBeGreaterThan(50 << 20);
    expect(junk.length).toBe(100);
    junk = null;
    expect(collectGarbage()).toBe(true);
    expect(process.memoryUsage().heapUsed - base).toBeLessThan(20 << 20);
    // Exposed in a context of its own: the global scope still has no gc.
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });

  it('hands a canvas let go of out again, cleared and with its context reset, only at its own size', () => {
    const pool = new CanvasPool<Canvas, ReturnType<Canvas['getContext']>>(2);
    const canvas = createCanvas(40, 30);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ff0000';
    ctx.fillRect(0, 0, 40, 30);
    ctx.translate(10, 10);
    pool.give(canvas, ctx);
    expect(pool.take(30, 40)).toBeNull();
    const again = pool.take(40, 30)!;
    expect(again.canvas).toBe(canvas);
    expect([...again.context.getImageData(0, 0, 1, 1).data]).toEqual([0, 0, 0, 0]);
    expect(again.context.getTransform().isIdentity).toBe(true);
    again.context.fillStyle = '#0000ff';
    again.context.fillRect(0, 0, 1, 1);
    expect([...again.context.getImageData(0, 0, 1, 1).data]).toEqual([0, 0, 255, 255]);
    expect(pool.take(40, 30)).toBeNull();
  });

  it('keeps at most its number of canvases, the newest', () => {
    const pool = new CanvasPool<{ width: number; height: number }, null>(2);
    const [a, b, c] = [1, 2, 3].map(w => ({ width: w, height: 1 }));
    for (const x of [a, b, c]) pool.give(x, null);
    expect(pool.take(1, 1)).toBeNull();
    expect(pool.take(2, 1)?.canvas).toBe(b);
    expect(pool.take(3, 1)?.canvas).toBe(c);
  });

  it('hands a page given to a process that has just stopped on to a fresh one, and throws nothing (EPIPE)', async () => {
    const pool = new PagePool(1);
    try {
      const [lane] = pool.lanes();
      (lane as unknown as { process: { kill(signal: string): void } }).process.kill('SIGKILL');
      // Its exit not seen yet, the lane still looks alive: the page must reach another process.
      const result = await pool.run(lane, task(3));
      expect(result.page).toBe(3);
      expect(result.crash).toBeUndefined();
      expect(result.textError ?? result.renderError).toMatch(/x\.pdf|no such file|ENOENT/i);
    } finally {
      await pool.close();
    }
  });

  it('starts its page processes with the malloc settings that give page-sized buffers back', async () => {
    const pool = new PagePool(1);
    try {
      const [lane] = pool.lanes() as unknown as { process: { pid: number } }[];
      const env = new Map(fs.readFileSync(`/proc/${lane.process.pid}/environ`, 'utf8').split('\0').filter(Boolean).map(kv => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
      for (const [k, v] of Object.entries(MALLOC_SETTINGS)) expect(env.get(k), k).toBe(process.env[k] ?? v);
    } finally {
      await pool.close();
    }
  });
});
