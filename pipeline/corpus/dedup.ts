// Near-duplicate clusters over a set of records. Two records can only be duplicates when their
// numbers are the same (a question with one number changed is another question) and they have as
// many options: records are grouped by that first, exactly, and only groups of two or more go on.
// Within them, candidates come from MinHash/LSH over character n-grams of a math-aware normal form
// (sub-quadratic: all pairs are never compared); each candidate is then verified: the same options
// as a set (order does not matter), prose, formulas and options similar by Dice's coefficient
// (string-similarity), and where both have figures, crops alike by perceptual hash. Records of one paper are
// never merged: a paper does not print a question twice. Clusters grow by union-find as each band's
// buckets are read, so no list of pairs is ever held, and records are read by position, so they
// need not all be held either (README, "Near-duplicates at corpus scale": a million in minutes).
import path from 'node:path';
import stringSimilarity from 'string-similarity';
import { examDateKey, examDate } from '../exam-date.ts';
import { MinHasher, shingleHashes } from './minhash.ts';
import { PaperClusters } from './paper-clusters.ts';
import { dHash, hamming } from './phash.ts';
import { formulasOf, normLatex, normProse, proseOf, type CorpusRecord } from './record-text.ts';
import type { DedupSettings } from '../config.ts';

export type { DedupSettings };

export interface Similarity { text: number; math: number; options: number; figureBits: number | null }

export interface Cluster {
  canonical: string;
  members: string[];
}

/**
 * Members of one bucket (one band's key, one group of numbers) compared pair by pair at most. A
 * bigger bucket (thousands of records with the same numbers that agree on a band: one question
 * copied over and over) is joined through representatives instead: each member is compared with
 * the last REPRESENTATIVES members that joined no one before it, and joins the first it matches.
 */
export const BUCKET_CAP = 200;
export const REPRESENTATIVES = 16;

export interface DedupResult {
  /** id → its cluster's canonical id, for every record in a cluster of two or more (canonical records map to themselves). */
  canonicalOf: Map<string, string>;
  /** id → how it compares with its canonical record, for every non-canonical member. */
  evidence: Map<string, Similarity>;
  clusters: Cluster[];
  /** Distinct pairs compared (LSH candidates of equal numbers), and those verified. */
  candidatePairs: number;
  verifiedPairs: number;
  /** Records in a group of equal numbers with another (the only ones that get a signature). */
  grouped: number;
  /** Buckets past BUCKET_CAP, joined through representatives. */
  cappedBuckets: number;
}

interface Prepared {
  prose: string;
  math: string;
  options: string;
  numbers: string;
  optionCount: number;
}

/** The stem's numbers in order, and the options' as a multiset (their order does not count). */
export function numbersOf(r: CorpusRecord): string {
  const digits = (t: string) => t.match(/\d+(?:\.\d+)?/g) ?? [];
  return `${digits(r.stem).join(',')}#${r.options.flatMap(o => digits(o.text)).sort().join(',')}`;
}

/**
 * The string as a copy of its own. V8 returns a regex replace's result as a tree of pieces that
 * point into the string replaced (a 2,400-character prose held 30 KB that way, six times its size),
 * and a substring as a view that keeps the whole string it was cut from; held for every record that
 * shares its numbers, that was most of dedup's memory at a million records. A JSON round trip is a
 * fresh flat string with the same code units (lone surrogates included), at one linear pass.
 */
function detached(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
}

/** The normal form two records are compared in: whitespace, `\dfrac`/`\frac` and option order do not count. */
export function prepare(r: CorpusRecord): Prepared {
  const squeeze = (s: string) => normProse(s).replace(/\s+/g, '');
  const options = r.options.map(o => squeeze(proseOf(o.text)) + formulasOf(o.text).map(normLatex).join('')).sort();
  return {
    prose: detached(squeeze(proseOf(r.stem))),
    math: detached(formulasOf(r.stem).map(normLatex).join('|')),
    options: detached(options.join('|')),
    numbers: detached(numbersOf(r)),
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

/** Positions sorted by radix from this many on (below, a comparison sort is quicker). */
const RADIX_FROM = 20_000;

/** A stable sort of the positions 0…n−1 by a 32-bit key (LSD radix, 16 bits a pass): equal keys keep their order. */
function sortByKey(order: Int32Array, key: (p: number) => number, tmp: Int32Array): void {
  const n = order.length;
  for (const shift of [0, 16]) {
    const count = new Int32Array(65537);
    for (let k = 0; k < n; k++) count[((key(order[k]) >>> shift) & 0xffff) + 1]++;
    for (let v = 0; v < 65536; v++) count[v + 1] += count[v];
    for (let k = 0; k < n; k++) tmp[count[(key(order[k]) >>> shift) & 0xffff]++] = order[k];
    order.set(tmp);
  }
}

/**
 * Records by position: an array, or a source that builds record i when asked. Dedup reads each
 * record at most three times (its numbers; its text, if it shares its numbers with another; its
 * id, if it joins a cluster) and keeps of it only small numbers and, for the records that share
 * their numbers, the normal form it compares: a million records need not be held at once.
 */
export interface RecordSource {
  readonly length: number;
  at(i: number): CorpusRecord | undefined;
}

/**
 * Clusters of near-duplicates. `figureDir` is where figure paths resolve (the folder of items.jsonl);
 * without it figures are not compared.
 */
export async function findDuplicates(records: RecordSource, s: DedupSettings, figureDir?: string): Promise<DedupResult> {
  const n = records.length;
  const get = (d: number): CorpusRecord => {
    const r = records.at(d);
    if (!r) throw new Error(`dedup: no record at ${d} of ${n}`);
    return r;
  };

  // Groups of equal numbers and option count; papers as small numbers.
  const groupIds = new Map<string, number>(), paperIds = new Map<string, number>();
  const group = new Int32Array(n), paperOfRecord = new Int32Array(n);
  for (let d = 0; d < n; d++) {
    const r = get(d);
    const key = `${numbersOf(r)}\u0000${r.options.length}`;
    let g = groupIds.get(key);
    if (g === undefined) groupIds.set(key, (g = groupIds.size));
    group[d] = g;
    let p = paperIds.get(r.source.sha256);
    if (p === undefined) paperIds.set(r.source.sha256, (p = paperIds.size));
    paperOfRecord[d] = p;
  }
  const groupSize = new Int32Array(groupIds.size);
  for (let d = 0; d < n; d++) groupSize[group[d]]++;
  groupIds.clear();
  paperIds.clear();

  // From here on, only the records in a group of two or more, by position c (in record order): no
  // other record can have a duplicate, and nothing is kept of them. Each one's normal form, figures
  // (where it has any), group, paper and band keys.
  let m = 0;
  for (let d = 0; d < n; d++) if (groupSize[group[d]] > 1) m++;
  const rec = new Int32Array(m), groupOf = new Int32Array(m), paper = new Int32Array(m);
  const prepared: Prepared[] = [];
  const figures: (readonly { path: string | null }[] | undefined)[] = [];
  const B = s.bands;
  const keys = new Uint32Array(m * B);
  const hasher = new MinHasher(B * s.rows);
  for (let d = 0, c = 0; d < n; d++) {
    if (groupSize[group[d]] < 2) continue;
    const r = get(d), p = prepare(r);
    rec[c] = d;
    groupOf[c] = group[d];
    paper[c] = paperOfRecord[d];
    prepared.push(p);
    figures.push(r.figures.length ? r.figures : undefined);
    hasher.bandKeys(shingleHashes(`${p.prose}#${p.math}#${p.options}`, s.shingle), B, s.rows, keys, c * B);
    c++;
  }
  /** Whether positions a and b agreed on a band before band b0 (their pair was met there). */
  const metBefore = (a: number, b: number, b0: number) => {
    for (let e = 0; e < b0; e++) if (keys[a * B + e] === keys[b * B + e]) return true;
    return false;
  };

  // Figures: hashed only for records in a text-verified pair, once each.
  const hashes = new Map<number, (bigint | null)[]>();
  const figureHashes = async (c: number) => {
    let h = hashes.get(c);
    if (!h) {
      h = await Promise.all((figures[c] ?? []).map(f => (f.path && figureDir ? dHash(path.join(figureDir, f.path)).catch(() => null) : Promise.resolve(null))));
      hashes.set(c, h);
    }
    return h;
  };
  /** The worst bit distance between matched figures, or null when either side has none. */
  const figureBits = async (i: number, j: number): Promise<number | null> => {
    if (!figures[i] || !figures[j]) return null;
    const [a, b] = [(await figureHashes(i)).filter((x): x is bigint => x !== null), (await figureHashes(j)).filter((x): x is bigint => x !== null)];
    if (!a.length || !b.length) return null;
    const [few, many] = a.length <= b.length ? [a, b] : [b, a];
    return Math.max(...few.map(x => Math.min(...many.map(y => hamming(x, y)))));
  };

  // Clusters by union-find over positions, never two records of one paper in one.
  const joins = new PaperClusters(paper);
  let candidatePairs = 0, verifiedPairs = 0, cappedBuckets = 0;
  /** Verifies a candidate pair and joins it; whether the two are in one cluster after (a promise only where figures are compared). */
  const consider = (i: number, j: number): boolean | Promise<boolean> => {
    candidatePairs++;
    if (paper[i] === paper[j]) return false;
    if (!compareText(prepared[i], prepared[j], s)) return false;
    const join = (bits: number | null) => {
      if (bits !== null && bits > s.figureBits) return false;
      verifiedPairs++;
      return joins.union(i, j);
    };
    return figures[i] && figures[j] ? figureBits(i, j).then(join) : join(null);
  };

  // Band by band: positions sorted by (band key, group), so each run is a bucket; buckets in the
  // order of their first record.
  const byKey = new Int32Array(m), tmp = new Int32Array(m);
  for (let b = 0; b < B && m > 1; b++) {
    for (let c = 0; c < m; c++) byKey[c] = c;
    if (m > RADIX_FROM) {
      sortByKey(byKey, c => groupOf[c], tmp);
      sortByKey(byKey, c => keys[c * B + b], tmp);
    } else byKey.sort((x, y) => keys[x * B + b] - keys[y * B + b] || groupOf[x] - groupOf[y] || x - y);
    const starts: number[] = [];
    for (let k = 0; k < m; k++) {
      const c = byKey[k], prev = k && byKey[k - 1];
      if (k === 0 || keys[c * B + b] !== keys[prev * B + b] || groupOf[c] !== groupOf[prev]) starts.push(k);
    }
    starts.push(m);
    const buckets = starts.slice(0, -1).map((start, x) => [start, starts[x + 1]] as const).filter(([s0, s1]) => s1 - s0 > 1).sort((x, y) => byKey[x[0]] - byKey[y[0]]);
    for (const [start, end] of buckets) {
      if (end - start <= BUCKET_CAP) {
        for (let x = start; x < end; x++) for (let y = x + 1; y < end; y++) {
          if (metBefore(byKey[x], byKey[y], b)) continue;
          const r = consider(byKey[x], byKey[y]);
          if (r instanceof Promise) await r;
        }
        continue;
      }
      cappedBuckets++;
      const reps: number[] = [];
      for (let x = start; x < end; x++) {
        const c = byKey[x];
        let joined = false;
        for (let k = reps.length - 1; k >= 0 && !joined; k--) {
          if (joins.find(reps[k]) === joins.find(c)) joined = true;
          else if (!metBefore(reps[k], c, b)) joined = await consider(reps[k], c);
        }
        if (!joined) {
          reps.push(c);
          if (reps.length > REPRESENTATIVES) reps.shift();
        }
      }
    }
  }

  // Clusters of two or more, in the order of their first record; each record read again for its id
  // and the fields the canonical rule orders by.
  const groups = new Map<number, number[]>();
  for (let c = 0; c < m; c++) {
    if (!joins.joined(c)) continue;
    const root = joins.find(c);
    const g = groups.get(root);
    if (g) g.push(c);
    else groups.set(root, [c]);
  }
  const order = canonicalOrder(s.canonical);
  const canonicalOf = new Map<string, string>();
  const evidence = new Map<string, Similarity>();
  const clusters: Cluster[] = [];
  for (const positions of groups.values()) {
    if (positions.length < 2) continue;
    const members = positions.map(c => ({ c, r: get(rec[c]) })).sort((x, y) => order(x.r, y.r));
    const head = members[0];
    clusters.push({ canonical: head.r.id, members: members.map(x => x.r.id) });
    for (const { c, r } of members) {
      canonicalOf.set(r.id, head.r.id);
      if (c === head.c) continue;
      const [ph, pm] = [prepared[head.c], prepared[c]];
      const t = compareText(ph, pm, { ...s, text: 0, math: 0, options: 0 });
      evidence.set(r.id, {
        text: round(t?.text ?? dice(ph.prose, pm.prose)),
        math: round(t?.math ?? dice(ph.math, pm.math)),
        options: round(t?.options ?? dice(ph.options, pm.options)),
        figureBits: await figureBits(head.c, c),
      });
    }
  }
  clusters.sort((a, b) => (a.canonical < b.canonical ? -1 : 1));
  return { canonicalOf, evidence, clusters, candidatePairs, verifiedPairs, grouped: m, cappedBuckets };
}
