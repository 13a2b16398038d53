// Request bodies, read with a size limit (413 beyond it, before reading where Content-Length says
// so), and multipart forms parsed by Node's own fetch implementation (undici's FormData parser).
import type http from 'node:http';
import { HttpError } from './http-error.ts';

export async function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new HttpError(413, `upload too large: ${declared} bytes, the limit is ${limit} bytes (UPLOAD_LIMIT_MB)`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new HttpError(413, `upload too large: over ${limit} bytes (UPLOAD_LIMIT_MB)`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export async function readJson(req: http.IncomingMessage, limit = 1024 * 1024): Promise<Record<string, unknown>> {
  const type = req.headers['content-type'] ?? '';
  if (!type.startsWith('application/json')) throw new HttpError(415, `send JSON (Content-Type: application/json), not "${type}"`);
  const text = (await readBody(req, limit)).toString('utf8');
  try {
    const value = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
    return value;
  } catch (e) {
    throw new HttpError(400, `the body is not a JSON object (${(e as Error).message})`);
  }
}

export interface UploadedFile {
  name: string;
  bytes: Uint8Array;
}

/** The named files of a multipart/form-data body; fields that are not files are ignored. */
export async function readMultipart(req: http.IncomingMessage, limit: number): Promise<Map<string, UploadedFile>> {
  const type = req.headers['content-type'] ?? '';
  if (!type.startsWith('multipart/form-data')) throw new HttpError(415, `send the paper as multipart/form-data, not "${type}"`);
  const body = await readBody(req, limit);
  let form: FormData;
  try {
    form = await new Response(new Blob([new Uint8Array(body)]), { headers: { 'content-type': type } }).formData();
  } catch (e) {
    throw new HttpError(400, `malformed multipart body (${(e as Error).message})`);
  }
  const files = new Map<string, UploadedFile>();
  for (const [key, value] of form.entries()) {
    if (typeof value === 'string') continue;
    files.set(key, { name: value.name, bytes: new Uint8Array(await value.arrayBuffer()) });
  }
  return files;
}
