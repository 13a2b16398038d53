// The lint rules: text a reader would see as broken in a question's stem and options, and regions
// that hold nothing of the question. Each rule reads one question and returns its findings; the
// lint stage puts them on the document as diagnostics.
import type { PageInfo, Question, Region, Span } from '../document.ts';
import { centerX, centerY } from '../document.ts';
import type { Severity } from '../diagnostics.ts';
import { BRACKET_PIECE, codePoints, CONTROL, DOUBLED, PRIVATE_USE, proseOf } from './text.ts';
import { RADICAL } from '../text/cjk-radicals.ts';
import { holdsLegacyText, legacyEvidence } from '../text/legacy-font.ts';

export interface Finding {
  message: string;
  page?: number;
}

export interface LintRule {
  /** Diagnostic rule name, `lint/…`. */
  readonly id: string;
  readonly severity: Severity;
  check(q: Question, pages: readonly PageInfo[]): Finding[];
}

/** The stem, then each option, with what to call it in a message. */
function texts(q: Question): { where: string; text: string }[] {
  return [{ where: 'stem', text: q.stem }, ...q.options.map(o => ({ where: `option ${o.label}`, text: o.text }))];
}

const characters = (id: string, re: RegExp, what: string): LintRule => ({
  id,
  severity: 'warning',
  check: q => texts(q).filter(t => re.test(t.text)).map(t => ({ message: `${t.where}: ${what} ${codePoints(t.text, re).join(' ')}`, page: q.page })),
});

export const controlCharacters = characters('lint/control-character', CONTROL, 'control characters');
export const privateUse = characters('lint/private-use', PRIVATE_USE, 'Private Use Area code points left undecoded');
/** What the radical table could not unify (⺀, which has no ideograph), or text read before it existed. */
export const cjkRadical = characters('lint/cjk-radical', RADICAL, 'CJK radical code points where the page shows an ideograph');

/** A rule on the prose of each text (formulas set aside): `find` gives the piece to quote, or null. */
const inProse = (id: string, find: (prose: string) => string | null, what: string): LintRule => ({
  id,
  severity: 'warning',
  check(q) {
    const all = texts(q);
    const prose = proseOf(all.map(t => t.text));
    return all.flatMap((t, i) => {
      const found = find(prose[i]);
      return found === null ? [] : [{ message: `${t.where}: ${what}: "${found}"`, page: q.page }];
    });
  },
});

const PIECE_IN_CONTEXT = new RegExp(`.{0,12}${BRACKET_PIECE.source}.{0,12}`, 'u');
export const bracketPieces = inProse('lint/bracket-pieces', p => PIECE_IN_CONTEXT.exec(p)?.[0].trim() ?? null, 'pieces of a tall bracket outside a formula');
export const doubledText = inProse('lint/doubled-text', p => DOUBLED.exec(p)?.[0].slice(0, 80) ?? null, 'text printed twice in a row');

/**
 * Text in a legacy 8-bit font (Latin codes standing for Devanagari or another script's glyphs): the
 * runs the text layer marked so, or, for a record read without its page (a stored record), a text
 * most of whose Latin words no language spells (`fuEufyf[kr esa ls dkSu`).
 */
export const legacyFont: LintRule = {
  id: 'lint/legacy-font',
  severity: 'warning',
  check(q) {
    const marked = q.lines.flatMap(l => l.spans).filter(s => s.legacy);
    if (marked.length) {
      const sample = marked.map(s => s.text).join(' ').replace(/\s+/g, ' ').slice(0, 60);
      return [{ message: `text in a legacy 8-bit font, not readable as printed (Latin codes standing for another script's glyphs): "${sample}"`, page: q.page }];
    }
    const all = texts(q);
    return proseOf(all.map(t => t.text)).flatMap((prose, i) => {
      const e = legacyEvidence(prose);
      return holdsLegacyText(e) ? [{ message: `${all[i].where}: ${e.odd} of ${e.words} words spelled as no language, as a legacy 8-bit font leaves them (${e.examples.join(' ')}): not readable as printed`, page: q.page }] : [];
    });
  },
};

/** Options that are pictures carry their crop: their text may well be empty. */
const textOptions = (q: Question) => q.options.filter(o => !o.image);

export const emptyOption: LintRule = {
  id: 'lint/empty-option',
  severity: 'warning',
  check: q => textOptions(q).filter(o => !o.text.trim()).map(o => ({ message: `option ${o.label} has no text and no image`, page: q.page })),
};

export const duplicateOption: LintRule = {
  id: 'lint/duplicate-option',
  severity: 'warning',
  check(q) {
    const seen = new Map<string, string>();
    const out: Finding[] = [];
    for (const o of textOptions(q)) {
      const text = o.text.trim();
      if (!text) continue;
      const first = seen.get(text);
      if (first !== undefined) out.push({ message: `option ${o.label} reads the same as option ${first}: "${text.slice(0, 60)}"`, page: q.page });
      else seen.set(text, o.label);
    }
    return out;
  },
};

const within = (s: Span, r: Region) => centerX(s.bbox) >= r.bbox[0] && centerX(s.bbox) <= r.bbox[2] && centerY(s.bbox) >= r.bbox[1] && centerY(s.bbox) <= r.bbox[3];

/** A region whose text is all furniture (a running head, a footer, a notice) is no part of the question. */
export const furnitureRegion: LintRule = {
  id: 'lint/furniture-region',
  severity: 'warning',
  check(q, pages) {
    return q.regions.flatMap(r => {
      const page = pages.find(p => p.number === r.page);
      if (!page) return [];
      const furniture = page.furniture.filter(s => within(s, r));
      if (!furniture.length || page.spans.some(s => within(s, r)) || q.figures.some(f => f.page === r.page && centerY(f.bbox) >= r.bbox[1] && centerY(f.bbox) <= r.bbox[3])) return [];
      return [{ message: `a region holds only page furniture: "${furniture.map(s => s.text).join(' ').slice(0, 60)}"`, page: r.page }];
    });
  },
};

/** Every rule, in the order its findings are reported. */
export const LINT_RULES: readonly LintRule[] = [controlCharacters, privateUse, cjkRadical, legacyFont, bracketPieces, doubledText, emptyOption, duplicateOption, furnitureRegion];
