// The term glossary (glossary/terms/<from>-<to>.tsv: term, translation, note, source). A file
// serves both directions: ko-en.tsv read backwards gives en→ko. A translation may list accepted
// alternatives separated by " / " (the first is the one asked for); a store must still use one
// of them throughout (glossaryConsistency).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface GlossaryTerm {
  /** The term as it is written in the source language. */
  readonly term: string;
  /** Accepted translations, the preferred one first. */
  readonly translations: readonly string[];
  readonly note: string;
}

export interface Glossary {
  readonly from: string;
  readonly to: string;
  /** Longest first, so a term inside a longer one (적분 in 정적분) counts for the longer. */
  readonly terms: readonly GlossaryTerm[];
  /** Content hash: a changed glossary makes every translation out of date. */
  readonly version: string;
  /** The file it came from, or null where there is none for the pair. */
  readonly file: string | null;
}

export class GlossaryError extends Error {
  constructor(file: string, line: number, message: string) {
    super(`${file}:${line}: ${message}`);
    this.name = 'GlossaryError';
  }
}

const HEADER = ['term', 'translation', 'note', 'source'];

function readTsv(file: string): { term: string; translations: string[]; note: string }[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const header = lines[0]?.split('\t').map(s => s.trim());
  if (header?.join() !== HEADER.join()) throw new GlossaryError(file, 1, `the header must be ${HEADER.join('<TAB>')}`);
  const rows: { term: string; translations: string[]; note: string }[] = [];
  const seen = new Set<string>();
  lines.slice(1).forEach((line, i) => {
    if (!line.trim() || line.startsWith('#')) return;
    const cols = line.split('\t');
    if (cols.length !== 4) throw new GlossaryError(file, i + 2, `4 tab-separated columns expected, found ${cols.length}`);
    const [term, translation, note] = cols.map(c => c.trim());
    if (!term || !translation) throw new GlossaryError(file, i + 2, 'term and translation must not be empty');
    if (seen.has(term)) throw new GlossaryError(file, i + 2, `"${term}" is listed twice`);
    seen.add(term);
    rows.push({ term, translations: translation.split(' / ').map(t => t.trim()).filter(Boolean), note });
  });
  return rows;
}

/** The glossary for a pair of languages: its own file, the reverse pair's read backwards, or an empty one. */
export function loadGlossary(dir: string, from: string, to: string): Glossary {
  const own = path.join(dir, `${from}-${to}.tsv`);
  const reverse = path.join(dir, `${to}-${from}.tsv`);
  let terms: GlossaryTerm[] = [];
  let file: string | null = null;
  if (fs.existsSync(own)) {
    file = own;
    terms = readTsv(own);
  } else if (fs.existsSync(reverse)) {
    file = reverse;
    // Every accepted translation maps back to its term; where two terms share one (미분계수 and
    // 도함수 → derivative), the first listed wins.
    const back = new Map<string, GlossaryTerm>();
    for (const r of readTsv(reverse)) for (const t of r.translations) if (!back.has(t.toLowerCase())) back.set(t.toLowerCase(), { term: t, translations: [r.term], note: r.note });
    terms = [...back.values()];
  }
  terms.sort((a, b) => b.term.length - a.term.length || a.term.localeCompare(b.term));
  const version = crypto.createHash('sha256').update(file ? fs.readFileSync(file) : '').digest('hex').slice(0, 12);
  return Object.freeze({ from, to, terms: Object.freeze(terms), version, file });
}

const fold = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[\s-]+/g, ' ');

/**
 * The glossary terms a source text uses, longest first: a match masks its characters, so 확률 is
 * not counted inside 확률변수 (nor 직선 inside 수직선).
 */
export function termsIn(prose: string, glossary: Glossary): GlossaryTerm[] {
  let text = fold(prose);
  const found: GlossaryTerm[] = [];
  for (const t of glossary.terms) {
    const key = fold(t.term);
    if (!key || !text.includes(key)) continue;
    found.push(t);
    text = text.split(key).join('\u0000');
  }
  return found;
}

/** English plurals that do not contain their singular (vertex → vertices, focus → foci, axis → axes). */
function forms(word: string): string[] {
  const w = fold(word);
  const out = [w];
  if (/y$/.test(w)) out.push(w.replace(/y$/, 'ies'));
  if (/[ei]x$/.test(w)) out.push(w.replace(/[ei]x$/, 'ices'));
  if (/is$/.test(w)) out.push(w.replace(/is$/, 'es'));
  if (/us$/.test(w)) out.push(w.replace(/us$/, 'i'));
  if (/on$/.test(w)) out.push(w.replace(/on$/, 'a'));
  return out;
}

/** Which of a term's accepted translations a target text uses (the first found), or null. */
export function translationUsed(term: GlossaryTerm, targetProse: string): string | null {
  const text = fold(targetProse);
  return term.translations.find(t => forms(t).some(f => text.includes(f))) ?? null;
}
