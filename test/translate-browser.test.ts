// A translation edited on the review page in Chromium: the recorded KICE items are translated by the
// real pass against the loopback replay server, the real server is started on a free loopback port,
// and a reviewer opens the item's translation from the keyboard (t), plants a Hangul word (the page
// shows translate/untranslated), fixes it (the finding goes), reloads (the text and the history stay),
// and a second reviewer on the old version is told of the conflict.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../pipeline/config.ts';
import { rerunCorpus } from '../pipeline/run.ts';
import { startReviewServer, type ReviewServer } from '../pipeline/server/server.ts';
import { resolveServerSettings } from '../pipeline/server/settings.ts';
import { itemOfPrompt } from '../pipeline/translate/prompt.ts';
import { TEST_OUT } from './helpers.ts';
import { startReplay } from './llm-replay.ts';
import { consoleErrors, haveChromium, launch, screenshotPath } from './review-browser.ts';
import { buildStore, FIXTURE, translationOf } from './translate-fixture.ts';

const OUT = path.join(TEST_OUT, 'translate-browser');
const SET = 'bilingual';
const YEAR = '2026';

describe.skipIf(!haveChromium())('a translation edited on the review page', () => {
  const item = FIXTURE.find(x => x.id.endsWith('prob-stat-27'))!;
  const original = translationOf(item).stem;
  let server: ReviewServer;

  beforeAll(async () => {
    fs.rmSync(OUT, { recursive: true, force: true });
    const setDir = path.join(OUT, 'sets', SET);
    buildStore(path.join(setDir, YEAR));
    // The translate pass, as make translate runs it, against recorded replies.
    const replay = await startReplay(Object.fromEntries(FIXTURE.map(it => [it.id, { content: it.content, usage: it.usage }])), [], itemOfPrompt);
    try {
      const env = { LLM_BASE_URL: replay.url, LLM_MODEL: 'replay', LLM_ATTEMPTS: '2', LLM_BACKOFF_MS: '0', TRANSLATE: 'en' };
      const { lines } = await rerunCorpus(resolveConfig({ year: YEAR, outDir: setDir, progress: false }, env), ['translate']);
      expect(lines.join('\n')).toMatch(/35 records, 35 sent to the model/);
    } finally {
      await replay.close();
    }
    server = await startReviewServer(resolveServerSettings({ port: 0, outDir: OUT, year: YEAR }, {}));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const articleOf = (page: Page) => page.locator(`#items article[data-item-id="${item.id}"]`);
  const english = (page: Page) => articleOf(page).locator('section.translation[data-lang="en"]');
  /** Opens the item's translation editor from the keyboard, types `stem` and saves with Ctrl+Enter. */
  async function editTranslation(page: Page, stem: string, shot?: string): Promise<void> {
    await articleOf(page).locator('header .paper').click();
    await page.keyboard.press('t');
    const editor = english(page).locator('form.translation-edit textarea[name="stem"]');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('stem');
    await editor.fill(stem);
    if (shot) await page.screenshot({ path: screenshotPath(shot) });
    await editor.press('Control+Enter');
  }

  it('re-runs the checks on an edit made through the page, keeps it over a reload with its history, and reports a stale version', async () => {
    const browser = await launch();
    try {
      const page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
      const errors = consoleErrors(page);
      await page.goto(`${server.url}/?set=${SET}`);
      await page.fill('#who', 'ann');
      await page.locator('#who').dispatchEvent('change');
      await expect.poll(() => page.locator('#items article.item').count()).toBe(FIXTURE.length);
      // A second reviewer's page, loaded now (version 1), used at the end.
      const other = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
      await other.goto(`${server.url}/?set=${SET}`);
      await expect.poll(() => other.locator('#items article.item').count()).toBe(FIXTURE.length);

      // Side by side: the Korean source and the English translation, each with its status and findings.
      const source = articleOf(page).locator('.bilingual section.translation.source');
      expect(await source.textContent()).toContain('신뢰구간');
      expect(await english(page).textContent()).toContain('confidence interval');
      expect(await english(page).getAttribute('data-status')).toBe('ok');
      expect(await english(page).getAttribute('data-version')).toBe('1');
      expect(await english(page).locator('.checks.clear').textContent()).toBe('checks: no findings');
      const [left, right] = [await source.boundingBox(), await english(page).boundingBox()];
      expect(right!.x).toBeGreaterThan(left!.x + left!.width - 1);
      expect(Math.abs(right!.y - left!.y)).toBeLessThan(2);

      // A Hangul word left in the English: the page shows the untranslated finding, version 2.
      const planted = original.replace('population mean', 'population mean (모평균)');
      await editTranslation(page, planted);
      await expect.poll(() => english(page).getAttribute('data-version')).toBe('2');
      expect(await english(page).getAttribute('data-status')).toBe('flagged');
      expect(await english(page).locator('.checks li').evaluateAll(ls => ls.map(l => l.getAttribute('data-rule')))).toEqual(['translate/untranslated']);
      expect(await english(page).locator('.checks li').textContent()).toMatch(/모평균/);
      expect(await articleOf(page).locator('.diagnostics').textContent()).toMatch(/translate\/untranslated: en: /);
      expect(await page.locator('#message').textContent()).toBe(`${item.id} en: flagged, version 2 — translate/untranslated`);
      expect(await english(page).locator('.translation-history li').allTextContents()).toEqual([
        expect.stringMatching(/^model:replay \S+ v1: no findings$/),
        expect.stringMatching(/^ann \S+ v2 \(current\): translate\/untranslated$/),
      ]);
      await articleOf(page).scrollIntoViewIfNeeded();
      const shot = screenshotPath('translate-edit.png');
      await page.screenshot({ path: shot });
      console.log(`screenshot: ${shot}`);

      // Fixed (and reworded): the finding goes, version 3.
      const fixed = original.replace('What is the value of $\\overline{x}$?', 'Find the value of $\\overline{x}$.');
      expect(fixed).not.toBe(original);
      await editTranslation(page, fixed, 'translate-editor.png');
      await expect.poll(() => english(page).getAttribute('data-version')).toBe('3');
      expect(await english(page).getAttribute('data-status')).toBe('ok');
      expect(await english(page).locator('.checks li').count()).toBe(0);
      expect(await english(page).locator('.checks.clear').count()).toBe(1);
      expect(await articleOf(page).locator('.diagnostics').count()).toBe(0);

      // A reload shows the saved text and every version, the current one last.
      await page.reload();
      await expect.poll(() => page.locator('#items article.item').count()).toBe(FIXTURE.length);
      expect(await english(page).getAttribute('data-version')).toBe('3');
      expect(await english(page).locator('.stem').textContent()).toContain('Find the value of');
      expect(await english(page).locator('.translation-history li').allTextContents()).toEqual([
        expect.stringMatching(/^model:replay \S+ v1: no findings$/),
        expect.stringMatching(/^ann \S+ v2: translate\/untranslated$/),
        expect.stringMatching(/^ann \S+ v3 \(current\): no findings$/),
      ]);
      expect(server.sets.records(SET).find(r => r.id === item.id)).toMatchObject({ translations: { en: { stem: fixed, status: 'ok', by: 'ann', version: 3 } } });

      // The second reviewer edits the version 1 their page holds: refused, shown, and nothing saved.
      await editTranslation(other, original.replace('normal distribution', 'Gaussian distribution'));
      const conflict = articleOf(other).locator('.conflict');
      await conflict.waitFor();
      expect(await conflict.textContent()).toMatch(/^en: conflict: this translation was changed by ann \(now version 3\).*Not saved: en stem → ".*Gaussian/);
      expect(await english(other).getAttribute('data-version')).toBe('3');
      expect(await english(other).locator('.stem').textContent()).toContain('Find the value of');
      expect(server.sets.records(SET).find(r => r.id === item.id)).toMatchObject({ translations: { en: { stem: fixed, version: 3 } } });
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
