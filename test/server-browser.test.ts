// The review server's page in Chromium: a broken paper dropped on the page fails alone with its
// message shown; a real KICE booklet and its key uploaded through the file picker are ingested in
// the background with progress pushed to the page; one item verified, one rejected and one answer
// edited from the keyboard survive a reload; a second reviewer on a stale version is told of the
// conflict. And by mouse alone, on the shipped sample: the Verify, Reject and Edit buttons (each
// showing its key) decide, the store holds the decisions, and an edit with markup reads as typed. A
// paper whose structure needs review says so on its job, first in the set's papers, and on its items.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, ROOT } from '../pipeline/config.ts';
import { runBatch } from '../pipeline/run.ts';
import { startReviewServer, type ReviewServer } from '../pipeline/server/server.ts';
import { resolveServerSettings } from '../pipeline/server/settings.ts';
import { haveShared, KCSAT, TEST_OUT } from './helpers.ts';
import { consoleErrors, haveChromium, launch, screenshotPath } from './review-browser.ts';

const OUT = path.join(TEST_OUT, 'server-browser');
const PAPER = '202311-h3-math-pro';
const SET = 'kice';

describe.skipIf(!haveShared() || !haveChromium())('review page in Chromium', () => {
  let server: ReviewServer;
  beforeAll(async () => {
    fs.rmSync(OUT, { recursive: true, force: true });
    server = await startReviewServer(resolveServerSettings({ port: 0, outDir: OUT, year: '2099' }, {}));
  });
  afterAll(async () => {
    await server?.close();
  });

  const article = (page: Page, i: number) => page.locator('#items article.item').nth(i);

  it('uploads, reviews from the keyboard, keeps every decision over a reload, and reports a stale edit', async () => {
    const browser = await launch();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
      const page = await context.newPage();
      const errors = consoleErrors(page);
      await page.goto(`${server.url}/?set=${SET}`);
      await page.fill('#who', 'ann');
      await page.locator('#who').dispatchEvent('change');

      // A broken paper, dropped on the page: its job fails with the reason, shown on the page.
      const broken = fs.readFileSync(path.join(ROOT, 'fixtures', 'samples', '2026-sample-math-dif.pdf')).subarray(0, 3000).toString('base64');
      await page.evaluate(b64 => {
        const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File(['section,number,answer\ncommon,1,3\n'], 'broken-answer.csv', { type: 'text/csv' }));
        dt.items.add(new File([bytes], 'broken.pdf', { type: 'application/pdf' }));
        document.querySelector('#drop')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, broken);
      const failedJob = page.locator('#jobs li[data-state="failed"]');
      await failedJob.waitFor({ timeout: 60_000 });
      expect(await failedJob.textContent()).toMatch(/broken\.pdf: failed .*broken\.pdf/);
      // The key dropped beside it went with it, under the name the pipeline reads, and out with it.
      expect(fs.readdirSync(path.join(OUT, 'sets', SET, 'failed')).sort()).toEqual(['broken-answer.csv', 'broken.pdf', 'broken.pdf.txt']);

      // The real booklet and its key through the file pickers; its items appear when it is done.
      await page.setInputFiles('#file', path.join(KCSAT, `${PAPER}.pdf`));
      await page.setInputFiles('#key', path.join(KCSAT, `${PAPER}-answer.png`));
      await page.click('#send');
      await page.locator('#jobs li[data-state="running"], #jobs li[data-state="done"]').first().waitFor({ timeout: 60_000 });
      await page.locator('#jobs li[data-state="done"]').waitFor({ timeout: 240_000 });
      expect(await page.locator('#jobs li[data-state="done"]').textContent()).toMatch(new RegExp(`${PAPER}\\.pdf: done \\(1/1 papers\\)`));
      // One line per job: the broken paper's still failed, the booklet's done.
      expect(await page.locator('#jobs li').allTextContents()).toEqual([`${PAPER}.pdf: done (1/1 papers)`, expect.stringMatching(/^broken\.pdf: failed \(1\/1 papers\) — broken\.pdf: error: broken\.pdf: pdf\.js cannot read it/)]);
      const records = server.sets.records(SET);
      expect(records).toHaveLength(30);
      await expect.poll(() => page.locator('#items article.item').count()).toBe(30);
      expect(await page.locator('#items .stem .katex').count()).toBeGreaterThan(20);
      const uploaded = screenshotPath('server-upload.png');
      await page.screenshot({ path: uploaded });
      console.log(`screenshot: ${uploaded}`);
      expect(records.every(r => r.answer)).toBe(true);

      // Keyboard: verify the first, reject the second, edit the third's answer.
      await page.click('h1');
      await page.keyboard.press('v');
      await expect.poll(() => article(page, 0).getAttribute('data-status')).toBe('verified');
      await page.keyboard.press('j');
      await page.keyboard.press('r');
      await expect.poll(() => article(page, 1).getAttribute('data-status')).toBe('rejected');
      await page.keyboard.press('j');
      await page.keyboard.press('e');
      const third = records[2];
      const newAnswer = third.answer === '①' ? '②' : '①';
      const answerInput = article(page, 2).locator('form.edit input[name="answer"]');
      await answerInput.fill(newAnswer);
      await answerInput.press('Control+Enter');
      await expect.poll(() => article(page, 2).locator('.facts .answer').textContent()).toBe(newAnswer);
      const shot = screenshotPath('server-review.png');
      await page.screenshot({ path: shot });
      console.log(`screenshot: ${shot}`);

      // The queue: from the first item, the next one still pending is the third (the second is rejected).
      await page.click('h1');
      await page.keyboard.press('k');
      await page.keyboard.press('k');
      await page.keyboard.press('n');
      expect(await page.evaluate(() => document.querySelector('#items article.current')?.getAttribute('data-item-id'))).toBe(records[2].id);

      // All three survive a reload (the store has them, and items.jsonl follows when written).
      await page.reload();
      await expect.poll(() => page.locator('#items article.item').count()).toBe(30);
      expect(await article(page, 0).getAttribute('data-status')).toBe('verified');
      expect(await article(page, 1).getAttribute('data-status')).toBe('rejected');
      expect(await article(page, 2).locator('.facts .answer').textContent()).toBe(newAnswer);
      expect(await article(page, 2).locator('.history').textContent()).toMatch(/ann .*→ pending \(edited answer\) v1/);
      server.sets.flush(SET);
      const jsonl = fs.readFileSync(path.join(OUT, 'sets', SET, '2099', 'items.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l));
      expect(jsonl.slice(0, 3).map(r => r.review.status)).toEqual(['verified', 'rejected', 'pending']);
      expect(jsonl[2].answer).toBe(newAnswer);
      expect(jsonl[2].review.original).toEqual({ answer: third.answer });
      expect(jsonl[2].review.history).toMatchObject([{ who: 'ann', version: 1, status: 'pending', edits: { answer: newAnswer } }]);

      // A second reviewer whose page holds version 1 of the third item, while ann moves it to version 2.
      const other = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
      const page2 = await other.newPage();
      await page2.goto(`${server.url}/?set=${SET}`);
      await expect.poll(() => page2.locator('#items article.item').count()).toBe(30);
      await page.click('h1');
      await page.keyboard.press('j');
      await page.keyboard.press('j');
      await page.keyboard.press('v');
      await expect.poll(() => article(page, 2).getAttribute('data-version')).toBe('2');
      await page2.click('h1');
      await page2.keyboard.press('j');
      await page2.keyboard.press('j');
      await page2.keyboard.press('e');
      const staleInput = article(page2, 2).locator('form.edit input[name="answer"]');
      await staleInput.fill('⑤');
      await staleInput.press('Control+Enter');
      const conflict = article(page2, 2).locator('.conflict');
      await conflict.waitFor();
      expect(await conflict.textContent()).toMatch(/conflict: this item was changed by ann \(now version 2\)/);
      expect(await conflict.textContent()).toContain('Not saved: answer → "⑤"');
      expect(await page2.locator('#message').textContent()).toMatch(/conflict/);
      // The second page now shows ann's state of the item, ready to be decided on again.
      expect(await article(page2, 2).getAttribute('data-version')).toBe('2');
      expect(await article(page2, 2).locator('.facts .answer').textContent()).toBe(newAnswer);
      const after = server.sets.records(SET)[2];
      expect(after.answer).toBe(newAnswer);
      expect(after.review).toMatchObject({ status: 'verified', version: 2 });
      await other.close();
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 300_000);
});

describe.skipIf(!haveChromium())('review page by mouse', () => {
  const MOUSE_OUT = path.join(TEST_OUT, 'server-mouse');
  let server: ReviewServer;
  beforeAll(async () => {
    fs.rmSync(MOUSE_OUT, { recursive: true, force: true });
    // The set as an upload leaves it: the pipeline's output in <OUT>/sets/<set>/<YEAR>/.
    const result = await runBatch(resolveConfig({ year: '2099', inDir: path.join(ROOT, 'fixtures', 'samples'), outDir: path.join(MOUSE_OUT, 'sets', 'sample'), progress: false }, { WORKERS: '1' }));
    expect(result.papers.map(p => p.status)).toEqual(['done']);
    server = await startReviewServer(resolveServerSettings({ port: 0, outDir: MOUSE_OUT, year: '2099' }, {}));
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('verifies, rejects and edits with the buttons, each showing its key; the store holds it and the edit shows as typed', async () => {
    const browser = await launch();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      const errors = consoleErrors(page);
      await page.goto(`${server.url}/?set=sample`);
      const items = page.locator('#items article.item');
      await expect.poll(() => items.count()).toBe(10);
      const ids = await items.evaluateAll(as => as.map(a => a.getAttribute('data-item-id')!));
      // Each button names its key; the question's text carries the paper's language, the page's chrome is English.
      expect(await items.nth(0).locator('.actions button').allTextContents()).toEqual(['Verify v', 'Reject x', 'Pending p', 'Edit e']);
      expect(await items.nth(0).locator('.question').getAttribute('lang')).toBe('ko');
      expect(await page.getAttribute('html', 'lang')).toBe('en');
      expect(await items.nth(0).locator('.trees').textContent()).toContain('kr-2015-math');

      await items.nth(0).getByRole('button', { name: /Verify/ }).click();
      await expect.poll(() => items.nth(0).getAttribute('data-status')).toBe('verified');
      await items.nth(1).getByRole('button', { name: /Reject/ }).click();
      await expect.poll(() => items.nth(1).getAttribute('data-status')).toBe('rejected');
      expect(server.sets.record('sample', ids[0]).review).toMatchObject({ status: 'verified', version: 1 });
      expect(server.sets.record('sample', ids[1]).review).toMatchObject({ status: 'rejected', version: 1 });

      // Edit by mouse: the stem typed with markup in it, saved with the Save button.
      await items.nth(2).getByRole('button', { name: /Edit/ }).click();
      const stem = items.nth(2).locator('form.edit textarea[name="stem"]');
      await stem.click();
      const typed = 'Which is <b>bold</b>? <script>alert(1)</script> 2 < 3 & 4 > 1';
      await stem.fill(typed);
      await items.nth(2).locator('form.edit button[type="submit"]').click();
      await expect.poll(() => items.nth(2).locator('.stem').innerText()).toBe(typed);
      expect(await items.nth(2).locator('.stem b, .stem script').count()).toBe(0);
      expect(server.sets.record('sample', ids[2]).stem).toBe(typed);
      const shot = screenshotPath('server-mouse.png');
      await page.screenshot({ path: shot });
      console.log(`screenshot: ${shot}`);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});

describe.skipIf(!haveChromium())('a paper whose structure needs review, on the review page', () => {
  const UNSURE_OUT = path.join(TEST_OUT, 'server-unsure');
  let server: ReviewServer;
  beforeAll(async () => {
    fs.rmSync(UNSURE_OUT, { recursive: true, force: true });
    server = await startReviewServer(resolveServerSettings({ port: 0, outDir: UNSURE_OUT, year: '2099' }, {}));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('says so on its job, lists it first among the set\'s papers with why, and flags each of its items', async () => {
    const browser = await launch();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      const errors = consoleErrors(page);
      await page.goto(`${server.url}/?set=unsure`);
      // A quiz that states 8 questions and prints 5 (fixtures/make-unsure.ts), and a teacher's quiz that reads sure; both in one pick.
      await page.setInputFiles('#file', [path.join(ROOT, 'fixtures', 'educator', 'en-dot-upper.pdf'), path.join(ROOT, 'fixtures', 'unsure', 'stated-count.pdf')]);
      await page.click('#send');
      await expect.poll(() => page.locator('#jobs li[data-state="done"]').count(), { timeout: 240_000 }).toBe(2);
      // Stored (its job is done), and the job that met it says the paper needs review and why (the
      // first job's run may have met both uploads, the second then finding them stored: still flagged).
      const reviewJobs = await page.locator('#jobs li.needs-review').allTextContents();
      expect(reviewJobs.length).toBeGreaterThanOrEqual(1);
      for (const t of reviewJobs) expect(t).toMatch(/: done \(\d\/\d papers\) — stated-count\.pdf needs review: the paper states 8 questions; 5 were read$/);
      await expect.poll(() => page.locator('#message').textContent()).toMatch(/stated-count\.pdf needs review: the paper states 8 questions; 5 were read$/);
      // The set's papers: the one needing review first, though its name sorts after the other's, with its pages, coverage and reasons.
      const papers = page.locator('#papers');
      await expect.poll(() => papers.locator('tbody tr').count()).toBe(2);
      expect(await papers.getAttribute('open')).not.toBeNull();
      expect(await papers.locator('summary').textContent()).toBe('Papers: 2 · 1 need review');
      const rows = await papers.locator('tbody tr').evaluateAll(trs => trs.map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent!.trim())));
      expect(rows[0]).toEqual(['stated-count.pdf', 'needs-review', '1', expect.stringMatching(/^\d+%$/), '5', '0', 'the paper states 8 questions; 5 were read']);
      expect(rows[1]).toEqual(['en-dot-upper.pdf', 'done', '2', expect.stringMatching(/^\d+%$/), '5', '0', '']);
      // Each of its items says its paper needs review, with why; the other paper's say nothing.
      await expect.poll(() => page.locator('#items article.item').count()).toBe(10);
      const flagged = page.locator('#items article[data-structure="needs-review"]');
      expect(await flagged.count()).toBe(5);
      expect(await flagged.first().locator('header .flag.needs-review').textContent()).toBe('paper needs review: the paper states 8 questions; 5 were read');
      expect(await page.locator('#items article[data-structure="sure"] .flag.needs-review').count()).toBe(0);
      const shot = screenshotPath('server-needs-review.png');
      await page.screenshot({ path: shot });
      console.log(`screenshot: ${shot}`);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 300_000);
});
