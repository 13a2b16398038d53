// What the passes over the store add to a record when items.jsonl is written: its knowledge paths,
// its cluster, and diagnostics that say why (a weak tag, the similarity that made a duplicate).
import type { RecordOverlay } from '../store/overlay.ts';

/** The columns of the corpus tables a record is read with. */
export interface CorpusColumns { paths: string | null; note: string | null; duplicate_of: string | null; canonical: string | null; evidence: string | null }

/**
 * A record as items.jsonl carries it: its tags, and its cluster with the similarity that put it
 * there as a diagnostic (every merge explains itself).
 */
export function withCorpus(rec: Record<string, unknown>, r: CorpusColumns): Record<string, unknown> {
  const diagnostics = [...((rec.diagnostics as { severity: string; rule: string; message: string }[] | undefined) ?? [])];
  if (r.note) diagnostics.push({ severity: 'info', rule: 'knowledge/weak', message: r.note });
  if (r.duplicate_of && r.evidence) {
    const e = JSON.parse(r.evidence) as { text: number; math: number; options: number; figureBits: number | null };
    diagnostics.push({
      severity: 'info',
      rule: 'dedup/duplicate',
      message: `near-duplicate of ${r.duplicate_of}: prose ${e.text}, formulas ${e.math}, options ${e.options} (Dice), same numbers${e.figureBits === null ? '' : `, figures ${e.figureBits}/64 bits apart`}`,
    });
  }
  return { ...rec, knowledge: r.paths ? JSON.parse(r.paths) : [], duplicate_of: r.duplicate_of ?? null, diagnostics };
}

/** The knowledge and clusters tables read onto each record. */
export const corpusOverlay: RecordOverlay = {
  columns: ['k.paths', 'k.note', 'c.duplicate_of', 'c.canonical', 'c.evidence'],
  joins: ['LEFT JOIN knowledge k ON k.item = i.id', 'LEFT JOIN clusters c ON c.item = i.id'],
  apply: (rec, row) => withCorpus(rec, row as unknown as CorpusColumns),
};
