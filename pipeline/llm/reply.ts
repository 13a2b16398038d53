// The answer the LLM must give, as a JSON schema sent with the request (structured output) and
// checked again on arrival: a server may ignore the schema, and nothing unchecked reaches a record.

export interface LlmOption { label: string; blocks: string[] }
export interface LlmQuestion { number: number; section: string | null; stem_blocks: string[]; options: LlmOption[]; points: number | null }

export const REPLY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['questions'],
  properties: {
    questions: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['number', 'section', 'stem_blocks', 'options', 'points'],
        properties: {
          number: { type: 'integer' },
          section: { type: ['string', 'null'] },
          stem_blocks: { type: 'array', items: { type: 'string' } },
          options: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['label', 'blocks'],
              properties: { label: { type: 'string' }, blocks: { type: 'array', items: { type: 'string' } } },
            },
          },
          points: { type: ['number', 'null'] },
        },
      },
    },
  },
} as const;

export class ReplyError extends Error {
  constructor(readonly rule: string, message: string) {
    super(message);
    this.name = 'ReplyError';
  }
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(x => typeof x === 'string');

/** The reply's questions, or a ReplyError naming what is wrong; block ids must be ones the request sent. */
export function parseReply(content: string, known: ReadonlySet<string>): LlmQuestion[] {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch (e) {
    throw new ReplyError('llm/malformed', `the reply is not JSON (${(e as Error).message})`);
  }
  const questions = (data as { questions?: unknown })?.questions;
  if (!Array.isArray(questions)) throw new ReplyError('llm/schema', 'the reply has no "questions" array');
  return questions.map((q, i): LlmQuestion => {
    const where = `questions[${i}]`;
    if (typeof q !== 'object' || q === null) throw new ReplyError('llm/schema', `${where} is not an object`);
    const { number, section, stem_blocks, options, points } = q as Record<string, unknown>;
    if (!Number.isInteger(number) || (number as number) < 1) throw new ReplyError('llm/schema', `${where}.number is not a positive integer`);
    if (section !== null && section !== undefined && typeof section !== 'string') throw new ReplyError('llm/schema', `${where}.section is not a string or null`);
    if (!isStrings(stem_blocks)) throw new ReplyError('llm/schema', `${where}.stem_blocks is not a list of block ids`);
    if (!Array.isArray(options) || !options.every(o => typeof o?.label === 'string' && isStrings(o?.blocks))) throw new ReplyError('llm/schema', `${where}.options is not a list of {label, blocks}`);
    if (points !== null && points !== undefined && typeof points !== 'number') throw new ReplyError('llm/schema', `${where}.points is not a number or null`);
    const ids = [...stem_blocks, ...options.flatMap((o: LlmOption) => o.blocks)];
    const invented = ids.filter(id => !known.has(id));
    if (invented.length) throw new ReplyError('llm/unknown-block', `${where} names blocks the request did not send: ${invented.slice(0, 5).join(', ')}`);
    return { number: number as number, section: (section as string | null) ?? null, stem_blocks, options: options as LlmOption[], points: (points as number | null) ?? null };
  });
}
