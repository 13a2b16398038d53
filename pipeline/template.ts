// Templates are data (templates/*.json): one per exam family and subject. This module loads and
// checks them, compiles their patterns once, and picks the template a paper's own text names.
import fs from 'node:fs';
import path from 'node:path';

interface PatternId { pattern: string; id: string; label?: string }

export interface TemplateData {
  id: string;
  description?: string;
  family: string;
  subject: string;
  language: string;
  detect: { all?: string[]; any?: string[] };
  cover: { year?: string; session?: string; subject?: string; sittings?: PatternId[]; forms?: PatternId[] };
  sections: { default: string | null; headings: PatternId[]; headingWhere: 'head' | 'body' };
  furniture: { patterns: string[]; endOfQuestions?: string[] };
  typeHeadings?: { pattern: string; type: 'mcq' | 'short' }[];
  numbering: { pattern: string; first: number; max: number; indentTolerance: number };
  options: { markers: string[]; typeWith: 'mcq'; typeWithout: 'short' | 'free' };
  points: { open: string; unit: string; close: string; values?: number[] };
  /** OCR languages (tesseract names) for pages of this family without a text layer. */
  ocrLang?: string;
  /** Answer keys and published statistics: OCR language of key headings, other names of sections. */
  answers?: { ocrLang?: string; sectionAliases?: Record<string, string> };
  mathFonts: string[];
  fontTables: Record<string, string>;
  prompt: { system: string; user: string; variables: string[] };
}

export interface Template extends TemplateData {
  re: {
    detectAll: RegExp[];
    detectAny: RegExp[];
    furniture: RegExp[];
    endOfQuestions: RegExp[];
    numbering: RegExp;
    typeHeadings: { re: RegExp; type: 'mcq' | 'short' }[];
    sections: { re: RegExp; id: string; label: string }[];
  };
  /** Font name fragment → (code point → character), for fonts whose glyphs carry private code points. */
  fontMaps: Map<string, Map<number, string>>;
}

export class TemplateError extends Error {
  constructor(file: string, message: string) {
    super(`template ${file}: ${message}`);
    this.name = 'TemplateError';
  }
}

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The template's point marker (`[3점]`) as a pattern; the value is group 1, or `value` itself when given. */
export function pointsPattern(t: TemplateData, value?: number): RegExp {
  const { open, unit, close } = t.points;
  const v = value === undefined ? '(\\d+(?:\\.\\d+)?)' : String(value);
  return new RegExp(`${escapeRegExp(open)}\\s*${v}\\s*${escapeRegExp(unit)}\\s*${escapeRegExp(close)}`, 'u');
}

function compile(file: string, what: string, source: string, flags = 'u'): RegExp {
  try {
    return new RegExp(source, flags);
  } catch (e) {
    throw new TemplateError(file, `${what} is not a valid pattern (${(e as Error).message})`);
  }
}

function need(file: string, cond: unknown, message: string): asserts cond {
  if (!cond) throw new TemplateError(file, message);
}

export function loadTemplate(file: string, root: string): Template {
  let data: TemplateData;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8')) as TemplateData;
  } catch (e) {
    throw new TemplateError(file, `cannot be read as JSON (${(e as Error).message})`);
  }
  const name = path.basename(file);
  need(name, typeof data.id === 'string' && data.id, 'needs an "id"');
  need(name, typeof data.family === 'string', 'needs a "family"');
  need(name, data.numbering && typeof data.numbering.pattern === 'string', 'needs "numbering.pattern"');
  need(name, Array.isArray(data.options?.markers), 'needs "options.markers" (an array, possibly empty)');
  need(name, data.points && typeof data.points.unit === 'string', 'needs "points" with "open", "unit", "close"');
  need(name, Array.isArray(data.furniture?.patterns), 'needs "furniture.patterns"');
  const fontMaps = new Map<string, Map<number, string>>();
  for (const [font, table] of Object.entries(data.fontTables ?? {})) {
    const raw = JSON.parse(fs.readFileSync(path.resolve(root, table), 'utf8')) as { map: Record<string, string> };
    fontMaps.set(font, new Map(Object.entries(raw.map).map(([k, v]) => [parseInt(k.replace(/^U\+/, ''), 16), v])));
  }
  const template: Template = {
    ...data,
    re: {
      detectAll: (data.detect?.all ?? []).map((p, i) => compile(name, `detect.all[${i}]`, p)),
      detectAny: (data.detect?.any ?? []).map((p, i) => compile(name, `detect.any[${i}]`, p)),
      furniture: data.furniture.patterns.map((p, i) => compile(name, `furniture.patterns[${i}]`, p)),
      endOfQuestions: (data.furniture.endOfQuestions ?? []).map((p, i) => compile(name, `furniture.endOfQuestions[${i}]`, p)),
      numbering: compile(name, 'numbering.pattern', data.numbering.pattern),
      typeHeadings: (data.typeHeadings ?? []).map((t, i) => ({ re: compile(name, `typeHeadings[${i}]`, t.pattern), type: t.type })),
      sections: (data.sections?.headings ?? []).map((s, i) => ({ re: compile(name, `sections.headings[${i}]`, s.pattern), id: s.id, label: s.label ?? s.id })),
    },
    fontMaps,
  };
  return Object.freeze(template);
}

export function loadTemplates(dir: string, root: string): Template[] {
  return fs.readdirSync(dir).filter(f => f.endsWith('.json')).sort().map(f => loadTemplate(path.join(dir, f), root));
}

/** How well a template's detection patterns fit a paper's cover text: null when it does not fit at all. */
export function detectScore(t: Template, coverText: string): number | null {
  if (!t.re.detectAll.every(re => re.test(coverText))) return null;
  const any = t.re.detectAny.filter(re => re.test(coverText)).length;
  if (t.re.detectAny.length && !any) return null;
  return t.re.detectAll.length * 2 + any;
}

export function pickTemplate(templates: readonly Template[], coverText: string, override: string | null): Template | null {
  if (override) {
    const t = templates.find(x => x.id === override);
    if (!t) throw new Error(`TEMPLATE=${override} names no template; there are: ${templates.map(x => x.id).join(', ')}`);
    return t;
  }
  let best: Template | null = null, bestScore = -1;
  for (const t of templates) {
    const s = detectScore(t, coverText);
    if (s !== null && s > bestScore) { best = t; bestScore = s; }
  }
  return best;
}
