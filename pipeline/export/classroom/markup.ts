// A stem's Markdown (with `$…$` / `$$…$$` formulas) as the markup an LMS reads: HTML with the
// formulas left as TeX between `\( … \)` / `\[ … \]` for Moodle's MathJax filter, or the XHTML subset
// QTI 2.1 allows with each formula as MathML (KaTeX's MathML output, MathML 2 elements only). The
// review site's own renderer (pipeline/review/markdown.ts) typesets with KaTeX's HTML, which
// neither an LMS editor nor a QTI player keeps; this walks the same Markdown tree to other ends.
import katex from 'katex';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { keepLineBreaks } from '../../review/markdown.ts';
import { isSafeUrl, type HastNode as SafeHastNode } from '../../review/safe-urls.ts';

/** A hast node with where it starts in the Markdown (how `$$…$$` inside a paragraph is told from `$…$`). */
type HastNode = SafeHastNode & { position?: { start: { offset?: number } }; children?: HastNode[] };

// Raw HTML a reviewer typed (`<b>`) arrives as `raw` nodes and is written as text, as typed.
const processor = unified().use(remarkParse).use(remarkMath).use(remarkRehype, { allowDangerousHtml: true }).freeze();

export type MarkupTarget = 'moodle' | 'qti';

const VOID = new Set(['br', 'hr', 'img']);

// QTI 2.1's XHTML subset (imsqti_v2p1.xsd): anything else is unwrapped to its content.
const QTI_ELEMENTS = new Set(['abbr', 'acronym', 'address', 'b', 'big', 'blockquote', 'br', 'caption', 'cite', 'code', 'dd', 'dfn', 'div', 'dl', 'dt', 'em',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'kbd', 'li', 'ol', 'p', 'pre', 'q', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'table', 'tbody',
  'td', 'tfoot', 'th', 'thead', 'tr', 'tt', 'ul', 'var']);
// Block elements QTI does not allow inside an inline context (a simpleChoice's text is written inline).
const BLOCKS = new Set(['p', 'div', 'blockquote', 'pre', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'table']);

const TEXT_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/** Escapes text for HTML and XML alike (attribute values included). */
export function escapeXml(value: unknown): string {
  // Characters XML 1.0 cannot carry at all (C0 controls but tab, newline, return) are dropped.
  return String(value ?? '').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '').replace(/[&<>"]/g, c => TEXT_ENTITIES[c]);
}

function classes(node: HastNode): string[] {
  const c = node.properties?.className;
  return Array.isArray(c) ? c.map(String) : [];
}

const isMath = (node: HastNode) => node.type === 'element' && node.tagName === 'code' && classes(node).includes('language-math');
const textOf = (node: HastNode): string => node.type === 'text' ? node.value ?? '' : (node.children ?? []).map(textOf).join('');

/** KaTeX's MathML for a formula: the `<math>` element alone (xmlns set), or null where KaTeX cannot parse it. */
export function texToMathml(tex: string, display: boolean): string | null {
  let html: string;
  try {
    html = katex.renderToString(tex, { output: 'mathml', displayMode: display, throwOnError: true, strict: 'ignore' });
  } catch {
    return null;
  }
  const m = /<math[\s\S]*<\/math>/.exec(html);
  // `voffset` (\raisebox) is MathML 3; the QTI 2.1 schema imports MathML 2, which places by `height`/`depth` only.
  return m ? m[0].replace(/ voffset="[^"]*"/g, '') : null;
}

class Writer {
  readonly out: string[] = [];
  constructor(private readonly target: MarkupTarget, private readonly source: string) {}

  /** Whether a math node was written `$$…$$` in the source (display), though inside a paragraph. */
  private displayed(node: HastNode, block: boolean): boolean {
    if (block || classes(node).includes('math-display')) return true;
    const at = node.position?.start.offset;
    return at !== undefined && this.source.startsWith('$$', at);
  }

  math(node: HastNode, block: boolean): void {
    const tex = textOf(node).trim();
    const display = this.displayed(node, block);
    if (this.target === 'moodle') {
      this.out.push(escapeXml(display ? `\\[${tex}\\]` : `\\(${tex}\\)`));
      return;
    }
    const mathml = texToMathml(tex, display);
    // A formula KaTeX cannot read is kept as its TeX, never dropped.
    this.out.push(mathml ?? `<code>${escapeXml(tex)}</code>`);
  }

  node(node: HastNode, inline: boolean): void {
    if (node.type === 'text') { this.out.push(escapeXml(node.value)); return; }
    if (node.type === 'raw') { this.out.push(escapeXml(node.value)); return; }
    if (node.type === 'root') { this.children(node, inline); return; }
    if (node.type !== 'element' || !node.tagName) return;
    const tag = node.tagName;
    if (isMath(node)) { this.math(node, false); return; }
    if (tag === 'pre' && node.children?.length === 1 && isMath(node.children[0])) {
      if (this.target === 'qti' && !inline) { this.out.push('<div>'); this.math(node.children[0], true); this.out.push('</div>'); } else this.math(node.children[0], true);
      return;
    }
    // An image in a stem would load from wherever it names: its alt text stands in (as on the review site).
    if (tag === 'img') { this.out.push(escapeXml(String(node.properties?.alt ?? ''))); return; }
    let name = tag;
    const attributes: string[] = [];
    if (tag === 'a') {
      const href = String(node.properties?.href ?? '');
      if (this.target === 'qti' || !isSafeUrl(href)) name = 'span';
      else attributes.push(` href="${escapeXml(href)}"`);
    }
    if (this.target === 'qti' && !QTI_ELEMENTS.has(name)) name = 'span';
    if (inline && BLOCKS.has(name)) {
      // Inside a choice: paragraphs run on, separated by a line break.
      if (name === 'hr') return;
      this.children(node, true);
      if (name === 'p' || name === 'li') this.out.push(this.target === 'qti' ? '<br/>' : '<br>');
      return;
    }
    if (VOID.has(name)) { this.out.push(this.target === 'qti' ? `<${name}${attributes.join('')}/>` : `<${name}${attributes.join('')}>`); return; }
    this.out.push(`<${name}${attributes.join('')}>`);
    this.children(node, inline);
    this.out.push(`</${name}>`);
  }

  children(node: HastNode, inline: boolean): void {
    for (const c of node.children ?? []) {
      // The newlines remark-rehype puts between blocks carry nothing.
      if (c.type === 'text' && node.type === 'root' && !c.value?.trim()) continue;
      this.node(c, inline);
    }
  }
}

function convert(markdown: string, target: MarkupTarget, inline: boolean): string {
  const source = keepLineBreaks(markdown ?? '');
  const tree = processor.runSync(processor.parse(source)) as unknown as HastNode;
  const w = new Writer(target, source);
  w.node(tree, inline);
  let out = w.out.join('');
  if (inline) out = out.replace(/(<br\/?>)+$/, '');
  return out;
}

/** Block markup (paragraphs) for a stem. */
export function markdownToMarkup(markdown: string, target: MarkupTarget): string {
  return convert(markdown, target, false);
}

/** Inline markup for short text (an option, an answer): no paragraphs. */
export function markdownToInlineMarkup(markdown: string, target: MarkupTarget): string {
  return convert(markdown, target, true);
}
