// Protection: before a text goes to a translator, everything that is mathematics or a label is taken
// out and replaced by a placeholder the translator cannot meaningfully change (⟦M1⟧, ⟦N1⟧, ⟦L1⟧, ⟦F1⟧);
// after, the placeholders are put back as exactly the original characters. A reply that drops,
// duplicates, invents, alters or moves a placeholder cannot be restored and is refused here.
//
// Kinds: M a `$…$` / `$$…$$` formula (delimiters included), F a figure reference (`![…](…)`),
// L a label the item refers to by name (①, ㄱ, (가)) or a stray bracket of our own syntax, N a
// number in the prose. Placeholders are numbered per kind in source order over all fields
// (stem first, then each option), so every one is unique to one field.
//
// Order. A translation reorders words (Korean is verb-final), so inline placeholders may move within
// their stretch of text. What may not move: placeholders that stand on a line of their own (a
// displayed formula or condition: only punctuation beside them) and labels opening a line ((가),
// ㄱ.) are anchors: they keep their order, and every other placeholder stays between the same two
// anchors of the same field.

export type PlaceholderKind = 'M' | 'F' | 'L' | 'N';

export interface Placeholder {
  /** `M1`, `N3`, …: the token is `⟦<id>⟧`. */
  readonly id: string;
  readonly kind: PlaceholderKind;
  /** The exact source characters it stands for. */
  readonly text: string;
  /** Index of the field it belongs to (0 the stem, 1… the options). */
  readonly field: number;
  /** Whether it is an anchor (see above); anchors keep their order. */
  readonly anchor: boolean;
  /** How many anchors of its field come before it. */
  readonly block: number;
}

export interface Protected {
  /** The fields with every protected span replaced by its token. */
  readonly fields: string[];
  readonly table: Placeholder[];
}

export const OPEN = '⟦';
export const CLOSE = '⟧';
const TOKEN = /⟦([MFLN])(\d+)⟧/g;

// One pass, in precedence order: formulas, figure references, labels (and our own brackets, so a
// source that happens to contain them cannot forge a placeholder), numbers not inside a Latin word.
const SPAN = /(\$\$[\s\S]+?\$\$|\$[^$]+?\$)|(!\[[^\]]*\]\([^)\s]*\))|(\([가-힣]\)|[\u2460-\u2473\u3131-\u314E]|[⟦⟧])|((?<![A-Za-z\d.])\d+(?:\.\d+)?(?![A-Za-z\d]))/gu;

/** A line that holds placeholders and nothing but punctuation and spaces besides. */
const BARE_LINE = /^[\s,.;:()[\]·]*$/;

export function token(id: string): string {
  return `${OPEN}${id}${CLOSE}`;
}

/** The fields (stem, then options' texts) with their protected spans taken out. */
export function protect(fields: readonly string[]): Protected {
  const counters: Record<PlaceholderKind, number> = { M: 0, F: 0, L: 0, N: 0 };
  const table: Placeholder[] = [];
  const out: string[] = [];
  fields.forEach((text, field) => {
    const found: { id: string; kind: PlaceholderKind; text: string }[] = [];
    const replaced = text.replace(SPAN, (whole, math?: string, figure?: string, label?: string) => {
      const kind: PlaceholderKind = math ? 'M' : figure ? 'F' : label ? 'L' : 'N';
      const id = `${kind}${++counters[kind]}`;
      found.push({ id, kind, text: whole });
      return token(id);
    });
    const anchors = new Set<string>();
    for (const line of replaced.split('\n')) {
      const ids = [...line.matchAll(TOKEN)].map(m => m[1] + m[2]);
      if (!ids.length) continue;
      if (BARE_LINE.test(line.replace(TOKEN, ''))) ids.forEach(id => anchors.add(id));
      const opening = /^\s*⟦(L\d+)⟧/.exec(line);
      if (opening) anchors.add(opening[1]);
    }
    let block = 0;
    for (const f of found) {
      const anchor = anchors.has(f.id);
      table.push({ ...f, field, anchor, block });
      if (anchor) block++;
    }
    out.push(replaced);
  });
  return { fields: out, table };
}

export class PlaceholderError extends Error {
  constructor(readonly problems: string[]) {
    super(`placeholders not kept: ${problems.join('; ')}`);
    this.name = 'PlaceholderError';
  }
}

const fieldName = (field: number) => (field === 0 ? 'the stem' : `option ${field}`);

/**
 * The translated fields with every placeholder put back, or a PlaceholderError naming every
 * placeholder that was dropped, duplicated, invented, altered, moved to another field or out of
 * its place among the anchors.
 */
export function restore(fields: readonly string[], table: readonly Placeholder[]): string[] {
  const problems: string[] = [];
  const byId = new Map(table.map(p => [p.id, p]));
  const seen = new Map<string, number>();
  fields.forEach((text, field) => {
    const stray = text.replace(TOKEN, '');
    if (stray.includes(OPEN) || stray.includes(CLOSE)) {
      const at = stray.search(/[⟦⟧]/);
      problems.push(`an altered placeholder in ${fieldName(field)} near "${stray.slice(Math.max(0, at - 6), at + 8)}"`);
    }
    let anchorsBefore = 0;
    const anchorOrder: string[] = [];
    for (const m of text.matchAll(TOKEN)) {
      const id = m[1] + m[2];
      const p = byId.get(id);
      if (!p) { problems.push(`${token(id)} in ${fieldName(field)} is not one that was sent`); continue; }
      seen.set(id, (seen.get(id) ?? 0) + 1);
      if (p.field !== field) { problems.push(`${token(id)} moved from ${fieldName(p.field)} to ${fieldName(field)}`); continue; }
      if (p.anchor) { anchorOrder.push(id); anchorsBefore++; continue; }
      if (p.block !== anchorsBefore) problems.push(`${token(id)} moved across a line of its own (displayed formula or label) in ${fieldName(field)}`);
    }
    const sentAnchors = table.filter(p => p.field === field && p.anchor).map(p => p.id);
    const keptAnchors = anchorOrder.filter((id, i) => anchorOrder.indexOf(id) === i);
    const expected = sentAnchors.filter(id => keptAnchors.includes(id));
    if (keptAnchors.join() !== expected.join()) problems.push(`the placeholders standing on their own lines in ${fieldName(field)} were reordered (${keptAnchors.map(token).join(' ')} for ${expected.map(token).join(' ')})`);
  });
  for (const p of table) {
    const n = seen.get(p.id) ?? 0;
    if (n === 0) problems.push(`${token(p.id)} (${p.text}) was dropped from ${fieldName(p.field)}`);
    else if (n > 1) problems.push(`${token(p.id)} (${p.text}) appears ${n} times`);
  }
  if (problems.length) throw new PlaceholderError(problems);
  return fields.map(text => text.replace(TOKEN, (_, kind: string, n: string) => byId.get(kind + n)!.text));
}
