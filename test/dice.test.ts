// dice.ts gives string-similarity's compareTwoStrings value exactly (dedup's thresholds were set on
// it), over texts where the two could part: repeated bigrams, whitespace, surrogate pairs, one- and
// no-character texts.
import stringSimilarity from 'string-similarity';
import { describe, expect, it } from 'vitest';
import { dice } from '../pipeline/corpus/dice.ts';

describe('dice', () => {
  it('equals compareTwoStrings on random texts and on the edge cases', () => {
    let seed = 11;
    const next = (k: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % k;
    // A small alphabet so bigrams repeat; Hangul, a formula's characters, an astral letter, whitespace.
    const alphabet = ['a', 'b', 'c', '가', '나', '\\', '{', '}', '$', ' ', '\n', '𝑥', 'ab'];
    const text = () => Array.from({ length: next(40) }, () => alphabet[next(alphabet.length)]).join('');
    const pairs: [string, string][] = [['', ''], ['a', ''], ['a', 'a'], ['a', 'b'], ['ab', 'ab '], [' a b ', 'ab'], ['𝑥', '𝑥𝑥'], ['aaaa', 'aa']];
    for (let i = 0; i < 2000; i++) {
      const a = text();
      // Half the pairs are near each other: one character of a changed.
      const b = i % 2 ? text() : a.slice(0, next(a.length + 1)) + alphabet[next(alphabet.length)] + a.slice(next(a.length + 1));
      pairs.push([a, b]);
    }
    const differing = pairs.filter(([a, b]) => dice(a, b) !== stringSimilarity.compareTwoStrings(a, b));
    expect(differing).toEqual([]);
    // The texts are varied enough to have taken every branch of the value.
    const values = new Set(pairs.map(([a, b]) => dice(a, b)));
    expect(values.has(0) && values.has(1) && values.size > 100).toBe(true);
  });
});
