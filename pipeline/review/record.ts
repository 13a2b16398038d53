// The fields of an items.jsonl record that the review pages read. Records are written by emit
// (pipeline/stages/emit.ts) and overlaid by the store (knowledge, duplicate_of, review); this is
// the reading side's view, so fields the passes over the store fill may be absent.
import type { ItemRecord } from '../stages/emit.ts';
import type { RecordStructure } from '../reading-verdict.ts';

export interface Region {
  page: number;
  bbox: number[];
}

export type KnowledgeTag = string | string[] | { path: string[] | string; confidence?: number };

export type ReviewStatus = 'pending' | 'verified' | 'rejected';
export const REVIEW_STATUSES: readonly ReviewStatus[] = ['pending', 'verified', 'rejected'];

/** Fields a reviewer may edit; `knowledge` is what the page calls tags. */
export interface ItemEdits {
  stem?: string;
  options?: { label: string; text: string }[];
  answer?: string | null;
  points?: number | null;
  section?: string | null;
  knowledge?: KnowledgeTag[];
}
export const EDITABLE_FIELDS = ['stem', 'options', 'answer', 'points', 'section', 'knowledge'] as const;

export interface HistoryEntry {
  who: string;
  when: string;
  /** The version this entry produced. */
  version: number;
  status: ReviewStatus;
  edits?: ItemEdits;
}

export interface RecordReview {
  status: ReviewStatus;
  version?: number;
  history?: HistoryEntry[];
  /** The parse's own values of every field a reviewer has edited. */
  original?: ItemEdits;
  updated_at?: string;
}

export interface ReviewRecord extends Pick<ItemRecord, 'id' | 'section' | 'number' | 'type' | 'options' | 'stem' | 'answer' | 'points' | 'page' | 'regions' | 'error_rate' | 'difficulty'> {
  source: { file: string; sha256: string; pages?: number };
  exam?: Record<string, unknown>;
  figures: { path: string | null; page: number; bbox: number[]; kind?: string }[];
  modalities?: {
    TO?: { text: string };
    TI?: { text: string; images: string[] };
    IO?: { page_image: string[]; question?: unknown };
  };
  knowledge?: KnowledgeTag[];
  duplicate_of?: string | null;
  review?: RecordReview;
  diagnostics?: { severity: string; rule: string; message: string }[];
  pilot?: boolean;
  /** The structural verdict on the record's paper, and whether this question was read unsurely; absent on older records. */
  structure?: RecordStructure | null;
}

/** A knowledge tag as one line of text: `수학I > 지수함수와 로그함수 (0.82)`. */
export function knowledgeLabel(tag: KnowledgeTag): string {
  if (typeof tag === 'string') return tag;
  if (Array.isArray(tag)) return tag.join(' > ');
  const path = Array.isArray(tag.path) ? tag.path.join(' > ') : String(tag.path);
  return typeof tag.confidence === 'number' ? `${path} (${tag.confidence.toFixed(2)})` : path;
}

/** The paper a record id belongs to: ids start with the paper's hash16. */
export function paperKeyOf(id: string): string {
  return id.slice(0, 16);
}
