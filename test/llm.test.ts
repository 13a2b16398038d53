// The optional LLM stage against a real HTTP server on 127.0.0.1 that speaks chat completions and
// replays recorded replies (test/fixtures/llm/), through the real openai client: a real paper gets
// the same questions as the template parse, and every kind of bad reply ends as a diagnostic.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../pipeline/config.ts';
import { runBatch } from '../pipeline/run.ts';
import { parseReply, ReplyError } from '../pipeline/llm/reply.ts';
import { chunksOf, fillPrompt } from '../pipeline/llm/blocks.ts';
import { haveShared, SHARED } from './helpers.ts';
import { RECORD_ENV } from './llm-settings.ts';
import { startReplay, type Fault, type Replay } from './llm-replay.ts';

const RECORDING = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'fixtures', 'llm', 'gaokao-2016.json'), 'utf8'));
let replay: Replay | null = null;
afterEach(async () => { await replay?.close(); replay = null; });

async function ingest(env: NodeJS.ProcessEnv) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llm-in-'));
  fs.symlinkSync(path.join(SHARED, 'fixtures', 'papers', 'gaokao', RECORDING.paper), path.join(dir, RECORDING.paper));
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'llm-out-'));
  const result = await runBatch(resolveConfig({ year: '2099', inDir: dir, outDir: out, progress: false }, env));
  const records = fs.readFileSync(path.join(out, '2099', 'items.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l));
  return { paper: result.papers[0], records };
}
const shape = (records: { section: string; number: number; type: string; options: unknown[]; points: number; stem: string }[]) =>
  records.map(r => ({ section: r.section, number: r.number, type: r.type, options: r.options.length, points: r.points, stem: r.stem })).sort((a, b) => a.number - b.number);

describe('LLM replies', () => {
  it('are checked: JSON, the schema, and block ids the request sent', () => {
    const known = new Set(['p1.1', 'p1.2']);
    expect(parseReply('{"questions":[{"number":1,"section":null,"stem_blocks":["p1.1"],"options":[],"points":3}]}', known)[0].number).toBe(1);
    const rule = (content: string) => { try { parseReply(content, known); return null; } catch (e) { return (e as ReplyError).rule; } };
    expect(rule('{"questions": [')).toBe('llm/malformed');
    expect(rule('{"items": []}')).toBe('llm/schema');
    expect(rule('{"questions":[{"number":"one","section":null,"stem_blocks":[],"options":[],"points":null}]}')).toBe('llm/schema');
    expect(rule('{"questions":[{"number":2,"section":null,"stem_blocks":["p9.9"],"options":[],"points":null}]}')).toBe('llm/unknown-block');
  });

  it('are asked for in overlapping chunks, with the template prompt filled and nothing left unfilled', () => {
    const blocks = Array.from({ length: 25 }, (_, i) => ({ id: `p1.${i + 1}` })) as never[];
    const chunks = chunksOf(blocks, 10, 3);
    expect(chunks.map(c => c.length)).toEqual([10, 10, 10, 4]);
    expect((chunks[1][0] as { id: string }).id).toBe('p1.8');
    expect(fillPrompt('page {{page}}', { page: '3' })).toBe('page 3');
    expect(() => fillPrompt('{{nope}}', {})).toThrow(/\{\{nope\}\}/);
  });
});

describe.skipIf(!haveShared())('LLM stage through a loopback chat-completions server', () => {
  it('reads a real paper to the same questions as the template parse, with no disagreement, and counts tokens', async () => {
    const plain = await ingest({});
    replay = await startReplay(RECORDING.replies);
    const withLlm = await ingest({ ...RECORD_ENV, LLM_BASE_URL: replay.url });
    expect(withLlm.paper.status).toBe('done');
    expect(replay.requests.length).toBe(Object.keys(RECORDING.replies).length);
    expect(replay.requests.every(r => r.model === 'replay' && r.hasSchema)).toBe(true);
    expect(shape(withLlm.records)).toEqual(shape(plain.records));
    const rules = withLlm.paper.messages.filter(m => m.rule.startsWith('llm/')).map(m => m.rule);
    expect(rules).toEqual(['llm/usage']);
    expect(withLlm.paper.messages.find(m => m.rule === 'llm/usage')?.message).toMatch(/\d+ request\(s\), [1-9]\d* prompt \+ [1-9]\d* completion tokens/);
  }, 120_000);

  it('turns malformed, truncated, refused, off-schema and failed replies into diagnostics, retrying, never crashing', async () => {
    const first = Object.keys(RECORDING.replies)[0];
    const faults: Fault[] = [
      // Chunk 1: three unusable replies — the chunk is given up, the template parse stands.
      { content: '{"questions": [{"number": 7,' },
      { content: '{"questions": []', finish_reason: 'length' },
      { content: '', refusal: 'I cannot help with exam papers.' },
      // Chunk 2: a server error (the client retries it), then a reply naming a block never sent, then the recording.
      { status: 500, body: { error: { message: 'upstream overloaded' } } },
      { content: JSON.stringify({ questions: [{ number: 99, section: null, stem_blocks: ['p99.1'], options: [], points: null }] }) },
    ];
    replay = await startReplay(RECORDING.replies, faults);
    const plain = await ingest({});
    const run = await ingest({ ...RECORD_ENV, LLM_BASE_URL: replay.url });
    expect(run.paper.status).toBe('done');
    expect(shape(run.records)).toEqual(shape(plain.records));
    const rules = run.paper.messages.map(m => m.rule);
    for (const r of ['llm/malformed', 'llm/truncated', 'llm/refused', 'llm/unknown-block', 'llm/chunk-unread']) expect(rules, r).toContain(r);
    expect(replay.requests[0].firstBlock).toBe(first);
    // Questions only the unread chunk held are reported as unread by the model, not dropped.
    expect(rules).toContain('llm/missing-question');
  }, 120_000);

  it('stays off with no LLM configured, and refuses bad LLM settings clearly', () => {
    expect(resolveConfig({}, {}).llm).toBeNull();
    expect(() => resolveConfig({}, { LLM_BASE_URL: 'ftp://x' })).toThrow(/LLM_BASE_URL must be an http\(s\) URL/);
    expect(() => resolveConfig({}, { LLM_MODEL: 'm', LLM_CHUNK_LINES: '20', LLM_OVERLAP_LINES: '20' })).toThrow(/smaller than LLM_CHUNK_LINES/);
  });
});
