// One record into one language through the model: protect, ask (unusable replies asked again by
// askJson), restore, check. The result is either a translation with its checks, or the problems of
// every attempt and no text (an unusable reply is never stored).
import type OpenAI from 'openai';
import type { LlmConfig } from '../config.ts';
import { askJson, type Usage } from '../llm/client.ts';
import { checkTranslation, proseOf, type Check, type ItemText } from './checks.ts';
import { termsIn, type Glossary } from './glossary.ts';
import { protect } from './placeholders.ts';
import { parseTranslation, translationPrompt, TRANSLATION_SCHEMA } from './prompt.ts';

export interface TranslationResult {
  /** The restored translation, or null when no reply could be used. */
  text: ItemText | null;
  /** The checks' findings on the translation, or why there is none (one entry per failed attempt). */
  checks: Check[];
}

/** The client's own rules (`llm/refused`, …) in this pass's name space, so every finding reads `translate/…`. */
const rename = (rule: string) => rule.replace(/^llm\//, 'translate/');

export async function translateItem(client: OpenAI, cfg: LlmConfig, id: string, source: ItemText, from: string, to: string, glossary: Glossary, usage: Usage): Promise<TranslationResult> {
  const labels = source.options.map(o => o.label);
  const text = protect([source.stem, ...source.options.map(o => o.text)]);
  const terms = termsIn(proseOf(source), glossary);
  const prompt = translationPrompt(id, from, to, text, labels, terms);
  const { value, problems } = await askJson(client, cfg, prompt, { name: 'translation', schema: TRANSLATION_SCHEMA }, content => parseTranslation(content, text, labels), usage);
  if (!value) {
    const why = problems.length ? problems : [{ rule: 'translate/failed', message: 'no reply' }];
    return { text: null, checks: why.map((p, i) => ({ rule: rename(p.rule), severity: 'error', message: `attempt ${i + 1}: ${p.message}` })) };
  }
  return { text: value, checks: checkTranslation(source, value, from, to, glossary) };
}
