// What the LLM sees: the paper's body lines as numbered blocks (`p3.12`: page 3, its 12th line),
// cut into chunks that share some lines, so a question cut at one chunk's edge is whole in the next.
import type { Line, PaperDocument } from '../document.ts';
import { rawText } from '../text/line-text.ts';

export interface Block {
  id: string;
  page: number;
  line: Line;
  text: string;
}

export function blocksOf(doc: PaperDocument): Block[] {
  const perPage = new Map<number, number>();
  return doc.lines.map(line => {
    const k = (perPage.get(line.page) ?? 0) + 1;
    perPage.set(line.page, k);
    return { id: `p${line.page}.${k}`, page: line.page, line, text: rawText(line.spans) };
  }).filter(b => b.text.trim());
}

export function chunksOf(blocks: Block[], size: number, overlap: number): Block[][] {
  const out: Block[][] = [];
  for (let start = 0; start < blocks.length; start += size - overlap) {
    out.push(blocks.slice(start, start + size));
    if (start + size >= blocks.length) break;
  }
  return out;
}

/** The template's prompt with its variables filled; a placeholder with no value is an error, not an empty string. */
export function fillPrompt(text: string, vars: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    if (!(name in vars)) throw new Error(`the prompt names {{${name}}}, which has no value`);
    return vars[name];
  });
}
