// stats: published per-item human error rates (`<stem>-stats.csv`: section,number,error_rate in
// percent) and the difficulty bins KCSAT-ML uses: easy ≤ 50, medium ≤ 75, hard > 75.
import fs from 'node:fs';
import path from 'node:path';
import type { Question } from '../document.ts';
import { sectionOf } from '../keys/sections.ts';
import type { Stage } from '../stage.ts';
import { statsFileFor } from '../keys/companions.ts';
import { parseCsv } from '../text/csv.ts';

export function difficultyOf(errorRate: number): Question['difficulty'] {
  return errorRate <= 50 ? 'easy' : errorRate <= 75 ? 'medium' : 'hard';
}

export function statsStage(): Stage {
  return {
    name: 'stats',
    kind: 'processor',
    run(doc) {
      const file = statsFileFor(doc.path);
      if (!file) return;
      const name = path.basename(file);
      for (const row of parseCsv(fs.readFileSync(file, 'utf8'))) {
        const rate = Number(row.error_rate);
        const section = row.section ? sectionOf(row.section, doc.template) : null;
        if (row.section && !section) { doc.messages.warn('stats/unknown-section', `${name} names a section "${row.section}" this template does not know`, { stage: 'stats' }); continue; }
        const q = doc.questions.find(x => x.number === Number(row.number) && (section === null || x.section === section));
        if (!q) { doc.messages.warn('stats/no-question', `${name} gives an error rate for ${row.section} ${row.number}, a question this paper does not have`, { stage: 'stats' }); continue; }
        if (!Number.isFinite(rate) || rate < 0 || rate > 100) { doc.messages.warn('stats/bad-rate', `${name}: "${row.error_rate}" is not a percentage`, { page: q.page, item: q.id, stage: 'stats' }); continue; }
        q.errorRate = rate;
        q.difficulty = difficultyOf(rate);
      }
    },
  };
}
