// The review page's script (served as /assets/app.js): upload with progress over server-sent
// events, and the review queue: every decision by its key or by the button on the item that shows
// that key. Plain browser JavaScript, no build step.
const $ = sel => document.querySelector(sel);
// `decisions` counts decisions sent: a list fetched while one was under way may predate it and is fetched again.
// A set is shown a page of PAGE items at a time (`offset` is the first one's place in the set, `total` its size).
const PAGE = 100;
const state = { set: '', records: new Map(), current: 0, decisions: 0, offset: 0, total: 0 };

function message(text, isError = false) {
  const m = $('#message');
  m.textContent = text;
  m.className = isError ? 'error' : '';
}

const who = () => $('#who').value.trim() || 'anonymous';
$('#who').value = localStorage.getItem('reviewer') ?? '';
$('#who').addEventListener('change', () => localStorage.setItem('reviewer', $('#who').value.trim()));

async function api(url, options = {}) {
  const res = await fetch(url, { credentials: 'same-origin', ...options });
  const body = res.headers.get('content-type')?.includes('application/json') ? await res.json() : await res.text();
  return { ok: res.ok, status: res.status, body, headers: res.headers };
}

const articles = () => [...document.querySelectorAll('#items article.item')];

/**
 * Makes item i of the page the current one; past either end of the page, the next or previous page
 * is loaded. `focus: false` leaves the focus where a click put it (a field of an editor).
 */
function focusItem(i, { focus = true } = {}) {
  const list = articles();
  if (!list.length) return;
  if (i >= list.length && state.offset + list.length < state.total) return loadItems(state.offset + PAGE, 0);
  if (i < 0 && state.offset > 0) return loadItems(Math.max(0, state.offset - PAGE), PAGE - 1);
  state.current = Math.max(0, Math.min(i, list.length - 1));
  list.forEach((a, n) => a.classList.toggle('current', n === state.current));
  if (!focus) return;
  list[state.current].focus({ preventScroll: true });
  list[state.current].scrollIntoView({ block: 'nearest' });
}

/** The queue proper: the next item still pending after the current one (wrapping round the whole set, page by page). */
async function nextPending() {
  const list = articles();
  for (let i = state.current + 1; i < list.length; i++) if (list[i].dataset.status === 'pending') return focusItem(i);
  const after = list[state.current]?.dataset.itemId ?? '';
  const res = await api(`/api/sets/${encodeURIComponent(state.set)}/next-pending?after=${encodeURIComponent(after)}`);
  if (!res.ok || !res.body.next) return message('nothing is pending in this set');
  const { index } = res.body.next;
  if (index >= state.offset && index < state.offset + list.length) return focusItem(index - state.offset);
  await loadItems(Math.floor(index / PAGE) * PAGE, index % PAGE);
}

/** The set's counts by status (from the server: the page holds only some of its items). */
async function counts() {
  const res = await api(`/api/sets/${encodeURIComponent(state.set)}/summary`);
  if (!res.ok) return;
  const c = res.body;
  const shown = articles().length;
  $('#counts').textContent = `${c.total} items · ${c.verified} verified · ${c.rejected} rejected · ${c.pending} pending`
    + (c.total > shown ? ` · showing ${shown ? state.offset + 1 : 0}–${state.offset + shown}` : '');
  $('#pager').hidden = c.total <= PAGE;
  $('#previous').disabled = state.offset === 0;
  $('#next').disabled = state.offset + shown >= c.total;
}

/** Loads the page of the set starting at `offset` (default: the one shown) and makes item `at` of it current (default: the same item as before). */
async function loadItems(offset = state.offset, at) {
  if (!state.set) return;
  const set = encodeURIComponent(state.set);
  const decisions = state.decisions;
  const page = `offset=${offset}&limit=${PAGE}`;
  const [records, html] = await Promise.all([api(`/api/sets/${set}/items?${page}`), api(`/api/sets/${set}/items.html?${page}`)]);
  if (decisions !== state.decisions) return loadItems(offset, at);
  if (!records.ok || !html.ok) return message(`cannot load the set: ${records.body.error ?? html.body}`, true);
  state.records = new Map(records.body.map(r => [r.id, r]));
  const currentId = offset === state.offset && at === undefined ? articles()[state.current]?.dataset.itemId : undefined;
  state.offset = offset;
  state.total = Number(records.headers.get('x-total-count') ?? records.body.length);
  $('#items').innerHTML = html.body;
  const again = currentId ? articles().findIndex(a => a.dataset.itemId === currentId) : -1;
  focusItem(again >= 0 ? again : at ?? state.current);
  await counts();
}

async function refreshItem(id) {
  const set = encodeURIComponent(state.set);
  const [record, html] = await Promise.all([api(`/api/items/${encodeURIComponent(id)}?set=${set}`), api(`/api/items/${encodeURIComponent(id)}/html?set=${set}`)]);
  if (!record.ok || !html.ok) return;
  state.records.set(id, record.body);
  const old = document.querySelector(`#items article[data-item-id="${CSS.escape(id)}"]`);
  const tpl = document.createElement('template');
  tpl.innerHTML = html.body.trim();
  old?.replaceWith(tpl.content.firstElementChild);
  focusItem(state.current);
  await counts();
}

function showConflict(article, text) {
  article.querySelector('.conflict')?.remove();
  const p = document.createElement('p');
  p.className = 'conflict';
  p.textContent = text;
  article.querySelector('header').after(p);
  message(text, true);
}

async function decide(article, status, edits) {
  const id = article.dataset.itemId;
  state.decisions++;
  const body = { status, version: Number(article.dataset.version), who: who(), ...(edits && { edits }) };
  const res = await api(`/api/items/${encodeURIComponent(id)}/review?set=${encodeURIComponent(state.set)}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  state.decisions++;
  if (res.status === 409) {
    // Show what the other reviewer made of the item, and say what of ours was not saved.
    await refreshItem(id);
    const fresh = document.querySelector(`#items article[data-item-id="${CSS.escape(id)}"]`) ?? article;
    const lost = edits ? ` Not saved: ${Object.entries(edits).map(([k, v]) => `${k} → ${JSON.stringify(v)}`).join(', ')}.` : '';
    return showConflict(fresh, `${res.body.error}.${lost}`);
  }
  if (!res.ok) return message(`not saved: ${res.body.error ?? res.body}`, true);
  message(`${id}: ${status}${edits ? ` (edited ${Object.keys(edits).join(', ')})` : ''}, version ${res.body.version}`);
  await refreshItem(id);
}

function editForm(article) {
  if (article.querySelector('form.edit')) return;
  const r = state.records.get(article.dataset.itemId);
  if (!r) return;
  const form = document.createElement('form');
  form.className = 'edit';
  const field = (label, name, value, multi) => {
    const l = document.createElement('label');
    l.textContent = label;
    const input = document.createElement(multi ? 'textarea' : 'input');
    input.name = name;
    input.value = value ?? '';
    form.append(l, input);
    return input;
  };
  const tagText = t => (typeof t === 'string' ? t : Array.isArray(t) ? t.join(' > ') : Array.isArray(t.path) ? t.path.join(' > ') : String(t.path));
  const first = field('stem', 'stem', r.stem, true);
  field('options (one a line: label text)', 'options', r.options.map(o => `${o.label} ${o.text}`).join('\n'), true);
  field('answer', 'answer', r.answer);
  field('points', 'points', r.points ?? '');
  field('section', 'section', r.section);
  field('tags (one a line, segments joined by " > ")', 'tags', (r.knowledge ?? []).map(tagText).join('\n'), true);
  const close = formButtons(form, article, 'Save');
  form.addEventListener('submit', async e => {
    e.preventDefault();
    const v = Object.fromEntries(new FormData(form));
    const opts = optionLines(String(v.options));
    const edits = {};
    if (v.stem !== r.stem) edits.stem = v.stem;
    if (JSON.stringify(opts) !== JSON.stringify(r.options)) edits.options = opts;
    if ((v.answer || null) !== (r.answer ?? null)) edits.answer = v.answer || null;
    const points = v.points === '' ? null : Number(v.points);
    if (points !== (r.points ?? null)) edits.points = points;
    if ((v.section || null) !== (r.section ?? null)) edits.section = v.section || null;
    const tags = String(v.tags).split('\n').map(t => t.trim()).filter(Boolean);
    if (JSON.stringify(tags) !== JSON.stringify((r.knowledge ?? []).map(tagText))) edits.tags = tags;
    if (!Object.keys(edits).length) return close();
    await decide(article, article.dataset.status, edits);
  });
  article.querySelector('.item-text').prepend(form);
  first.focus();
}

/** Save and Cancel buttons for an editor, with Ctrl+Enter and Esc; returns what closes it. */
function formButtons(form, article, saveLabel) {
  const buttons = document.createElement('div');
  buttons.className = 'buttons';
  buttons.innerHTML = `<button type="submit">${saveLabel} (Ctrl+Enter)</button> <button type="button" class="cancel">Cancel (Esc)</button>`;
  form.append(buttons);
  const close = () => { form.remove(); article.focus(); };
  form.querySelector('.cancel').addEventListener('click', close);
  form.addEventListener('keydown', e => {
    if (e.key === 'Escape') { e.preventDefault(); close(); }
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); form.requestSubmit(); }
  });
  return close;
}

/** Options typed one a line, "label text". */
function optionLines(text) {
  return text.split('\n').map(l => l.trim()).filter(Boolean).map(l => {
    const m = /^(\S+)\s*(.*)$/.exec(l);
    return { label: m[1], text: m[2] };
  });
}

/**
 * The editor of an item's translation (key t): its stem and options in the language's column, beside
 * the source. Saving sends the version the text was loaded at; the server runs every check again,
 * and the item is drawn again with the new findings and the version history. A stale version is
 * refused and shown like a stale review edit.
 */
function translationForm(article, lang) {
  const r = state.records.get(article.dataset.itemId);
  const langs = Object.keys(r?.translations ?? {}).sort();
  if (!langs.length) return message(`${article.dataset.itemId} has no translation to edit`, true);
  article.querySelector('form.translation-edit')?.remove();
  lang = lang ?? langs[0];
  const t = r.translations[lang];
  const version = t.version;
  const form = document.createElement('form');
  form.className = 'edit translation-edit';
  form.dataset.lang = lang;
  const label = (text, input) => {
    const l = document.createElement('label');
    l.textContent = text;
    form.append(l, input);
    return input;
  };
  if (langs.length > 1) {
    const select = document.createElement('select');
    select.name = 'lang';
    for (const l of langs) select.append(new Option(l, l, false, l === lang));
    select.addEventListener('change', () => translationForm(article, select.value));
    label('language', select);
  }
  const area = (name, value) => Object.assign(document.createElement('textarea'), { name, value });
  const stem = label(`${lang} stem (v${version})`, area('stem', t.stem ?? ''));
  const options = label('options (one a line: label text)', area('options', (t.options ?? []).map(o => `${o.label} ${o.text}`).join('\n')));
  const close = formButtons(form, article, 'Save translation');
  form.addEventListener('submit', async e => {
    e.preventDefault();
    const opts = optionLines(options.value);
    if (stem.value === (t.stem ?? '') && JSON.stringify(opts) === JSON.stringify(t.options ?? [])) return close();
    const id = article.dataset.itemId;
    state.decisions++;
    const res = await api(`/api/items/${encodeURIComponent(id)}/translations/${encodeURIComponent(lang)}?set=${encodeURIComponent(state.set)}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ stem: stem.value, options: opts, version, who: who() }),
    });
    state.decisions++;
    if (res.status === 409) {
      await refreshItem(id);
      const fresh = document.querySelector(`#items article[data-item-id="${CSS.escape(id)}"]`) ?? article;
      return showConflict(fresh, `${lang}: ${res.body.error}. Not saved: ${lang} stem → ${JSON.stringify(stem.value)}.`);
    }
    if (!res.ok) return message(`translation not saved: ${res.body.error ?? res.body}`, true);
    const found = res.body.checks.map(c => c.rule);
    message(`${id} ${lang}: ${res.body.status}, version ${res.body.version}${found.length ? ` — ${[...new Set(found)].join(', ')}` : ' — checks: no findings'}`);
    await refreshItem(id);
  });
  const column = article.querySelector(`section.translation[data-lang="${CSS.escape(lang)}"]`);
  if (column) column.querySelector('h4').after(form);
  else article.querySelector('.item-text').prepend(form);
  stem.focus();
}

/** What each key does to the current item; the item's buttons (data-action) do the same by mouse. */
const ACTIONS = {
  verified: article => decide(article, 'verified'),
  rejected: article => decide(article, 'rejected'),
  pending: article => decide(article, 'pending'),
  edit: article => editForm(article),
  translation: article => translationForm(article),
};
const KEY_ACTIONS = { v: 'verified', x: 'rejected', r: 'rejected', p: 'pending', e: 'edit', t: 'translation' };

document.addEventListener('keydown', e => {
  if (e.target.closest?.('input, textarea, select, form.edit') || e.ctrlKey || e.metaKey || e.altKey) return;
  const article = articles()[state.current];
  const keys = {
    j: () => focusItem(state.current + 1), ArrowDown: () => focusItem(state.current + 1),
    k: () => focusItem(state.current - 1), ArrowUp: () => focusItem(state.current - 1),
    n: () => nextPending(),
  };
  if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  else if (KEY_ACTIONS[e.key] && article) { e.preventDefault(); ACTIONS[KEY_ACTIONS[e.key]](article); }
});

$('#items').addEventListener('click', e => {
  const article = e.target.closest('article.item');
  const i = articles().indexOf(article);
  if (i < 0) return;
  const button = e.target.closest('.actions button[data-action]');
  // A click in an editor's field keeps the focus there; anywhere else the item takes it, as j/k would.
  focusItem(i, { focus: !e.target.closest('form, input, textarea, select, a') });
  if (button && ACTIONS[button.dataset.action]) ACTIONS[button.dataset.action](article);
});

/** The papers of a job read but whose structure is in doubt: stored (done), and said so with their reasons. */
const reviewText = job => (job.papers ?? []).filter(p => p.review).map(p => `${p.file} needs review: ${p.review.join('; ')}`).join('; ');

function jobLine(job) {
  let li = document.getElementById(`job-${job.job}`);
  if (!li) {
    li = document.createElement('li');
    li.id = `job-${job.job}`;
    $('#jobs').prepend(li);
  }
  li.className = job.state;
  li.dataset.state = job.state;
  const errors = job.errors.map(e => `${e.file}: ${e.message}`).join('; ');
  const review = reviewText(job);
  li.classList.toggle('needs-review', !!review);
  li.textContent = `${job.file}: ${job.state}${job.total ? ` (${job.done}/${job.total} papers)` : ''}${errors ? ` — ${errors}` : ''}${review ? ` — ${review}` : ''}`;
}

/** The set's papers with their pages, coverage and status, those whose structure needs review first, each with why. */
async function loadPapers() {
  if (!state.set) return;
  const res = await api(`/api/sets/${encodeURIComponent(state.set)}/papers`);
  const section = $('#papers');
  if (!res.ok || !res.body.papers.length) { section.hidden = true; return; }
  const cell = (text, cls) => { const td = document.createElement('td'); td.textContent = text; if (cls) td.className = cls; return td; };
  const rows = res.body.papers.map(p => {
    const tr = document.createElement('tr');
    tr.dataset.status = p.status;
    tr.className = p.status;
    tr.append(
      cell(p.file),
      cell(p.status, 'paper-status'),
      cell(p.pages ?? '—', 'num'),
      cell(typeof p.coverage === 'number' ? `${Math.round(p.coverage * 100)}%` : '—', 'num coverage'),
      cell(String(p.items), 'num'),
      cell(String(p.unsure), 'num'),
      cell(p.reasons.join('; '), 'reasons'),
    );
    return tr;
  });
  $('#papers tbody').replaceChildren(...rows);
  const flagged = res.body.papers.filter(p => p.status === 'needs-review').length;
  $('#papers summary').textContent = `Papers: ${res.body.papers.length}${flagged ? ` · ${flagged} need review` : ''}`;
  // Open where a paper needs review, so it is seen before its items are trusted.
  if (flagged) section.open = true;
  section.hidden = false;
}

function follow(jobId) {
  const events = new EventSource(`/api/jobs/${encodeURIComponent(jobId)}/events`);
  let seen = 0;
  events.addEventListener('job', ev => {
    const job = JSON.parse(ev.data);
    jobLine(job);
    // The set's items appear as each paper is done.
    if (job.papers.length > seen) { seen = job.papers.length; loadItems(); loadPapers(); }
    if (job.state === 'done' || job.state === 'failed') {
      events.close();
      const review = reviewText(job);
      message(`${job.file}: ${job.state}${job.errors.length ? ` — ${job.errors.map(e => e.message).join('; ')}` : ''}${review ? ` — ${review}` : ''}`, job.state === 'failed' || !!review);
      loadItems();
    }
  });
  events.onerror = () => events.close();
}

async function upload(file, key) {
  if (!file) return message('choose a PDF first', true);
  const form = new FormData();
  form.append('file', file);
  if (key) form.append('key', key);
  message(`uploading ${file.name}…`);
  const res = await api(`/api/sets/${encodeURIComponent(state.set)}/papers`, { method: 'POST', body: form });
  if (!res.ok) return message(`upload refused (${res.status}): ${res.body.error ?? res.body}`, true);
  message(`${res.body.file}: queued`);
  jobLine({ job: res.body.job, file: res.body.file, state: 'queued', done: 0, total: 0, errors: [], papers: [] });
  follow(res.body.job);
}

/**
 * Papers and their keys from a set of files: a key is `<paper stem>-answer.<ext>`, or the one other
 * file when there is one paper. Anything not named .pdf still goes up as a paper when nothing is,
 * so the server (which reads the bytes) says what is wrong with it.
 */
function pairs(files) {
  const papers = files.filter(f => /\.pdf$/i.test(f.name) && !/-answer\.pdf$/i.test(f.name));
  if (!papers.length) return files.slice(0, 1).map(f => [f, undefined]);
  const others = files.filter(f => !papers.includes(f));
  return papers.map(pdf => {
    const stem = pdf.name.replace(/\.pdf$/i, '');
    return [pdf, others.find(k => k.name.startsWith(`${stem}-answer.`)) ?? (papers.length === 1 && others.length === 1 ? others[0] : undefined)];
  });
}

/** Uploads each paper with its key; a key chosen in the key picker goes with a lone paper. */
async function uploadAll(files, chosenKey) {
  if (!files.length) return message('choose a PDF first', true);
  const list = pairs(files);
  if (chosenKey && list.length === 1) list[0][1] = chosenKey;
  for (const [pdf, key] of list) await upload(pdf, key);
}

$('#send').addEventListener('click', () => uploadAll([...$('#file').files], $('#key').files[0]));
const drop = $('#drop');
drop.addEventListener('dragover', e => { e.preventDefault(); drop.classList.add('over'); });
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', e => {
  e.preventDefault();
  drop.classList.remove('over');
  uploadAll([...e.dataTransfer.files]);
});

async function openSet(name) {
  state.set = name;
  state.current = 0;
  state.offset = 0;
  $('#export').href = `/api/sets/${encodeURIComponent(name)}/export`;
  history.replaceState(null, '', `/?set=${encodeURIComponent(name)}`);
  $('#jobs').replaceChildren();
  loadItems();
  loadPapers();
  // The set's jobs, so a reloaded page still shows (and follows) what is being ingested.
  const res = await api(`/api/sets/${encodeURIComponent(name)}/jobs`);
  if (!res.ok) return;
  for (const job of res.body.jobs) {
    jobLine(job);
    if (job.state === 'queued' || job.state === 'running') follow(job.job);
  }
}
$('#previous').addEventListener('click', () => loadItems(Math.max(0, state.offset - PAGE), 0));
$('#next').addEventListener('click', () => loadItems(state.offset + PAGE, 0));
$('#setbar').addEventListener('submit', e => { e.preventDefault(); openSet($('#set').value.trim()); });
openSet(new URLSearchParams(location.search).get('set') ?? $('#set').value.trim());
