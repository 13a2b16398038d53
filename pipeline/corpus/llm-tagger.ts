// The optional model tagger (on where LLM_* is configured): the model sees the question and the
// numbered paths the curriculum trees allow for it, and answers with numbers only, so it can
// choose but never invent a path. A reply that cannot be used is asked again; after the last
// attempt the cue tagger's paths stand, with a note saying why.
import type OpenAI from 'openai';
import type { LlmConfig } from '../config.ts';
import { askJson, type Usage } from '../llm/client.ts';
import { ReplyError } from '../llm/reply.ts';
import type { CorpusRecord } from './record-text.ts';
import { chosenPath, type TagResult } from './tagger.ts';

export const TAG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['paths'],
  properties: { paths: { type: 'array', items: { type: 'integer' } } },
} as const;

const SYSTEM = 'You classify exam questions by curriculum unit. Choose from the numbered units only. '
  + 'Answer with JSON {"paths": [n]} giving the number of the unit the question mainly tests, then at most one more if it clearly needs a second unit.';

export function tagPrompt(record: CorpusRecord, candidates: TagResult['candidates']): { system: string; user: string } {
  const question = [record.stem, ...record.options.map(o => `${o.label} ${o.text}`)].join('\n');
  const units = candidates.map((c, i) => `${i + 1}. ${c.path.join(' > ')}`).join('\n');
  return { system: SYSTEM, user: `Question ${record.id}:\n${question}\n\nUnits:\n${units}` };
}

/** The model's choice as 0-based candidate indices, or a ReplyError for what cannot be used. */
export function parseTagReply(content: string, count: number): number[] {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    throw new ReplyError('llm/malformed', `the reply is not JSON: ${content.slice(0, 80)}`);
  }
  const paths = (data as { paths?: unknown })?.paths;
  if (!Array.isArray(paths) || !paths.length || paths.length > 2) throw new ReplyError('llm/off-schema', `"paths" must hold one or two unit numbers, got ${JSON.stringify(paths)}`);
  for (const p of paths) if (!Number.isInteger(p) || p < 1 || p > count) throw new ReplyError('llm/unknown-unit', `unit ${JSON.stringify(p)} is not one of the ${count} offered`);
  return [...new Set(paths as number[])].map(p => p - 1);
}

export async function tagWithLlm(client: OpenAI, cfg: LlmConfig, record: CorpusRecord, cue: TagResult, usage: Usage): Promise<TagResult> {
  if (!cue.candidates.length) return cue;
  const { value, problems } = await askJson(client, cfg, tagPrompt(record, cue.candidates), { name: 'units', schema: TAG_SCHEMA }, c => parseTagReply(c, cue.candidates.length), usage);
  if (!value) {
    const why = problems.map(p => `${p.rule}: ${p.message}`).join('; ');
    return { ...cue, note: [cue.note, `the model's reply could not be used (${why}): the cue tagger's paths stand`].filter(Boolean).join('; ') };
  }
  return { ...cue, paths: value.map(i => chosenPath(cue.candidates, i)) };
}
