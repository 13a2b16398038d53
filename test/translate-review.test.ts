// Translations on the review server: the record's text beside its translation on the item's page,
// and a reviewer's edit of a translation checked again on save, kept with its history, refused
// when made on an older version.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../pipeline/config.ts';
import { startReviewServer, type ReviewServer } from '../pipeline/server/server.ts';
import { resolveServerSettings } from '../pipeline/server/settings.ts';
import { openStore } from '../pipeline/open-store.ts';
import { checkTranslation } from '../pipeline/translate/checks.ts';
import { loadGlossary } from '../pipeline/translate/glossary.ts';
import { TranslationTable } from '../pipeline/translate/table.ts';
import { buildStore, FIXTURE, translationOf } from './translate-fixture.ts';

const YEAR = '2026';
const SET = 'bilingual';

describe('translations on the review server', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'translate-review-'));
  const yearDir = path.join(out, 'sets', SET, YEAR);
  const item = FIXTURE.find(x => x.id.endsWith('prob-stat-27'))!;
  let server: ReviewServer;

  beforeAll(async () => {
    buildStore(yearDir);
    // The recorded translations, stored as the pass stores them.
    const store = openStore(path.join(yearDir, 'store.sqlite'));
    const glossary = loadGlossary(path.join(ROOT, 'glossary/terms'), 'ko', 'en');
    const table = new TranslationTable(store.db);
    for (const it of FIXTURE.slice(0, 5).concat(item)) table.put({ item: it.id, lang: 'en', input: 'recorded', text: translationOf(it), checks: checkTranslation(it.source, translationOf(it), 'ko', 'en', glossary), by: 'model:replay' });
    store.close();
    server = await startReviewServer(resolveServerSettings({ port: 0, outDir: out, year: YEAR }, {}));
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(out, { recursive: true, force: true });
  });

  const post = (id: string, lang: string, body: unknown) => fetch(`${server.url}/api/items/${id}/translations/${lang}?set=${SET}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-reviewer': 'kim' }, body: JSON.stringify(body) });

  it('shows the source and the translation side by side on the item\'s page', async () => {
    const html = await (await fetch(`${server.url}/api/items/${item.id}/html?set=${SET}`)).text();
    expect(html).toMatch(/class="bilingual"/);
    expect(html).toMatch(/data-lang="en" data-version="1" data-status="ok"/);
    expect(html).toContain('confidence interval');
    expect(html).toContain('신뢰구간');
    // A record without a translation renders as before.
    const other = FIXTURE.find(x => x.id.endsWith('geometry-29'))!;
    expect(await (await fetch(`${server.url}/api/items/${other.id}/html?set=${SET}`)).text()).not.toMatch(/bilingual/);
  });

  it('re-runs the checks on a saved edit, keeps the earlier text in the history, and refuses a stale version', async () => {
    const planted = translationOf(item).stem.replace('population mean', 'population mean (모평균)');
    const res = await post(item.id, 'en', { stem: planted, version: 1 });
    expect(res.status).toBe(200);
    const saved = await res.json();
    expect(saved).toMatchObject({ lang: 'en', version: 2, status: 'flagged' });
    expect(saved.checks.map((c: { rule: string }) => c.rule)).toEqual(['translate/untranslated']);
    expect(saved.history).toEqual([expect.objectContaining({ who: 'model:replay', version: 1, stem: translationOf(item).stem })]);
    // items.jsonl follows (written when asked for, or once edits pause), with the finding as a diagnostic on the item.
    server.sets.flush(SET);
    const rec = fs.readFileSync(path.join(yearDir, 'items.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l)).find(r => r.id === item.id);
    expect(rec.translations.en).toMatchObject({ stem: planted, status: 'flagged', by: 'kim', version: 2 });
    expect(rec.diagnostics.map((d: { rule: string }) => d.rule)).toContain('translate/untranslated');
    // Options not sent are kept; a stale version is refused with the current one.
    expect(rec.translations.en.options).toEqual(translationOf(item).options);
    const stale = await post(item.id, 'en', { stem: translationOf(item).stem, version: 1 });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ version: 2 });
    const fixed = await (await post(item.id, 'en', { stem: translationOf(item).stem, version: 2 })).json();
    expect(fixed).toMatchObject({ version: 3, status: 'ok', checks: [] });
    expect(fixed.history.map((h: { version: number }) => h.version)).toEqual([1, 2]);
  });

  it('answers 404 for an item never translated and 400 for a bad body or language', async () => {
    const other = FIXTURE.find(x => x.id.endsWith('geometry-29'))!;
    expect((await post(other.id, 'en', { stem: 'x', version: 1 })).status).toBe(404);
    expect((await post(item.id, 'en', { stem: '', version: 3 })).status).toBe(400);
    expect((await post(item.id, 'english', { stem: 'x', version: 3 })).status).toBe(400);
  });
});
