// Shared by the review and server tests: Debian's Chromium driven through playwright-core, and
// where screenshots go (out/test/screenshots, git-ignored).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../fixtures/chromium.ts';
import { TEST_OUT } from './helpers.ts';

export { CHROMIUM };
export const SCREENSHOTS = path.join(TEST_OUT, 'screenshots');

export function haveChromium(): boolean {
  const ok = fs.existsSync(CHROMIUM);
  if (!ok && process.env.CI) throw new Error(`${CHROMIUM} is missing: make setup installs Debian's chromium`);
  if (!ok) console.warn(`skipping browser tests: ${CHROMIUM} is not there`);
  return ok;
}

export function launch(): Promise<Browser> {
  return launchChromium();
}

/** Collects console errors and uncaught exceptions of a page. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', e => errors.push(String(e)));
  return errors;
}

export function screenshotPath(name: string): string {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  return path.join(SCREENSHOTS, name);
}

/** The platform fonts Chromium used to draw a node's text (DevTools protocol), most glyphs first. */
export async function platformFonts(page: Page, selector: string): Promise<{ familyName: string; glyphCount: number }[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
  await cdp.detach();
  return [...fonts].sort((a, b) => b.glyphCount - a.glyphCount);
}

/**
 * Opens a static review site from file:// in Chromium: its index, then every paper page it links
 * to; returns the console errors and missing files met (each prefixed with its page) and how many
 * pages were opened.
 */
export async function openSiteFromFiles(index: string): Promise<{ pages: number; errors: string[]; katex: number }> {
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    let at = 'index.html';
    page.on('console', m => { if (m.type() === 'error') errors.push(`${at}: ${m.text()}`); });
    page.on('pageerror', e => errors.push(`${at}: ${e}`));
    // A lazy image cancelled by the next navigation is not an error; a file that is not there is.
    page.on('requestfailed', r => { if (r.failure()?.errorText !== 'net::ERR_ABORTED') errors.push(`${at}: ${r.url()} failed (${r.failure()?.errorText})`); });
    await page.goto(new URL(`file://${index}`).href, { waitUntil: 'load' });
    const links = await page.locator('table a[href^="papers/"]').evaluateAll(as => as.map(a => (a as HTMLAnchorElement).href));
    let katex = 0;
    for (const href of links) {
      at = href.split('/').pop()!;
      await page.goto(href, { waitUntil: 'load' });
      await page.evaluate(() => document.fonts.ready);
      katex += await page.locator('.katex').count();
      // Images load lazily, so each one's file is checked here rather than by loading it.
      for (const src of await page.locator('img').evaluateAll(imgs => imgs.map(i => (i as HTMLImageElement).src))) {
        if (!fs.existsSync(fileURLToPath(src))) errors.push(`${at}: ${src} is missing`);
      }
    }
    return { pages: links.length + 1, errors, katex };
  } finally {
    await browser.close();
  }
}
