// The generic template on an educator's own paper (made here from HTML by headless Chromium):
// picked when no family claims the cover; numbered instructions before the questions and a
// numbered list inside a question are not questions; options A–D and marks in brackets are read.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../pipeline/config.ts';
import { runBatch } from '../pipeline/run.ts';

const QUIZ = `<!doctype html><meta charset="utf-8"><style>
body { font: 12pt serif; margin: 2cm; } p { margin: 0.4em 0; } .o { margin-left: 2em; } ol { margin-left: 0; padding-left: 0; list-style: none; }
</style>
<h2>Year 9 Science — End of Unit Quiz</h2>
<p>Read these notes before you start.</p>
<p>1. Write your name at the top of the page.</p>
<p>2. Calculators may be used.</p>
<p>3. Answer every question.</p>
<p>&nbsp;</p>
<p>1. Which gas do plants take in for photosynthesis? [1 mark]</p>
<p class="o">A) Oxygen</p><p class="o">B) Carbon dioxide</p><p class="o">C) Nitrogen</p><p class="o">D) Helium</p>
<p>2. A student heats water and records its temperature. The method was:</p>
<p>1. Fill a beaker with 200 ml of water.</p>
<p>2. Heat it for five minutes.</p>
<p>Which variable did the student control? [2 marks]</p>
<p class="o">A) Time</p><p class="o">B) Temperature</p><p class="o">C) Volume of water</p><p class="o">D) Colour</p>
<p>3. Explain why ice floats on water. [3 marks]</p>
<p>4. What is the chemical symbol for sodium? [1 mark]</p>
<p class="o">A) S</p><p class="o">B) So</p><p class="o">C) Na</p><p class="o">D) Sd</p>`;

describe('generic template', () => {
  it('reads an educator\'s quiz: instructions and inner lists are not questions', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'generic-'));
    const html = path.join(tmp, 'quiz.html');
    fs.writeFileSync(html, QUIZ);
    const inDir = path.join(tmp, 'in');
    fs.mkdirSync(inDir);
    execFileSync('chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
      `--user-data-dir=${path.join(tmp, 'profile')}`, '--no-pdf-header-footer', `--print-to-pdf=${path.join(inDir, 'quiz.pdf')}`, `file://${html}`], { stdio: 'ignore' });
    const out = path.join(tmp, 'out');
    const result = await runBatch(resolveConfig({ year: '2026', inDir, outDir: out, progress: false }, {}));
    expect(result.papers[0].status).toBe('done');
    const recs = fs.readFileSync(path.join(out, '2026', 'items.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l)).sort((a, b) => a.number - b.number);
    expect(recs[0].exam.template).toBe('generic');
    expect(recs.map(r => [r.number, r.type, r.options.length, r.points])).toEqual([[1, 'mcq', 4, 1], [2, 'mcq', 4, 2], [3, 'free', 0, 3], [4, 'mcq', 4, 1]]);
    expect(recs[1].stem).toMatch(/Fill a beaker[\s\S]*Heat it[\s\S]*control\?$/);
    expect(recs[3].options.map((o: { text: string }) => o.text)).toEqual(['S', 'So', 'Na', 'Sd']);
    expect(result.papers[0].messages.map(m => m.rule)).toContain('segment/numbered-instructions');
  }, 60_000);
});
