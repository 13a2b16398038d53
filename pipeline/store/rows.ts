// The rows the store keeps of a paper, and where emit puts them (PaperSink): what the stages see of
// the store. A module of types below stages and store alike, so a stage never imports the store itself.
import type { Diagnostic } from '../diagnostics.ts';
import type { StructureStatus, StructureVerdict } from '../reading-verdict.ts';

export interface PaperRow {
  sha256: string;
  file: string;
  pages: number | null;
  template: string | null;
  exam: string | null;
  /** Whether the paper's rows are stored (done) or not (failed: read again next run); how sure its reading is, is `structure`. */
  status: 'done' | 'failed';
  error: string | null;
  run_key: string | null;
  /** The structural verdict (pipeline/reading-verdict.ts): null where the paper was not judged (or stored before verdicts were). */
  structure: StructureStatus | null;
  /** JSON: the reasons the paper needs review. */
  structure_reasons: string | null;
  coverage: number | null;
  /** JSON: the numbers of the questions read unsurely. */
  unsure: string | null;
}

/** What emit writes of a paper: its row less what the store decides, with the verdict as an object. */
export type PaperInput = Omit<PaperRow, 'status' | 'error' | 'structure' | 'structure_reasons' | 'coverage' | 'unsure'> & { verdict?: StructureVerdict | null };

export interface ItemRow {
  id: string;
  section: string | null;
  number: number;
  page: number;
  record: string;
}

export interface PageRow {
  number: number;
  width: number;
  height: number;
  image: string | null;
  section: string | null;
}

/** Where emit puts a paper's rows: the store itself, or a collector that hands them to the store's owner. */
export interface PaperSink {
  saveDocument(paper: PaperInput, pages: PageRow[], items: ItemRow[], diagnostics: Diagnostic[]): number;
}
