// The pipeline, top to bottom. Read this list and you know the flow; each stage is its own module.
import type { Config } from './config.ts';
import type { Stage } from './stage.ts';
import { registerStage } from './stages/register.ts';
import { repeatsStage } from './stages/repeats.ts';
import { rasterizeStage } from './stages/rasterize.ts';
import { textLayerStage } from './stages/text-layer.ts';
import { layoutStage } from './stages/layout.ts';
import { segmentStage } from './stages/segment.ts';
import { llmStage } from './stages/llm.ts';
import { figuresStage } from './stages/figures.ts';
import { composeStage } from './stages/compose.ts';
import { mathStage } from './stages/math.ts';
import { lintStage } from './stages/lint.ts';
import { answersStage } from './stages/answers.ts';
import { gapsStage } from './stages/gaps.ts';
import { totalsStage } from './stages/totals.ts';
import { statsStage } from './stages/stats.ts';
import { emitStage } from './stages/emit.ts';
import type { CorpusStage } from './corpus/stage.ts';
import { tagStage } from './corpus/tag-stage.ts';
import { dedupStage } from './corpus/dedup-stage.ts';
import { translateStage } from './translate/stage.ts';

/** Bump when a change to a stage changes what it produces: papers done under another version are redone. */
export const PIPELINE_VERSION = 6;

export function stages(_config: Config): Stage[] {
  return [
    registerStage(), //  hash, page count, template, what the cover says
    rasterizeStage(), // page images (cached by hash), each page's text layer read by the same task
    repeatsStage(), //   pages that repeat earlier ones (same text, or same scan): skipped from here on
    textLayerStage(), // spans, equation font decoded, furniture set aside, page sections
    layoutStage(), //    columns and lines in reading order
    segmentStage(), //   questions: number, stem, options, points, type, regions
    llmStage(), //       optional: the model's reading by block ids, reconciled (off without LLM_*)
    figuresStage(), //   images and drawings per question, cropped
    composeStage(), //   stem text with formulas, less number, points and figure labels
    mathStage(), //      every formula parses in KaTeX, or is reported and kept as text
    lintStage(), //      broken text and furniture-only regions reported, per question
    answersStage(), //   the official key beside the paper (CSV, image or PDF; OCR where needed)
    gapsStage(), //      numbers the run skips: explained by the stated count or the key, else reported
    totalsStage(), //    the total marks the paper states, held against its questions' points
    statsStage(), //     published error rates and difficulty
    emitStage(), //      records (TO / TI / IO) into the store
  ];
}

/** Passes over the whole store after the papers of a batch are done (and alone: `make tag`, `make dedup`). */
export function corpusStages(_config: Config): CorpusStage[] {
  return [
    tagStage(), //   knowledge paths from the curriculum trees (and the model, where one is configured)
    dedupStage(), // near-duplicate clusters and their canonical records
    translateStage(), // optional: stem and options in the TRANSLATE= languages, formulas protected and checked (off without LLM_*)
  ];
}
