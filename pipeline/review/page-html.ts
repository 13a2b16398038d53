// The two kinds of page of the static review site: the index (papers with their counts, the ones
// with problems first) and one page per paper holding every record of it as an <article>.
import { escapeHtml } from './escape.ts';
import { langAttributes, renderItem, type ItemContext } from './item-html.ts';
import { paperLanguage } from '../text/language.ts';
import type { FailedPaper, PaperData } from './load.ts';
import type { PaperStats } from './paper-stats.ts';

/** The page's `lang` and `dir`: the paper's language; none where it is not known (an und paper whose text does not tell). */
function head(title: string, assets: string, language: string | null): string {
  return `<!doctype html>
<html${langAttributes(language)}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="${assets}/katex/katex.min.css"><link rel="stylesheet" href="${assets}/review.css">
</head>`;
}

export function examLine(exam: Record<string, unknown>): string {
  return ['family', 'year', 'sitting', 'subject', 'form'].map(k => exam[k]).filter(v => v !== null && v !== undefined && v !== '').join(' · ');
}

/** A paper's language: its template's, else what the text of all its records reads as. */
export function paperLanguageOf(paper: Pick<PaperData, 'exam' | 'records'>): string | null {
  return paperLanguage(paper.exam.language as string | undefined, () => paper.records.flatMap(r => [r.stem, ...(r.options ?? []).map(o => o.text)]).join(' '));
}

export function renderPaperPage(paper: PaperData, stats: PaperStats, ctx: ItemContext): string {
  const language = paperLanguageOf(paper);
  const general = paper.diagnostics.filter(d => d.page === null && d.item === null);
  const toc = paper.records.map(r => `<a href="#${escapeHtml(encodeURIComponent(r.id))}">${escapeHtml(r.section && r.section !== 'main' && r.section !== 'common' ? `${r.section} ` : '')}${escapeHtml(r.number)}</a>`).join(' ');
  return `${head(paper.file, '../assets', language)}
<body><main>
<p><a href="../index.html">← all papers</a> · <span class="read-only">read-only: verify, reject and edit in <code>make serve</code></span></p>
<h1>${escapeHtml(paper.file)}</h1>
<p class="exam">${escapeHtml(examLine(paper.exam))} · <code>${escapeHtml(paper.sha256.slice(0, 16))}</code></p>
<div class="summary"><div><b>${stats.items}</b>items</div><div><b>${stats.answered}</b>answered</div><div><b>${stats.verified}</b>verified</div><div><b>${stats.rejected}</b>rejected</div><div><b>${stats.errors}</b>errors</div><div><b>${stats.warnings}</b>warnings</div></div>
${general.length ? `<h2>Paper diagnostics</h2><ul class="diagnostics">${general.map(d => `<li class="severity-${escapeHtml(d.severity)}"><b>${escapeHtml(d.severity)}</b> <code>${escapeHtml(d.rule)}</code>: ${escapeHtml(d.message)}</li>`).join('')}</ul>` : ''}
<nav class="toc">${toc}</nav>
${paper.records.map(r => renderItem(r, { ...ctx, language })).join('\n')}
</main></body></html>
`;
}

export interface IndexEntry {
  paper: PaperData;
  stats: PaperStats;
  href: string;
}

export function renderIndex(title: string, entries: IndexEntry[], failed: FailedPaper[]): string {
  // Problems first: failed papers, then papers by how many problems they have, then the rest by name.
  const sorted = [...entries].sort((a, b) => b.stats.problems - a.stats.problems || a.paper.file.localeCompare(b.paper.file));
  const total = (k: keyof PaperStats) => entries.reduce((n, e) => n + e.stats[k], 0);
  const problems = sorted.filter(e => e.stats.problems > 0);
  const problemList = [
    ...failed.map(f => `<li class="severity-error"><b>failed</b> ${escapeHtml(f.file)}: ${escapeHtml(f.error ?? 'unknown error')}</li>`),
    ...problems.map(e => `<li><a href="${escapeHtml(e.href)}">${escapeHtml(e.paper.file)}</a>: ${e.stats.errors} errors, ${e.stats.warnings} warnings${e.stats.answered && e.stats.answered < e.stats.items ? `, ${e.stats.items - e.stats.answered} without an answer` : ''}</li>`),
  ];
  const row = (e: IndexEntry) => `<tr class="${e.stats.problems ? 'has-problems' : ''}"><td><a href="${escapeHtml(e.href)}">${escapeHtml(e.paper.file)}</a></td><td>${escapeHtml(examLine(e.paper.exam))}</td>${
    (['items', 'answered', 'withFigures', 'verified', 'rejected', 'pending', 'duplicates', 'tagged', 'errors', 'warnings'] as const).map(k => `<td class="num">${e.stats[k]}</td>`).join('')}</tr>`;
  return `${head(title, 'assets', 'en')}
<body><main>
<h1>${escapeHtml(title)}</h1>
<div class="summary"><div><b>${entries.length}</b>papers</div><div><b>${total('items')}</b>items</div><div><b>${total('verified')}</b>verified</div><div><b>${total('rejected')}</b>rejected</div><div><b>${total('pending')}</b>pending</div><div><b>${failed.length}</b>failed papers</div><div><b>${total('errors')}</b>errors</div><div><b>${total('warnings')}</b>warnings</div></div>
<h2>Problems</h2>
${problemList.length ? `<ul class="problems">${problemList.join('')}</ul>` : '<p>None.</p>'}
<h2>Papers</h2>
<table><thead><tr><th>paper</th><th>exam</th><th>items</th><th>answered</th><th>figures</th><th>verified</th><th>rejected</th><th>pending</th><th>duplicates</th><th>tagged</th><th>errors</th><th>warnings</th></tr></thead>
<tbody>${sorted.map(row).join('\n')}</tbody></table>
</main></body></html>
`;
}
