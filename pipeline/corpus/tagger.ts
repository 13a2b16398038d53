// Knowledge tagging, deterministic: every unit of the applicable curriculum trees is scored against
// a record with BM25 (the unit's cues as the query, the record as the document; a cue named by few
// units weighs more), within the subjects the record's section allows (a 미적분 booklet's 23–30 are
// 미적분). Cues are matched as substrings, since Korean and Chinese words carry particles or have
// no spaces; no BM25 package on npm matches substrings, hence these few lines.
import type { Curriculum } from './curriculum.ts';
import { paperLanguage } from '../text/language.ts';
import { formulasOf, normLatex, normProse, proseOf, type CorpusRecord } from './record-text.ts';

export interface KnowledgePath {
  path: [string, string];
  /** Share of the evidence the path has against the next unit (1 when it stands alone, 0 with no evidence). */
  confidence: number;
  /** The cues found, strongest first. */
  evidence: string[];
  tree: string;
  by: 'terms' | 'llm';
}

export interface TagResult {
  paths: KnowledgePath[];
  /** Every unit that was scored, best first: what a model may choose from. */
  candidates: { path: [string, string]; tree: string; score: number; evidence: string[] }[];
  /** Why a record got what it got where that is not plain evidence (no tree, no cue). */
  note: string | null;
}

/** BM25's term-frequency saturation; length normalisation is off (b = 0): units are ranked within one record. */
const K1 = 1.2;

interface Candidate { tree: Curriculum; subject: string; unit: string; score: number; evidence: { cue: string; weight: number }[] }

/** The language of a record's own text, where its template declares none (`und`); null when the text does not tell. */
export function recordLanguage(record: CorpusRecord): string | null {
  return paperLanguage(record.exam.language, () => [record.stem, ...record.options.map(o => o.text)].map(proseOf).join(' '));
}

/**
 * The trees a record belongs to: those of its family, else those of its language, and either way
 * only trees in the paper's language (a tree's `applies.languages`, else the language it is written
 * in) and for its subject. `language` is the paper's (the tag pass reads it once over all of a
 * paper's text where the template says `und`); with no tree that fits, none: no tag is better than
 * another curriculum's unit.
 */
export function treesFor(record: CorpusRecord, trees: readonly Curriculum[], language: string | null = recordLanguage(record)): Curriculum[] {
  const { family, subject } = record.exam;
  // A tree that names subjects takes only papers of those subjects (PAES M1 and Ciencias are one family).
  const fits = (t: Curriculum) => !t.applies.subjects || !subject || t.applies.subjects.includes(subject);
  const speaks = (t: Curriculum) => !!language && (t.applies.languages ?? [t.language]).includes(language);
  // A family's tree where the language is not known (a scanned cover): the family says which curriculum it is.
  const byFamily = trees.filter(t => family && t.applies.families?.includes(family) && fits(t) && (!language || speaks(t)));
  if (byFamily.length) return byFamily;
  return trees.filter(t => t.applies.languages && speaks(t) && fits(t));
}

/** The subjects a record may be tagged with in one tree: the first prior that fits, else all. */
export function subjectsFor(record: CorpusRecord, tree: Curriculum): string[] {
  for (const p of tree.priorsRe) {
    if (p.section && !p.section.test(record.section ?? '')) continue;
    if (p.examSubject && !p.examSubject.test(record.exam.subject ?? '')) continue;
    if (p.file && !p.file.test(record.source.file)) continue;
    return p.subjects;
  }
  return tree.subjects.map(s => s.name);
}

const idfCache = new WeakMap<Curriculum, Map<string, number>>();

/** Inverse document frequency of every cue over the units of its tree. */
function idfOf(tree: Curriculum): Map<string, number> {
  let idf = idfCache.get(tree);
  if (idf) return idf;
  const units = tree.subjects.flatMap(s => s.units);
  const n = new Map<string, number>();
  for (const u of units) for (const c of new Set([...u.terms.map(t => `t:${normProse(t)}`), ...u.formulas.map(f => `f:${normLatex(f)}`)])) n.set(c, (n.get(c) ?? 0) + 1);
  idf = new Map([...n].map(([c, k]) => [c, Math.log(1 + (units.length - k + 0.5) / (k + 0.5))]));
  idfCache.set(tree, idf);
  return idf;
}

/**
 * How often each cue occurs in a text, where an occurrence inside a longer cue's occurrence does not
 * count (`\lim` inside `\lim_{h\to0}`, 수열 inside 등비수열): the longer cue is the evidence.
 */
function occurrences(text: string, cues: ReadonlySet<string>): Map<string, number> {
  const found: { cue: string; start: number; end: number }[] = [];
  for (const cue of cues) for (let i = text.indexOf(cue); i >= 0 && cue; i = text.indexOf(cue, i + cue.length)) found.push({ cue, start: i, end: i + cue.length });
  const counts = new Map<string, number>();
  for (const f of found) {
    const inside = found.some(g => g.end - g.start > f.end - f.start && g.start <= f.start && g.end >= f.end);
    if (!inside) counts.set(f.cue, (counts.get(f.cue) ?? 0) + 1);
  }
  return counts;
}

function score(record: CorpusRecord, trees: readonly Curriculum[]): Candidate[] {
  const texts = [record.stem, ...record.options.map(o => o.text)];
  const prose = normProse(texts.map(proseOf).join(' '));
  const math = texts.flatMap(formulasOf).map(normLatex).join(' ');
  const out: Candidate[] = [];
  const units = trees.flatMap(tree => {
    const allowed = new Set(subjectsFor(record, tree));
    return tree.subjects.filter(s => allowed.has(s.name)).flatMap(s => s.units.map(u => ({ tree, subject: s.name, unit: u, terms: new Set(u.terms.map(normProse)), formulas: new Set(u.formulas.map(normLatex)) })));
  });
  const inProse = occurrences(prose, new Set(units.flatMap(u => [...u.terms])));
  const inMath = occurrences(math, new Set(units.flatMap(u => [...u.formulas])));
  for (const { tree, subject, unit, terms, formulas } of units) {
    const idf = idfOf(tree);
    const evidence: Candidate['evidence'] = [];
    const add = (key: string, cue: string, tf: number) => {
      if (tf > 0) evidence.push({ cue, weight: (idf.get(key) ?? 0) * ((tf * (K1 + 1)) / (tf + K1)) });
    };
    for (const t of terms) add(`t:${t}`, t, inProse.get(t) ?? 0);
    for (const f of formulas) add(`f:${f}`, f, inMath.get(f) ?? 0);
    evidence.sort((a, b) => b.weight - a.weight);
    out.push({ tree, subject, unit: unit.name, score: evidence.reduce((n, e) => n + e.weight, 0), evidence });
  }
  return out.sort((a, b) => b.score - a.score);
}

const asPath = (c: Candidate, confidence: number): KnowledgePath => ({
  path: [c.subject, c.unit],
  confidence: Math.round(confidence * 100) / 100,
  evidence: c.evidence.slice(0, 6).map(e => e.cue),
  tree: c.tree.id,
  by: 'terms',
});

/** Share of a unit's score against the next one, with a floor so one stray cue is not "certain". */
const share = (a: number, b: number) => a / (a + Math.max(b, 1));

/**
 * Every record gets at least one path, primary first, and a second where another unit has at least
 * `secondShare` of the primary's evidence (a question that clearly needs two units).
 */
export function tagRecord(record: CorpusRecord, trees: readonly Curriculum[], secondShare = 0.6, language: string | null = recordLanguage(record)): TagResult {
  const applicable = treesFor(record, trees, language);
  if (!applicable.length) {
    const why = language ? `language "${language}"` : 'a language the text tells';
    return { paths: [], candidates: [], note: `no curriculum tree for family "${record.exam.family ?? ''}" or ${why}${record.exam.subject ? ` and subject "${record.exam.subject}"` : ''}: not tagged (another curriculum's unit would be wrong)` };
  }
  let note: string | null = null;
  // A family's own trees are the authority: with no cue of theirs, the record is not sent to another family's.
  const ranked = score(record, applicable);
  if (!ranked.length) return { paths: [], candidates: [], note: 'no curriculum tree loaded' };
  const candidates = ranked.map(c => ({ path: [c.subject, c.unit] as [string, string], tree: c.tree.id, score: c.score, evidence: c.evidence.slice(0, 6).map(e => e.cue) }));
  const [first, ...rest] = ranked;
  if (!first.score) {
    return { paths: [asPath(first, 0)], candidates, note: `no cue of any unit in the text: "${first.subject} > ${first.unit}" is the section's first unit, not evidence` };
  }
  const next = rest.find(c => c.unit !== first.unit || c.subject !== first.subject);
  const paths = [asPath(first, share(first.score, next?.score ?? 0))];
  if (next && next.score >= secondShare * first.score) paths.push(asPath(next, share(next.score, first.score)));
  return { paths, candidates, note };
}

/** A path chosen by someone else (the model) among the candidates, with the evidence the cues give it. */
export function chosenPath(candidates: TagResult['candidates'], index: number): KnowledgePath {
  const c = candidates[index];
  const best = Math.max(0, ...candidates.filter((_, i) => i !== index).map(o => o.score));
  return { path: c.path, confidence: Math.round((c.score ? share(c.score, best) : 0) * 100) / 100, evidence: c.evidence, tree: c.tree, by: 'llm' };
}
