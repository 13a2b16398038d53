// What emit would write for one paper, held rather than written: stages may run in a pool worker or
// on another machine, and the store is written from one place only (the process that owns it).
import type { Diagnostic } from '../diagnostics.ts';
import type { ItemRow, PageRow, PaperInput, PaperSink } from './db.ts';

export interface PaperWrite {
  paper: PaperInput;
  pages: PageRow[];
  items: ItemRow[];
  diagnostics: Diagnostic[];
}

/** The sink the stages get: it keeps emit's write for the store's owner, and reports no row changed yet. */
export class PaperCollector implements PaperSink {
  write: PaperWrite | null = null;

  saveDocument(paper: PaperWrite['paper'], pages: PageRow[], items: ItemRow[], diagnostics: Diagnostic[]): number {
    this.write = { paper, pages, items, diagnostics };
    return 0;
  }
}
