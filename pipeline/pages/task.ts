// One page's work, the unit the WORKERS lanes share: its image drawn and written where it is not on
// disk yet, and its text layer read (text/page-text.ts). Plain data both ways, so a task can be
// sent to a pool process and its result sent back (pipeline/queue/pool.ts).
import type { PageText } from '../text/page-text.ts';

export interface PageTask {
  /** The PDF, and the hash its bytes had when the paper was read (a process opening it checks it). */
  file: string;
  sha256: string;
  page: number;
  /** The page's size in points (register read it): a scan is a picture filling it. */
  size: { width: number; height: number };
  /** Where its image goes (absolute), at `dpi`; null: no image wanted (tests that read text alone). */
  image: string | null;
  dpi: number;
  /**
   * What a scan's stored picture is taken out of (providers/scan.ts). The stages have always given
   * the paper's file name here, not its path, so pdfimages finds it only when the paper is in the
   * working folder; kept as it was, since the records of scanned papers depend on it (README, "Speed").
   */
  scanFile: string;
  /** The template's formula fonts, and the project root (the glyph-code table). */
  mathFonts: string[];
  root: string;
}

export interface PageResult {
  page: number;
  /** What became of the image: drawn and written now, already on disk, or none wanted. */
  image: 'rendered' | 'cached' | null;
  /** Why the page could not be drawn (the paper then fails in rasterize). */
  renderError?: string;
  /** Why its image, drawn, could not be written to `image` (a full disk stops the batch: disk-full.ts). */
  writeError?: string;
  text?: PageText;
  /** Why its text layer could not be read (the paper then fails in text-layer). */
  textError?: string;
  /** The process reading it died, twice (the paper fails with worker/crash). */
  crash?: string;
  /** The file is not the one the paper was listed with any more. */
  changed?: boolean;
}
