// lint: every question read for text a reader would see as broken (control characters, code
// points no font table decoded, bracket pieces outside formulas, doubled text, empty or equal
// options) and for regions that hold only page furniture. Findings are diagnostics on the
// document; nothing is changed here.
import { LINT_RULES, type LintRule } from '../lint/rules.ts';
import type { PaperDocument } from '../document.ts';
import type { Stage } from '../stage.ts';

export function lintDocument(doc: PaperDocument, rules: readonly LintRule[] = LINT_RULES): void {
  for (const q of doc.questions) {
    for (const rule of rules) {
      for (const f of rule.check(q, doc.pages)) {
        const at = { page: f.page ?? q.page, item: q.id, stage: 'lint' };
        if (rule.severity === 'error') doc.messages.error(rule.id, f.message, at);
        else if (rule.severity === 'warning') doc.messages.warn(rule.id, f.message, at);
        else doc.messages.info(rule.id, f.message, at);
      }
    }
  }
  const flagged = new Set(doc.messages.list.filter(m => m.stage === 'lint').map(m => m.item));
  doc.counters.lintClean = doc.questions.filter(q => !flagged.has(q.id)).length;
}

export function lintStage(): Stage {
  return { name: 'lint', kind: 'processor', run: doc => lintDocument(doc) };
}
