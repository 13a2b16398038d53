// llm: an optional second reading of the paper by a language model (off unless configured). The
// model sees numbered blocks and answers with block ids only — the text is always the paper's own,
// never the model's. Its reading is reconciled with the template parse: every disagreement is a
// diagnostic, and the template parse stands; where the template found no question at all, the
// model's questions are built from the blocks it named.
import type { Line, PaperDocument, Question } from '../document.ts';
import { blocksOf, chunksOf, fillPrompt, type Block } from '../llm/blocks.ts';
import { askChunk, makeClient, type Usage } from '../llm/client.ts';
import type { LlmQuestion } from '../llm/reply.ts';
import type { Stage } from '../stage.ts';
import { matchAnchor } from '../structure/anchors.ts';
import { buildQuestion } from '../structure/question.ts';

/** The model's questions over all chunks; a question seen in two chunks keeps its fuller reading. */
export async function readWithLlm(doc: PaperDocument, ctx: Parameters<Stage['run']>[1]): Promise<{ questions: LlmQuestion[]; blocks: Map<string, Block>; usage: Usage }> {
  const cfg = ctx.config.llm!;
  const t = doc.template;
  const blocks = blocksOf(doc);
  const byId = new Map(blocks.map(b => [b.id, b]));
  const client = makeClient(cfg);
  const usage: Usage = { requests: 0, promptTokens: 0, completionTokens: 0 };
  const merged = new Map<string, LlmQuestion>();
  const size = (q: LlmQuestion) => q.stem_blocks.length + q.options.reduce((n, o) => n + o.blocks.length, 0);
  for (const chunk of chunksOf(blocks, cfg.chunkLines, cfg.overlapLines)) {
    const pages = `${chunk[0].page}${chunk[chunk.length - 1].page !== chunk[0].page ? `–${chunk[chunk.length - 1].page}` : ''}`;
    const vars = { family: t.family, subject: doc.exam.subject ?? t.subject, language: t.language, page: pages, blocks: chunk.map(b => `${b.id}\t${b.text}`).join('\n') };
    const result = await askChunk(client, cfg, { system: fillPrompt(t.prompt.system, vars), user: fillPrompt(t.prompt.user, vars) }, new Set(chunk.map(b => b.id)), usage);
    for (const p of result.problems) doc.messages.warn(p.rule, `pages ${pages}: ${p.message}`, { page: chunk[0].page, stage: 'llm' });
    if (!result.questions) {
      // A warning, not an error: the template parse still gives every record of these pages.
      doc.messages.warn('llm/chunk-unread', `pages ${pages}: no usable reply after ${cfg.attempts} attempt(s); the template parse stands alone there`, { page: chunk[0].page, stage: 'llm' });
      continue;
    }
    for (const q of result.questions) {
      const key = `${q.section ?? ''}|${q.number}`;
      const had = merged.get(key);
      if (!had || size(q) > size(had)) merged.set(key, q);
    }
  }
  return { questions: [...merged.values()].sort((a, b) => a.number - b.number), blocks: byId, usage };
}

/** Disagreements between the model's reading and the template parse, as diagnostics. */
export function reconcile(doc: PaperDocument, llm: LlmQuestion[], blocks: Map<string, Block>): number {
  let disagreements = 0;
  const note = (rule: string, message: string, page?: number, item?: string) => { disagreements++; doc.messages.warn(rule, message, { page, item, stage: 'llm' }); };
  const ownerOf = (id: string | undefined) => {
    const line = id ? blocks.get(id)?.line : undefined;
    return line ? doc.questions.find(q => q.lines.includes(line)) : undefined;
  };
  const matched = new Set<Question>();
  for (const m of llm) {
    const first = m.stem_blocks[0];
    const q = ownerOf(first) ?? doc.questions.find(x => x.number === m.number && !matched.has(x));
    const page = first ? blocks.get(first)?.page : undefined;
    if (!q) { note('llm/extra-question', `the model reads a question ${m.number} the template parse does not have`, page); continue; }
    matched.add(q);
    if (q.number !== m.number) note('llm/number-differs', `the model numbers this question ${m.number}`, q.page, q.id);
    if (q.options.length !== m.options.length) note('llm/options-differ', `the model reads ${m.options.length} options, the template parse ${q.options.length}`, q.page, q.id);
    if ((m.points ?? null) !== q.points && m.points !== null) note('llm/points-differ', `the model reads ${m.points} points, the template parse ${q.points}`, q.page, q.id);
    const outside = m.stem_blocks.filter(id => ownerOf(id) !== q);
    if (outside.length) note('llm/blocks-differ', `the model puts blocks ${outside.slice(0, 4).join(', ')} in this question's stem; the template parse does not`, q.page, q.id);
  }
  for (const q of doc.questions) if (!matched.has(q)) note('llm/missing-question', 'the model does not read this question', q.page, q.id);
  return disagreements;
}

/** Questions from the model's reading alone (for a paper the template found nothing in). */
export function adopt(doc: PaperDocument, llm: LlmQuestion[], blocks: Map<string, Block>): Question[] {
  const out: Question[] = [];
  for (const m of llm) {
    const ids = [...m.stem_blocks, ...m.options.flatMap(o => o.blocks)];
    const lines = [...new Set(ids.map(id => blocks.get(id)!.line))].sort((a, b) => doc.lines.indexOf(a) - doc.lines.indexOf(b));
    if (!lines.length) continue;
    const page = doc.pages[lines[0].page - 1];
    const anchor = matchAnchor(lines[0], page.columns[lines[0].column] ?? { x0: lines[0].bbox[0], x1: lines[0].bbox[2] }, lines[0].spans[0]?.size ?? 0, doc.template);
    out.push(buildQuestion(doc, { section: m.section, number: m.number, anchor: anchor?.spans ?? [], lines: lines as Line[], typeHint: null, sectionPoints: m.points }));
  }
  return out;
}

export function llmStage(): Stage {
  return {
    name: 'llm',
    kind: 'processor',
    async run(doc, ctx) {
      if (!ctx.config.llm || !doc.lines.length) return;
      const { questions, blocks, usage } = await readWithLlm(doc, ctx);
      doc.counters.llmRequests = usage.requests;
      doc.counters.llmPromptTokens = usage.promptTokens;
      doc.counters.llmCompletionTokens = usage.completionTokens;
      doc.messages.info('llm/usage', `${usage.requests} request(s), ${usage.promptTokens} prompt + ${usage.completionTokens} completion tokens`, { stage: 'llm' });
      if (!doc.questions.length && questions.length) {
        doc.questions = adopt(doc, questions, blocks);
        doc.messages.warn('llm/adopted', `the template parse found no question; ${doc.questions.length} taken from the model's reading`, { stage: 'llm' });
        return;
      }
      const n = reconcile(doc, questions, blocks);
      if (n) doc.messages.info('llm/disagreements', `${n} disagreement(s) between the model and the template parse`, { stage: 'llm' });
    },
  };
}
