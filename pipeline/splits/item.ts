// An item as a split carries it: the record of the contract (../shared/CONTRACT.md) with what the
// store merged in (knowledge, duplicate_of, review), plus where it stands in the benchmark: its
// split, its version, its exam date and a fingerprint of its content. Image paths are relative to
// the split's folder (images/pages/…, images/figures/…).
import type { ExamInfo } from '../document.ts';
import crypto from 'node:crypto';
import type { ItemRecord } from '../stages/emit.ts';

/**
 * A record as the store gives it (emit's record with the overlays): what reviewers may change is
 * looser here (tags edited as plain strings), and fields other passes add pass through.
 */
export interface StoreRecord extends Omit<ItemRecord, 'source' | 'exam' | 'parts' | 'pilot' | 'flags' | 'figures' | 'knowledge' | 'review' | 'diagnostics' | 'structure'> {
  source: { file: string; sha256: string; pages?: number };
  exam: { family?: string; year?: number | null; sitting?: string | null; sat?: ExamInfo['sat']; subject?: string | null; language?: string; [k: string]: unknown };
  parts?: ItemRecord['parts'];
  figures: { path: string | null; page: number; bbox: number[]; kind?: string }[];
  knowledge: unknown[];
  review?: { status?: string; [k: string]: unknown };
  diagnostics?: unknown[];
  /** Absent on records emitted before verdicts were kept. */
  structure?: ItemRecord['structure'];
  [k: string]: unknown;
}

export interface SplitItem extends StoreRecord {
  /** The split that published this version. */
  split: string;
  /** 1 for the first publication; a correction in a later split is the next version, under the same id. */
  version: number;
  exam_date: string;
  exam_date_source: 'cover' | 'added';
  /** sha256 of what the item says (see fingerprint): a new version is published only when it changes. */
  fingerprint: string;
}

/**
 * Canonical and not rejected; verified too where only reviewed records are wanted, and always where
 * its paper's structure needs review (a doubtful reading enters the benchmark only once a person
 * has checked the record).
 */
export function eligible(r: StoreRecord, reviewedOnly: boolean): boolean {
  const status = r.review?.status ?? 'pending';
  if (r.duplicate_of) return false;
  if (status === 'rejected') return false;
  if (r.structure?.status === 'needs-review') return status === 'verified';
  return !reviewedOnly || status === 'verified';
}

/** Knowledge paths as strings, primary first, whatever form the record carries them in. */
export function knowledgePaths(k: unknown[]): string[] {
  return k.map(p => {
    if (typeof p === 'string') return p;
    if (Array.isArray(p)) return p.join(' > ');
    const path = (p as { path?: unknown }).path;
    return Array.isArray(path) ? path.join(' > ') : String(path ?? '');
  }).filter(Boolean);
}

/**
 * What an item says, hashed: the question, its answer and points, its images, its difficulty, its
 * tags and its review status. Diagnostics, review history and tag confidences are left out, so a
 * rerun that only rewords a note publishes nothing new.
 */
export function fingerprint(r: StoreRecord): string {
  const content = {
    source: r.source.sha256, exam: r.exam, section: r.section, number: r.number, type: r.type,
    stem: r.stem, options: r.options, answer: r.answer, points: r.points, parts: r.parts ?? [],
    page: r.page, regions: r.regions, figures: r.figures.map(f => ({ path: f.path, page: f.page, bbox: f.bbox })),
    error_rate: r.error_rate, difficulty: r.difficulty, modalities: r.modalities,
    knowledge: knowledgePaths(r.knowledge), review: r.review?.status ?? 'pending',
    pilot: r.pilot ?? false,
  };
  return crypto.createHash('sha256').update(JSON.stringify(content)).digest('hex');
}
