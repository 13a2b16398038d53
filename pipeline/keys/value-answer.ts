// Whether a key's entry is a value (`7`, `-3/4`, `x = 2`, `12,5`) rather than a worked answer in words.

/** A value is short: at most this many characters… */
const MAX_CHARS = 24;
/** …and at most this many words (`x = 2` is three). */
const MAX_WORDS = 4;

export function isValueAnswer(value: string): boolean {
  const v = value.trim();
  return v.length > 0 && v.length <= MAX_CHARS && v.split(/\s+/u).length <= MAX_WORDS;
}
