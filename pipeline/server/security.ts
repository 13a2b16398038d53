// The checks every request passes before a handler sees it, and the names that reach the disk:
// the token (when one is set), the Host header on loopback (so a rebound DNS name cannot reach
// the server from a web page), cross-site writes refused, set and file names cut down to safe
// characters so no name can leave its folder.
import crypto from 'node:crypto';
import type http from 'node:http';
import { HttpError } from './http-error.ts';
import { isLoopback, type ServerSettings } from './settings.ts';

export const TOKEN_COOKIE = 'review_token';

function cookies(req: http.IncomingMessage): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out.set(part.slice(0, i).trim(), decodeURIComponent(part.slice(i + 1).trim()));
  }
  return out;
}

const sameSecret = (a: string, b: string) => {
  const x = crypto.createHash('sha256').update(a).digest();
  const y = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(x, y);
};

/** The token a request carries: Authorization: Bearer, X-Review-Token, the cookie, or ?token= (which the server turns into the cookie). */
export function requestToken(req: http.IncomingMessage, url: URL): string | null {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice(7).trim();
  const header = req.headers['x-review-token'];
  if (typeof header === 'string') return header;
  return url.searchParams.get('token') ?? cookies(req).get(TOKEN_COOKIE) ?? null;
}

export function checkToken(settings: ServerSettings, req: http.IncomingMessage, url: URL): void {
  if (!settings.token) return;
  const given = requestToken(req, url);
  if (!given || !sameSecret(given, settings.token)) throw new HttpError(401, 'a valid review token is required (REVIEW_TOKEN)');
}

export function checkHost(settings: ServerSettings, req: http.IncomingMessage): void {
  if (!isLoopback(settings.host)) return;
  const host = (req.headers.host ?? '').replace(/:\d+$/, '');
  if (!isLoopback(host)) throw new HttpError(403, `this server answers only to a loopback host name, not "${host}"`);
}

/** Writes from another site's page are refused: a browser says where a request comes from. */
export function checkWriteOrigin(req: http.IncomingMessage): void {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') throw new HttpError(403, `cross-site write refused (Sec-Fetch-Site: ${site})`);
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${req.headers.host}`) throw new HttpError(403, `cross-site write refused (Origin: ${origin})`);
}

const SET_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export function checkSetName(name: string): string {
  if (!SET_NAME.test(name)) throw new HttpError(400, `a set name is 1–64 letters, digits, "_" or "-", starting with a letter or digit; got "${name.slice(0, 80)}"`);
  return name;
}

/**
 * A file stem safe to write: the last path segment only, letters, digits, ".", "_" and "-" (others
 * become "_"), no leading dot, and not ending as the pipeline's own names for keys and stats do.
 */
export function safeStem(name: string): string {
  const base = name.replace(/\\/g, '/').split('/').pop() ?? '';
  const stem = base.normalize('NFC').replace(/\.pdf$/i, '')
    .replace(/[^\p{L}\p{N}._-]+/gu, '_')
    .replace(/\.{2,}/g, '_')
    .replace(/^[._-]+/, '')
    .replace(/-(answer|stats)$/i, '_$1')
    .slice(0, 100);
  return stem || 'upload';
}

export const PDF_MAGIC = Buffer.from('%PDF-');

export function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 5)).equals(PDF_MAGIC);
}

/** The kind of an answer key from its bytes (never its name): png, jpg, pdf or csv; null when none. */
export function keyKind(bytes: Uint8Array): 'png' | 'jpg' | 'pdf' | 'csv' | null {
  const b = Buffer.from(bytes);
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpg';
  if (isPdf(b)) return 'pdf';
  if (b.length && !b.includes(0)) {
    try {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(b);
      if (/^[^\n]*,[^\n]*/.test(text)) return 'csv';
    } catch {
      return null;
    }
  }
  return null;
}
