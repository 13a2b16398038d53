// The titles of the curriculum trees (glossary/curriculum/*.json), so a review page names the tree
// each knowledge tag comes from. Read once per folder; a folder that cannot be read names none.
import path from 'node:path';
import { loadCurricula } from '../corpus/curriculum.ts';
import { DEFAULTS, ROOT } from '../config.ts';

const cache = new Map<string, Map<string, string>>();

export function treeTitles(dir = path.join(ROOT, DEFAULTS.curriculumDir)): (id: string) => string | null {
  let titles = cache.get(dir);
  if (!titles) {
    try {
      titles = new Map(loadCurricula(dir).map(t => [t.id, t.title]));
    } catch {
      titles = new Map();
    }
    cache.set(dir, titles);
  }
  const found = titles;
  return id => found.get(id) ?? null;
}
