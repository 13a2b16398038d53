// The two kinds of page of the static review site: the index (papers with their status, pages,
// coverage and counts; papers whose structure needs review first, then the ones with problems) and
// one page per paper holding every record of it as an <article>, headed by why its structure needs
// review where it does.
import { escapeHtml } from './escape.ts';
import { langAttributes, renderItem, type ItemContext } from './item-html.ts';
import { paperLanguage } from '../text/language.ts';
import type { FailedPaper, PaperData, PaperStructure } from './load.ts';
import type { PaperStats } from './paper-stats.ts';
import { coverageText, reviewFirst } from '../reading-verdict.ts';

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

/**
 * At the top of a paper's page, where its structure is in doubt: that it needs review, why (the
 * decoder's reasons), the share of its text the reading explains and the questions read unsurely.
 */
export function structureBanner(structure: PaperStructure | null, unsure: { id: string; label: string }[]): string {
  if (structure?.status !== 'needs-review') return '';
  const reasons = structure.reasons.map(r => `<li>${escapeHtml(r)}</li>`).join('');
  const links = unsure.map(u => `<a href="#${escapeHtml(encodeURIComponent(u.id))}">${escapeHtml(u.label)}</a>`).join(', ');
  return `<section class="structure needs-review" role="alert" data-structure="needs-review"><h2>The structure of this paper needs review</h2>
<p>Its questions may be read wrongly (missed, merged or cut): check them against the page before trusting them.</p>
<ul class="reasons">${reasons}</ul>
<p class="coverage">coverage ${escapeHtml(coverageText(structure.coverage))} of the paper's text${links ? ` · read unsurely: ${links}` : ''}</p></section>`;
}

const numberLabel = (r: { section: string | null; number: number }) => `${r.section && r.section !== 'main' && r.section !== 'common' ? `${r.section} ` : ''}${r.number}`;

export function renderPaperPage(paper: PaperData, stats: PaperStats, ctx: ItemContext): string {
  const language = paperLanguageOf(paper);
  const general = paper.diagnostics.filter(d => d.page === null && d.item === null);
  const toc = paper.records.map(r => `<a href="#${escapeHtml(encodeURIComponent(r.id))}"${r.structure?.unsure ? ' class="unsure" title="read unsurely"' : ''}>${escapeHtml(numberLabel(r))}</a>`).join(' ');
  const unsure = paper.records.filter(r => r.structure?.unsure).map(r => ({ id: r.id, label: numberLabel(r) }));
  return `${head(paper.file, '../assets', language)}
<body><main>
<p><a href="../index.html">← all papers</a> · <span class="read-only">read-only: verify, reject and edit in <code>make serve</code></span></p>
<h1>${escapeHtml(paper.file)}</h1>
<p class="exam">${escapeHtml(examLine(paper.exam))} · <code>${escapeHtml(paper.sha256.slice(0, 16))}</code></p>
${structureBanner(paper.structure, unsure)}
<div class="summary"><div><b class="status-word">${escapeHtml(stats.status)}</b>status</div><div><b>${stats.pages ?? '—'}</b>pages</div><div><b>${escapeHtml(coverageText(stats.coverage))}</b>coverage</div><div><b>${stats.items}</b>items</div><div><b>${stats.answered}</b>answered</div><div><b>${stats.verified}</b>verified</div><div><b>${stats.rejected}</b>rejected</div><div><b>${stats.errors}</b>errors</div><div><b>${stats.warnings}</b>warnings</div></div>
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

type CountKey = { [K in keyof PaperStats]: PaperStats[K] extends number ? K : never }[keyof PaperStats];

/** Unsure papers first (lowest coverage first among them), then by how many problems they have, then by name. */
export function indexOrder(a: IndexEntry, b: IndexEntry): number {
  return reviewFirst(a.stats, b.stats) || b.stats.problems - a.stats.problems || a.paper.file.localeCompare(b.paper.file);
}

export function renderIndex(title: string, entries: IndexEntry[], failed: FailedPaper[]): string {
  // Problems first: failed papers, then papers whose structure needs review, then papers by how many problems they have, then the rest by name.
  const sorted = [...entries].sort(indexOrder);
  const total = (k: CountKey) => entries.reduce((n, e) => n + e.stats[k], 0);
  const needsReview = sorted.filter(e => e.stats.status === 'needs-review');
  const problems = sorted.filter(e => e.stats.status !== 'needs-review' && e.stats.problems > 0);
  const problemList = [
    ...failed.map(f => `<li class="severity-error"><b>failed</b> ${escapeHtml(f.file)}: ${escapeHtml(f.error ?? 'unknown error')}</li>`),
    ...needsReview.map(e => `<li class="needs-review"><b>needs review</b> <a href="${escapeHtml(e.href)}">${escapeHtml(e.paper.file)}</a>: ${escapeHtml((e.paper.structure?.reasons ?? []).join('; '))}</li>`),
    ...problems.map(e => `<li><a href="${escapeHtml(e.href)}">${escapeHtml(e.paper.file)}</a>: ${e.stats.errors} errors, ${e.stats.warnings} warnings${e.stats.answered && e.stats.answered < e.stats.items ? `, ${e.stats.items - e.stats.answered} without an answer` : ''}</li>`),
  ];
  const rowClass = (e: IndexEntry) => [e.stats.status === 'needs-review' ? 'needs-review' : '', e.stats.problems ? 'has-problems' : ''].filter(Boolean).join(' ');
  const row = (e: IndexEntry) => `<tr class="${rowClass(e)}" data-status="${escapeHtml(e.stats.status)}"><td><a href="${escapeHtml(e.href)}">${escapeHtml(e.paper.file)}</a></td><td class="paper-status"${e.paper.structure?.reasons.length ? ` title="${escapeHtml(e.paper.structure.reasons.join('; '))}"` : ''}>${escapeHtml(e.stats.status)}</td><td class="num">${e.stats.pages ?? '—'}</td><td class="num coverage">${escapeHtml(coverageText(e.stats.coverage))}</td><td>${escapeHtml(examLine(e.paper.exam))}</td>${
    (['items', 'unsure', 'answered', 'withFigures', 'verified', 'rejected', 'pending', 'duplicates', 'tagged', 'errors', 'warnings'] as const).map(k => `<td class="num">${e.stats[k]}</td>`).join('')}</tr>`;
  return `${head(title, 'assets', 'en')}
<body><main>
<h1>${escapeHtml(title)}</h1>
<div class="summary"><div><b>${entries.length}</b>papers</div><div><b>${needsReview.length}</b>need review</div><div><b>${total('items')}</b>items</div><div><b>${total('verified')}</b>verified</div><div><b>${total('rejected')}</b>rejected</div><div><b>${total('pending')}</b>pending</div><div><b>${failed.length}</b>failed papers</div><div><b>${total('errors')}</b>errors</div><div><b>${total('warnings')}</b>warnings</div></div>
<h2>Problems</h2>
${problemList.length ? `<ul class="problems">${problemList.join('')}</ul>` : '<p>None.</p>'}
<h2>Papers</h2>
<table><thead><tr><th>paper</th><th>status</th><th>pages</th><th>coverage</th><th>exam</th><th>items</th><th>unsure</th><th>answered</th><th>figures</th><th>verified</th><th>rejected</th><th>pending</th><th>duplicates</th><th>tagged</th><th>errors</th><th>warnings</th></tr></thead>
<tbody>${sorted.map(row).join('\n')}</tbody></table>
</main></body></html>
`;
}
