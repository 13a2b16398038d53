// Section names as keys and statistics files write them (공통, 확률과 통계, prob-stat, 미적분(홀수)…)
// resolved to the template's section ids.
import type { Template } from '../template.ts';

const squash = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[\s()（）]/g, '');

/** The label less a form mark it ends with (`미적분(홀수)`), by the template's form patterns. */
function withoutForm(k: string, t: Template): string {
  for (const f of t.cover.forms ?? []) {
    const cut = k.replace(new RegExp(`(?:${f.pattern})$`, 'u'), '');
    if (cut !== k) return cut;
  }
  return k;
}

/** The template section a label names, or null. Reads ids, labels and aliases; ignores spaces, brackets and form marks. */
export function sectionOf(label: string, t: Template): string | null {
  const k = withoutForm(squash(label), t);
  if (!k) return null;
  for (const [alias, id] of Object.entries(t.answers?.sectionAliases ?? {})) if (squash(alias) === k) return id;
  if (t.sections.default && squash(t.sections.default) === k) return t.sections.default;
  for (const s of t.re.sections) if (squash(s.id) === k || squash(s.label) === k) return s.id;
  return null;
}

/** Longest common subsequence length: how much of a label survives in an OCR'd heading. */
function lcs(a: string, b: string): number {
  let prev = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const cur = [0];
    for (let j = 1; j <= b.length; j++) cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    prev = cur;
  }
  return prev[b.length];
}

/**
 * The section a key table's heading names: the elective whose label the heading holds, allowing
 * for OCR slips (two thirds of the label's characters, in order); null when none does.
 */
export function sectionInHeading(heading: string, t: Template): string | null {
  const h = squash(heading);
  let best: string | null = null, bestScore = 0;
  for (const s of t.re.sections) {
    const label = squash(s.label);
    const score = lcs(label, h) / label.length;
    if (score >= 0.66 && score > bestScore) { best = s.id; bestScore = score; }
  }
  return best;
}

/**
 * The section a key's heading cell names, however it is worded: an elective's label (allowing for
 * OCR slips), a label or alias as written, or a heading that holds an alias (`공통과목` holds `공통`).
 * Null for a heading that names none (`선택과목` over all the electives).
 */
export function sectionNamed(heading: string, t: Template): string | null {
  const direct = sectionInHeading(heading, t) ?? sectionOf(heading, t);
  if (direct) return direct;
  const h = squash(heading);
  for (const [alias, id] of Object.entries(t.answers?.sectionAliases ?? {})) if (squash(alias) && h.includes(squash(alias))) return id;
  return null;
}

/** Words of a heading for matching a section's name: letters and digits in runs, case and width folded. */
const words = (s: string) => s.normalize('NFKC').toLowerCase().split(/[^\p{L}\p{M}\p{N}]+/u).filter(Boolean);

/**
 * The section of the paper (as its questions carry it) that a key's heading names: the same name,
 * a name that holds the other as a word (`Part A` and `A`, `Phần I — Toán` and `Toán`), or, for a
 * heading OCR may have misread, one that keeps three quarters of the name's characters in order.
 * Null where none does, or more than one does equally well.
 */
export function paperSectionNamed(heading: string, sections: readonly string[]): string | null {
  const h = squash(heading), hw = words(heading);
  if (!h) return null;
  const score = (s: string): number => {
    const k = squash(s), kw = words(s);
    if (!k) return 0;
    if (k === h) return 3;
    const within = (a: string[], b: string[]) => a.length > 0 && a.every(w => b.includes(w));
    // A short name (`A`, `I`) only as a word of the heading; a longer one anywhere in it.
    if (within(kw, hw) || within(hw, kw) || (k.length >= 3 && h.includes(k)) || (h.length >= 3 && k.includes(h))) return 2;
    if (k.length >= 3 && lcs(k, h) / k.length >= 0.75) return 1;
    return 0;
  };
  const scored = sections.map(s => ({ s, v: score(s) })).filter(x => x.v > 0).sort((a, b) => b.v - a.v);
  if (!scored.length || (scored[1] && scored[1].v === scored[0].v)) return null;
  return scored[0].s;
}
