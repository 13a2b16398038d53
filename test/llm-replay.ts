// A chat-completions server on 127.0.0.1 that replays recorded replies: the LLM tests talk to it
// through the real openai client over real HTTP. A reply is found by the first block id of the
// request's blocks (or the key `keyOf` reads from the request); `faults` are served first, in order, to whatever request comes (malformed,
// truncated, refused, off-schema, HTTP errors).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded { content: string; finish_reason?: string; refusal?: string | null; usage?: { prompt_tokens: number; completion_tokens: number } }
export type Fault = { status: number; body: unknown } | Recorded;

export interface Replay { url: string; requests: { model: string; firstBlock: string | null; hasSchema: boolean }[]; close(): Promise<void> }

export function completion(r: Recorded, model: string): unknown {
  return {
    id: 'chatcmpl-replay', object: 'chat.completion', created: 0, model,
    choices: [{ index: 0, finish_reason: r.finish_reason ?? 'stop', message: { role: 'assistant', content: r.refusal ? null : r.content, refusal: r.refusal ?? null } }],
    usage: { prompt_tokens: r.usage?.prompt_tokens ?? 0, completion_tokens: r.usage?.completion_tokens ?? 0, total_tokens: (r.usage?.prompt_tokens ?? 0) + (r.usage?.completion_tokens ?? 0) },
  };
}

/** The first block id of a paper-reading request; other requests name their own key (`keyOf`). */
const firstBlockOf = (user: string) => /^(p\d+\.\d+)\t/m.exec(user)?.[1] ?? null;

export async function startReplay(recorded: Record<string, Recorded>, faults: Fault[] = [], keyOf: (user: string) => string | null = firstBlockOf): Promise<Replay> {
  const requests: Replay['requests'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', c => { body += c; });
    req.on('end', () => {
      const send = (status: number, json: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(json)); };
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return send(404, { error: { message: `no route ${req.method} ${req.url}` } });
      const request = JSON.parse(body);
      const user = request.messages.find((m: { role: string }) => m.role === 'user')?.content ?? '';
      const firstBlock = keyOf(user);
      requests.push({ model: request.model, firstBlock, hasSchema: request.response_format?.type === 'json_schema' });
      const fault = faults.shift();
      if (fault && 'status' in fault) return send(fault.status, fault.body);
      const reply = fault ?? (firstBlock ? recorded[firstBlock] : undefined);
      if (!reply) return send(400, { error: { message: `no recorded reply for a request starting at block ${firstBlock}` } });
      send(200, completion(reply, request.model));
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise(r => server.close(() => r())) };
}
