// A band's words as the recogniser grouped them into text lines: by each word's line box.
import type { OcrWord } from '../providers/ocr.ts';

/** The band's non-blank words by the text line they were found in: lines top to bottom, each line's words left to right. */
export function wordLines(words: readonly OcrWord[]): OcrWord[][] {
  const byLine = new Map<string, OcrWord[]>();
  for (const w of words) {
    if (!w.text.trim()) continue;
    const key = w.line.join(',');
    (byLine.get(key) ?? byLine.set(key, []).get(key)!).push(w);
  }
  return [...byLine.values()].map(l => l.sort((a, b) => a.bbox[0] - b.bbox[0])).sort((a, b) => a[0].line[1] - b[0].line[1]);
}
