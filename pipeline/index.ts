// The pipeline, top to bottom. Read this list and you know the flow; each stage is its own module.
import type { Config } from './config.ts';
import type { Stage } from './stage.ts';
import type { CorpusStage } from './corpus/stage.ts';
import { tagStage } from './corpus/tag-stage.ts';
import { dedupStage } from './corpus/dedup-stage.ts';
import { translateStage } from './translate/stage.ts';

/** Bump when a change to a stage changes what it produces: papers done under another version are redone. */
export const PIPELINE_VERSION = 39;

/**
 * The paper stages, in order. Each module is loaded when a paper is first read, not when the
 * command starts: a re-run with nothing new loads none of them (README, "Speed").
 */
export function stages(_config: Config): Promise<Stage[]> {
  return Promise.all([
    import('./stages/register.ts').then(m => m.registerStage()), // hash, page count, template, what the cover says
    import('./stages/rasterize.ts').then(m => m.rasterizeStage()), // page images (cached by hash), each page's text layer read by the same task
    import('./stages/repeats.ts').then(m => m.repeatsStage()), // pages that repeat earlier ones (same text, or same scan): skipped from here on
    import('./stages/text-layer.ts').then(m => m.textLayerStage()), // spans, equation font decoded, furniture set aside, page sections
    import('./stages/layout.ts').then(m => m.layoutStage()), // columns and lines in reading order
    import('./stages/segment.ts').then(m => m.segmentStage()), // questions: number, stem, options, points, type, regions
    import('./stages/llm.ts').then(m => m.llmStage()), // optional: the model's reading by block ids, reconciled (off without LLM_*)
    import('./stages/figures.ts').then(m => m.figuresStage()), // images and drawings per question, cropped
    import('./stages/compose.ts').then(m => m.composeStage()), // stem text with formulas, less number, points and figure labels
    import('./stages/math.ts').then(m => m.mathStage()), // every formula parses in KaTeX, or is reported and kept as text
    import('./stages/lint.ts').then(m => m.lintStage()), // broken text and furniture-only regions reported, per question
    import('./stages/answers.ts').then(m => m.answersStage()), // the official key beside the paper (CSV, image or PDF; OCR where needed)
    import('./stages/gaps.ts').then(m => m.gapsStage()), // numbers the run skips: explained by the stated count or the key, else reported
    import('./stages/totals.ts').then(m => m.totalsStage()), // the total marks the paper states, held against its questions' points
    import('./stages/stats.ts').then(m => m.statsStage()), // published error rates and difficulty
    import('./stages/emit.ts').then(m => m.emitStage()), // records (TO / TI / IO) into the store
  ]);
}

/** Passes over the whole store after the papers of a batch are done (and alone: `make tag`, `make dedup`). */
export function corpusStages(_config: Config): CorpusStage[] {
  return [
    tagStage(), //   knowledge paths from the curriculum trees (and the model, where one is configured)
    dedupStage(), // near-duplicate clusters and their canonical records
    translateStage(), // optional: stem and options in the TRANSLATE= languages, formulas protected and checked (off without LLM_*)
  ];
}
