// What is kept beside an item's record in tables of its own (tags, clusters, reviewers' decisions,
// translations) and put on the record when it is read out. The store reads records; the layers above
// it say what goes on them, so the store itself knows nothing of review or translation.

/**
 * One overlay: the columns (and joins) its reading needs, selected with the items row aliased `i`,
 * and how those columns change the record. Overlays apply in the order given: a later one sees what
 * the earlier ones put on the record (a reviewer's edit of the tags overrides the tagger's).
 */
export interface RecordOverlay {
  /** SQL select-list items, each aliased to a name `apply` reads (`k.paths`, `rv.status AS review_status`). */
  readonly columns: readonly string[];
  /** SQL joins those columns read from (`LEFT JOIN knowledge k ON k.item = i.id`). */
  readonly joins?: readonly string[];
  apply(record: Record<string, unknown>, row: Record<string, unknown>): Record<string, unknown>;
}

/** The SELECT that reads an item's record with the overlays' columns. */
export function recordSelect(overlays: readonly RecordOverlay[]): string {
  const columns = ['i.record', ...overlays.flatMap(o => o.columns)].join(', ');
  const joins = overlays.flatMap(o => o.joins ?? []).join(' ');
  return `SELECT ${columns} FROM items i JOIN papers p ON p.sha256 = i.paper ${joins}`;
}

/** The record of a row read by recordSelect, with every overlay applied, as a JSON line. */
export function overlaid(row: { record: string } & Record<string, unknown>, overlays: readonly RecordOverlay[]): string {
  if (!overlays.length) return row.record;
  return JSON.stringify(overlays.reduce((rec, o) => o.apply(rec, row), JSON.parse(row.record) as Record<string, unknown>));
}
