// HTML escaping for text and attribute values: every string from a record goes through here
// before it meets markup, since records carry text read from arbitrary PDFs.
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, c => ENTITIES[c]);
}

/** A relative URL with each path segment percent-encoded (file names may hold spaces or Hangul). */
export function urlPath(relative: string): string {
  return relative.split('/').map(s => (s === '..' || s === '.' ? s : encodeURIComponent(s))).join('/');
}
