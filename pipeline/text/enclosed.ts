// Enclosed alphanumerics (①, ❶, ➀, ㉠, ⓐ): option markers drawn as a ring round a digit or letter.
// On a scan they are found from their rings (ocr/rings.ts), not from what the recogniser reads.

/** One enclosed alphanumeric. */
export const ENCLOSED = /^[\u2460-\u24FF\u2776-\u2793\u3260-\u327F\u3251-\u325F\u32B1-\u32BF]$/u;

/** Whether a scheme's markers are all enclosed ones (and there are some). */
export const allEnclosed = (markers: readonly string[]): boolean => markers.length > 0 && markers.every(m => ENCLOSED.test(m));
