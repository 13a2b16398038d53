// The recorded translations (test/fixtures/translate/ko-en.json: real KICE items, English written by
// hand, rebuilt by test/translate-record.ts) and a store built from their source text, so the
// translate tests need no ingest of the booklets.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../pipeline/config.ts';
import { openStore } from '../pipeline/open-store.ts';
import type { ItemText } from '../pipeline/translate/checks.ts';

export interface FixtureItem { id: string; file: string; sha256: string; section: string; number: number; exam: Record<string, unknown>; source: ItemText; protected: ItemText; translation: { stem: string; options?: ItemText['options'] }; content: string; usage: { prompt_tokens: number; completion_tokens: number } }

export const FIXTURE: FixtureItem[] = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/translate/ko-en.json'), 'utf8')).items;

/** The recorded English text of an item (options that are formulas alone are the source's). */
export const translationOf = (it: FixtureItem): ItemText => ({ stem: it.translation.stem, options: it.translation.options ?? it.source.options });

export interface ExtraRecord { id: string; file: string; exam: Record<string, unknown>; source: ItemText }

/** <yearDir>/store.sqlite holding the recording's items (their real source text) and `extra` records, as done papers. */
export function buildStore(yearDir: string, extra: ExtraRecord[] = []): void {
  const store = openStore(path.join(yearDir, 'store.sqlite'));
  const all = [...FIXTURE.map(it => ({ id: it.id, file: it.file, sha256: it.sha256, section: it.section, number: it.number, exam: it.exam, source: it.source })),
    ...extra.map((e, i) => ({ ...e, sha256: e.id.split('-')[0].padEnd(64, '0'), section: 'common', number: i + 1 }))];
  const byFile = new Map<string, typeof all>();
  for (const r of all) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r]);
  try {
    for (const [file, recs] of byFile) {
      store.saveDocument({ sha256: recs[0].sha256, file, pages: 1, template: 'kcsat-math', exam: JSON.stringify(recs[0].exam), run_key: 'test' }, [{ number: 1, width: 595, height: 842, image: null, section: null }],
        recs.map(r => ({ id: r.id, section: r.section, number: r.number, page: 1, record: JSON.stringify({ id: r.id, source: { file, sha256: r.sha256 }, exam: r.exam, section: r.section, number: r.number, type: r.source.options.length ? 'mcq' : 'short', options: r.source.options, stem: r.source.stem, answer: null, points: null, parts: [], page: 1, regions: [], figures: [], error_rate: null, difficulty: null, review: { status: 'pending' }, diagnostics: [] }) })), []);
    }
  } finally {
    store.close();
  }
}
