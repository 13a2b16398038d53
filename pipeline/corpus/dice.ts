// Dice's coefficient over character bigrams, the value string-similarity's compareTwoStrings gives
// (whitespace dropped, bigrams of UTF-16 units counted as a multiset), computed without its garbage:
// it makes a substring and a Map entry per bigram, and over a million records' verified pairs of
// long stems that was most of dedup's time and half of it collecting garbage. Here a bigram is the
// 32-bit number of its two units (exact: no hashing), the two texts' bigrams are sorted and counted
// by one merge, in two scratch arrays reused from call to call.

let scratchA: Uint32Array = new Uint32Array(1024), scratchB: Uint32Array = new Uint32Array(1024);

/** The text's bigrams, sorted, in a scratch array (valid until the next call that uses that scratch). */
function bigrams(text: string, scratch: Uint32Array): Uint32Array {
  const n = text.length - 1;
  for (let i = 0; i < n; i++) scratch[i] = ((text.charCodeAt(i) << 16) | text.charCodeAt(i + 1)) >>> 0;
  return scratch.subarray(0, n).sort();
}

const grown = (a: Uint32Array, n: number) => (a.length >= n ? a : new Uint32Array(Math.max(n, a.length * 2)));

/** Dice's coefficient of two texts' bigram multisets: 1 when equal (or both empty), 0 when either has under two characters. */
export function dice(first: string, second: string): number {
  first = first.replace(/\s+/g, '');
  second = second.replace(/\s+/g, '');
  if (first === second) return 1;
  if (first.length < 2 || second.length < 2) return 0;
  scratchA = grown(scratchA, first.length);
  scratchB = grown(scratchB, second.length);
  const a = bigrams(first, scratchA), b = bigrams(second, scratchB);
  let common = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) { common++; i++; j++; }
    else if (a[i] < b[j]) i++;
    else j++;
  }
  return (2 * common) / (first.length + second.length - 2);
}
