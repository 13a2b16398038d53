// Markdown with `$…$` / `$$…$$` math to HTML, with the math typeset by KaTeX at build time so a
// page needs no script to show it (remark-parse + remark-math → remark-rehype → rehype-katex →
// rehype-stringify). Raw HTML in a stem is never markup: it is shown as the text it is (a reviewer's
// edit with `<b>` or `<script>` reads as typed, neither run nor dropped); unsafe link targets and
// images from elsewhere are not passed through either (safe-urls.ts).
import rehypeKatex from 'rehype-katex';
import rehypeStringify from 'rehype-stringify';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import rehypeSafeUrls from './safe-urls.ts';

interface MdNode { type: string; value?: string; children?: MdNode[] }

/** remark step: every raw HTML node becomes text (in a paragraph where it stood as a block), escaped on output like any text. */
function rawHtmlAsText() {
  const walk = (node: MdNode, flow: boolean): void => {
    if (!node.children) return;
    node.children = node.children.map(child => {
      if (child.type !== 'html') {
        walk(child, child.type === 'blockquote' || child.type === 'listItem');
        return child;
      }
      const text = { type: 'text', value: child.value ?? '' };
      return flow ? { type: 'paragraph', children: [text] } : text;
    });
  };
  return (tree: MdNode) => walk(tree, true);
}

// One frozen processor for every call: building it is the costly part.
const processor = unified()
  .use(remarkParse)
  .use(remarkMath)
  .use(rawHtmlAsText)
  .use(remarkRehype)
  .use(rehypeSafeUrls)
  // A formula KaTeX cannot parse is shown as its source in red by rehype-katex itself, never dropped.
  .use(rehypeKatex, { strict: 'ignore', output: 'htmlAndMathml' })
  .use(rehypeStringify)
  .freeze();

/**
 * A stem's single line breaks are the paper's own lines (a condition box's (가), (나) each on its
 * own): kept as hard breaks so the text reads like the page beside it. Inside math they are mere
 * whitespace, so the two trailing spaces change nothing there.
 */
export function keepLineBreaks(markdown: string): string {
  return markdown.replace(/([^\n])\n(?!\n)/g, '$1  \n');
}

/** Block HTML (paragraphs) for a stem. */
export function markdownToHtml(markdown: string): string {
  return String(processor.processSync(keepLineBreaks(markdown ?? ''))).trim();
}

/** Inline HTML for short text (an option, an answer): the single paragraph's wrapper is dropped. */
export function markdownToInlineHtml(markdown: string): string {
  const html = markdownToHtml(markdown);
  const m = /^<p>([\s\S]*)<\/p>$/.exec(html);
  return m && !m[1].includes('<p>') ? m[1] : html;
}
