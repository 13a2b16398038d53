// Curriculum trees are data (glossary/curriculum/*.json): per exam family, language and subject,
// the subjects and units a question can belong to, each unit with the words (`terms`) and formula
// pieces (`formulas`) that signal it. This module loads and checks them; errors name the file, the
// field and what was expected, as for templates.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface Unit {
  name: string;
  /** Words matched in the prose (case-folded substrings: Korean and Chinese words are not space-delimited). */
  terms: string[];
  /** Pieces of LaTeX matched inside the `$…$` spans. */
  formulas: string[];
}

export interface Subject {
  name: string;
  units: Unit[];
}

/** A rule that limits the candidate subjects: every regex it gives must match the record. */
export interface Prior {
  section?: string;
  examSubject?: string;
  file?: string;
  subjects: string[];
}

export interface CurriculumData {
  id: string;
  title: string;
  language: string;
  source: string;
  applies: { families?: string[]; languages?: string[]; subjects?: string[] };
  priors?: Prior[];
  subjects: Subject[];
}

export interface Curriculum extends CurriculumData {
  priorsRe: { section?: RegExp; examSubject?: RegExp; file?: RegExp; subjects: string[] }[];
  /** A hash of the file's content: tags made under another version of the tree are redone. */
  version: string;
}

export class CurriculumError extends Error {
  constructor(file: string, message: string) {
    super(`curriculum ${file}: ${message}`);
    this.name = 'CurriculumError';
  }
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(x => typeof x === 'string' && x.length > 0);

function compile(file: string, field: string, source: string): RegExp {
  try {
    return new RegExp(source, 'iu');
  } catch (e) {
    throw new CurriculumError(file, `${field} is not a valid pattern (${(e as Error).message})`);
  }
}

export function loadCurriculum(file: string): Curriculum {
  const name = path.basename(file);
  const text = fs.readFileSync(file, 'utf8');
  let data: CurriculumData;
  try {
    data = JSON.parse(text) as CurriculumData;
  } catch (e) {
    throw new CurriculumError(name, `cannot be read as JSON (${(e as Error).message})`);
  }
  const need = (cond: unknown, message: string) => {
    if (!cond) throw new CurriculumError(name, message);
  };
  need(typeof data.id === 'string' && data.id === name.replace(/\.json$/, ''), `"id" must be the file name without .json ("${name.replace(/\.json$/, '')}"), got ${JSON.stringify(data.id)}`);
  for (const k of ['title', 'language', 'source'] as const) need(typeof data[k] === 'string' && data[k], `needs "${k}" (a non-empty string)`);
  need(data.applies && typeof data.applies === 'object', 'needs "applies" ({families?, languages?, subjects?})');
  for (const k of ['families', 'languages', 'subjects'] as const) need(data.applies[k] === undefined || isStrings(data.applies[k]), `"applies.${k}" must be an array of strings`);
  need(Array.isArray(data.subjects) && data.subjects.length > 0, 'needs "subjects" (a non-empty array)');
  const subjectNames = new Set<string>();
  data.subjects.forEach((s, i) => {
    need(typeof s.name === 'string' && s.name, `"subjects[${i}].name" must be a non-empty string`);
    need(!subjectNames.has(s.name), `"subjects[${i}].name" repeats "${s.name}"`);
    subjectNames.add(s.name);
    need(Array.isArray(s.units) && s.units.length > 0, `"subjects[${i}].units" must be a non-empty array`);
    s.units.forEach((u, j) => {
      const at = `subjects[${i}].units[${j}]`;
      need(typeof u.name === 'string' && u.name, `"${at}.name" must be a non-empty string`);
      need(isStrings(u.terms), `"${at}.terms" must be an array of non-empty strings`);
      need(u.formulas === undefined || isStrings(u.formulas), `"${at}.formulas" must be an array of non-empty strings`);
      need(u.terms.length + (u.formulas?.length ?? 0) > 0, `"${at}" needs at least one term or formula cue`);
    });
  });
  const priorsRe = (data.priors ?? []).map((p, i) => {
    need(isStrings(p.subjects) && p.subjects.length > 0, `"priors[${i}].subjects" must be a non-empty array of subject names`);
    for (const s of p.subjects) need(subjectNames.has(s), `"priors[${i}].subjects" names "${s}", which is not a subject of this tree`);
    need(p.section || p.examSubject || p.file, `"priors[${i}]" needs "section", "examSubject" or "file"`);
    return {
      section: p.section ? compile(name, `priors[${i}].section`, p.section) : undefined,
      examSubject: p.examSubject ? compile(name, `priors[${i}].examSubject`, p.examSubject) : undefined,
      file: p.file ? compile(name, `priors[${i}].file`, p.file) : undefined,
      subjects: p.subjects,
    };
  });
  const subjects = data.subjects.map(s => ({ name: s.name, units: s.units.map(u => ({ name: u.name, terms: u.terms, formulas: u.formulas ?? [] })) }));
  const version = crypto.createHash('sha256').update(text).digest('hex').slice(0, 12);
  return Object.freeze({ ...data, subjects, priorsRe, version });
}

export function loadCurricula(dir: string): Curriculum[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter(f => f.endsWith('.json')).sort().map(f => loadCurriculum(path.join(dir, f)));
}
