// The set's records as the review page shows them: the same <article> the static site renders
// (pipeline/review/item-html.ts), with images served from the set's output folder, the buttons that
// decide, the paper's language on its text and the curriculum tree of each tag named.
import { renderItem, type PageInfo, type StoreDiagnostic } from '../review/item-html.ts';
import type { ReviewRecord } from '../review/record.ts';
import type { TranslationHistoryView, TranslationView } from '../translate/html.ts';
import { treeTitles } from '../review/trees.ts';
import type { Sets } from './sets.ts';

export function itemsHtml(sets: Sets, set: string, records: ReviewRecord[]): string {
  const store = sets.store(set);
  const ids = new Set(records.map(r => r.id));
  const papers = new Map<string, { pages: Map<number, PageInfo>; diagnostics: StoreDiagnostic[] }>();
  const paper = (sha: string) => {
    let p = papers.get(sha);
    if (!p) {
      const pages = new Map<number, PageInfo>();
      const rows = (store?.db.prepare('SELECT number, width, height, image FROM pages WHERE paper = ?').all(sha) ?? []) as (PageInfo & { number: number })[];
      for (const r of rows) pages.set(r.number, { width: r.width, height: r.height, image: r.image });
      const diagnostics = (store?.db.prepare('SELECT severity, rule, message, page, item FROM diagnostics WHERE paper = ? ORDER BY rowid').all(sha) ?? []) as StoreDiagnostic[];
      p = { pages, diagnostics };
      papers.set(sha, p);
    }
    return p;
  };
  // A translated record's versions (the translations table's history), so the page lists a reviewer's edits.
  const historyOf = store?.db.prepare('SELECT history, updated_at FROM translations WHERE item = ? AND lang = ?');
  const withHistory = (r: ReviewRecord & { translations?: Record<string, TranslationView> }): ReviewRecord => {
    if (!historyOf || !r.translations) return r;
    const translations = Object.fromEntries(Object.entries(r.translations).map(([lang, t]) => {
      const row = historyOf.get(r.id, lang) as { history: string; updated_at: string } | undefined;
      const history = row ? (JSON.parse(row.history) as TranslationHistoryView[]).map(h => ({ who: h.who, when: h.when, version: h.version, checks: h.checks })) : [];
      return [lang, { ...t, history, updated_at: row?.updated_at }];
    }));
    return Object.assign({}, r, { translations });
  };
  const base = `/sets/${encodeURIComponent(set)}/files/`;
  const treeTitle = treeTitles();
  return records.map(r => {
    const p = paper(r.source.sha256);
    return renderItem(withHistory(r), {
      pages: p.pages,
      paperDiagnostics: p.diagnostics,
      asset: rel => base + rel.split('/').map(encodeURIComponent).join('/'),
      link: id => (ids.has(id) ? `#${encodeURIComponent(id)}` : null),
      language: sets.paperLanguage(set, r),
      treeTitle,
      actions: true,
      // Items of many papers stand together here: each says if its paper's structure needs review.
      paperStructure: true,
    });
  }).join('\n');
}
