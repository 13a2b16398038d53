// A set's items a page at a time, so the review page of a 5,000-question set loads (and renders)
// a hundred, not all: the set's order (file, page, position, as items.jsonl has it) is read once as
// ids and kept until a job changes the set; a page is its records read one by one by id. The
// counts by status and the next pending item come from the reviews table, not from the records.
import type { ReviewRecord } from '../review/record.ts';
import { HttpError } from './http-error.ts';
import type { Sets } from './sets.ts';

export const PAGE_LIMIT_MAX = 500;

export interface SetPage {
  records: ReviewRecord[];
  offset: number;
  total: number;
}

/** `offset` and `limit` from a query: both absent is the whole set (as before paging). */
export function pageParams(query: URLSearchParams): { offset: number; limit: number } | null {
  if (!query.has('offset') && !query.has('limit')) return null;
  const offset = Number(query.get('offset') ?? 0), limit = Number(query.get('limit') ?? 100);
  if (!Number.isInteger(offset) || offset < 0) throw new HttpError(400, 'offset must be a whole number ≥ 0');
  if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_LIMIT_MAX) throw new HttpError(400, `limit must be a whole number from 1 to ${PAGE_LIMIT_MAX}`);
  return { offset, limit };
}

export function setPage(sets: Sets, set: string, offset: number, limit: number): SetPage {
  const ids = sets.order(set);
  return { records: ids.slice(offset, offset + limit).map(id => sets.record(set, id)), offset, total: ids.length };
}

function statuses(sets: Sets, set: string): Map<string, string> {
  const rows = (sets.store(set)?.db.prepare('SELECT item, status FROM reviews').all() ?? []) as { item: string; status: string }[];
  return new Map(rows.map(r => [r.item, r.status]));
}

/** How many items of the set are verified, rejected and pending. */
export function setSummary(sets: Sets, set: string): { total: number; verified: number; rejected: number; pending: number } {
  const ids = sets.order(set);
  const by = statuses(sets, set);
  const count = (s: string) => ids.filter(id => (by.get(id) ?? 'pending') === s).length;
  const verified = count('verified'), rejected = count('rejected');
  return { total: ids.length, verified, rejected, pending: ids.length - verified - rejected };
}

/** The first pending item after `after` in the set's order (wrapping round), with its index; null when none is pending. */
export function nextPending(sets: Sets, set: string, after: string | null): { id: string; index: number } | null {
  const ids = sets.order(set);
  const by = statuses(sets, set);
  const from = after ? ids.indexOf(after) : -1;
  for (let step = 1; step <= ids.length; step++) {
    const index = (from + step + ids.length) % ids.length;
    if ((by.get(ids[index]) ?? 'pending') === 'pending') return { id: ids[index], index };
  }
  return null;
}
