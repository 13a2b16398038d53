// stats: published error rates and the difficulty bins.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../pipeline/config.ts';
import { difficultyOf, statsStage } from '../pipeline/stages/stats.ts';
import { analyse, config, templates } from './analyse.ts';
import type { StageContext } from '../pipeline/stage.ts';
import { sectionOf } from '../pipeline/keys/sections.ts';
import type { Store } from '../pipeline/store/db.ts';

const ctx = { config, templates, store: undefined as unknown as Store, runKey: 'test' } as StageContext;

describe('stats', () => {
  it('bins error rates as KCSAT-ML does', () => {
    expect([0, 50, 50.1, 75, 75.1, 98.2].map(difficultyOf)).toEqual(['easy', 'easy', 'medium', 'medium', 'hard', 'hard']);
  });

  it('reads a section named with its form mark by the template\'s form patterns (미적분(홀수), 확률과 통계 짝수형)', () => {
    const kcsat = templates.find(t => t.id === 'kcsat-math')!;
    expect(sectionOf('미적분(홀수)', kcsat)).toBe('calculus');
    expect(sectionOf('확률과 통계 짝수형', kcsat)).toBe('prob-stat');
    expect(sectionOf('공통', kcsat)).toBe('common');
    expect(sectionOf('홀수', kcsat)).toBeNull();
  });

  it('sets error rate and difficulty by section and number, and reports rows that fit no question', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stats-'));
    const paper = path.join(dir, 'p.pdf');
    fs.copyFileSync(path.join(ROOT, 'fixtures/samples/2026-sample-math-dif.pdf'), paper);
    fs.writeFileSync(path.join(dir, 'p-stats.csv'), 'section,number,error_rate\n공통,5,44.9\n공통,8,75.2\n미적분,24,98.2\n미적분,29,50\n기타,1,10\n');
    const doc = await analyse(paper);
    await statsStage().run(doc, ctx);
    const got = doc.questions.filter(q => q.errorRate !== null).map(q => `${q.section}:${q.number}:${q.errorRate}:${q.difficulty}`);
    expect(got).toEqual(['common:5:44.9:easy', 'common:8:75.2:hard', 'calculus:24:98.2:hard']);
    expect(doc.messages.list.map(m => m.rule)).toEqual(['stats/no-question', 'stats/unknown-section']);
  });
});
