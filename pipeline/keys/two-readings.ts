// A key read twice — a scanned page's key as the page's OCR read it (in the paper's language) and
// its band read again alone (in the alphabet the options are labelled in) — joined item by item.
// Neither reading is right throughout: the page's OCR reads a serif `B` as `8` beside Korean, the
// band's loses a number a page's line kept. Where they agree, or one alone answers, that answer
// stands; where they differ, the one that names what the question can be answered with (an
// option it prints) stands; where both or neither do, no answer is taken and the caller says so.

export interface KeyAnswer { section: string | null; number: number; value: string }

export interface TwoReadings<T extends KeyAnswer> {
  answers: T[];
  /** Items the readings answer differently with nothing to choose between them. */
  differ: { first: T; second: T }[];
}

const keyOf = (a: KeyAnswer) => `${a.section ?? ''}|${a.number}`;

/** `fits`: whether an answer is one its question can take (an option it prints, a value where it prints none). */
export function joinReadings<T extends KeyAnswer>(first: readonly T[], second: readonly T[], fits: (a: T) => boolean): TwoReadings<T> {
  const other = new Map(second.map(a => [keyOf(a), a]));
  const answers: T[] = [], differ: { first: T; second: T }[] = [];
  for (const a of first) {
    const b = other.get(keyOf(a));
    other.delete(keyOf(a));
    if (!b || b.value === a.value) { answers.push(a); continue; }
    const [fa, fb] = [fits(a), fits(b)];
    if (fa !== fb) answers.push(fa ? a : b);
    else differ.push({ first: a, second: b });
  }
  // Items only the second reading answers.
  answers.push(...other.values());
  return { answers, differ };
}
