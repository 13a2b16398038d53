// HTML files printed to PDF by headless Chromium (Debian's, through playwright-core), offline, with
// no browser header or footer: the page's own @page size and margins. Fonts (KaTeX's, inlined) are
// waited for before printing, so no formula prints in a fallback face.
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

/** Launch flags for Chromium on these machines (../shared/DEPENDENCIES.md). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function printPdfs(jobs: readonly { html: string; pdf: string }[], executablePath: string): Promise<void> {
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ offline: true });
    for (const job of jobs) {
      const page = await context.newPage();
      await page.goto(pathToFileURL(job.html).href, { waitUntil: 'load' });
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      await page.pdf({ path: job.pdf, displayHeaderFooter: false, printBackground: true, preferCSSPageSize: true });
      await page.close();
    }
  } finally {
    await browser.close();
  }
}
