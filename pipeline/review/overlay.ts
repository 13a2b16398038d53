// A reviewer's decision merged into a record, the way items.jsonl carries it: the edited fields
// take the reviewer's values (TO/TI text follow the stem and options), and `review` holds the
// status, the version, the parse's original value of every edited field and the whole history.
// The parse itself stays untouched in the store's items row; decisions live in the reviews table.
import { REVIEW_STATUSES, type HistoryEntry, type ItemEdits, type ReviewStatus } from './record.ts';
import type { RecordOverlay } from '../store/overlay.ts';

/** The reviews table's columns as Store.records selects them (all null where no decision was made). */
export interface ReviewColumns {
  review_status: string | null;
  review_version: number | null;
  review_edits: string | null;
  review_original: string | null;
  review_history: string | null;
  review_updated_at: string | null;
}

export interface ReviewState {
  status: ReviewStatus;
  version: number;
  edits: ItemEdits;
  original: ItemEdits;
  history: HistoryEntry[];
  updated_at: string;
}

export function reviewFromColumns(c: ReviewColumns): ReviewState | null {
  if (c.review_version === null || c.review_version === undefined) return null;
  return {
    status: (REVIEW_STATUSES as readonly string[]).includes(c.review_status ?? '') ? (c.review_status as ReviewStatus) : 'pending',
    version: c.review_version,
    edits: JSON.parse(c.review_edits ?? '{}'),
    original: JSON.parse(c.review_original ?? '{}'),
    history: JSON.parse(c.review_history ?? '[]'),
    updated_at: c.review_updated_at ?? '',
  };
}

type AnyRecord = Record<string, unknown> & { modalities?: { TO?: { text: string }; TI?: { text: string; images: string[] }; IO?: { question?: Record<string, unknown> } } };

function recordText(stem: unknown, options: unknown): string {
  const opts = Array.isArray(options) ? (options as { label: string; text: string }[]) : [];
  return [String(stem ?? ''), ...opts.map(o => `${o.label} ${o.text}`)].filter(Boolean).join('\n');
}

/** The record with the decision applied; the record unchanged where there is none. */
export function applyReview<T extends Record<string, unknown>>(record: T, review: ReviewState | null): T {
  if (!review) return record;
  const out: AnyRecord = { ...record, ...review.edits };
  if (review.edits.stem !== undefined || review.edits.options !== undefined) {
    const text = recordText(out.stem, out.options);
    const m = out.modalities;
    if (m) out.modalities = { ...m, ...(m.TO && { TO: { ...m.TO, text } }), ...(m.TI && { TI: { ...m.TI, text } }) };
  }
  if (review.edits.section !== undefined && out.modalities?.IO?.question) {
    out.modalities = { ...out.modalities, IO: { ...out.modalities.IO, question: { ...out.modalities.IO.question, section: review.edits.section } } };
  }
  out.review = {
    status: review.status,
    version: review.version,
    ...(Object.keys(review.original).length && { original: review.original }),
    history: review.history,
    updated_at: review.updated_at,
  };
  return out as T;
}

/** The reviews table read onto each record: it goes last, so a reviewer's edit overrides what the passes put there. */
export const reviewOverlay: RecordOverlay = {
  columns: ['rv.status AS review_status', 'rv.version AS review_version', 'rv.edits AS review_edits', 'rv.original AS review_original', 'rv.history AS review_history', 'rv.updated_at AS review_updated_at'],
  joins: ['LEFT JOIN reviews rv ON rv.item = i.id'],
  apply: (rec, row) => applyReview(rec, reviewFromColumns(row as unknown as ReviewColumns)),
};
