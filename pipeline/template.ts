// Templates are data (templates/*.json): one per exam family and subject. This module loads and
// checks them, compiles their patterns once, and picks the template a paper's own text names.
import fs from 'node:fs';
import path from 'node:path';

interface PatternId { pattern: string; id: string; label?: string }
/** A sitting a cover names, with the month it is sat in where the family fixes one. */
interface Sitting extends PatternId { month?: number }

export type QuestionType = 'mcq' | 'mcq-multi' | 'short' | 'numeric' | 'free';

export interface TemplateData {
  id: string;
  description?: string;
  family: string;
  subject: string;
  language: string;
  detect: { all?: string[]; any?: string[] };
  /**
   * What the cover says. `count`: patterns whose group 1 is the number of questions the paper
   * states it holds (`Esta prueba consta de 80 preguntas`), read on the cover and the instructions
   * before the first question; a form that keeps a longer form's numbers has gaps it explains.
   * `total`: patterns whose group 1 is the marks the paper states it is worth (`Total: 20`).
   */
  cover: { year?: string; satYearOffset?: number; session?: string; subject?: string; subjects?: PatternId[]; sittings?: Sitting[]; forms?: PatternId[]; form?: string; count?: string[]; total?: string[] };
  /**
   * Sections: named by the running head of a page (`head`) or by a heading line in the flow of
   * questions (`body`). `ranges` read from the cover which numbers a section holds
   * ("las primeras 54 preguntas corresponden al Módulo Común"): group 1 the count, group 2 the name.
   */
  sections: { default: string | null; headings: PatternId[]; headingWhere: 'head' | 'body'; ranges?: string[] };
  /**
   * Page furniture. `patterns`: text near the top or bottom edge (running heads, page numbers);
   * `anywhere`: text dropped wherever it stands (watermarks, dotted answer lines); `instructions`:
   * a heading that opens a block of numbered instructions, which runs to the next section heading
   * or the end of its page and holds no question; `endOfQuestions`: where questions stop (a
   * column's end-of-paper notice, or an appended answer section).
   */
  furniture: { patterns: string[]; anywhere?: string[]; instructions?: string[]; endOfQuestions?: string[] };
  /** Headings that say what type the questions under them are (선다형 / 단답형 / 不定项选择题). */
  typeHeadings?: { pattern: string; type: QuestionType }[];
  /**
   * What a statement naming a range of questions says of their answers (`For questions 16-20, …
   * enter your answer in the grid` → `numeric`): read in the sentence that holds the range (the
   * range by `points.range`), it sets the type of the questions in it (structure/range-types.ts).
   */
  typeStatements?: { pattern: string; type: QuestionType }[];
  /**
   * Question numbers: the pattern a line opens with (group 1 the number) at the column's left edge.
   * `first`: the number the first question must carry (a list, or null for any: 理综 papers start
   * at 7); `maxJump`: how far a number may skip ahead (26 after 13); `restart`: what a number that
   * goes back means — `stop` (the paper repeats itself with worked solutions: count each question once).
   * `continued`: what follows the number where a question goes on from an earlier page (`Question 27
   * (continued)`, `Question 27 continues on page 25`): such a line opens no question.
   */
  numbering: { pattern: string; first: number | number[] | null; max: number; indentTolerance: number; maxJump?: number; restart?: 'stop' | 'ignore'; continued?: string[] };
  /**
   * Options. `markers`: the labels in order. Without `pattern`, a marker is the label itself found
   * anywhere (①); with it, a marker is where the pattern matches at the start of a span or after a
   * space (group 1 the label): `A)`, `A．`, `(A)`.
   */
  options: { markers: string[]; pattern?: string; typeWith: 'mcq'; typeWithout: 'short' | 'free' };
  /**
   * Points or marks. By position from `open`, `unit`, `close` (`[3점]`, `[4]`), or by `pattern` over a
   * line (group 1 the value, `(14 分)`). `sum`: every marker counts (marks per part, summed);
   * otherwise the last one. `sectionDefault`: a heading line that sets the points of every question
   * under it (每小题 6 分, group 1). `scheme`: lines of a section's marking scheme (JEE's `Full Marks :
   * 4 ONLY if …`, `Partial Marks : 3 If …`, `Zero Marks`, `Negative Marks`): group 1 the marks, group 2
   * the condition; kept on each question of the section as `marking`. `units`: the words a mark's
   * number is followed by (`marks`, `puntos`, `điểm`, `分`, `点`), one pattern that `pattern`, `head`
   * and `sectionDefault` name as `{units}`, so that every way the template reads marks knows the same words.
   */
  points: { open: string; unit: string; close: string; units?: string; values?: number[]; pattern?: string; sum?: boolean; head?: string; each?: string; range?: string[]; sectionDefault?: string; scheme?: { full?: string; partial?: string; zero?: string; negative?: string } };
  /** Sub-parts, outermost level first: a pattern a line opens with (group 1 the label), e.g. `(a)`, `(i)`. */
  parts?: { levels: string[] };
  /**
   * Conventions to infer from the paper itself (the fallback template, for papers no family claims):
   * candidate numbering leads and option schemes; the one that explains the paper best replaces
   * `numbering.pattern` / `options` for that paper (see structure/conventions.ts). A numbering
   * candidate with `leadWord` has the word as group 1 and the number as group 2.
   */
  infer?: { numbering: { id: string; pattern: string; leadWord?: boolean }[]; options: { id: string; markers: string[]; pattern?: string }[] };
  /** Page layout: how many text columns (auto: from the column rule or the widest gap). */
  layout?: { columns?: 'auto' | 1 };
  /** OCR languages (tesseract names) for pages of this family without a text layer. */
  ocrLang?: string;
  /** Answer keys and published statistics: OCR language of key headings, other names of sections. */
  answers?: {
    ocrLang?: string;
    sectionAliases?: Record<string, string>;
    /** A key PDF with a text layer: every match of `entry` is one item (groups: number, flag, answer). */
    keyText?: { entry: string; flags?: Record<string, string> };
    /** Key files paired by name rather than `-answer`: the paper's name with `paper` replaced by `key`. */
    pairs?: { paper: string; key: string }[];
    /**
     * Answers printed in the paper after the questions: `pair` matches a run of `7.D 8.A` (groups:
     * number, answer); `marker` an answer given under a repeated question (`【答案】D`, group 1).
     */
    inline?: { pair?: string; marker?: string };
  };
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
    /** What follows a number on a line where its question goes on (`numbering.continued`). */
    continued: RegExp[];
    typeHeadings: { re: RegExp; type: QuestionType }[];
    typeStatements: { re: RegExp; type: QuestionType }[];
    sections: { re: RegExp; id: string; label: string }[];
    anywhere: RegExp[];
    instructions: RegExp[];
    option: RegExp | null;
    points: RegExp | null;
    /** A question's total stated at its head, unbracketed (`points.head`). */
    pointsHead: RegExp | null;
    /** Ranges of question numbers a statement names (`points.range`: groups `from`, `to`). */
    pointsRange: RegExp[];
    /** The word that makes a range's marks each question's (`points.each`). */
    pointsEach: RegExp | null;
    sectionPoints: RegExp | null;
    parts: RegExp[];
    count: RegExp[];
    total: RegExp[];
    scheme: { kind: 'full' | 'partial' | 'zero' | 'negative'; re: RegExp }[];
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

/** Where a points pattern names the template's `points.units`. */
const UNITS = '{units}';

/**
 * The template's points patterns with `{units}` spelled out as `points.units` (a lone `{` is no valid
 * Unicode pattern, so the placeholder cannot stand for anything else).
 */
function withUnits(file: string, points: TemplateData['points']): TemplateData['points'] {
  const fill = (what: string, source: string | undefined) => {
    if (source === undefined || !source.includes(UNITS)) return source;
    if (points.units === undefined) throw new TemplateError(file, `points.${what} names ${UNITS} but the template has no "points.units"`);
    return source.split(UNITS).join(points.units);
  };
  return { ...points, pattern: fill('pattern', points.pattern), head: fill('head', points.head), sectionDefault: fill('sectionDefault', points.sectionDefault) };
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

/** The subset of JSON Schema templates/schema/template.schema.json is written in. */
interface Schema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
}

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);

/** Every way `value` departs from `schema`, each as `field: expected …, found …`. */
export function schemaErrors(value: unknown, schema: Schema, at = ''): string[] {
  const where = at || '(the template)';
  if (schema.enum && !schema.enum.some(e => e === value)) return [`${where}: expected one of ${schema.enum.map(e => JSON.stringify(e)).join(', ')}, found ${JSON.stringify(value)}`];
  if (schema.type) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const t = typeOf(value);
    if (!types.includes(t) && !(t === 'integer' && types.includes('number'))) return [`${where}: expected ${types.join(' or ')}, found ${t}`];
  }
  const out: string[] = [];
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => out.push(...schemaErrors(v, schema.items!, `${at}[${i}]`)));
  if (typeOf(value) === 'object') {
    const obj = value as Record<string, unknown>;
    for (const k of schema.required ?? []) if (!(k in obj)) out.push(`${at ? `${at}.` : ''}${k}: expected (required), found nothing`);
    for (const [k, v] of Object.entries(obj)) {
      const field = at ? `${at}.${k}` : k;
      const own = schema.properties?.[k];
      if (own) out.push(...schemaErrors(v, own, field));
      else if (schema.additionalProperties === false) out.push(`${field}: expected no such field (known: ${Object.keys(schema.properties ?? {}).join(', ')})`);
      else if (typeof schema.additionalProperties === 'object') out.push(...schemaErrors(v, schema.additionalProperties, field));
    }
  }
  return out;
}

/** The schema every template is checked against: templates/schema/template.schema.json beside the templates. */
function schemaFor(file: string): Schema | null {
  const at = path.join(path.dirname(file), 'schema', 'template.schema.json');
  return fs.existsSync(at) ? JSON.parse(fs.readFileSync(at, 'utf8')) as Schema : null;
}

export function loadTemplate(file: string, root: string): Template {
  let data: TemplateData;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8')) as TemplateData;
  } catch (e) {
    throw new TemplateError(file, `cannot be read as JSON (${(e as Error).message})`);
  }
  const name = path.basename(file);
  const schema = schemaFor(file);
  const errors = schema ? schemaErrors(data, schema) : [];
  if (errors.length) throw new TemplateError(name, errors.join('; '));
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
  data = { ...data, points: withUnits(name, data.points) };
  const template: Template = {
    ...data,
    re: {
      detectAll: (data.detect?.all ?? []).map((p, i) => compile(name, `detect.all[${i}]`, p)),
      detectAny: (data.detect?.any ?? []).map((p, i) => compile(name, `detect.any[${i}]`, p)),
      furniture: data.furniture.patterns.map((p, i) => compile(name, `furniture.patterns[${i}]`, p)),
      endOfQuestions: (data.furniture.endOfQuestions ?? []).map((p, i) => compile(name, `furniture.endOfQuestions[${i}]`, p)),
      numbering: compile(name, 'numbering.pattern', data.numbering.pattern),
      continued: (data.numbering.continued ?? []).map((p, i) => compile(name, `numbering.continued[${i}]`, p, 'iu')),
      typeHeadings: (data.typeHeadings ?? []).map((t, i) => ({ re: compile(name, `typeHeadings[${i}]`, t.pattern), type: t.type })),
      typeStatements: (data.typeStatements ?? []).map((t, i) => ({ re: compile(name, `typeStatements[${i}]`, t.pattern, 'iu'), type: t.type })),
      sections: (data.sections?.headings ?? []).map((s, i) => ({ re: compile(name, `sections.headings[${i}]`, s.pattern), id: s.id, label: s.label ?? s.id })),
      anywhere: (data.furniture.anywhere ?? []).map((p, i) => compile(name, `furniture.anywhere[${i}]`, p)),
      instructions: (data.furniture.instructions ?? []).map((p, i) => compile(name, `furniture.instructions[${i}]`, p)),
      option: data.options.pattern ? compile(name, 'options.pattern', data.options.pattern, 'gu') : null,
      points: data.points.pattern ? compile(name, 'points.pattern', data.points.pattern, 'gu') : null,
      pointsHead: data.points.head ? compile(name, 'points.head', data.points.head) : null,
      pointsRange: (data.points.range ?? []).map((p, i) => compile(name, `points.range[${i}]`, p)),
      pointsEach: data.points.each ? compile(name, 'points.each', data.points.each, 'iu') : null,
      sectionPoints: data.points.sectionDefault ? compile(name, 'points.sectionDefault', data.points.sectionDefault) : null,
      parts: (data.parts?.levels ?? []).map((p, i) => compile(name, `parts.levels[${i}]`, p)),
      count: (data.cover.count ?? []).map((p, i) => compile(name, `cover.count[${i}]`, p)),
      total: (data.cover.total ?? []).map((p, i) => compile(name, `cover.total[${i}]`, p)),
      scheme: (['full', 'partial', 'zero', 'negative'] as const).flatMap(kind => (data.points.scheme?.[kind] ? [{ kind, re: compile(name, `points.scheme.${kind}`, data.points.scheme[kind]!) }] : [])),
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
  // A template that names no detection patterns is the fallback: it fits anything, below every other.
  if (!t.re.detectAll.length && !t.re.detectAny.length) return 0;
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
