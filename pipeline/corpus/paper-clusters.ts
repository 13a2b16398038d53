// Union-find for dedup's clusters, with the one rule a cluster keeps: it never holds two records of
// one paper (a paper does not print a question twice), even through a third record. A cluster of
// two or more keeps the set of its papers; on a join the smaller set is checked against and poured
// into the larger, so a cluster of thousands (one question copied over and over) grows one record at
// a time without its list being copied or scanned each time.
export class PaperClusters {
  private readonly parent: Int32Array;
  private readonly papersOf = new Map<number, Set<number>>();

  /** `paper[i]`: the paper of member i, as a small number. */
  constructor(private readonly paper: Int32Array) {
    this.parent = new Int32Array(paper.length);
    for (let i = 0; i < paper.length; i++) this.parent[i] = i;
  }

  find(i: number): number {
    const parent = this.parent;
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  }

  /** Joins the clusters of i and j unless they hold records of one paper; whether i and j are in one cluster after. */
  union(i: number, j: number): boolean {
    let [a, b] = [this.find(i), this.find(j)];
    if (a === b) return true;
    let pa = this.papersOf.get(a) ?? new Set([this.paper[a]]), pb = this.papersOf.get(b) ?? new Set([this.paper[b]]);
    if (pa.size < pb.size) [a, b, pa, pb] = [b, a, pb, pa];
    for (const p of pb) if (pa.has(p)) return false;
    for (const p of pb) pa.add(p);
    this.parent[b] = a;
    this.papersOf.set(a, pa);
    this.papersOf.delete(b);
    return true;
  }

  /** Whether i's cluster has two members or more. */
  joined(i: number): boolean {
    return this.papersOf.has(this.find(i));
  }
}
