// One chunk, one question to the model, through the openai client: structured output requested,
// the reply checked, and a reply that cannot be used (malformed, cut short, refused, off-schema)
// asked again after a doubling wait. Transport failures (429, 5xx, resets) are the client's own
// retries. Tokens are counted whatever the outcome.
import type OpenAI from 'openai';
import { load } from '../providers/lazy.ts';
import type { LlmConfig } from '../config.ts';
import { parseReply, ReplyError, REPLY_SCHEMA, type LlmQuestion } from './reply.ts';

export interface Usage { requests: number; promptTokens: number; completionTokens: number }

export interface ChunkResult {
  questions: LlmQuestion[] | null;
  /** Every failed attempt, in order: the rule and what happened. */
  problems: { rule: string; message: string }[];
}

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

export function makeClient(cfg: LlmConfig): OpenAI {
  const { OpenAI: Client } = load<typeof import('openai')>('openai');
  return new Client({ baseURL: cfg.baseURL, apiKey: cfg.apiKey, timeout: cfg.timeoutMs, maxRetries: cfg.attempts - 1 });
}

/**
 * One structured question to the model: the reply must parse with `parse` (which throws a
 * ReplyError for what cannot be used); unusable replies are asked again after a doubling wait.
 */
export async function askJson<T>(client: OpenAI, cfg: LlmConfig, messages: { system: string; user: string }, schema: { name: string; schema: object }, parse: (content: string) => T, usage: Usage): Promise<{ value: T | null; problems: ChunkResult['problems'] }> {
  const problems: ChunkResult['problems'] = [];
  for (let attempt = 1; attempt <= cfg.attempts; attempt++) {
    if (attempt > 1) await sleep(cfg.backoffMs * 2 ** (attempt - 2));
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      usage.requests++;
      completion = await client.chat.completions.create({
        model: cfg.model,
        temperature: 0,
        max_tokens: cfg.maxTokens,
        messages: [{ role: 'system', content: messages.system }, { role: 'user', content: messages.user }],
        response_format: { type: 'json_schema', json_schema: { name: schema.name, strict: true, schema: schema.schema as Record<string, unknown> } },
      });
    } catch (e) {
      // The client has already retried what is worth retrying; what reaches here is final.
      problems.push({ rule: 'llm/request-failed', message: (e as Error).message });
      return { value: null, problems };
    }
    usage.promptTokens += completion.usage?.prompt_tokens ?? 0;
    usage.completionTokens += completion.usage?.completion_tokens ?? 0;
    const choice = completion.choices?.[0];
    if (!choice) { problems.push({ rule: 'llm/empty', message: 'the reply has no choices' }); continue; }
    if (choice.message.refusal) { problems.push({ rule: 'llm/refused', message: `the model refused: ${choice.message.refusal}` }); continue; }
    if (choice.finish_reason === 'length') { problems.push({ rule: 'llm/truncated', message: `the reply was cut off at ${cfg.maxTokens} tokens` }); continue; }
    try {
      return { value: parse(choice.message.content ?? ''), problems };
    } catch (e) {
      if (!(e instanceof ReplyError)) throw e;
      problems.push({ rule: e.rule, message: e.message });
    }
  }
  return { value: null, problems };
}

export async function askChunk(client: OpenAI, cfg: LlmConfig, messages: { system: string; user: string }, known: ReadonlySet<string>, usage: Usage): Promise<ChunkResult> {
  const { value, problems } = await askJson(client, cfg, messages, { name: 'questions', schema: REPLY_SCHEMA }, content => parseReply(content, known), usage);
  return { questions: value, problems };
}
