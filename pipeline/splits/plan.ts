// What the next split holds. From the store's records (with tags, clusters and reviews merged in)
// and what earlier splits published:
//  - a record published before whose content changed (a corrected key, a reviewer's edit) is a new
//    version; the old one stays in its split and is listed as superseded;
//  - a record never published whose paper was sat by the cut-off is new; one sat before the
//    previous cut-off (a paper added late) is new too, and listed as late, since the split that
//    covers its month is frozen;
//  - a published record that is no longer eligible (rejected, now a duplicate, not verified under
//    REVIEWED_ONLY, gone from its paper) is withdrawn;
//  - a record sat after the cut-off waits for a later split.
import { eligible, fingerprint, type SplitItem, type StoreRecord } from './item.ts';
import { SplitError } from './errors.ts';
import { itemDate, monthKey } from './month.ts';
import type { PublishedState } from './published.ts';

export interface PaperDate { sha256: string; added_at: string }

export interface SplitPlan {
  items: SplitItem[];
  superseded: { id: string; version: number; split: string }[];
  withdrawn: { id: string; version: number; split: string }[];
  late: string[];
  /** Items sat after the cut-off, left for a later split. */
  waiting: number;
}

export function planSplit(args: {
  name: string;
  cutoff: string;
  previousCutoff: string | null;
  records: readonly StoreRecord[];
  papers: readonly PaperDate[];
  published: PublishedState;
  reviewedOnly: boolean;
}): SplitPlan {
  const { name, records, published } = args;
  const cutoffKey = monthKey(args.cutoff);
  const previousKey = args.previousCutoff ? monthKey(args.previousCutoff) : -Infinity;
  const paperOf = new Map(args.papers.map(p => [p.sha256, p]));
  const plan: SplitPlan = { items: [], superseded: [], withdrawn: [], late: [], waiting: 0 };
  const keep = new Set<string>();
  for (const r of records) {
    if (!eligible(r, args.reviewedOnly)) continue;
    const addedAt = paperOf.get(r.source.sha256)?.added_at;
    if (!addedAt) throw new SplitError(`record ${r.id} names paper ${r.source.sha256}, which the store does not hold as done`);
    const date = itemDate(r.exam, addedAt);
    const fp = fingerprint(r);
    const before = published.live.get(r.id);
    if (before) {
      keep.add(r.id);
      if (before.fingerprint === fp) continue;
      plan.superseded.push({ id: r.id, version: before.version, split: before.split });
    } else if (date.latestKey > cutoffKey) {
      plan.waiting++;
      continue;
    } else if (date.latestKey <= previousKey) {
      plan.late.push(r.id);
    }
    keep.add(r.id);
    plan.items.push({
      ...r,
      split: name,
      version: (published.lastVersion.get(r.id) ?? 0) + 1,
      exam_date: date.exam_date,
      exam_date_source: date.exam_date_source,
      fingerprint: fp,
    });
  }
  for (const p of published.live.values()) if (!keep.has(p.id)) plan.withdrawn.push({ id: p.id, version: p.version, split: p.split });
  plan.withdrawn.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return plan;
}

export function planIsEmpty(p: SplitPlan): boolean {
  return !p.items.length && !p.withdrawn.length;
}
