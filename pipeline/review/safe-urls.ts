// A rehype step for text read from arbitrary PDFs: a Markdown link keeps its target only where it
// is http(s), mailto, a fragment or a relative path (never javascript: and the like), and a
// Markdown image becomes its alt text, so a review page never fetches anything from elsewhere.

/** The little of hast this step touches (and the classroom exports' markup walk reads). */
export interface HastNode {
  type: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
  value?: string;
}

export function isSafeUrl(url: string): boolean {
  // Browsers ignore control characters and whitespace inside a scheme ("java\tscript:"), so this does too.
  const plain = url.replace(/[\u0000-\u0020\u007f]+/g, '');
  return /^(https?:|mailto:|#|\/(?!\/)|\.)/i.test(plain) || !/^[^/?#]*:/.test(plain);
}

function clean(node: HastNode): void {
  if (!node.children) return;
  node.children = node.children.map(child => {
    if (child.type === 'element' && child.tagName === 'img') return { type: 'text', value: String(child.properties?.alt ?? '') };
    if (child.type === 'element' && child.tagName === 'a' && child.properties && !isSafeUrl(String(child.properties.href ?? ''))) delete child.properties.href;
    clean(child);
    return child;
  });
}

export default function rehypeSafeUrls() {
  return (tree: HastNode) => clean(tree);
}
