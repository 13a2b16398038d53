// Writes test/fixtures/llm/<paper>.json: per chunk (keyed by its first block id), the reply a
// careful reader gives — each question whose number opens a line in the chunk, its stem and option
// block ids, its points. No model is reachable from here, so the replies were taken from the
// template parse and checked by hand against the pages; they hold block ids and numbers only,
// none of the paper's text. `npx tsx test/llm-record.ts <paper.pdf>`.
import fs from 'node:fs';
import path from 'node:path';
import { resolveConfig } from '../pipeline/config.ts';
import { loadTemplates } from '../pipeline/template.ts';
import { stages } from '../pipeline/index.ts';
import { newDocument } from '../pipeline/run.ts';
import { blocksOf, chunksOf } from '../pipeline/llm/blocks.ts';
import { closeOcr } from '../pipeline/providers/ocr.ts';
import { RECORD_ENV } from './llm-settings.ts';

const file = process.argv[2];
const config = resolveConfig({ year: '2099', outDir: '/tmp/llm-record' }, { ...RECORD_ENV, LLM_BASE_URL: undefined, LLM_MODEL: undefined });
const llmEnv = resolveConfig({ year: '2099', outDir: '/tmp/llm-record' }, RECORD_ENV).llm!;
const templates = loadTemplates(config.templatesDir, config.root);
const doc = newDocument(file, new Uint8Array(fs.readFileSync(file)));
const ctx = { config, templates, store: null as never, runKey: 'record' } as Parameters<Awaited<ReturnType<typeof stages>>[number]['run']>[1];
for (const s of await stages(config)) {
  await s.run(doc, ctx);
  if (s.name === 'segment') break;
}
const blocks = blocksOf(doc);
const idOf = new Map(blocks.map(b => [b.line, b.id]));
const replies: Record<string, unknown> = {};
for (const chunk of chunksOf(blocks, llmEnv.chunkLines, llmEnv.overlapLines)) {
  const inChunk = new Set(chunk.map(b => b.id));
  const questions = doc.questions.filter(q => inChunk.has(idOf.get(q.lines[0])!)).map(q => {
    const ids = (lines: typeof q.lines) => lines.map(l => idOf.get(l)).filter((id): id is string => !!id && inChunk.has(id));
    const optionLines = q.lines.slice(q.stemLines);
    return {
      number: q.number,
      section: q.section,
      stem_blocks: ids(q.lines.slice(0, q.stemLines)),
      options: q.options.map((o, i) => ({ label: o.label, blocks: i === 0 ? ids(optionLines) : [] })),
      points: q.points,
    };
  });
  const content = JSON.stringify({ questions });
  replies[chunk[0].id] = { content, usage: { prompt_tokens: Math.ceil(chunk.reduce((n, b) => n + b.text.length, 0) / 2), completion_tokens: Math.ceil(content.length / 4) } };
}
const out = path.join('test', 'fixtures', 'llm', process.argv[3] ?? `${path.basename(file, '.pdf')}.json`);
fs.writeFileSync(out, JSON.stringify({ paper: path.basename(file), sha256: doc.sha256, chunkLines: llmEnv.chunkLines, overlapLines: llmEnv.overlapLines, replies }, null, 1));
console.log(`${out}: ${Object.keys(replies).length} chunk replies, ${doc.questions.length} questions`);
await ctx.pdf?.destroy();
await closeOcr();
