// The question put to the model for one record and one target language, and the reply it must give:
// the protected stem and options as JSON in, the same shape out (structured output), checked again
// on arrival. A reply that cannot be restored exactly is a ReplyError, so it is asked again.
import { ReplyError } from '../llm/reply.ts';
import type { ItemText } from './checks.ts';
import type { GlossaryTerm } from './glossary.ts';
import { PlaceholderError, restore, type Protected } from './placeholders.ts';

export const TRANSLATION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['stem', 'options'],
  properties: {
    stem: { type: 'string' },
    options: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['label', 'text'], properties: { label: { type: 'string' }, text: { type: 'string' } } },
    },
  },
} as const;

const NAMES: Record<string, string> = { ko: 'Korean', en: 'English', zh: 'Chinese', ja: 'Japanese', es: 'Spanish', pt: 'Portuguese', fr: 'French', de: 'German', vi: 'Vietnamese' };
export const languageName = (lang: string) => NAMES[lang] ?? lang;

const system = (from: string, to: string) => [
  `You translate mathematics exam questions from ${languageName(from)} into ${languageName(to)} for a benchmark: the same question, in natural exam wording, nothing added or explained.`,
  'The text holds placeholders such as ⟦M1⟧ (a formula), ⟦N1⟧ (a number), ⟦L1⟧ (a label such as ① or (가)) and ⟦F1⟧ (a figure). Copy every placeholder exactly once, unchanged, into the same field: never write a formula, number or label yourself, and never split, merge or translate a placeholder.',
  'A placeholder that stands on a line of its own stays on a line of its own, in the same order; any other placeholder stays between the same such lines. Write numbers that are not placeholders as words.',
  'Use the required terms exactly as given.',
  'Answer with JSON {"stem": "...", "options": [{"label": "...", "text": "..."}]}: the options in the order given, with their labels unchanged.',
].join('\n');

/** The system and user messages for one record. The user message starts with `Item <id> <from>-><to>`, which the replay tests key on. */
export function translationPrompt(id: string, from: string, to: string, text: Protected, labels: readonly string[], terms: readonly GlossaryTerm[]): { system: string; user: string } {
  const input = { stem: text.fields[0], options: labels.map((label, i) => ({ label, text: text.fields[i + 1] })) };
  const required = terms.length ? terms.map(t => `${t.term} → ${t.translations[0]}`).join('\n') : '(none)';
  return { system: system(from, to), user: `Item ${id} ${from}->${to}\nRequired terms:\n${required}\n\nInput:\n${JSON.stringify(input, null, 1)}` };
}

/** The item key of a translation request (`Item <id> ko->en` → `<id>`). */
export const itemOfPrompt = (user: string) => /^Item (\S+) /.exec(user)?.[1] ?? null;

/** The reply as restored text (formulas and labels back in place), or a ReplyError naming what is wrong. */
export function parseTranslation(content: string, text: Protected, labels: readonly string[]): ItemText {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch (e) {
    throw new ReplyError('translate/malformed', `the reply is not JSON (${(e as Error).message.split('\n')[0]}): ${content.slice(0, 60)}`);
  }
  const { stem, options } = (data ?? {}) as { stem?: unknown; options?: unknown };
  if (typeof stem !== 'string') throw new ReplyError('translate/schema', 'the reply has no "stem" string');
  if (!Array.isArray(options) || !options.every(o => typeof o?.label === 'string' && typeof o?.text === 'string')) throw new ReplyError('translate/schema', 'the reply\'s "options" is not a list of {label, text}');
  if (options.length !== labels.length) throw new ReplyError('translate/options', `the reply has ${options.length} options where ${labels.length} were sent`);
  const changed = options.map((o, i) => [o.label, labels[i]]).filter(([a, b]) => a !== b);
  if (changed.length) throw new ReplyError('translate/options', `option labels changed: ${changed.map(([a, b]) => `${a} for ${b}`).join(', ')}`);
  let fields: string[];
  try {
    fields = restore([stem, ...options.map(o => o.text as string)], text.table);
  } catch (e) {
    if (e instanceof PlaceholderError) throw new ReplyError('translate/placeholders', e.message);
    throw e;
  }
  if (!fields[0].trim()) throw new ReplyError('translate/schema', 'the translated stem is empty');
  return { stem: fields[0], options: labels.map((label, i) => ({ label, text: fields[i + 1] })) };
}
