// The review server's one page: upload (file picker and drag-and-drop), the jobs with their
// progress, the set's papers (pages, coverage, status; those whose structure needs review first,
// with why), and the review queue (keys, or the buttons on each item that show them; each item's
// question text carries its paper's lang and dir). Its script is public/app.js; no inline script,
// so the Content-Security-Policy can forbid any.
import { escapeHtml } from '../review/escape.ts';

export function appHtml(sets: string[]): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>exam-ingest review</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/katex/katex.min.css"><link rel="stylesheet" href="/assets/review.css"><link rel="stylesheet" href="/assets/app.css">
</head><body><main>
<h1>exam-ingest review</h1>
<form id="setbar" class="bar">
<label>Set <input id="set" name="set" list="sets" value="${escapeHtml(sets[0] ?? 'custom')}" pattern="[A-Za-z0-9][A-Za-z0-9_\\-]{0,63}" required></label>
<datalist id="sets">${sets.map(s => `<option value="${escapeHtml(s)}">`).join('')}</datalist>
<button type="submit" id="open">Open</button>
<label>Reviewer <input id="who" name="who" placeholder="your name" autocomplete="name"></label>
<a id="export" href="#">Export verified (tar)</a>
</form>
<section id="upload" class="bar">
<div id="drop" tabindex="0">Drop papers (PDF) and, if you have them, their answer keys (<code>&lt;paper&gt;-answer.png|jpg|pdf|csv</code>) here, or choose them:</div>
<label>Papers <input type="file" id="file" accept="application/pdf,.pdf" multiple></label>
<label>Key <input type="file" id="key" accept=".png,.jpg,.jpeg,.pdf,.csv,image/png,image/jpeg,application/pdf,text/csv"></label>
<button id="send" type="button">Upload</button>
<ul id="jobs"></ul>
</section>
<p class="help">By mouse: the buttons on each item (each shows its key). By keyboard: <kbd>j</kbd>/<kbd>↓</kbd> next · <kbd>k</kbd>/<kbd>↑</kbd> previous · <kbd>n</kbd> next pending · <kbd>v</kbd> verify · <kbd>x</kbd> reject · <kbd>p</kbd> back to pending · <kbd>e</kbd> edit · <kbd>t</kbd> edit translation (<kbd>Ctrl</kbd>+<kbd>Enter</kbd> save, <kbd>Esc</kbd> cancel)</p>
<p id="message" role="status" aria-live="polite"></p>
<p id="counts"></p>
<details id="papers" hidden><summary>Papers</summary><table><thead><tr><th>paper</th><th>status</th><th>pages</th><th>coverage</th><th>items</th><th>unsure</th><th>why it needs review</th></tr></thead><tbody></tbody></table></details>
<nav id="pager" class="bar" hidden><button type="button" id="previous">◀ previous page</button><button type="button" id="next">next page ▶</button> <span class="help"><kbd>j</kbd>/<kbd>k</kbd> past the end of a page turn it</span></nav>
<div id="items"></div>
</main><script type="module" src="/assets/app.js"></script></body></html>
`;
}

export const APP_CSS = `
.bar { display: flex; gap: 12px; align-items: center; flex-wrap: wrap; background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; margin: 8px 0; }
#drop { flex-basis: 100%; border: 2px dashed var(--line); border-radius: 8px; padding: 14px; text-align: center; color: var(--muted); }
#drop.over { border-color: #2e90fa; background: #eff8ff; }
#jobs { flex-basis: 100%; margin: 0; padding-left: 18px; }
#jobs .failed, #message.error { color: var(--bad); }
#jobs .done { color: var(--ok); } #jobs .done.needs-review { color: var(--bad); }
#papers { margin: 8px 0; } #papers summary { cursor: pointer; font-weight: 600; }
#papers tr.needs-review td:first-child { border-left: 4px solid var(--bad); } #papers tr.needs-review .paper-status { color: var(--bad); font-weight: 600; }
.help { color: var(--muted); font-size: .85rem; }
kbd { border: 1px solid var(--line); border-radius: 3px; padding: 0 4px; background: #fff; font-size: .8rem; }
form.edit { display: grid; grid-template-columns: max-content 1fr; gap: 6px 10px; margin: 10px 0; padding: 10px; background: var(--bg); border-radius: 6px; }
form.edit textarea { min-height: 4em; font: inherit; } form.edit .buttons { grid-column: 2; }
.conflict { color: var(--bad); font-weight: 600; }
.bilingual section.translation h4 { margin: 0 0 6px; font-size: .85rem; color: var(--muted); }
.bilingual section.status-flagged h4, .bilingual section.status-failed h4 { color: var(--bad); }
.bilingual section.status-ok h4 { color: var(--ok); }
.bilingual .checks { margin: 6px 0; padding-left: 18px; font-size: .85rem; } .bilingual .checks.clear { color: var(--ok); }
.translation-history { margin: 4px 0 0; padding-left: 18px; color: var(--muted); font-size: .8rem; } .translation-history .current { color: inherit; }
form.translation-edit { grid-template-columns: 1fr; } form.translation-edit .buttons { grid-column: 1; } form.translation-edit textarea { min-height: 8em; }
`;
