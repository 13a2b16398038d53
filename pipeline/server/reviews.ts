// Reviewers' decisions in the store's reviews table. A decision names the version it was made
// on; one made on an older version than the store holds is refused (someone else decided in
// between), so no decision is lost silently. The history is appended to, never rewritten, and
// the parse's own value of each field is kept the first time a reviewer edits it.
import type Database from 'better-sqlite3';
import { reviewFromColumns, type ReviewColumns, type ReviewState } from '../review/overlay.ts';
import { EDITABLE_FIELDS, REVIEW_STATUSES, type ItemEdits, type KnowledgeTag, type ReviewStatus } from '../review/record.ts';
import { HttpError } from './http-error.ts';

export interface Decision {
  status: ReviewStatus;
  edits: ItemEdits;
  version: number;
  who: string;
}

const bad = (message: string) => new HttpError(400, message);

function editsFrom(value: unknown): ItemEdits {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw bad('edits must be an object');
  const edits: ItemEdits = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (k === 'stem') {
      if (typeof v !== 'string' || !v.trim()) throw bad('edits.stem must be non-empty text');
      edits.stem = v;
    } else if (k === 'options') {
      if (!Array.isArray(v) || v.some(o => !o || typeof o.label !== 'string' || typeof o.text !== 'string')) throw bad('edits.options must be a list of {label, text}');
      edits.options = v.map(o => ({ label: o.label, text: o.text }));
    } else if (k === 'answer') {
      if (v !== null && typeof v !== 'string') throw bad('edits.answer must be text or null');
      edits.answer = v === null || v.trim() === '' ? null : v.trim();
    } else if (k === 'points') {
      if (v !== null && (typeof v !== 'number' || !Number.isFinite(v) || v < 0)) throw bad('edits.points must be a number ≥ 0 or null');
      edits.points = v;
    } else if (k === 'section') {
      if (v !== null && typeof v !== 'string') throw bad('edits.section must be text or null');
      edits.section = v === null || v.trim() === '' ? null : v.trim();
    } else if (k === 'tags' || k === 'knowledge') {
      if (!Array.isArray(v) || v.some(t => typeof t !== 'string' && !Array.isArray(t) && (typeof t !== 'object' || t === null))) throw bad(`edits.${k} must be a list of knowledge paths`);
      edits.knowledge = (v as KnowledgeTag[]).filter(t => typeof t !== 'string' || t.trim()).map(t => (typeof t === 'string' ? t.trim() : t));
    } else {
      throw bad(`edits.${k} cannot be edited (only ${[...EDITABLE_FIELDS.filter(f => f !== 'knowledge'), 'tags'].join(', ')})`);
    }
  }
  return edits;
}

/** A decision from a request body: {status, edits?, version, who?}. */
export function decisionFrom(body: Record<string, unknown>, reviewer: string | undefined): Decision {
  const status = body.status;
  if (typeof status !== 'string' || !(REVIEW_STATUSES as readonly string[]).includes(status)) throw bad(`status must be one of ${REVIEW_STATUSES.join(', ')}`);
  const version = body.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) throw bad('version (the review version the decision was made on, 0 for none) is required');
  const who = String(body.who ?? reviewer ?? 'anonymous').trim().slice(0, 80) || 'anonymous';
  return { status: status as ReviewStatus, edits: editsFrom(body.edits), version, who };
}

export class StaleVersionError extends HttpError {
  constructor(readonly current: ReviewState | null) {
    super(409, `conflict: this item was changed by ${current?.history.at(-1)?.who ?? 'someone else'} (now version ${current?.version ?? 0}); reload it and decide again`, { version: current?.version ?? 0, review: current });
  }
}

export function currentReview(db: Database.Database, item: string): ReviewState | null {
  const row = db.prepare(`SELECT status AS review_status, version AS review_version, edits AS review_edits, original AS review_original,
    history AS review_history, updated_at AS review_updated_at FROM reviews WHERE item = ?`).get(item) as ReviewColumns | undefined;
  return row ? reviewFromColumns(row) : null;
}

/**
 * Records a decision on an item whose current record (parse plus overlays, before any review) is
 * `parsed`; returns the new state. Throws StaleVersionError when `decision.version` is not the current one.
 */
export function decide(db: Database.Database, item: string, parsed: Record<string, unknown>, decision: Decision): ReviewState {
  return db.transaction(() => {
    const current = currentReview(db, item);
    if ((current?.version ?? 0) !== decision.version) throw new StaleVersionError(current);
    const original: ItemEdits = { ...(current?.original ?? {}) };
    for (const k of Object.keys(decision.edits) as (keyof ItemEdits)[]) {
      if (!(k in original)) (original as Record<string, unknown>)[k] = parsed[k] ?? null;
    }
    const now = new Date().toISOString();
    const next: ReviewState = {
      status: decision.status,
      version: decision.version + 1,
      edits: { ...(current?.edits ?? {}), ...decision.edits },
      original,
      history: [...(current?.history ?? []), { who: decision.who, when: now, version: decision.version + 1, status: decision.status, ...(Object.keys(decision.edits).length && { edits: decision.edits }) }],
      updated_at: now,
    };
    db.prepare(`INSERT INTO reviews (item, version, status, edits, original, history, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT(item) DO UPDATE SET version = excluded.version, status = excluded.status, edits = excluded.edits,
        original = excluded.original, history = excluded.history, updated_at = excluded.updated_at`)
      .run(item, next.version, next.status, JSON.stringify(next.edits), JSON.stringify(next.original), JSON.stringify(next.history), next.updated_at);
    return next;
  }).immediate();
}
