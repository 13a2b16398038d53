// LaTeX from the geometry of formula glyphs, with no model: fractions from glyphs stacked around a
// rule, radicals (with index) from √ and its vinculum, overlines and vector arrows from what sits
// above letters, limits and bounds of lim/Σ/∫, scripts from baseline offset and size, cases from
// a tall left brace. What cannot be rebuilt with confidence is reported through `doubts`.
import { RULE, type Glyph } from './glyphs.ts';

const SYMBOLS: Record<string, string> = {
  'α': '\\alpha', 'β': '\\beta', 'γ': '\\gamma', 'δ': '\\delta', 'θ': '\\theta', 'λ': '\\lambda', 'μ': '\\mu', 'π': '\\pi', 'σ': '\\sigma', 'ω': '\\omega',
  '≤': '\\leq', '≥': '\\geq', '≠': '\\neq', '×': '\\times', '÷': '\\div', '⋅': '\\cdot', '·': '\\cdot', '→': '\\to', '∞': '\\infty', '∠': '\\angle',
  '⊥': '\\perp', '∥': '\\parallel', '∩': '\\cap', '∪': '\\cup', '⊂': '\\subset', '∈': '\\in', '±': '\\pm', '∘': '\\circ', '△': '\\triangle',
  '∣': '|', '′': "'", '″': "''", '{': '\\{', '}': '\\}', '%': '\\%', '#': '\\#', '&': '\\&', '_': '\\_', '…': '\\cdots', '⋯': '\\cdots', '−': '-', '∼': '\\sim',
  '∫': '\\int', 'Σ': '\\sum', '∑': '\\sum', '√': '\\surd',
  '≡': '\\equiv', '≈': '\\approx', '°': '^{\\circ}', 'ℝ': '\\mathbb{R}', '⇒': '\\Rightarrow', '∴': '\\therefore', '∉': '\\notin',
};
const FUNCTIONS = ['lim', 'log', 'ln', 'sin', 'cos', 'tan', 'sec', 'csc', 'cot', 'exp', 'max', 'min'];
const BRACES = '⎧⎨⎩⎪';
/** Letters, digits and Greek: what a formula's main line is made of, and what arrows and bars stand over. */
const ORDINARY = /^[A-Za-z0-9α-ωΑ-Ωℎ∞]$/u;

// Tolerances of the geometry, in ems of the glyph (or formula) each is measured against.
/** Letters whose baselines are within this are on one line of a word (`sin`, `log`)… */
const WORD_BASELINE = 0.15;
/** …set at most this far apart, either way (kerning overlaps them)… */
const WORD_GAP = 0.3;
/** …and of one size, within this many points. */
const SAME_SIZE_PT = 0.5;
/** A raised dot closer than this to the digits on both sides is a decimal point, not a product. */
const POINT_GAP = 0.15;
/** A one-piece `{` of cases has rows at least this far above and below its own baseline… */
const CASES_ROW_RISE = 0.8;
/** …among the glyphs to its right whose baselines are within this of its own. */
const CASES_REACH = 2;
/** In cases, what stands over or under a fraction bar lies within this of the bar's baseline. */
const CASES_BAR_REACH = 1.3;
/** Glyphs of at least this share of the largest size are full size: a line's own, not scripts. */
const FULL_SIZE = 0.85;
/** Full-size glyphs whose baselines are within this are on one row of cases. */
const ROW_BASELINE = 0.6;
/** A gap wider than this in a row of cases opens the row's condition. */
const CONDITION_GAP = 0.8;
/** A vector arrow's shaft lies within this of the arrowhead's baseline… */
const SHAFT_BASELINE = 0.3;
/** …and the letters under the arrow have baselines at least this far below it. */
const ARROW_CLEARANCE = 0.35;
/** The pieces of a tall bracket stack within this of its top piece's left edge. */
const BRACKET_ALIGN = 0.3;
/** A fraction's axis stands this far above its bar's baseline: numerators above, denominators below. */
const AXIS_RISE = 0.3;
/** The radicand sits within this of the radical's baseline. */
const RADICAND_BASELINE = 0.45;
/** A radical's index is under this share of the radical's size, over this share of its width, and raised this much. */
const INDEX_SIZE = 0.75;
const INDEX_OVER = 0.6;
const INDEX_RISE = 0.2;
/** Limits of lim, Σ and ∫ stand within this of the operator's sides… */
const LIMIT_REACH = 0.8;
/** …below its baseline by at least this, or above it by at least this (Σ, a display ∫). */
const LIMIT_DROP = 0.3;
const LIMIT_RISE = 0.6;
/** An ∫ is set as a display only where a bound stands at least this far over it (else its bounds are scripts). */
const DISPLAY_INT_RISE = 1.5;
/** An operator's own glyphs sit within this of its baseline. */
const OPERATOR_BASELINE = 0.2;
/** A smaller atom raised at least this far from the main line is a superscript; lowered at least this far, a subscript. */
const SUP_RISE = 0.2;
const SUB_DROP = 0.1;

export interface Built { latex: string; doubts: string[] }

const cx = (g: Glyph) => (g.bbox[0] + g.bbox[2]) / 2;
const w = (g: Glyph) => g.bbox[2] - g.bbox[0];

interface Atom { x: number; x1: number; latex: string; baseline: number; size: number; script?: boolean }

function tokenLatex(ch: string): string {
  return SYMBOLS[ch] ?? ch;
}

/** Letters run together into words so that sin, log, lim become operators. */
function words(glyphs: Glyph[]): Atom[] {
  const out: Atom[] = [];
  for (const g of [...glyphs].sort((a, b) => a.bbox[0] - b.bbox[0])) {
    // The word this letter continues: the latest atom on its baseline, at its size, just before it.
    const prev = [...out].reverse().find(a => Math.abs(a.baseline - g.baseline) < g.size * WORD_BASELINE && Math.abs(a.size - g.size) < SAME_SIZE_PT);
    const letter = /^[a-z]$/.test(g.ch);
    if (prev && letter && /^[a-z]+$/.test(prev.latex) && g.bbox[0] - prev.x1 < g.size * WORD_GAP && g.bbox[0] - prev.x1 > -g.size * WORD_GAP) {
      prev.latex += g.ch; prev.x1 = g.bbox[2]; continue;
    }
    out.push({ x: g.bbox[0], x1: g.bbox[2], latex: g.ch, baseline: g.baseline, size: g.size });
  }
  // Split a word at a function name it holds (`sinx` → sin, x); other words are single letters.
  const atoms: Atom[] = [];
  for (const a of out) {
    if (!/^[a-z]{2,}$/.test(a.latex)) { atoms.push({ ...a, latex: tokenLatex(a.latex) }); continue; }
    let rest = a.latex, x = a.x;
    const per = (a.x1 - a.x) / a.latex.length;
    while (rest) {
      const f = FUNCTIONS.filter(n => rest.startsWith(n)).sort((p, q) => q.length - p.length)[0];
      const take = f ?? rest[0];
      atoms.push({ x, x1: x + per * take.length, latex: f ? `\\${f}` : take, baseline: a.baseline, size: a.size });
      x += per * take.length;
      rest = rest.slice(take.length);
    }
  }
  return atoms;
}

function join(atoms: Atom[]): string {
  let s = '';
  const list = atoms.sort((p, q) => p.x - q.x);
  for (const [i, a] of list.entries()) {
    // The equation font sets the decimal point as a raised dot: set tight between digits it is a
    // point; with room on both sides (`8 ⋅ 12`) it is a product.
    const tight = (p: Atom | undefined, q: Atom | undefined) => !!p && !!q && q.x - p.x1 < a.size * POINT_GAP;
    if (a.latex === '\\cdot' && /\d$/.test(s) && /^\d/.test(list[i + 1]?.latex ?? '') && tight(list[i - 1], a) && tight(a, list[i + 1])) { s += '.'; continue; }
    // A command name must not run into the letter after it (\pi t, not \pit).
    if (/\\[a-zA-Z]+$/.test(s) && /^[a-zA-Z]/.test(a.latex)) s += ' ';
    s += a.latex;
  }
  return s;
}

/** Build the LaTeX of a set of glyphs (one formula, or a part of one: a numerator, a radicand). */
export function build(glyphs: Glyph[], doubts: string[] = [], line?: { baseline: number; size: number }): string {
  if (!glyphs.length) return '';
  const left = new Set(glyphs);
  const atoms: Atom[] = [];
  const take = (gs: Glyph[]) => gs.forEach(g => left.delete(g));
  const sorted = [...glyphs].sort((a, b) => a.bbox[0] - b.bbox[0]);

  // Cases: a tall left brace (⎧⎨⎩ in pieces, or one `{` with rows above and below its own
  // baseline to its right: Word's Cambria Math) with rows to its right.
  let brace = sorted.filter(g => BRACES.includes(g.ch));
  let extent: [number, number] | null = brace.length >= 2 ? [Math.min(...brace.map(g => g.bbox[1])), Math.max(...brace.map(g => g.bbox[3]))] : null;
  if (!extent) {
    const rightOf = (b: Glyph) => sorted.filter(x => x !== b && x.bbox[0] >= b.bbox[2] - 1 && Math.abs(x.baseline - b.baseline) < b.size * CASES_REACH);
    const tall = sorted.find(g => g.ch === '{' && rightOf(g).some(x => x.baseline < g.baseline - g.size * CASES_ROW_RISE) && rightOf(g).some(x => x.baseline > g.baseline + g.size * CASES_ROW_RISE));
    if (tall) {
      brace = [tall];
      const rows = rightOf(tall);
      extent = [Math.min(...rows.map(x => x.bbox[1])), Math.max(...rows.map(x => x.bbox[3]))];
    }
  }
  if (extent) {
    const bx = Math.max(...brace.map(g => g.bbox[2]));
    const [top, bottom] = extent;
    const before = sorted.filter(g => !brace.includes(g) && g.bbox[2] <= Math.min(...brace.map(b => b.bbox[0])) + 1);
    const inside = sorted.filter(g => !brace.includes(g) && g.bbox[0] >= bx - 1 && g.baseline > top && g.baseline <= bottom + g.size);
    take(brace); take(inside);
    // Rows by baseline; what stands over or under a fraction bar (or sits in a script) goes with the
    // row of the glyph it belongs to, not a row of its own.
    const bars = inside.filter(g => g.ch === RULE);
    const ownerBar = (g: Glyph) => bars.find(b => b !== g && cx(g) >= b.bbox[0] - 1 && cx(g) <= b.bbox[2] + 1 && Math.abs(g.baseline - b.baseline) < b.size * CASES_BAR_REACH);
    const rows: Glyph[][] = [];
    const anchored = inside.filter(g => !ownerBar(g) && g.size >= Math.max(...inside.map(x => x.size)) * FULL_SIZE);
    for (const g of [...anchored].sort((a, b) => a.baseline - b.baseline)) {
      const row = rows.find(r => Math.abs(r[0].baseline - g.baseline) < g.size * ROW_BASELINE);
      if (row) row.push(g); else rows.push([g]);
    }
    for (const g of inside.filter(x => !anchored.includes(x))) {
      const ref = ownerBar(g) ?? g;
      const row = rows.reduce((best, r) => (Math.abs(r[0].baseline - ref.baseline) < Math.abs(best[0].baseline - ref.baseline) ? r : best), rows[0] ?? [g]);
      if (!rows.includes(row)) rows.push(row); else row.push(g);
    }
    const lines = rows.map(r => {
      const rs = [...r].sort((a, b) => a.bbox[0] - b.bbox[0]);
      // The condition is what follows the widest gap, when it opens with a bracket.
      let cut = -1, gap = 0;
      for (let i = 1; i < rs.length; i++) { const d = rs[i].bbox[0] - rs[i - 1].bbox[2]; if (d > gap) { gap = d; cut = i; } }
      // A stop set apart after a row is the sentence's, not a condition.
      if (cut > 0 && gap > rs[0].size * CONDITION_GAP && !rs.slice(cut).every(g => /^[.,;]$/.test(g.ch))) return `${build(rs.slice(0, cut), doubts)} & ${build(rs.slice(cut), doubts)}`;
      return build(rs, doubts);
    });
    const rest = sorted.filter(g => left.has(g) && !before.includes(g));
    take(before); take(rest);
    return `${before.length ? build(before, doubts) + ' ' : ''}\\begin{cases} ${lines.join(' \\\\ ')} \\end{cases}${rest.length ? ' ' + build(rest, doubts) : ''}`;
  }

  // Vector arrows: an arrowhead raised over letters, with the rule that is its shaft.
  for (const arrow of sorted.filter(g => g.ch === '→' && left.has(g))) {
    const shaft = sorted.filter(g => g.ch === RULE && left.has(g) && Math.abs(g.baseline - arrow.baseline) < arrow.size * SHAFT_BASELINE && g.bbox[2] >= arrow.bbox[0] - 2 && g.bbox[0] <= arrow.bbox[2]);
    const x0 = Math.min(arrow.bbox[0], ...shaft.map(g => g.bbox[0])), x1 = arrow.bbox[2];
    const under = sorted.filter(g => left.has(g) && ORDINARY.test(g.ch) && cx(g) >= x0 - 1 && cx(g) <= x1 + 1 && g.baseline > arrow.baseline + arrow.size * ARROW_CLEARANCE);
    if (!under.length) continue;
    take([arrow, ...shaft, ...under]);
    const body = build(under, doubts);
    atoms.push({ x: Math.min(...under.map(g => g.bbox[0])), x1: Math.max(...under.map(g => g.bbox[2])), latex: under.length > 1 ? `\\overrightarrow{${body}}` : `\\vec{${body}}`, baseline: under[0].baseline, size: under[0].size });
  }

  // Tall brackets set in pieces (⎡ ∣ ⎣ for [, ⎤ ∣ ⎦ for ]): one bracket each.
  for (const [top, bottom, open] of [['⎡', '⎣', '['], ['⎤', '⎦', ']']] as const) {
    for (const head of sorted.filter(g => g.ch === top && left.has(g))) {
      const stack = sorted.filter(g => left.has(g) && g !== head && (g.ch === bottom || g.ch === '∣' || g.ch === '|') && Math.abs(g.bbox[0] - head.bbox[0]) < head.size * BRACKET_ALIGN && g.baseline > head.baseline);
      const foot = stack.find(g => g.ch === bottom);
      if (!foot) continue;
      const parts = [head, ...stack.filter(g => g.baseline <= foot.baseline)];
      take(parts);
      const mid = (head.baseline + foot.baseline) / 2;
      atoms.push({ x: head.bbox[0], x1: head.bbox[2], latex: open, baseline: mid, size: main0(glyphs) });
    }
  }

  // Rules: fraction bars, radical vincula, overlines. Widest first: what stands over or under a
  // wide bar (a radical in a numerator, a fraction under a radical) is built again inside it.
  const rules = sorted.filter(g => g.ch === RULE).sort((a, b) => w(b) - w(a));
  for (const bar of rules) {
    if (!left.has(bar)) continue;
    const axis = bar.baseline - bar.size * AXIS_RISE;
    const over = (g: Glyph) => g !== bar && left.has(g) && cx(g) >= bar.bbox[0] - 1 && cx(g) <= bar.bbox[2] + 1;
    const root = sorted.find(g => left.has(g) && g.ch === '√' && g.bbox[2] >= bar.bbox[0] - 3 && g.bbox[0] < bar.bbox[0]);
    if (root) {
      // The radicand sits on the radical's own line, with anything stacked on a narrower rule inside it.
      const core = sorted.filter(g => over(g) && Math.abs(g.baseline - root.baseline) <= root.size * RADICAND_BASELINE);
      const inner = core.filter(g => g.ch === RULE);
      const radicand = [...new Set([...core, ...sorted.filter(g => over(g) && inner.some(r => cx(g) >= r.bbox[0] - 1 && cx(g) <= r.bbox[2] + 1))])];
      const index = sorted.find(g => left.has(g) && g !== root && g.size < root.size * INDEX_SIZE && cx(g) < root.bbox[0] + w(root) * INDEX_OVER && g.baseline < root.baseline - root.size * INDEX_RISE);
      take([bar, root, ...radicand, ...(index ? [index] : [])]);
      atoms.push({ x: root.bbox[0], x1: bar.bbox[2], latex: `\\sqrt${index ? `[${index.ch}]` : ''}{${build(radicand, doubts)}}`, baseline: root.baseline, size: radicand.length ? Math.max(...radicand.map(g => g.size)) : root.size });
      continue;
    }
    const above = sorted.filter(g => over(g) && g.baseline < axis);
    const below = sorted.filter(g => over(g) && g.baseline >= axis);
    if (above.length && below.length) {
      take([bar, ...above, ...below]);
      atoms.push({ x: bar.bbox[0], x1: bar.bbox[2], latex: `\\frac{${build(above, doubts)}}{${build(below, doubts)}}`, baseline: bar.baseline, size: Math.max(...above.map(g => g.size)) });
    } else if (below.length) {
      take([bar, ...below]);
      atoms.push({ x: bar.bbox[0], x1: bar.bbox[2], latex: `\\overline{${build(below, doubts)}}`, baseline: Math.max(...below.map(g => g.baseline)), size: below[0].size });
    } else {
      take([bar]);
      doubts.push('a rule with nothing under it');
    }
  }

  // lim and Σ carry their limits below (and above); a display ∫ (Word's Cambria Math) its bounds
  // over and under it, which a glyph box smaller than what it draws leaves anywhere in x order.
  const ops = words(sorted.filter(g => left.has(g))).filter(a => ['\\lim', '\\sum', '\\int'].includes(a.latex));
  for (const a of ops) {
    const near = (g: Glyph) => left.has(g) && g.bbox[0] >= a.x - a.size * LIMIT_REACH && g.bbox[2] <= a.x1 + a.size * LIMIT_REACH;
    const below = sorted.filter(g => near(g) && g.baseline > a.baseline + a.size * LIMIT_DROP);
    const above = a.latex !== '\\lim' ? sorted.filter(g => near(g) && g.baseline < a.baseline - a.size * LIMIT_RISE) : [];
    // An ∫ set inline keeps its bounds as scripts (below); only one with a bound well over it is a display ∫.
    if (a.latex === '\\int' && !above.some(g => g.baseline < a.baseline - a.size * DISPLAY_INT_RISE)) continue;
    const own = sorted.filter(g => left.has(g) && g.bbox[0] >= a.x - 0.5 && g.bbox[2] <= a.x1 + 0.5 && Math.abs(g.baseline - a.baseline) < a.size * OPERATOR_BASELINE);
    take([...below, ...above, ...own]);
    atoms.push({ ...a, latex: `${a.latex}${below.length ? `_{${build(below, doubts)}}` : ''}${above.length ? `^{${build(above, doubts)}}` : ''}`, script: true });
  }
  const remaining = sorted.filter(g => left.has(g));
  atoms.push(...words(remaining));
  // A formula set inside a line of text sits on that line, whatever few ordinary glyphs it has left.
  return join(scripts(atoms, line ?? mainBaseline(remaining, atoms), remaining, doubts));
}


/** The size of a formula's ordinary symbols. */
function main0(glyphs: Glyph[]): number {
  const ordinary = glyphs.filter(g => ORDINARY.test(g.ch));
  return Math.max(...(ordinary.length ? ordinary : glyphs).map(g => g.size));
}

/** The line a formula sits on: the baseline and size of its ordinary symbols (letters, digits), not its delimiters. */
function mainBaseline(glyphs: Glyph[], atoms: Atom[]): { baseline: number; size: number } {
  const ordinary = glyphs.filter(g => ORDINARY.test(g.ch));
  const structures = atoms.filter(a => !a.script);
  const pool = ordinary.length ? ordinary.map(g => ({ baseline: g.baseline, size: g.size })) : structures.length ? structures : atoms.length ? atoms : glyphs;
  const big = Math.max(...pool.map(g => g.size));
  const full = pool.filter(g => g.size >= big * FULL_SIZE);
  const counts = new Map<number, number>();
  for (const g of full) counts.set(Math.round(g.baseline), (counts.get(Math.round(g.baseline)) ?? 0) + 1);
  const baseline = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 0;
  return { baseline, size: big };
}

/**
 * Superscripts and subscripts: atoms smaller than the main line and raised or lowered from it
 * attach to the base before them; each script is built again from its glyphs (nested scripts).
 */
function scripts(atoms: Atom[], main: { baseline: number; size: number }, glyphs: Glyph[], doubts: string[]): Atom[] {
  const kind = (b: Atom): 'base' | 'sup' | 'sub' => {
    if (b.script) return 'base';
    const small = b.size < main.size * FULL_SIZE;
    if (small && b.baseline < main.baseline - main.size * SUP_RISE) return 'sup';
    if (small && b.baseline > main.baseline + main.size * SUB_DROP) return 'sub';
    return 'base';
  };
  const sorted = [...atoms].sort((a, b) => a.x - b.x);
  const out: Atom[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i];
    if (kind(a) === 'base' || !out.length) { out.push(a); continue; }
    // Everything up to the next base atom: sup and sub parts, each rebuilt from its glyphs.
    let j = i;
    while (j + 1 < sorted.length && kind(sorted[j + 1]) !== 'base') j++;
    const run = sorted.slice(i, j + 1);
    const part = (k: 'sup' | 'sub') => {
      const mine = run.filter(r => kind(r) === k);
      if (!mine.length) return '';
      const x0 = Math.min(...mine.map(r => r.x)), x1 = Math.max(...mine.map(r => r.x1));
      const inner = glyphs.filter(g => g.bbox[0] >= x0 - 0.5 && g.bbox[2] <= x1 + 0.5 && (k === 'sup' ? g.baseline < main.baseline - main.size * SUP_RISE : g.baseline > main.baseline + main.size * SUB_DROP));
      const structured = mine.some(r => r.latex.startsWith('\\') && !FUNCTIONS.some(f => r.latex === `\\${f}`));
      return structured || !inner.length ? join(mine) : build(inner, doubts);
    };
    const prev = out[out.length - 1];
    const sub = part('sub'), sup = part('sup');
    prev.latex = `${prev.latex}${sub ? `_{${sub}}` : ''}${sup ? `^{${sup}}` : ''}`;
    prev.x1 = Math.max(prev.x1, ...run.map(r => r.x1));
    i = j;
  }
  return out;
}

/** A whole formula: its LaTeX, and whether it parses as balanced TeX. */
export function formulaLatex(glyphs: Glyph[], line?: { baseline: number; size: number }): Built {
  const doubts: string[] = [];
  const latex = build(glyphs, doubts, line).replace(/\s+/g, ' ').trim();
  return { latex, doubts };
}
