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

/**
 * The hashes of a text's character n-grams (code points, as `shingles` takes them), without making
 * a string of each: the same values, hashed over the text's UTF-16 units in place, sorted, each once.
 */
export function shingleHashes(text: string, n: number): Uint32Array {
  // Where each code point starts (a character outside the BMP is two units).
  const starts: number[] = [];
  for (let i = 0; i < text.length; i++) {
    starts.push(i);
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
  }
  starts.push(text.length);
  const points = starts.length - 1;
  if (points <= n) return Uint32Array.of(hash32(text));
  const out = new Uint32Array(points - n + 1);
  for (let k = 0; k + n <= points; k++) {
    let h = 0x811c9dc5;
    for (let i = starts[k], end = starts[k + n]; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    out[k] = h >>> 0;
  }
  out.sort();
  let w = 0;
  for (let k = 0; k < out.length; k++) if (k === 0 || out[k] !== out[k - 1]) out[w++] = out[k];
  return out.subarray(0, w);
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

  signature(hashes: Iterable<number>, sig: Uint32Array<ArrayBuffer> = new Uint32Array(this.permutations)): Uint32Array<ArrayBuffer> {
    sig.fill(0xffffffff);
    const seeds = this.seeds, perms = this.permutations;
    for (const h of hashes) {
      for (let i = 0; i < perms; i++) {
        const v = mix(h ^ seeds[i]);
        if (v < sig[i]) sig[i] = v;
      }
    }
    return sig;
  }

  private scratch?: Uint32Array<ArrayBuffer>;

  /** The signature's band keys (see bandKey), written to `out` from `at`. */
  bandKeys(hashes: Iterable<number>, bands: number, rows: number, out: Uint32Array, at: number): void {
    const sig = this.signature(hashes, (this.scratch ??= new Uint32Array(this.permutations)));
    for (let b = 0; b < bands; b++) out[at + b] = bandKey(sig, b, rows);
  }
}

/** Band b of a signature (rows r·b … r·b + r − 1) as one 32-bit key: two signatures agree on the band where their keys are equal (but for hash collisions). */
export function bandKey(sig: ArrayLike<number>, b: number, rows: number): number {
  let h = 0x811c9dc5 ^ b;
  for (let r = 0; r < rows; r++) h = Math.imul(h ^ sig[b * rows + r], 0x01000193);
  return h >>> 0;
}

/**
 * Every pair of signatures that agree on all rows of at least one band, each pair once (i < j),
 * in the band where they first agree. With b bands of r rows, a pair of Jaccard similarity s is a
 * candidate with probability 1 − (1 − s^r)^b: for 16 × 4, 0.9998 at s = 0.8 and 0.12 at s = 0.3.
 * No set of the pairs is kept (a pair met again in a later band is known by its earlier keys), so
 * any number of pairs can go by; the caller decides what to keep.
 */
export function lshPairs(signatures: readonly Uint32Array[], bands: number, rows: number, onPair: (i: number, j: number) => void): number {
  const n = signatures.length;
  const keys = new Uint32Array(n * bands);
  for (let d = 0; d < n; d++) for (let b = 0; b < bands; b++) keys[d * bands + b] = bandKey(signatures[d], b, rows);
  const metBefore = (i: number, j: number, b: number) => {
    for (let e = 0; e < b; e++) if (keys[i * bands + e] === keys[j * bands + e]) return true;
    return false;
  };
  let count = 0;
  for (let b = 0; b < bands; b++) {
    const buckets = new Map<number, number[]>();
    for (let d = 0; d < n; d++) {
      const key = keys[d * bands + b];
      const bucket = buckets.get(key);
      if (bucket) bucket.push(d);
      else buckets.set(key, [d]);
    }
    for (const bucket of buckets.values()) {
      for (let x = 0; x < bucket.length; x++) for (let y = x + 1; y < bucket.length; y++) {
        if (metBefore(bucket[x], bucket[y], b)) continue;
        count++;
        onPair(bucket[x], bucket[y]);
      }
    }
  }
  return count;
}

