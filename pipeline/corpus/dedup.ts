// Near-duplicate clusters over a set of records. Candidates come from MinHash/LSH over character
// n-grams of a math-aware normal form (sub-quadratic: all pairs are never compared); each candidate
// is then verified: the same numbers (a question with one number changed is another question), the
// same options as a set (order does not matter), prose, formulas and options similar by Dice's
// coefficient (string-similarity), and where both have figures, crops alike by perceptual hash.
// Records of one paper are never merged: a paper does not print a question twice.
import path from 'node:path';
import stringSimilarity from 'string-similarity';
import { examDateKey, examDate } from '../exam-date.ts';
import { lshPairs, MinHasher, shingles } from './minhash.ts';
import { dHash, hamming } from './phash.ts';
import { formulasOf, normLatex, normProse, proseOf, type CorpusRecord } from './record-text.ts';

export interface DedupSettings {
  /** Characters per shingle. */
  readonly shingle: number;
  readonly bands: number;
  readonly rows: number;
  /** Least Dice similarity of the prose of two stems. */
  readonly text: number;
  /** Least Dice similarity of the formulas (normalised LaTeX) of two records. */
  readonly math: number;
  /** Least Dice similarity of the option texts, sorted. */
  readonly options: number;
  /** Most differing bits (of 64) between two figure crops' perceptual hashes. */
  readonly figureBits: number;
  /** How the canonical member of a cluster is chosen, first rule first. */
  readonly canonical: readonly ('official' | 'earliest' | 'file' | 'number')[];
}

export interface Similarity { text: number; math: number; options: number; figureBits: number | null }

export interface Cluster {
  canonical: string;
  members: string[];
}

export interface DedupResult {
  /** id → its cluster's canonical id, for every record in a cluster of two or more (canonical records map to themselves). */
  canonicalOf: Map<string, string>;
  /** id → how it compares with its canonical record, for every non-canonical member. */
  evidence: Map<string, Similarity>;
  clusters: Cluster[];
  candidatePairs: number;
  verifiedPairs: number;
}

interface Prepared {
  prose: string;
  math: string;
  options: string;
  numbers: string;
  optionCount: number;
}

/** The normal form two records are compared in: whitespace, `\dfrac`/`\frac` and option order do not count. */
export function prepare(r: CorpusRecord): Prepared {
  const squeeze = (s: string) => normProse(s).replace(/\s+/g, '');
  const options = r.options.map(o => squeeze(proseOf(o.text)) + formulasOf(o.text).map(normLatex).join('')).sort();
  // The stem's numbers in order; the options' as a multiset (their order does not count).
  const digits = (t: string) => t.match(/\d+(?:\.\d+)?/g) ?? [];
  const numbers = `${digits(r.stem).join(',')}#${r.options.flatMap(o => digits(o.text)).sort().join(',')}`;
  return {
    prose: squeeze(proseOf(r.stem)),
    math: formulasOf(r.stem).map(normLatex).join('|'),
    options: options.join('|'),
    numbers,
    optionCount: r.options.length,
  };
}

const dice = (a: string, b: string) => (a === b ? 1 : !a || !b ? 0 : stringSimilarity.compareTwoStrings(a, b));

/** The text-side comparison, or null where a check fails outright. */
export function compareText(a: Prepared, b: Prepared, s: DedupSettings): Omit<Similarity, 'figureBits'> | null {
  if (a.numbers !== b.numbers || a.optionCount !== b.optionCount) return null;
  const text = dice(a.prose, b.prose);
  if (text < s.text) return null;
  const math = dice(a.math, b.math);
  if (math < s.math) return null;
  const options = dice(a.options, b.options);
  if (options < s.options) return null;
  return { text, math, options };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Orders records by the canonical rule: the first of a cluster in this order is its canonical member. */
export function canonicalOrder(rules: DedupSettings['canonical']): (a: CorpusRecord, b: CorpusRecord) => number {
  const official = (r: CorpusRecord) => (r.exam.family && r.exam.family !== 'generic' ? 0 : 1);
  const by = {
    official: (a: CorpusRecord, b: CorpusRecord) => official(a) - official(b),
    earliest: (a: CorpusRecord, b: CorpusRecord) => examDateKey(examDate(a.exam)) - examDateKey(examDate(b.exam)),
    file: (a: CorpusRecord, b: CorpusRecord) => (a.source.file < b.source.file ? -1 : a.source.file > b.source.file ? 1 : 0),
    number: (a: CorpusRecord, b: CorpusRecord) => a.number - b.number,
  };
  return (a, b) => {
    for (const rule of rules) {
      const d = by[rule](a, b);
      if (d) return d;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

/**
 * Clusters of near-duplicates. `figureDir` is where figure paths resolve (the folder of items.jsonl);
 * without it figures are not compared.
 */
export async function findDuplicates(records: readonly CorpusRecord[], s: DedupSettings, figureDir?: string): Promise<DedupResult> {
  const prepared = records.map(prepare);
  const hasher = new MinHasher(s.bands * s.rows);
  const signatures = prepared.map(p => hasher.signature(shingles(`${p.prose}#${p.math}#${p.options}`, s.shingle)));
  const textPairs: [number, number, Omit<Similarity, 'figureBits'>][] = [];
  const candidatePairs = lshPairs(signatures, s.bands, s.rows, (i, j) => {
    if (records[i].source.sha256 === records[j].source.sha256) return;
    const sim = compareText(prepared[i], prepared[j], s);
    if (sim) textPairs.push([i, j, sim]);
  });

  // Figures: hashed only for records in a text-verified pair, once each.
  const hashes = new Map<number, (bigint | null)[]>();
  const figureHashes = async (i: number) => {
    let h = hashes.get(i);
    if (!h) {
      h = await Promise.all(records[i].figures.map(f => (f.path && figureDir ? dHash(path.join(figureDir, f.path)).catch(() => null) : Promise.resolve(null))));
      hashes.set(i, h);
    }
    return h;
  };
  /** The worst bit distance between matched figures, or null when either side has none. */
  const figureBits = async (i: number, j: number): Promise<number | null> => {
    const [a, b] = [(await figureHashes(i)).filter((x): x is bigint => x !== null), (await figureHashes(j)).filter((x): x is bigint => x !== null)];
    if (!a.length || !b.length) return null;
    const [few, many] = a.length <= b.length ? [a, b] : [b, a];
    return Math.max(...few.map(x => Math.min(...many.map(y => hamming(x, y)))));
  };

  // Union by verified pairs, never joining two clusters that hold records of one paper.
  const parent = records.map((_, i) => i);
  const papers = records.map(r => new Set([r.source.sha256]));
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  let verifiedPairs = 0;
  for (const [i, j] of textPairs) {
    const bits = await figureBits(i, j);
    if (bits !== null && bits > s.figureBits) continue;
    verifiedPairs++;
    const [a, b] = [find(i), find(j)];
    if (a === b || [...papers[b]].some(p => papers[a].has(p))) continue;
    parent[b] = a;
    for (const p of papers[b]) papers[a].add(p);
  }

  const groups = new Map<number, number[]>();
  records.forEach((_, i) => {
    const root = find(i);
    const g = groups.get(root);
    if (g) g.push(i);
    else groups.set(root, [i]);
  });
  const order = canonicalOrder(s.canonical);
  const canonicalOf = new Map<string, string>();
  const evidence = new Map<string, Similarity>();
  const clusters: Cluster[] = [];
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    members.sort((x, y) => order(records[x], records[y]));
    const head = members[0];
    clusters.push({ canonical: records[head].id, members: members.map(m => records[m].id) });
    for (const m of members) {
      canonicalOf.set(records[m].id, records[head].id);
      if (m === head) continue;
      const t = compareText(prepared[head], prepared[m], { ...s, text: 0, math: 0, options: 0 });
      evidence.set(records[m].id, {
        text: round(t?.text ?? dice(prepared[head].prose, prepared[m].prose)),
        math: round(t?.math ?? dice(prepared[head].math, prepared[m].math)),
        options: round(t?.options ?? dice(prepared[head].options, prepared[m].options)),
        figureBits: await figureBits(head, m),
      });
    }
  }
  clusters.sort((a, b) => (a.canonical < b.canonical ? -1 : 1));
  return { canonicalOf, evidence, clusters, candidatePairs, verifiedPairs };
}
