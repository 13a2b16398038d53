// The number of questions a paper says it holds (`Esta prueba consta de 80 preguntas`), read by
// the template's own patterns: the first statement found counts (a later `60 de las cuales` is
// about scoring, not about how many are printed).
import type { PaperDocument } from '../document.ts';
import { rawText } from './line-text.ts';
import { closeViramaSpaces } from './script.ts';

/** The cover and whatever comes before the first question (instructions): where a paper states its count and total. */
export function frontText(doc: PaperDocument): string {
  const first = doc.questions[0]?.lines[0];
  const until = first ? doc.lines.indexOf(first) : doc.lines.length;
  return [doc.cover, ...doc.lines.slice(0, Math.max(0, until)).map(l => rawText(l.spans))].join('\n');
}

/** Each pattern's statements in the text, in order. Words are matched as printed (`प्रश्न`, where a text layer gives `प्रश् न`). */
function statements(raw: string, patterns: readonly RegExp[]): RegExpMatchArray[][] {
  const text = closeViramaSpaces(raw);
  return patterns.map(re => [...text.matchAll(new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`))]);
}

/** The count group 1 of the first pattern that matches gives, or null where the text states none. */
export function statedCount(raw: string, patterns: readonly RegExp[]): number | null {
  let best: { at: number; count: number } | null = null;
  for (const [m] of statements(raw, patterns)) {
    if (m && Number(m[1]) > 0 && (!best || m.index! < best.at)) best = { at: m.index!, count: Number(m[1]) };
  }
  return best?.count ?? null;
}

/**
 * Whether the text states a count whose number reads 0 (`इस प्रश्न-पत्र में 0 प्रश्न हैं`: OCR lost the
 * `1` of `10` beside Devanagari): no paper holds no questions, so the count is stated but unread.
 */
export function statesUnreadCount(raw: string, patterns: readonly RegExp[]): boolean {
  return statements(raw, patterns).some(ms => ms.some(m => /^0+$/.test(m[1] ?? '')));
}
