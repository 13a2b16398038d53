// The outside world for OCR: tesseract.js, fully offline. Language data comes from the Debian
// tessdata folder the project's set-up installs (tesseract-ocr-kor, -eng, -chi-sim, -spa, -jpn, -rus,
// -ell, -ara, -hin, -tha, -vie); nothing is fetched. A pool of workers, one per core (each
// tesseract.js worker is one single-threaded wasm instance), created on first use.
import fs from 'node:fs';
import os from 'node:os';
import type { PSM, Worker } from 'tesseract.js';
import { load, once } from './lazy.ts';

export const TESSDATA = process.env.TESSDATA_PREFIX && fs.existsSync(process.env.TESSDATA_PREFIX) ? process.env.TESSDATA_PREFIX : '/usr/share/tesseract-ocr/5/tessdata';

export class OcrUnavailableError extends Error {
  constructor(lang: string) {
    super(`no OCR language data for "${lang}" in ${TESSDATA} (install the Debian package tesseract-ocr-${lang.replace('_', '-')}, e.g. with make setup)`);
    this.name = 'OcrUnavailableError';
  }
}

export interface OcrWord {
  text: string;
  confidence: number;
  bbox: [number, number, number, number];
  /** The box of the text line the word was found in (its height gives the type size). */
  line: [number, number, number, number];
  /** The line's row height as the recogniser measured it (cap height and descender; 0 where not given). */
  rowHeight: number;
  /** The word's characters and where the recogniser put each across the image (x0, x1): roughly, as its network's steps fell. */
  glyphs: { text: string; x0: number; x1: number }[];
}

export interface OcrOptions {
  /** Page segmentation: 'auto' for a page, 'column' for one column of text, 'line' for one line, 'char' for one character. */
  mode?: 'auto' | 'column' | 'block' | 'line' | 'word' | 'char';
  /** Only these characters may be recognised. */
  whitelist?: string;
  /** The image's resolution, where it is not the 300 dpi pages are read at. */
  dpi?: number;
}

/** tesseract.js, loaded when the first recogniser starts. */
const tesseract = once(() => load<typeof import('tesseract.js')>('tesseract.js'));
const modes = once((): Record<NonNullable<OcrOptions['mode']>, PSM> => {
  const { PSM } = tesseract();
  return { auto: PSM.AUTO, column: PSM.SINGLE_COLUMN, block: PSM.SINGLE_BLOCK, line: PSM.SINGLE_LINE, word: PSM.SINGLE_WORD, char: PSM.SINGLE_CHAR };
});

interface Slot { worker: Promise<Worker>; busy: boolean }

/** A pool of tesseract.js workers for one language set. */
export class OcrPool {
  private slots: Slot[] = [];
  private queue: (() => void)[] = [];

  constructor(readonly lang: string, readonly size = Math.max(1, os.cpus().length)) {
    for (const l of lang.split('+')) if (!fs.existsSync(`${TESSDATA}/${l}.traineddata`)) throw new OcrUnavailableError(l);
  }

  private spawn(): Promise<Worker> {
    const { createWorker, OEM } = tesseract();
    return createWorker(this.lang, OEM.LSTM_ONLY, {
      langPath: TESSDATA,
      gzip: false,
      // Without this tesseract.js copies the language data into the working folder.
      cacheMethod: 'none',
    });
  }

  private async acquire(): Promise<Slot> {
    for (;;) {
      const free = this.slots.find(s => !s.busy);
      if (free) { free.busy = true; return free; }
      if (this.slots.length < this.size) {
        const slot = { worker: this.spawn(), busy: true };
        this.slots.push(slot);
        return slot;
      }
      await new Promise<void>(resolve => this.queue.push(resolve));
    }
  }

  private release(slot: Slot): void {
    slot.busy = false;
    this.queue.shift()?.();
  }

  async recognize(image: Buffer | string, options: OcrOptions = {}): Promise<{ text: string; words: OcrWord[] }> {
    const slot = await this.acquire();
    try {
      const worker = await slot.worker;
      await worker.setParameters({
        tessedit_pageseg_mode: modes()[options.mode ?? 'auto'],
        tessedit_char_whitelist: options.whitelist ?? '',
        // Cell crops and key images carry no resolution; say one rather than let tesseract guess.
        user_defined_dpi: String(options.dpi ?? 300),
        // Tesseract's own progress notes ("Detected 54 diacritics") would go to stdout.
        debug_file: '/dev/null',
      });
      const { data } = await worker.recognize(image, {}, { text: true, blocks: true });
      const words: OcrWord[] = [];
      for (const b of data.blocks ?? []) for (const p of b.paragraphs) for (const l of p.lines) for (const w of l.words) {
        words.push({
          text: withoutBidiMarks(w.text), confidence: w.confidence, bbox: [w.bbox.x0, w.bbox.y0, w.bbox.x1, w.bbox.y1], line: [l.bbox.x0, l.bbox.y0, l.bbox.x1, l.bbox.y1],
          rowHeight: l.rowAttributes?.rowHeight ?? 0, glyphs: (w.symbols ?? []).map(s => ({ text: s.text, x0: s.bbox.x0, x1: s.bbox.x1 })),
        });
      }
      return { text: withoutBidiMarks(data.text).trim(), words };
    } finally {
      this.release(slot);
    }
  }

  async close(): Promise<void> {
    const slots = this.slots;
    this.slots = [];
    await Promise.all(slots.map(async s => (await s.worker).terminate()));
  }
}

const pools = new Map<string, OcrPool>();
/** Workers per pool: one per core, or the share of the cores a WORKERS=n process was given. */
let poolSize = Math.max(1, os.cpus().length);

/** Sizes the pools created from now on (config.ocrWorkers). */
export function setOcrPoolSize(n: number): void {
  poolSize = Math.max(1, Math.floor(n));
}

/** The shared pool for a language set (created on first use; closed by closeOcr at the end of a batch). */
export function ocrPool(lang: string, size = poolSize): OcrPool {
  if (!pools.has(lang)) pools.set(lang, new OcrPool(lang, Math.min(size, poolSize)));
  return pools.get(lang)!;
}

export async function closeOcr(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map(p => p.close()));
}

/**
 * Text less the directional marks Tesseract sets around a left-to-right run in right-to-left text
 * (LRM, RLM, embeddings, isolates: `في المثلث \u200eABC\u200f المرسوم`). They are hints for a
 * display; the reading order of a line is decided from the words' places (text/direction.ts), and
 * left in, they would ride into stems and section names, where `الكيمياء` with a mark is not `الكيمياء`.
 */
export function withoutBidiMarks(text: string): string {
  return text.replace(/[\u200E\u200F\u202A-\u202E\u2066-\u2069]/g, '');
}
