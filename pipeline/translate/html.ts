// The record's text beside its translations, for the review page: one column per language, each
// with its status, version, who made it and its checks' findings. Records without a translation
// render exactly as before (the source HTML is returned as it is).
import { escapeHtml } from '../review/escape.ts';
import { markdownToHtml, markdownToInlineHtml } from '../review/markdown.ts';

interface TranslationView { stem: string | null; options: { label: string; text: string }[] | null; status: string; checks?: { severity: string; rule: string; message: string }[]; by?: string; version?: number }

function column(lang: string, t: TranslationView): string {
  const options = t.options?.length
    ? `<ol class="options">${t.options.map(o => `<li data-label="${escapeHtml(o.label)}"><span class="label">${escapeHtml(o.label)}</span> <span class="text">${markdownToInlineHtml(o.text)}</span></li>`).join('')}</ol>`
    : '';
  const checks = (t.checks ?? []).map(c => `<li class="severity-${escapeHtml(c.severity)}"><code>${escapeHtml(c.rule)}</code>: ${escapeHtml(c.message)}</li>`).join('');
  const body = t.stem === null ? '<p class="missing">no usable translation</p>' : `<div class="stem">${markdownToHtml(t.stem)}</div>${options}`;
  return `<section class="translation status-${escapeHtml(t.status)}" lang="${escapeHtml(lang)}" data-lang="${escapeHtml(lang)}" data-version="${t.version ?? 0}" data-status="${escapeHtml(t.status)}">`
    + `<h4>${escapeHtml(lang)} · ${escapeHtml(t.status)}${t.version ? ` · v${t.version}` : ''}${t.by ? ` · ${escapeHtml(t.by)}` : ''}</h4>${body}${checks ? `<ul class="checks">${checks}</ul>` : ''}</section>`;
}

/** `sourceHtml` (the stem and options as rendered) side by side with the record's translations, where it has any. */
export function withTranslationsHtml(sourceHtml: string, record: { translations?: Record<string, TranslationView>; exam?: { language?: string } }): string {
  const langs = Object.keys(record.translations ?? {}).sort();
  if (!langs.length) return sourceHtml;
  const source = `<section class="translation source" data-lang="${escapeHtml(record.exam?.language ?? 'und')}"><h4>${escapeHtml(record.exam?.language ?? 'source')} · source</h4>${sourceHtml}</section>`;
  return `<div class="bilingual" style="display:grid;grid-template-columns:repeat(${langs.length + 1},minmax(0,1fr));gap:1em">${source}${langs.map(l => column(l, record.translations![l])).join('')}</div>`;
}
