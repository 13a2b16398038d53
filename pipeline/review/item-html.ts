// One record as an HTML <article>: its text re-rendered from the record (math typeset at build
// time), and beside it the page image(s) with the question's regions drawn, its figure crops, the
// facts (answer, points, error rate, difficulty, section, knowledge tags, cluster) and every
// diagnostic naming the item or one of its pages; where decisions can be made (the review server),
// the buttons that make them, each showing its key. A renderer: it only reads.
import { escapeHtml } from './escape.ts';
import { paperLanguage, textDirection } from '../text/language.ts';
import { markdownToHtml, markdownToInlineHtml } from './markdown.ts';
import { knowledgeLabel, type ReviewRecord } from './record.ts';
import { withTranslationsHtml } from '../translate/html.ts';

export interface PageInfo {
  width: number;
  height: number;
  image: string | null;
}

export interface StoreDiagnostic {
  severity: string;
  rule: string;
  message: string;
  page: number | null;
  item: string | null;
}

export interface ItemContext {
  /** The paper's pages by number: size in PDF points and image path relative to the year folder. */
  pages: ReadonlyMap<number, PageInfo>;
  /** The store's diagnostics rows of the record's paper. */
  paperDiagnostics: readonly StoreDiagnostic[];
  /** A path relative to the year folder (pages/…, figures/…) as a URL the page can load. */
  asset: (relative: string) => string;
  /** Where the element of another record is, or null when it is not part of this site. */
  link: (id: string) => string | null;
  /** The paper's language (decided over the whole paper); undefined: read from the record alone, null: not known. */
  language?: string | null;
  /** A curriculum tree's title by its id, to name the tree a tag comes from. */
  treeTitle?: (id: string) => string | null;
  /** Decisions can be made here (the review server): Verify, Reject, Pending, Edit buttons with their keys. */
  actions?: boolean;
  /**
   * Say on the item itself that its paper's structure needs review, and why: where no page of the
   * paper says it at its top (the review server lists items of many papers together).
   */
  paperStructure?: boolean;
}

/** The `lang` and `dir` attributes of text in a language; nothing where the language is not known. */
export function langAttributes(language: string | null): string {
  return language ? ` lang="${escapeHtml(language)}" dir="${textDirection(language)}"` : '';
}

/** A record's language where the caller has not decided its paper's: what the template declares, else its own text. */
export function recordLanguage(r: ReviewRecord): string | null {
  return paperLanguage(r.exam?.language as string | undefined, () => [r.stem, ...(r.options ?? []).map(o => o.text)].join(' '));
}

const fmt = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : escapeHtml(v));

/** The page numbers a record occupies, in order. */
export function recordPages(r: ReviewRecord): number[] {
  const pages = r.regions?.length ? r.regions.map(g => g.page) : [r.page];
  return [...new Set(pages)].sort((a, b) => a - b);
}

/** The diagnostics naming the record or one of its pages: the record's own and the store's, once each. */
export function recordDiagnostics(r: ReviewRecord, paperDiagnostics: readonly StoreDiagnostic[]): { severity: string; rule: string; message: string; page?: number | null }[] {
  const pages = new Set(recordPages(r));
  const seen = new Set<string>();
  const out: { severity: string; rule: string; message: string; page?: number | null }[] = [];
  const add = (d: { severity: string; rule: string; message: string; page?: number | null }) => {
    const key = `${d.severity}|${d.rule}|${d.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(d);
  };
  for (const d of r.diagnostics ?? []) add(d);
  for (const d of paperDiagnostics) if (d.item === r.id || (d.page !== null && pages.has(d.page))) add(d);
  return out;
}

function pageImage(r: ReviewRecord, page: number, info: PageInfo | undefined): string | null {
  if (info?.image) return info.image;
  const tag = `-p${String(page).padStart(3, '0')}-`;
  return r.modalities?.IO?.page_image.find(p => p.includes(tag)) ?? null;
}

const pct = (v: number) => `${(Math.round(v * 10000) / 100).toFixed(2)}%`;

/** The page image with the record's regions drawn as boxes placed in percent of the page's size in points. */
function pageFigure(r: ReviewRecord, page: number, ctx: ItemContext): string {
  const info = ctx.pages.get(page);
  const image = pageImage(r, page, info);
  if (!image) return `<figure class="page missing" data-page="${page}"><figcaption>page ${page}: no image</figcaption></figure>`;
  const boxes = info
    ? r.regions.filter(g => g.page === page).map(g => {
        const [x0, y0, x1, y1] = g.bbox;
        return `<div class="region" data-bbox="${g.bbox.join(',')}" style="left:${pct(x0 / info.width)};top:${pct(y0 / info.height)};width:${pct((x1 - x0) / info.width)};height:${pct((y1 - y0) / info.height)}"></div>`;
      }).join('')
    : '';
  const ratio = info ? ` style="aspect-ratio:${info.width} / ${info.height}"` : '';
  return `<figure class="page" data-page="${page}"><div class="page-frame"${ratio}><a href="${escapeHtml(ctx.asset(image))}" target="_blank" rel="noopener"><img src="${escapeHtml(ctx.asset(image))}" alt="page ${page}" loading="lazy"></a>${boxes}</div><figcaption>page ${page}${info ? '' : ' (size unknown: regions not drawn)'}</figcaption></figure>`;
}

function facts(r: ReviewRecord, ctx: ItemContext): string {
  const tags = (r.knowledge ?? []).map(t => `<li>${escapeHtml(knowledgeLabel(t))}</li>`).join('');
  // The tree each tag comes from, named: a reviewer sees whose curriculum the units are.
  const treeIds = [...new Set((r.knowledge ?? []).map(t => (typeof t === 'object' && !Array.isArray(t) ? (t as { tree?: string }).tree : undefined)).filter((t): t is string => !!t))];
  const trees = treeIds.map(id => `<span class="tree" data-tree="${escapeHtml(id)}">${escapeHtml(ctx.treeTitle?.(id) ?? id)}${ctx.treeTitle?.(id) ? ` <code>${escapeHtml(id)}</code>` : ''}</span>`).join(', ');
  const knowledge = tags ? `<ul class="tags">${tags}</ul>${trees ? `<p class="trees">tree: ${trees}</p>` : ''}` : '— <span class="trees">no curriculum tree fits this paper</span>';
  let cluster = '—';
  if (r.duplicate_of) {
    const href = ctx.link(r.duplicate_of);
    cluster = href ? `<a class="duplicate" href="${escapeHtml(href)}">${escapeHtml(r.duplicate_of)}</a>` : `<span class="duplicate">${escapeHtml(r.duplicate_of)}</span>`;
  }
  const row = (name: string, cls: string, value: string) => `<dt>${name}</dt><dd class="${cls}">${value}</dd>`;
  return `<dl class="facts">${[
    row('answer', 'answer', r.answer === null || r.answer === undefined ? '—' : markdownToInlineHtml(String(r.answer))),
    row('points', 'points', fmt(r.points)),
    row('type', 'type', fmt(r.type)),
    row('section', 'section', fmt(r.section)),
    row('error rate', 'error-rate', r.error_rate === null || r.error_rate === undefined ? '—' : `${escapeHtml(r.error_rate)}%`),
    row('difficulty', 'difficulty', fmt(r.difficulty)),
    row('knowledge', 'knowledge', knowledge),
    row('duplicate of', 'cluster', cluster),
  ].join('')}</dl>`;
}

function reviewBlock(r: ReviewRecord): string {
  const review = r.review ?? { status: 'pending' };
  const history = (review.history ?? []).map(h =>
    `<li><span class="who">${escapeHtml(h.who)}</span> <time>${escapeHtml(h.when)}</time> → <b>${escapeHtml(h.status)}</b>${h.edits && Object.keys(h.edits).length ? ` (edited ${escapeHtml(Object.keys(h.edits).join(', '))})` : ''} <span class="v">v${h.version}</span></li>`).join('');
  const original = review.original && Object.keys(review.original).length
    ? `<details class="original"><summary>original parse</summary><pre>${escapeHtml(JSON.stringify(review.original, null, 1))}</pre></details>`
    : '';
  return `<div class="review"><span class="status status-${escapeHtml(review.status)}">${escapeHtml(review.status)}</span>${review.version ? ` <span class="v">v${review.version}</span>` : ''}${history ? `<ol class="history">${history}</ol>` : ''}${original}</div>`;
}

/** The decision buttons, each with the key that does the same (public/app.js handles both). */
function actionsBar(r: ReviewRecord & { translations?: Record<string, unknown> }): string {
  const button = (action: string, key: string, label: string) => `<button type="button" class="action action-${action}" data-action="${action}" aria-keyshortcuts="${key}" title="${label} (key ${key})">${label} <kbd>${key}</kbd></button>`;
  return `<div class="actions" role="toolbar" aria-label="decide">${[
    button('verified', 'v', 'Verify'),
    button('rejected', 'x', 'Reject'),
    button('pending', 'p', 'Pending'),
    button('edit', 'e', 'Edit'),
    ...(r.translations && Object.keys(r.translations).length ? [button('translation', 't', 'Edit translation')] : []),
  ].join('')}</div>`;
}

/** The item's structural flags: read unsurely, and (where asked) its paper needs review, with the reasons as the title. */
function structureFlags(r: ReviewRecord, ctx: ItemContext): string {
  const s = r.structure;
  if (!s) return '';
  const flags: string[] = [];
  if (s.unsure) flags.push(' <span class="flag unsure" title="the decoder read this question unsurely: check where it starts and ends">read unsurely</span>');
  if (ctx.paperStructure && s.status === 'needs-review') flags.push(` <span class="flag needs-review" title="${escapeHtml(s.reasons.join('; '))}">paper needs review: ${escapeHtml(s.reasons.join('; '))}</span>`);
  return flags.join('');
}

export function renderItem(r: ReviewRecord, ctx: ItemContext): string {
  const status = r.review?.status ?? 'pending';
  const unsure = r.structure?.unsure ? ' unsure' : '';
  const options = r.options?.length
    ? `<ol class="options">${r.options.map(o => `<li data-label="${escapeHtml(o.label)}"><span class="label">${escapeHtml(o.label)}</span> <span class="text">${markdownToInlineHtml(o.text)}</span></li>`).join('')}</ol>`
    : '';
  const figures = (r.figures ?? []).filter(f => f.path).map(f =>
    `<figure class="crop"><img src="${escapeHtml(ctx.asset(f.path!))}" alt="figure of ${escapeHtml(r.id)}" loading="lazy"><figcaption>${escapeHtml(f.kind ?? 'figure')}, page ${f.page}</figcaption></figure>`).join('');
  const diagnostics = recordDiagnostics(r, ctx.paperDiagnostics).map(d =>
    `<li class="severity-${escapeHtml(d.severity)}"><b>${escapeHtml(d.severity)}</b> <code>${escapeHtml(d.rule)}</code>${d.page ? ` (page ${d.page})` : ''}: ${escapeHtml(d.message)}</li>`).join('');
  const title = `${r.section && r.section !== 'main' ? `${escapeHtml(r.section)} · ` : ''}${escapeHtml(r.number)}`;
  const language = ctx.language === undefined ? recordLanguage(r) : ctx.language;
  return `<article class="item status-${escapeHtml(status)}${unsure}" id="${escapeHtml(r.id)}" data-item-id="${escapeHtml(r.id)}" data-version="${r.review?.version ?? 0}" data-status="${escapeHtml(status)}"${r.structure ? ` data-structure="${escapeHtml(r.structure.status)}"` : ''}${unsure ? ' data-unsure="true"' : ''} tabindex="-1">
<header><a class="anchor" href="#${escapeHtml(encodeURIComponent(r.id))}">${title}</a> <span class="paper">${escapeHtml(r.source.file)}</span>${r.pilot ? ' <span class="flag">pilot</span>' : ''}${structureFlags(r, ctx)}${ctx.actions ? actionsBar(r) : ''}${reviewBlock(r)}</header>
<div class="item-body"><div class="item-text">${withTranslationsHtml(`<div class="question"${langAttributes(language)}><div class="stem">${markdownToHtml(r.stem)}</div>${options}</div>`, r)}${facts(r, ctx)}${figures ? `<div class="crops">${figures}</div>` : ''}${diagnostics ? `<ul class="diagnostics">${diagnostics}</ul>` : ''}</div>
<div class="item-pages">${recordPages(r).map(p => pageFigure(r, p, ctx)).join('')}</div></div>
</article>`;
}
