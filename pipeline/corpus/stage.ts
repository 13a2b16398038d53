// The contract of a pass over the whole store: it reads every stored record, writes what it adds
// beside the records (tables of its own), and reports one line of what it did. It never reads a PDF.
import type { Config } from '../config.ts';
import type { Store } from '../store/db.ts';
import type { CorpusRecord } from './record-text.ts';

export interface CorpusContext {
  readonly config: Config;
  readonly store: Store;
  /** Every record of every done paper in the store. */
  readonly records: readonly CorpusRecord[];
}

export interface CorpusStage {
  readonly name: string;
  /**
   * What the pass's result depends on besides the records (its settings, the files it reads),
   * as a string: a batch whose records and this are as when the pass last ran skips it. A pass
   * without one always runs.
   */
  input?(config: Config): string;
  run(ctx: CorpusContext): Promise<string>;
}
