// The static review site (`make review`): records re-rendered as HTML with math typeset at build
// time, one element per record, KaTeX's files copied beside the pages, pages rebuilt only where
// their records changed; and, on a real KICE booklet in Chromium from file://, rendered math, Korean
// in a CJK font and the region box over the right question, checked on a screenshot.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, ROOT } from '../pipeline/config.ts';
import { markdownToHtml, markdownToInlineHtml } from '../pipeline/review/markdown.ts';
import { applyReview } from '../pipeline/review/overlay.ts';
import { buildReviewSite } from '../pipeline/review/site.ts';
import { runBatch } from '../pipeline/run.ts';
import { analyse } from './analyse.ts';
import { haveShared, KCSAT, TEST_OUT } from './helpers.ts';
import { consoleErrors, haveChromium, launch, platformFonts, screenshotPath } from './review-browser.ts';

const SAMPLE_OUT = path.join(TEST_OUT, 'review-sample');
const SAMPLE_YEAR = path.join(SAMPLE_OUT, '2026');

const readLines = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
const idsIn = (html: string) => [...html.matchAll(/data-item-id="([^"]+)"/g)].map(m => m[1]);

/** Every data-item-id of the site's paper pages. */
function siteIds(yearDir: string): string[] {
  const dir = path.join(yearDir, 'review', 'papers');
  return fs.readdirSync(dir).filter(f => f.endsWith('.html')).flatMap(f => idsIn(fs.readFileSync(path.join(dir, f), 'utf8')));
}

describe('markdown to HTML', () => {
  it('typesets $…$ and $$…$$ with KaTeX at build time and keeps Korean text', () => {
    // Display math is a $$ block on lines of its own (remark-math); $$…$$ within a line stays inline.
    const html = markdownToHtml('함수 $f(x)=\\frac{1}{2}x^2$ 에 대하여\n\n$$\n\\int_0^1 f(x)\\,dx\n$$');
    expect(html).toContain('class="katex"');
    expect(html).toContain('katex-display');
    expect(html).toContain('함수');
    expect(html).toContain('<annotation encoding="application/x-tex">f(x)=\\frac{1}{2}x^2</annotation>');
    // Nothing of the source's dollar signs is left in the text.
    expect(html.replace(/<annotation[\s\S]*?<\/annotation>/g, '')).not.toContain('$');
  });

  it('shows raw HTML in a stem as the text it is, never as markup and never dropped; unwraps the paragraph of short text', () => {
    expect(markdownToHtml('a <script>alert(1)</script> b')).not.toContain('<script');
    // A reviewer's edit reads as typed: inline and block markup, escaped.
    expect(markdownToHtml('a <b>bold</b> <script>alert(1)</script> b')).toBe('<p>a &#x3C;b>bold&#x3C;/b> &#x3C;script>alert(1)&#x3C;/script> b</p>');
    expect(markdownToHtml('<div onclick="x()">block</div>\n\nnext')).toBe('<p>&#x3C;div onclick="x()">block&#x3C;/div></p>\n<p>next</p>');
    expect(markdownToInlineHtml('<i>③</i>')).toBe('&#x3C;i>③&#x3C;/i>');
    // Text from a PDF cannot make a page run script or fetch from elsewhere.
    const links = markdownToHtml('[a](javascript:alert(1)) [b](java\tscript:x) [c](https://kice.re.kr) [d](#x) ![fig](https://example.com/x.png) $\\href{javascript:alert(1)}{x}$');
    expect(links).not.toMatch(/href="(java|\s)/i);
    expect(links).toContain('<a href="https://kice.re.kr">c</a>');
    expect(links).toContain('<a href="#x">d</a>');
    expect(links).not.toContain('<img');
    expect(links).toContain('fig');
    expect(markdownToInlineHtml('$\\sqrt{3}$')).toMatch(/^<span class="katex">/);
    expect(markdownToInlineHtml('③')).toBe('③');
  });
});

describe('a decision merged into its record', () => {
  const record = {
    id: 'abc-common-1', stem: '값은?', options: [{ label: '①', text: '1' }, { label: '②', text: '2' }], answer: '①', section: 'common', knowledge: ['수학I > 수열'],
    modalities: { TO: { text: '값은?\n① 1\n② 2' }, TI: { text: '값은?\n① 1\n② 2', images: [] }, IO: { page_image: [], question: { number: 1, section: 'common', regions: [] } } },
    review: { status: 'pending' },
  };

  it('leaves a record without a decision as it is, so items.jsonl does not change', () => {
    expect(applyReview(record, null)).toBe(record);
  });

  it('applies the edits, keeps TO/TI text and the IO section in step, and carries status, version, original and history', () => {
    const out = applyReview(record, {
      status: 'verified', version: 2, updated_at: 't2',
      edits: { stem: '$x$의 값은?', section: 'calculus', knowledge: ['미적분 > 수열의 극한'] },
      original: { stem: '값은?', section: 'common', knowledge: ['수학I > 수열'] },
      history: [{ who: 'ann', when: 't1', version: 1, status: 'pending', edits: { stem: '$x$의 값은?' } }, { who: 'bob', when: 't2', version: 2, status: 'verified', edits: { section: 'calculus', knowledge: ['미적분 > 수열의 극한'] } }],
    }) as any;
    expect(out.stem).toBe('$x$의 값은?');
    expect(out.modalities.TO.text).toBe('$x$의 값은?\n① 1\n② 2');
    expect(out.modalities.TI.text).toBe(out.modalities.TO.text);
    expect(out.section).toBe('calculus');
    expect(out.modalities.IO.question.section).toBe('calculus');
    expect(out.knowledge).toEqual(['미적분 > 수열의 극한']);
    expect(out.answer).toBe('①');
    expect(out.review).toMatchObject({ status: 'verified', version: 2, original: { stem: '값은?' } });
    expect(out.review.history).toHaveLength(2);
    expect(record.stem).toBe('값은?');
  });
});

describe('make review on the shipped sample', () => {
  let records: { id: string }[] = [];
  beforeAll(async () => {
    fs.rmSync(SAMPLE_OUT, { recursive: true, force: true });
    const result = await runBatch(resolveConfig({ year: '2026', inDir: path.join(ROOT, 'fixtures', 'samples'), outDir: SAMPLE_OUT, progress: false }, {}));
    expect(result.papers.filter(p => p.status === 'failed')).toEqual([]);
    records = readLines(path.join(SAMPLE_YEAR, 'items.jsonl')).map(l => JSON.parse(l));
  }, 120_000);

  it('writes one data-item-id element per record, each id once, with its anchor, and an index of the papers', () => {
    const site = buildReviewSite(SAMPLE_YEAR);
    expect(site.papers).toBe(1);
    expect(site.items).toBe(records.length);
    const ids = siteIds(SAMPLE_YEAR);
    expect(ids.sort()).toEqual(records.map(r => r.id).sort());
    const page = fs.readFileSync(path.join(SAMPLE_YEAR, 'review', 'papers', `${records[0].id.slice(0, 16)}.html`), 'utf8');
    for (const r of records) expect(page).toContain(`id="${r.id}" data-item-id="${r.id}"`);
    // The paper's language on its page (the KICE template says ko), English on the index; no buttons where nothing can be decided.
    expect(page).toMatch(/^<!doctype html>\n<html lang="ko" dir="ltr">/);
    expect(page).not.toContain('data-action=');
    expect(page).toContain('read-only');
    expect(page).toContain('<span class="tree" data-tree="kr-2015-math">2015 개정 교육과정 수학과');
    const index = fs.readFileSync(site.index, 'utf8');
    expect(index).toMatch(/^<!doctype html>\n<html lang="en" dir="ltr">/);
    expect(index).toContain('2026-sample-math-dif.pdf');
    expect(index).not.toContain('data-item-id');
    // Every image the pages refer to is there, relative to the page, so file:// works.
    for (const src of [...page.matchAll(/src="([^"]+)"/g)].map(m => m[1])) {
      expect(fs.existsSync(path.resolve(path.join(SAMPLE_YEAR, 'review', 'papers'), decodeURIComponent(src))), src).toBe(true);
    }
  });

  it('copies KaTeX css and fonts into the site and loads nothing from the network', () => {
    buildReviewSite(SAMPLE_YEAR);
    const assets = path.join(SAMPLE_YEAR, 'review', 'assets');
    expect(fs.existsSync(path.join(assets, 'katex', 'katex.min.css'))).toBe(true);
    const css = fs.readFileSync(path.join(assets, 'katex', 'katex.min.css'), 'utf8');
    const fonts = [...new Set([...css.matchAll(/url\((fonts\/[^)]+)\)/g)].map(m => m[1]))];
    expect(fonts.length).toBeGreaterThan(20);
    for (const f of fonts) expect(fs.existsSync(path.join(assets, 'katex', f)), f).toBe(true);
    for (const f of ['index.html', ...fs.readdirSync(path.join(SAMPLE_YEAR, 'review', 'papers')).map(p => `papers/${p}`)]) {
      const html = fs.readFileSync(path.join(SAMPLE_YEAR, 'review', f), 'utf8');
      expect(html, f).not.toMatch(/(src|href)="(https?:)?\/\//);
    }
    expect(fs.readFileSync(path.join(assets, 'review.css'), 'utf8')).toContain('"Noto Sans CJK KR"');
  });

  it('runs as `make review` does, and says what is missing when there is nothing to review', () => {
    const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');
    const out = execFileSync(tsx, ['pipeline/review/cli.ts', '--year', '2026', '--out', SAMPLE_OUT], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, YEAR: '', OUT: '' } });
    expect(out).toMatch(/review: 1 papers, 10 items; \d+ pages written, \d+ unchanged/);
    expect(out).toContain(`file://${path.join(SAMPLE_YEAR, 'review', 'index.html')}`);
    const missing = spawnSync(tsx, ['pipeline/review/cli.ts', '--year', '1999', '--out', SAMPLE_OUT], { cwd: ROOT, encoding: 'utf8' });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/no items\.jsonl in .*1999: ingest the papers first/);
  });

  it('rebuilds only the pages whose records changed', () => {
    buildReviewSite(SAMPLE_YEAR);
    const again = buildReviewSite(SAMPLE_YEAR);
    expect(again.written).toBe(0);
    expect(again.skipped).toBe(1);
    const itemsFile = path.join(SAMPLE_YEAR, 'items.jsonl');
    const original = fs.readFileSync(itemsFile, 'utf8');
    try {
      const lines = readLines(itemsFile).map(l => JSON.parse(l));
      lines[0].stem = '바뀐 문제 $x^2$';
      lines[0].duplicate_of = lines[1].id;
      lines[0].knowledge = [{ path: ['수학I', '지수함수와 로그함수'], confidence: 0.9 }];
      fs.writeFileSync(itemsFile, lines.map(l => JSON.stringify(l)).join('\n') + '\n');
      const changed = buildReviewSite(SAMPLE_YEAR);
      expect(changed.written).toBe(1);
      const page = fs.readFileSync(path.join(SAMPLE_YEAR, 'review', 'papers', `${lines[0].id.slice(0, 16)}.html`), 'utf8');
      expect(page).toContain('바뀐 문제');
      expect(page).toContain(`href="#${lines[1].id}"`);
      expect(page).toContain('수학I &gt; 지수함수와 로그함수 (0.90)');
    } finally {
      fs.writeFileSync(itemsFile, original);
    }
    expect(buildReviewSite(SAMPLE_YEAR).written).toBe(1);
  });
});

describe.skipIf(!haveChromium())('the region box on the shipped sample, in Chromium', () => {
  it('draws the box outside the question, so no line of it is hidden', async () => {
    if (!fs.existsSync(path.join(SAMPLE_YEAR, 'items.jsonl'))) {
      await runBatch(resolveConfig({ year: '2026', inDir: path.join(ROOT, 'fixtures', 'samples'), outDir: SAMPLE_OUT, progress: false }, {}));
    }
    const site = buildReviewSite(SAMPLE_YEAR);
    const first = JSON.parse(readLines(path.join(SAMPLE_YEAR, 'items.jsonl'))[0]);
    const browser = await launch();
    try {
      const tab = await browser.newPage({ viewport: { width: 1280, height: 1000 }, deviceScaleFactor: 1 });
      await tab.goto(pathToFileURL(path.join(site.dir, 'papers', `${first.id.slice(0, 16)}.html`)).href);
      const frame = tab.locator(`article[data-item-id="${first.id}"] .page-frame`).first();
      await frame.scrollIntoViewIfNeeded();
      await frame.locator('img').evaluate((el: HTMLImageElement) => { el.loading = 'eager'; return el.decode(); });
      const shot = screenshotPath('review-region.png');
      await tab.screenshot({ path: shot });
      console.log(`screenshot: ${shot}`);
      const box = await frame.locator('.region').first().evaluate(e => { const b = e.getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width, h: b.height }; });
      const { data, info } = await sharp(shot).raw().toBuffer({ resolveWithObject: true });
      const red = (x: number, y: number) => { const i = (Math.round(y) * info.width + Math.round(x)) * info.channels; return data[i] > 180 && data[i + 1] < 100 && data[i + 2] < 100; };
      // The box's red lies outside the question's bbox, on every side.
      expect(red(box.x - 5.5, box.y + box.h / 2)).toBe(true);
      expect(red(box.x + box.w + 5.5, box.y + box.h / 2)).toBe(true);
      expect(red(box.x + box.w / 2, box.y - 5.5)).toBe(true);
      expect(red(box.x + box.w / 2, box.y + box.h + 5.5)).toBe(true);
      // Inside, along every edge (where the first and last lines are), not one pixel of it.
      for (let x = Math.ceil(box.x); x < box.x + box.w; x++) for (const y of [box.y + 1, box.y + box.h - 2]) expect(red(x, y), `${x},${y}`).toBe(false);
      for (let y = Math.ceil(box.y); y < box.y + box.h; y++) for (const x of [box.x + 1, box.x + box.w - 2]) expect(red(x, y), `${x},${y}`).toBe(false);
    } finally {
      await browser.close();
    }
  });
});

describe.skipIf(!haveChromium())('a paper whose structure needs review, on the static site in Chromium', () => {
  const OUT = path.join(TEST_OUT, 'review-unsure');
  const YEAR_DIR = path.join(OUT, '2026');
  beforeAll(async () => {
    fs.rmSync(OUT, { recursive: true, force: true });
    // A quiz that states 8 questions and prints 5 (fixtures/make-unsure.ts), and a teacher's quiz that reads sure.
    const inbox = fs.mkdtempSync(path.join(os.tmpdir(), 'review-unsure-'));
    fs.symlinkSync(path.join(ROOT, 'fixtures', 'unsure', 'stated-count.pdf'), path.join(inbox, 'stated-count.pdf'));
    fs.symlinkSync(path.join(ROOT, 'fixtures', 'educator', 'en-dot-upper.pdf'), path.join(inbox, 'en-dot-upper.pdf'));
    const result = await runBatch(resolveConfig({ year: '2026', inDir: inbox, outDir: OUT, progress: false }, {}));
    expect(result.papers.map(p => [p.file, p.status])).toEqual([['en-dot-upper.pdf', 'done'], ['stated-count.pdf', 'needs-review']]);
    fs.rmSync(inbox, { recursive: true, force: true });
  }, 300_000);

  it('lists it first on the index with its pages, coverage and status, and says why at the top of its page', async () => {
    // One question of it marked as read unsurely, as the decoder marks one on its record.
    const itemsFile = path.join(YEAR_DIR, 'items.jsonl');
    const lines = readLines(itemsFile).map(l => JSON.parse(l));
    const second = lines.find(r => r.source.file === 'stated-count.pdf' && r.number === 2);
    second.structure.unsure = true;
    fs.writeFileSync(itemsFile, lines.map(l => JSON.stringify(l)).join('\n') + '\n');
    const site = buildReviewSite(YEAR_DIR);
    const browser = await launch();
    try {
      const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = consoleErrors(tab);
      await tab.goto(pathToFileURL(site.index).href);
      const rows = await tab.locator('table tbody tr').evaluateAll(trs => trs.map(tr => [...tr.querySelectorAll('td')].slice(0, 4).map(td => td.textContent!.trim())));
      // Unsure papers first, though its name sorts after the other's.
      expect(rows[0]).toEqual(['stated-count.pdf', 'needs-review', '1', expect.stringMatching(/^\d+%$/)]);
      expect(rows[1]).toEqual(['en-dot-upper.pdf', 'done', '2', expect.stringMatching(/^\d+%$/)]);
      expect(await tab.locator('.problems li').first().textContent()).toMatch(/^needs review stated-count\.pdf: the paper states 8 questions; 5 were read/);
      await tab.click('table a[href^="papers/"] >> nth=0');
      await tab.waitForLoadState('load');
      // At the top of the paper's page, above its questions: that it needs review, and why.
      const banner = tab.locator('section.structure.needs-review');
      expect(await banner.isVisible()).toBe(true);
      expect(await banner.locator('h2').textContent()).toBe('The structure of this paper needs review');
      expect(await banner.locator('.reasons li').allTextContents()).toEqual(['the paper states 8 questions; 5 were read']);
      expect(await banner.locator('.coverage').textContent()).toMatch(/^coverage \d+% of the paper's text · read unsurely: 2$/);
      const bannerBox = (await banner.boundingBox())!, firstItem = (await tab.locator('article.item').first().boundingBox())!;
      expect(bannerBox.y + bannerBox.height).toBeLessThan(firstItem.y);
      expect(bannerBox.y).toBeLessThan(900);
      // The question read unsurely is marked, in the list of questions and on its own article.
      expect(await tab.locator('.toc a.unsure').allTextContents()).toEqual(['2']);
      const unsure = tab.locator(`article[data-item-id="${second.id}"]`);
      expect(await unsure.getAttribute('data-unsure')).toBe('true');
      expect(await unsure.locator('header .flag.unsure').textContent()).toBe('read unsurely');
      expect(await tab.locator('article[data-unsure]').count()).toBe(1);
      const shot = screenshotPath('review-needs-review.png');
      await tab.screenshot({ path: shot });
      console.log(`screenshot: ${shot}`);
      // The sure paper's page has no such banner.
      await tab.goBack();
      await tab.click('table a[href^="papers/"] >> nth=1');
      await tab.waitForLoadState('load');
      expect(await tab.locator('section.structure').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe.skipIf(!haveShared() || !haveChromium())('the review page of a real KICE booklet in Chromium', () => {
  const OUT = path.join(TEST_OUT, 'review-real');
  const YEAR_DIR = path.join(OUT, '2099');
  const PAPER = '202311-h3-math-pro';
  beforeAll(async () => {
    fs.rmSync(OUT, { recursive: true, force: true });
    // The booklet and its key, linked (not copied) into an inbox of their own.
    const inbox = fs.mkdtempSync(path.join(os.tmpdir(), 'review-inbox-'));
    for (const f of [`${PAPER}.pdf`, `${PAPER}-answer.png`]) fs.symlinkSync(path.join(KCSAT, f), path.join(inbox, f));
    const result = await runBatch(resolveConfig({ year: '2099', inDir: inbox, outDir: OUT, progress: false }, {}));
    expect(result.papers.map(p => p.status)).toEqual(['done']);
    fs.rmSync(inbox, { recursive: true, force: true });
  }, 300_000);

  it('shows rendered math, Korean in a CJK font and the region box over the right question, from file://', async () => {
    const site = buildReviewSite(YEAR_DIR);
    const records = readLines(path.join(YEAR_DIR, 'items.jsonl')).map(l => JSON.parse(l));
    expect(siteIds(YEAR_DIR).sort()).toEqual(records.map(r => r.id).sort());
    // A question that shares its page with others, so a box over the wrong one would show.
    const target = records.find(r => r.number === 5 && r.regions.length === 1)!;
    const neighbours = records.filter(r => r.page === target.page && r.id !== target.id);
    expect(neighbours.length).toBeGreaterThan(0);
    const doc = await analyse(path.join(KCSAT, `${PAPER}.pdf`), 'text-layer');
    const page = doc.pages[target.page - 1];
    const numberSpan = (r: { number: number; regions: { page: number; bbox: number[] }[] }) => page.spans.find(s => {
      const b = r.regions.find(g => g.page === page.number)?.bbox;
      return b && s.text.trim().startsWith(`${r.number}.`) && s.bbox[0] >= b[0] - 1 && s.bbox[2] <= b[2] + 1 && s.bbox[1] >= b[1] - 1 && s.bbox[3] <= b[3] + 1;
    });

    const browser = await launch();
    try {
      const tab = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      const errors = consoleErrors(tab);
      await tab.goto(pathToFileURL(site.index).href);
      await tab.click(`a[href="papers/${target.id.slice(0, 16)}.html"]`);
      await tab.waitForLoadState('load');
      const article = tab.locator(`article[data-item-id="${target.id}"]`);
      await article.scrollIntoViewIfNeeded();
      const img = article.locator('.page-frame img').first();
      await img.evaluate((el: HTMLImageElement) => { el.loading = 'eager'; return el.decode(); });

      // Math: KaTeX markup in the stems, no raw $ left in the text a reader sees.
      expect(await tab.locator('.stem .katex').count()).toBeGreaterThan(20);
      const visible = await tab.locator('.stem, .options').evaluateAll(els => els.map(e => (e as HTMLElement).innerText).join('\n'));
      expect(visible).not.toContain('$');
      expect(await tab.locator('.katex-error').count()).toBe(0);

      // Korean: drawn with Noto CJK, not a fallback box.
      const fonts = await platformFonts(tab, `article[data-item-id="${target.id}"] .stem p`);
      console.log(`fonts of ${target.id}'s stem: ${fonts.map(f => `${f.familyName} (${f.glyphCount})`).join(', ')}`);
      expect(fonts[0].familyName).toMatch(/Noto (Sans|Serif) CJK/);
      expect(await tab.evaluate(() => document.fonts.check('16px "Noto Sans CJK KR"', '수학'))).toBe(true);

      // The box: over the printed number of this question, and over no other question's number.
      const geometry = await article.locator('.page-frame').first().evaluate(frame => {
        const r = (e: Element) => { const b = e.getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width, h: b.height }; };
        return { img: r(frame.querySelector('img')!), boxes: [...frame.querySelectorAll('.region')].map(r) };
      });
      expect(geometry.boxes).toHaveLength(1);
      const box = geometry.boxes[0];
      const toScreen = (bbox: number[]) => ({
        x: geometry.img.x + ((bbox[0] + bbox[2]) / 2 / page.width) * geometry.img.w,
        y: geometry.img.y + ((bbox[1] + bbox[3]) / 2 / page.height) * geometry.img.h,
      });
      const inside = (p: { x: number; y: number }) => p.x >= box.x && p.x <= box.x + box.w && p.y >= box.y && p.y <= box.y + box.h;
      const own = numberSpan(target);
      expect(own, `${target.number}. on page ${page.number}`).toBeTruthy();
      expect(inside(toScreen(own!.bbox))).toBe(true);
      for (const n of neighbours) {
        const s = numberSpan(n);
        if (s) expect(inside(toScreen(s.bbox)), `${n.number} lies in ${target.number}'s box`).toBe(false);
      }

      const shot = screenshotPath('review-item.png');
      await article.screenshot({ path: shot });
      console.log(`screenshot: ${shot}`);
      // The box is drawn in the picture, outside the question: left of its left edge, half-way down, is the region red.
      const articleBox = (await article.boundingBox())!;
      const { data, info } = await sharp(shot).raw().toBuffer({ resolveWithObject: true });
      const px = (x: number, y: number) => { const i = (Math.round(y) * info.width + Math.round(x)) * info.channels; return [data[i], data[i + 1], data[i + 2]]; };
      const [r, g, b] = px(box.x - articleBox.x - 5.5, box.y - articleBox.y + box.h / 2);
      expect(r).toBeGreaterThan(180);
      expect(g).toBeLessThan(100);
      expect(b).toBeLessThan(100);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
