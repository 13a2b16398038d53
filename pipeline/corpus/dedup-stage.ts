// dedup: near-duplicate clusters over every record of the store (not one batch), so a paper added
// later joins the clusters of the papers before it; the whole table is recomputed each time.
import type { CorpusStage } from './stage.ts';

/** Bump when how clusters are found changes: the pass runs again on a store it has run on. */
const DEDUP_VERSION = 2;

export function dedupStage(): CorpusStage {
  return {
    name: 'dedup',
    input: config => JSON.stringify([DEDUP_VERSION, config.dedup]),
    async run({ config, store, records }) {
      // Loaded when the pass runs (string-similarity with it), not by a batch that skips it (README, "Speed").
      const { BUCKET_CAP, findDuplicates } = await import('./dedup.ts');
      const result = await findDuplicates(records, config.dedup, config.yearDir);
      store.saveClusters([...result.canonicalOf].map(([item, canonical]) => ({
        item,
        canonical,
        duplicateOf: item === canonical ? null : canonical,
        evidence: result.evidence.get(item) ?? null,
      })));
      const naive = (records.length * (records.length - 1)) / 2;
      const pairs = result.clusters.reduce((n, c) => n + (c.members.length * (c.members.length - 1)) / 2, 0);
      const capped = result.cappedBuckets ? `, ${result.cappedBuckets} buckets past ${BUCKET_CAP} records joined through representatives` : '';
      return `dedup: ${records.length} records, ${result.candidatePairs} candidate pairs of ${naive} (LSH among the ${result.grouped} records that share their numbers with another${capped}), ${result.verifiedPairs} verified, ${result.clusters.length} clusters (${pairs} pairs)`;
    },
  };
}
