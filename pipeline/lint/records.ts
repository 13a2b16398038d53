// The lint rules over stored records (`make lint`): each record of a set's items.jsonl read back as
// the question the rules take — its stem, options and page; no lines, regions or pages, so the
// rules on the page's runs (furniture regions, marked legacy runs) find nothing there and the
// rules on the text read what the record says.
import fs from 'node:fs';
import path from 'node:path';
import { resolveConfig } from '../config.ts';
import type { Question } from '../document.ts';
import { formatDiagnostic, type Diagnostic } from '../diagnostics.ts';
import { LINT_RULES, type LintRule } from './rules.ts';

/** What of a stored record the rules read (items.jsonl, written by the emit stage). */
export interface StoredRecord {
  id: string;
  source?: { file?: string };
  section?: string | null;
  number: number;
  page: number;
  stem: string;
  options?: { label: string; text: string; image?: string }[];
}

/** A stored record as a question the lint rules can read. */
export function recordQuestion(r: StoredRecord): Question {
  return {
    id: r.id, section: r.section ?? null, number: r.number, type: 'mcq', points: null, marking: null, parts: [], flags: [],
    page: r.page, lines: [], anchor: [], stemLines: 0, regions: [], stem: String(r.stem ?? ''),
    options: (r.options ?? []).map(o => ({ label: String(o.label), text: String(o.text ?? ''), ...(o.image ? { image: o.image } : {}) })),
    figures: [], answer: null, errorRate: null, difficulty: null,
  };
}

/** Every finding of the rules over the records, as diagnostics (file, page, item, rule, severity). */
export function lintRecords(records: readonly StoredRecord[], rules: readonly LintRule[] = LINT_RULES): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const r of records) {
    const q = recordQuestion(r);
    for (const rule of rules) {
      for (const f of rule.check(q, [])) out.push({ severity: rule.severity, rule: rule.id, message: f.message, file: r.source?.file ?? '', page: f.page ?? r.page, item: r.id, stage: 'lint' });
    }
  }
  return out;
}

/**
 * `make lint`: the rules over <OUT>/<YEAR>/items.jsonl. The lines to print (each finding, then a
 * summary; on bad input the reason) and the exit code: 0 clean, 1 findings, 2 no set or a broken one.
 */
export function lintSet(input: { year?: string; outDir?: string }): { code: 0 | 1 | 2; lines: string[] } {
  let records: StoredRecord[];
  let file: string;
  try {
    const config = resolveConfig(input);
    file = path.join(config.yearDir, 'items.jsonl');
    if (!fs.existsSync(file)) throw new Error(`no items.jsonl in ${config.yearDir}: ingest the papers first (make ingest)`);
    records = fs.readFileSync(file, 'utf8').split('\n').filter(l => l.trim()).map((line, i) => {
      try {
        return JSON.parse(line) as StoredRecord;
      } catch (e) {
        throw new Error(`${file}:${i + 1}: not JSON (${(e as Error).message})`);
      }
    });
  } catch (e) {
    return { code: 2, lines: [`lint: ${(e as Error).message}`] };
  }
  const findings = lintRecords(records);
  const flagged = new Set(findings.map(d => d.item));
  const byRule = new Map<string, number>();
  for (const d of findings) byRule.set(d.rule, (byRule.get(d.rule) ?? 0) + 1);
  const counts = [...byRule].map(([rule, n]) => `${rule}=${n}`).join(' ');
  const summary = `lint: ${records.length} records in ${path.relative(process.cwd(), file) || file}, ${records.length - flagged.size} clean, ${findings.length} findings${counts ? ` (${counts})` : ''}`;
  return { code: findings.length ? 1 : 0, lines: [...findings.map(formatDiagnostic), summary] };
}
