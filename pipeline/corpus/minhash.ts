// MinHash signatures and LSH banding: candidate pairs of near-duplicates without comparing all
// pairs. Written here rather than taken from npm: the `minhash` package (0.0.9) multiplies 32-bit
// values in doubles past 2^53 (its permutations lose bits) and rehashes each shingle once per
// permutation; this one hashes a shingle once and derives every permutation with integer mixing.

/** FNV-1a over UTF-16 code units. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** MurmurHash3's finaliser: a good 32-bit mix, cheap enough to run once per permutation. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Character n-grams of a text (the text itself when it is shorter than n). */
export function shingles(text: string, n: number): Set<number> {
  const out = new Set<number>();
  const chars = Array.from(text);
  if (chars.length <= n) out.add(hash32(text));
  else for (let i = 0; i + n <= chars.length; i++) out.add(hash32(chars.slice(i, i + n).join('')));
  return out;
}

export class MinHasher {
  private readonly seeds: Uint32Array;

  constructor(readonly permutations: number, seed = 0x5eed) {
    this.seeds = new Uint32Array(permutations);
    for (let i = 0; i < permutations; i++) this.seeds[i] = mix(seed + Math.imul(i + 1, 0x9e3779b9));
  }

  signature(hashes: Iterable<number>): Uint32Array {
    const sig = new Uint32Array(this.permutations).fill(0xffffffff);
    for (const h of hashes) {
      for (let i = 0; i < this.permutations; i++) {
        const v = mix(h ^ this.seeds[i]);
        if (v < sig[i]) sig[i] = v;
      }
    }
    return sig;
  }
}

/**
 * Every pair of signatures that agree on all rows of at least one band, each pair once (i < j).
 * With b bands of r rows, a pair of Jaccard similarity s is a candidate with probability
 * 1 − (1 − s^r)^b: for 16 × 4, 0.9998 at s = 0.8 and 0.12 at s = 0.3.
 */
export function lshPairs(signatures: readonly Uint32Array[], bands: number, rows: number, onPair: (i: number, j: number) => void): number {
  const seen = new Set<number>();
  const n = signatures.length;
  for (let b = 0; b < bands; b++) {
    const buckets = new Map<number, number[]>();
    for (let d = 0; d < n; d++) {
      let h = 0x811c9dc5 ^ b;
      for (let r = 0; r < rows; r++) h = Math.imul(h ^ signatures[d][b * rows + r], 0x01000193);
      const key = h >>> 0;
      const bucket = buckets.get(key);
      if (bucket) bucket.push(d);
      else buckets.set(key, [d]);
    }
    for (const bucket of buckets.values()) {
      for (let x = 0; x < bucket.length; x++) for (let y = x + 1; y < bucket.length; y++) {
        const pair = bucket[x] * n + bucket[y];
        if (seen.has(pair)) continue;
        seen.add(pair);
        onPair(bucket[x], bucket[y]);
      }
    }
  }
  return seen.size;
}
