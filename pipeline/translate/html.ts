// The record's text beside its translations, for the review page: one column per language, each
// with its status, version, who made it and its checks' findings. Records without a translation
// render exactly as before (the source HTML is returned as it is). Where the caller adds a row's
// history (the server reads it from the store), the versions are listed, the current one last.
import { escapeHtml } from '../review/escape.ts';
import { markdownToHtml, markdownToInlineHtml } from '../review/markdown.ts';

type Finding = { severity: string; rule: string; message: string };
export interface TranslationHistoryView { who: string; when: string; version: number; checks?: Finding[] }
export interface TranslationView { stem: string | null; options: { label: string; text: string }[] | null; status: string; checks?: Finding[]; by?: string; version?: number; history?: TranslationHistoryView[]; updated_at?: string }

const rules = (checks: Finding[] | undefined) => (checks?.length ? [...new Set(checks.map(c => c.rule))].map(r => `<code>${escapeHtml(r)}</code>`).join(', ') : 'no findings');

/** Every version of the row, the current one last; empty when the caller gave no history or there is none. */
function historyHtml(t: TranslationView): string {
  if (!t.history?.length) return '';
  const entry = (h: TranslationHistoryView, current: boolean) =>
    `<li${current ? ' class="current"' : ''} data-version="${h.version}"><span class="who">${escapeHtml(h.who)}</span> <time>${escapeHtml(h.when)}</time> <span class="v">v${h.version}</span>${current ? ' (current)' : ''}: ${rules(h.checks)}</li>`;
  const current = t.version ? [entry({ who: t.by ?? '', when: t.updated_at ?? '', version: t.version, checks: t.checks }, true)] : [];
  return `<ol class="translation-history">${t.history.map(h => entry(h, false)).concat(current).join('')}</ol>`;
}

function column(lang: string, t: TranslationView): string {
  const options = t.options?.length
    ? `<ol class="options">${t.options.map(o => `<li data-label="${escapeHtml(o.label)}"><span class="label">${escapeHtml(o.label)}</span> <span class="text">${markdownToInlineHtml(o.text)}</span></li>`).join('')}</ol>`
    : '';
  const checks = (t.checks ?? []).map(c => `<li class="severity-${escapeHtml(c.severity)}" data-rule="${escapeHtml(c.rule)}"><code>${escapeHtml(c.rule)}</code>: ${escapeHtml(c.message)}</li>`).join('');
  const body = t.stem === null ? '<p class="missing">no usable translation</p>' : `<div class="stem">${markdownToHtml(t.stem)}</div>${options}`;
  return `<section class="translation status-${escapeHtml(t.status)}" lang="${escapeHtml(lang)}" data-lang="${escapeHtml(lang)}" data-version="${t.version ?? 0}" data-status="${escapeHtml(t.status)}">`
    + `<h4>${escapeHtml(lang)} · ${escapeHtml(t.status)}${t.version ? ` · v${t.version}` : ''}${t.by ? ` · ${escapeHtml(t.by)}` : ''}</h4>${body}${checks ? `<ul class="checks">${checks}</ul>` : t.stem === null ? '' : '<p class="checks clear">checks: no findings</p>'}${historyHtml(t)}</section>`;
}

/** `sourceHtml` (the stem and options as rendered) side by side with the record's translations, where it has any. */
export function withTranslationsHtml(sourceHtml: string, record: { translations?: Record<string, TranslationView>; exam?: { language?: string } }): string {
  const langs = Object.keys(record.translations ?? {}).sort();
  if (!langs.length) return sourceHtml;
  const source = `<section class="translation source" data-lang="${escapeHtml(record.exam?.language ?? 'und')}"><h4>${escapeHtml(record.exam?.language ?? 'source')} · source</h4>${sourceHtml}</section>`;
  return `<div class="bilingual" style="display:grid;grid-template-columns:repeat(${langs.length + 1},minmax(0,1fr));gap:1em">${source}${langs.map(l => column(l, record.translations![l])).join('')}</div>`;
}
