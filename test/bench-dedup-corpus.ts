// The dedup bench's synthetic corpora, record by record: record i is built when asked, from the
// real sources and a random stream of its own (seeded by the corpus's seed and i), so a corpus of a
// million records is never held (a million copies of a 2,800-character stem are 6 GB by themselves,
// more than the memory dedup is held to) and every run builds the same records.
//  - varied: every real record is a source; distinct items are sources with their numbers changed
//    (the same frame, another question: must stay apart); planted duplicates are copies of them
//    with the text perturbed (spacing, \dfrac for \frac, a typo) and the options reordered (must be
//    found);
//  - alike: one real record is the source of every distinct item (one family's templated question
//    a million times over, only its numbers changed), and half the planted copies are of five
//    items, thousands of copies each: buckets past the cap, joined through representatives.
import type { RecordSource } from '../pipeline/corpus/dedup.ts';
import type { CorpusRecord } from '../pipeline/corpus/record-text.ts';

export type Corpus = 'varied' | 'alike';

/** A small deterministic PRNG (mulberry32). */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Record i's own stream: the corpus seed and i mixed (MurmurHash3's finaliser), so neighbouring records' streams are unrelated. */
function streamOf(seed: number, i: number) {
  let h = Math.imul(seed, 0x9e3779b1) ^ i;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return rng(h ^ (h >>> 16));
}

const hasNumbers = (r: CorpusRecord) => (r.stem.match(/\d+/g) ?? []).length >= 2;

/** The record with every number changed; the first by the variant's own offset, so no two variants coincide. */
function withNumbersChanged(r: CorpusRecord, variant: number, rand: () => number): CorpusRecord {
  let first = true;
  const change = (s: string) => s.replace(/\d+/g, d => String(Number(d) + (first ? ((first = false), variant) : 1 + Math.floor(rand() * 97))));
  const stem = change(r.stem);
  return { ...r, stem, options: r.options.map(o => ({ ...o, text: change(o.text) })) };
}

function perturbed(r: CorpusRecord, rand: () => number): CorpusRecord {
  let stem = r.stem.replace(/\\frac/g, () => (rand() < 0.5 ? '\\dfrac' : '\\frac')).replace(/ /g, () => (rand() < 0.1 ? '  ' : ' ')).replace(/\$ /g, () => (rand() < 0.3 ? '$' : '$ '));
  // A typo in the prose: two neighbouring letters swapped, away from formulas (after an even number
  // of dollars, counted as the matches go: one pass over the stem, not one per match).
  let dollars = 0, at = 0;
  const outsideMath = (i: number) => {
    for (; at < i; at++) if (stem.charCodeAt(at) === 36) dollars++;
    return dollars % 2 === 0;
  };
  const letters = [...stem.matchAll(/\p{L}\p{L}/gu)].filter(m => outsideMath(m.index));
  if (letters.length > 20) {
    const m = letters[Math.floor(rand() * letters.length)];
    stem = stem.slice(0, m.index) + m[0][1] + m[0][0] + stem.slice(m.index! + 2);
  }
  const texts = r.options.map(o => o.text);
  for (let i = texts.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [texts[i], texts[j]] = [texts[j], texts[i]];
  }
  return { ...r, stem, options: r.options.map((o, i) => ({ label: o.label, text: texts[i] })) };
}

export interface BenchCorpus extends RecordSource {
  /** Records 0 … distinct − 1 are distinct items (ids d<i>), the rest planted copies (ids u<i>). */
  readonly distinct: number;
  at(i: number): CorpusRecord;
  /** The distinct item that planted copy i (distinct ≤ i < length) copies. */
  originalOf(i: number): number;
}

/** n records: n/1.1 distinct items, the rest planted copies of them. */
export function benchCorpus(sources: readonly CorpusRecord[], corpus: Corpus, n: number, seed: number): BenchCorpus {
  const distinct = Math.round(n / 1.1);
  const variable = corpus === 'alike' ? [sources.filter(hasNumbers).sort((a, b) => b.stem.length - a.stem.length)[0]] : sources.filter(hasNumbers);
  const item = (k: number): CorpusRecord => {
    const base = corpus === 'varied' && k < sources.length ? sources[k] : withNumbersChanged(variable[k % variable.length], 1 + Math.floor(k / variable.length), streamOf(seed, k));
    return { ...base, id: `d${k}`, number: (k % 30) + 1, source: { file: `bench-${Math.floor(k / 30)}.pdf`, sha256: `p${Math.floor(k / 30)}` } };
  };
  /** Which item copy k copies, and the rest of its stream for the perturbation. */
  const plan = (k: number) => {
    const rand = streamOf(seed, k);
    const popular = corpus === 'alike' && rand() < 0.5;
    return { of: popular ? (Math.floor(rand() * 5) * 7919) % distinct : Math.floor(rand() * distinct), rand };
  };
  const copy = (k: number): CorpusRecord => {
    const { of, rand } = plan(k);
    const original = item(of);
    return { ...perturbed(original, rand), id: `u${k}`, source: { file: `upload-${k}.pdf`, sha256: `u${k}` }, exam: { ...original.exam, family: 'generic' } };
  };
  return {
    length: n,
    distinct,
    at: i => (i < distinct ? item(i) : copy(i)),
    originalOf: i => plan(i).of,
  };
}
