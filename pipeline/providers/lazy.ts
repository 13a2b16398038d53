// Heavy packages loaded the first time they are used, not when a module that may use them is
// imported: `--help`, a re-run with nothing new or `make tag` never load sharp, tesseract.js,
// KaTeX or the OpenAI client. CommonJS packages come through require (synchronous, so callers
// keep their shape); pdf.js, an ES module, is imported where a PDF is opened (providers/pdf.ts).
import { createRequire } from 'node:module';
import type sharpFn from 'sharp';
import type katexModule from 'katex';

const require = createRequire(import.meta.url);

/** A value made on first call and kept. */
export function once<T>(make: () => T): () => T {
  let made = false, value: T;
  return () => {
    if (!made) { value = make(); made = true; }
    return value;
  };
}

const sharpModule = once(() => require('sharp') as typeof sharpFn);

/** sharp, loaded on the first call. */
export const sharp = ((...args: Parameters<typeof sharpFn>) => sharpModule()(...args)) as typeof sharpFn;

/** KaTeX, loaded on first use. */
export const katex = once(() => require('katex') as typeof katexModule);

/** A CommonJS package by name, loaded now (for the few used in one place: tesseract.js, openai). */
export function load<T>(name: string): T {
  return require(name) as T;
}
