// The structural verdict on a paper, carried from the document (structure/judge.ts sets
// `doc.reading` during segment) through everything after it: the run's status, the store's paper
// row, every record (`structure`), the command line's summary, the review site and the server. A
// paper whose reading is unsure, whose coverage is low or whose stated count disagrees is
// `needs-review` with its reasons, so a doubtful reading is never passed on as if it were sure.
// The decision itself is the decoder's; this module only reads it. Lower layers only: the store,
// the run and the review pages import it, and it imports the document model alone.
import type { PaperDocument, Question } from './document.ts';

export type StructureStatus = 'sure' | 'needs-review';

/** A paper's verdict as the store keeps it and the run reports it. */
export interface StructureVerdict {
  status: StructureStatus;
  /** Why the paper needs review (empty when sure): the decoder's reasons, as it words them. */
  reasons: string[];
  /** The share of the paper's body text the reading explains (0–1, three decimals); null where not measured. */
  coverage: number | null;
  /** The numbers of the questions read unsurely. */
  unsure: number[];
}

/** The verdict as each record carries it: the paper's, and whether this question itself was read unsurely. */
export interface RecordStructure {
  status: StructureStatus;
  reasons: string[];
  coverage: number | null;
  unsure: boolean;
}

/** The rule judge.ts warns with for each question read unsurely (its `item` names the question where it found it). */
const UNSURE_RULE = 'structure/unsure';

const rounded = (v: number) => Math.round(v * 1000) / 1000;

/** The paper's verdict; null where its structure was not judged (no segment ran). */
export function verdictOf(doc: PaperDocument): StructureVerdict | null {
  const r = doc.reading;
  if (!r) return null;
  return { status: r.reasons.length ? 'needs-review' : 'sure', reasons: [...r.reasons], coverage: Number.isFinite(r.coverage) ? rounded(r.coverage) : null, unsure: [...r.unsure] };
}

/**
 * Whether a question was read unsurely: its own flag where the decoder sets one; else the decoder's
 * warning naming it; else, where an unsure number's warning names no question, the questions of
 * that number no warning claims (flagging one too many is safer than leaving an unsure one unmarked).
 */
export function questionUnsure(doc: PaperDocument, q: Question): boolean {
  if (typeof q.unsure === 'boolean') return q.unsure;
  const unsure = doc.reading?.unsure ?? [];
  if (!unsure.includes(q.number)) return false;
  const named = new Set(doc.messages.list.filter(d => d.rule === UNSURE_RULE && d.item).map(d => d.item));
  if (named.has(q.id)) return true;
  const placed = doc.questions.filter(o => o.number === q.number && named.has(o.id)).length;
  return unsure.filter(n => n === q.number).length > placed;
}

export function recordStructure(doc: PaperDocument, q: Question): RecordStructure | null {
  const v = verdictOf(doc);
  return v && { status: v.status, reasons: v.reasons, coverage: v.coverage, unsure: questionUnsure(doc, q) };
}

export const needsReview = (v: { status?: string } | null | undefined): boolean => v?.status === 'needs-review';

/** `97%`, or `—` where not measured. */
export const coverageText = (coverage: number | null | undefined): string => (typeof coverage === 'number' ? `${Math.round(coverage * 100)}%` : '—');

/**
 * The order papers are listed in for review (the static index, the server's list of a set's
 * papers): those needing review first, the least explained of them first; 0 between the rest.
 */
export function reviewFirst(a: { status: string; coverage: number | null }, b: { status: string; coverage: number | null }): number {
  const rank = (p: { status: string }) => (p.status === 'needs-review' ? 0 : 1);
  return rank(a) - rank(b) || (rank(a) === 0 ? (a.coverage ?? 1) - (b.coverage ?? 1) : 0);
}
