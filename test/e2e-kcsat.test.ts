// End to end on the 27 real KICE booklets (ingested once by global-setup.ts): the scorer's
// figures, regions against the text layer and against hand-drawn boxes, and a re-run that
// renders and rewrites nothing.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../pipeline/config.ts';
import type { BBox, Span } from '../pipeline/document.ts';
import { centerX, centerY, contains } from '../pipeline/document.ts';
import { runBatch } from '../pipeline/run.ts';
import { formulas, katexError } from '../pipeline/stages/math.ts';
import { analyse, parseCsv } from './analyse.ts';
import { haveShared, KCSAT, KCSAT_OUT, KCSAT_YEAR, lintOf, SCORER, SHARED, TRUTH } from './helpers.ts';
import { buildReviewSite } from '../pipeline/review/site.ts';
import { openSiteFromFiles } from './review-browser.ts';
import { placeholderProperty } from './translate-property.ts';

const itemsFile = path.join(KCSAT_OUT, KCSAT_YEAR, 'items.jsonl');
const records = () => fs.readFileSync(itemsFile, 'utf8').trim().split('\n').map(l => JSON.parse(l));

function score(): Record<string, number> {
  const out = execFileSync('node', [SCORER, '--items', itemsFile, '--truth', TRUTH, '--json'], { encoding: 'utf8' });
  return JSON.parse(out).summary;
}

function iou(a: number[], b: number[]): number {
  const ix = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const iy = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const inter = ix * iy;
  const area = (r: number[]) => (r[2] - r[0]) * (r[3] - r[1]);
  return inter / (area(a) + area(b) - inter);
}

describe.skipIf(!haveShared())('KICE booklets end to end', () => {
  // The 27 booklets, ingested once, cold.
  beforeAll(async () => {
    fs.rmSync(KCSAT_OUT, { recursive: true, force: true });
    const result = await runBatch(resolveConfig({ year: KCSAT_YEAR, inDir: KCSAT, outDir: KCSAT_OUT, progress: false }, {}));
    console.log(`cold run: ${result.papers.length} booklets, ${result.papers.reduce((n, p) => n + p.pages, 0)} pages in ${result.seconds.toFixed(1)} s`);
    expect(result.papers.filter(p => p.status === 'failed')).toEqual([]);
  }, 900_000);

  it('scores recall, precision, points, type, options, page and answer 1, figure ≥ 0.9', () => {
    const s = score();
    console.log(`scorer: papers=${s.papers} questions=${s.questions} recall=${s.recall} precision=${s.precision} points=${s.points} answer=${s.answer} type=${s.type} options=${s.options} page=${s.page} figure=${s.figure}`);
    expect(s.answer).toBe(1);
    expect(s.papers).toBe(27);
    expect(s.recall).toBe(1);
    expect(s.precision).toBe(1);
    expect(s.points).toBe(1);
    expect(s.type).toBe(1);
    expect(s.options).toBe(1);
    expect(s.page).toBe(1);
    expect(s.figure).toBeGreaterThanOrEqual(0.9);
  });

  it('gives clean text by the scorer\'s lint (≥ 0.995, nothing doubled): the overprinted closing notice is in no stem', () => {
    const s = lintOf(itemsFile);
    console.log(`lint: records=${s.lint_records} clean=${s.lint_clean} ${JSON.stringify(s.lint_counts)}`);
    expect(s.lint_records).toBe(810);
    expect(s.lint_clean).toBeGreaterThanOrEqual(0.995);
    for (const k of ['ctrl', 'pua', 'pieces', 'doubled']) expect(s.lint_counts[k] ?? 0, k).toBe(0);
    expect(records().filter(r => /확인 사항|답안지의 해당란/.test(r.stem)).map(r => r.id)).toEqual([]);
  });

  it('puts every question in the section of the ground truth (common, or the booklet\'s elective)', () => {
    const recs = records();
    for (const f of fs.readdirSync(KCSAT).filter(f => f.endsWith('.pdf'))) {
      const truth = parseCsv(fs.readFileSync(path.join(TRUTH, f.replace(/\.pdf$/, '.csv')), 'utf8'));
      const mine = recs.filter(r => r.source.file === f).map(r => `${r.section}:${r.number}`).sort();
      expect(mine, f).toEqual(truth.map(t => `${t.section}:${t.number}`).sort());
    }
  });

  it('rebuilds the hand-checked formulas of the 2024 CSAT, and every formula of every booklet typesets in KaTeX', () => {
    const out = execFileSync('node', [SCORER, '--items', itemsFile, '--truth', TRUTH, '--math', path.join(SHARED, 'fixtures/math'), '--json'], { encoding: 'utf8' });
    const s = JSON.parse(out).summary;
    console.log(`math: formulas=${s.formulas} exact=${s.math_exact} precision=${s.math_precision} edit_sim=${s.math_sim}`);
    expect(s.math_exact).toBeGreaterThanOrEqual(0.9);
    expect(s.math_sim).toBeGreaterThanOrEqual(0.97);
    let count = 0;
    const broken: string[] = [];
    for (const r of records()) for (const text of [r.stem, ...r.options.map((o: { text: string }) => o.text)]) for (const f of formulas(text)) {
      count++;
      const error = katexError(f);
      if (error) broken.push(`${r.id}: ${f}: ${error}`);
    }
    console.log(`KaTeX: ${count} formulas, ${broken.length} that do not parse`);
    expect(broken).toEqual([]);
    expect(count).toBeGreaterThan(5000);
  });

  it('protects every formula of the booklets for translation: scrambled prose around the placeholders restores exactly the original formulas, and a dropped or altered placeholder is refused', () => {
    const r = placeholderProperty(records());
    console.log(`translate placeholders: ${r.records} records, ${r.formulas} formulas, ${r.placeholders} placeholders, ${r.problems.length} problems`);
    expect(r.problems.slice(0, 10)).toEqual([]);
    expect(r.records).toBe(810);
    expect(r.formulas).toBeGreaterThan(5000);
  });

  it('carries the published error rates of the 2024 CSAT and their difficulty', () => {
    const recs = records();
    for (const f of ['202311-h3-math-pro', '202311-h3-math-dif', '202311-h3-math-geo']) {
      const truth = parseCsv(fs.readFileSync(path.join(TRUTH, `${f}.csv`), 'utf8'));
      for (const t of truth) {
        const r = recs.find(x => x.source.file === `${f}.pdf` && x.section === t.section && x.number === Number(t.number));
        const want = t.error_rate ? Number(t.error_rate) : null;
        expect(r.error_rate, `${f} ${t.number}`).toBe(want);
        expect(r.difficulty).toBe(want === null ? null : want <= 50 ? 'easy' : want <= 75 ? 'medium' : 'hard');
      }
    }
    expect(recs.filter(r => !r.source.file.startsWith('202311')).every(r => r.error_rate === null)).toBe(true);
  });

  it('gives every record the contract fields and an id from hash, section and number', () => {
    for (const r of records()) {
      for (const k of ['id', 'source', 'exam', 'section', 'number', 'type', 'options', 'stem', 'answer', 'points', 'parts', 'page', 'regions', 'figures', 'error_rate', 'difficulty', 'modalities', 'knowledge', 'review']) {
        expect(r, `${r.id} lacks ${k}`).toHaveProperty(k);
      }
      expect(r.id).toBe(`${r.source.sha256.slice(0, 16)}-${r.section}-${r.number}`);
      expect(r.stem.length).toBeGreaterThan(0);
      expect(r.modalities.IO.page_image.length).toBeGreaterThan(0);
      for (const p of [...r.modalities.IO.page_image, ...r.modalities.TI.images]) expect(fs.existsSync(path.join(KCSAT_OUT, KCSAT_YEAR, p)), p).toBe(true);
      expect(r.exam.year).toBeGreaterThanOrEqual(2022);
    }
  });

  it("puts every text-layer glyph of a question inside its regions and none of another question's", async () => {
    const byFile = new Map<string, any[]>();
    for (const r of records()) byFile.set(r.source.file, [...(byFile.get(r.source.file) ?? []), r]);
    let checked = 0;
    const problems: string[] = [];
    for (const [file, recs] of byFile) {
      const doc = await analyse(path.join(KCSAT, file));
      const furniture = new Set<Span>(doc.pages.flatMap(p => p.furniture));
      const headings = doc.template.re.typeHeadings.map(h => h.re);
      // Who owns a glyph, from the text alone: the last question number printed before it in reading
      // order, where a tall formula may rise up to two and a half lines above its number (questions are
      // parted by far wider gaps).
      const anchors = recs.map(r => {
        const page = doc.pages[r.page - 1];
        const a = page.spans.find(s => s.text.trim().startsWith(`${r.number}.`) && contains(r.regions.find((g: any) => g.page === r.page).bbox as BBox, s.bbox, 1));
        expect(a, `${file} ${r.number}: its number is not in its first region`).toBeTruthy();
        return { r, page: r.page, col: centerX(a!.bbox) < page.width / 2 ? 0 : 1, y: a!.bbox[1] - 2.5 * a!.size };
      });
      const order = (page: number, col: number, y: number) => page * 1e6 + col * 1e5 + y;
      for (const page of doc.pages) for (const s of page.spans) {
        if (furniture.has(s) || headings.some(re => re.test(s.text))) continue;
        const at = order(page.number, centerX(s.bbox) < page.width / 2 ? 0 : 1, centerY(s.bbox));
        const owner = anchors.filter(a => order(a.page, a.col, a.y) <= at).pop();
        if (!owner) continue;
        checked++;
        const inside = (r: any) => r.regions.some((g: any) => g.page === page.number && contains(g.bbox as BBox, s.bbox, 0.6));
        if (!inside(owner.r)) problems.push(`${file} p${page.number}: "${s.text}" of ${owner.r.number} is outside its regions`);
        for (const other of recs) if (other !== owner.r && inside(other)) problems.push(`${file} p${page.number}: "${s.text}" of ${owner.r.number} lies in ${other.number}'s region`);
      }
    }
    console.log(`regions: ${checked} glyph runs checked, ${problems.length} misplaced`);
    expect(problems.slice(0, 10)).toEqual([]);
    expect(checked).toBeGreaterThan(10000);
  }, 300_000);

  it('reports the IoU of its regions with the hand-drawn boxes of the 2024 CSAT', () => {
    const boxes = parseCsv(fs.readFileSync(path.join(SHARED, 'fixtures/reference/2024csat-question-boxes.csv'), 'utf8'));
    const section = { Common: 'common', Statistics: 'prob-stat', Calculus: 'calculus', Geometry: 'geometry' } as Record<string, string>;
    const recs = records();
    const ious: number[] = [];
    for (const b of boxes) {
      const r = recs.find(x => x.source.file === b.pdf && x.number === Number(b.item) && x.section === section[b.section]);
      expect(r, `${b.pdf} ${b.section} ${b.item}`).toBeTruthy();
      const mine = r.regions.filter((g: any) => g.page === Number(b.page_1based)).map((g: any) => g.bbox);
      const union = [Math.min(...mine.map((m: number[]) => m[0])), Math.min(...mine.map((m: number[]) => m[1])), Math.max(...mine.map((m: number[]) => m[2])), Math.max(...mine.map((m: number[]) => m[3]))];
      ious.push(iou(union, [b.x0_pt, b.y0_pt, b.x1_pt, b.y1_pt].map(Number)));
    }
    const mean = ious.reduce((a, b) => a + b, 0) / ious.length;
    const sorted = [...ious].sort((a, b) => a - b);
    console.log(`IoU with 2024csat-question-boxes.csv: ${ious.length} boxes, mean ${mean.toFixed(3)}, median ${sorted[Math.floor(sorted.length / 2)].toFixed(3)}, min ${sorted[0].toFixed(3)}`);
    expect(ious.length).toBe(boxes.length);
    expect(mean).toBeGreaterThan(0.7);
  });

  it('clusters the common questions of each sitting (594 pairs, precision and recall 1) and never a question with another', () => {
    const out = execFileSync('node', [SCORER, '--items', itemsFile, '--truth', TRUTH, '--dups', '--json'], { encoding: 'utf8' });
    const s = JSON.parse(out).summary;
    console.log(`dups: truth_pairs=${s.dup_truth_pairs} predicted_pairs=${s.dup_predicted_pairs} precision=${s.dup_precision} recall=${s.dup_recall}`);
    expect(s.dup_truth_pairs).toBe(594);
    expect(s.dup_precision).toBe(1);
    expect(s.dup_recall).toBe(1);
    const recs = records();
    const byId = new Map(recs.map(r => [r.id, r]));
    for (const r of recs.filter(x => x.duplicate_of)) {
      const c = byId.get(r.duplicate_of);
      expect(c, `${r.id} points at a record of the batch`).toBeTruthy();
      expect(`${c.source.file.slice(0, 6)} ${c.section} ${c.number}`, r.id).toBe(`${r.source.file.slice(0, 6)} ${r.section} ${r.number}`);
      expect(c.source.file, r.id).not.toBe(r.source.file);
      expect(c.duplicate_of).toBeNull();
      expect(r.diagnostics.some((d: { rule: string }) => d.rule === 'dedup/duplicate'), r.id).toBe(true);
    }
    // The same words over two different graphs (2022학년도 June mock and 2025학년도 September mock,
    // question 4): the figures' perceptual hashes keep them apart.
    const q4 = recs.filter(r => /^(202206|202409)-h3-math-dif/.test(r.source.file) && r.section === 'common' && r.number === 4);
    expect(q4).toHaveLength(2);
    expect(q4[0].stem).toBe(q4[1].stem);
    expect(q4[0].duplicate_of ?? q4[0].id).not.toBe(q4[1].duplicate_of ?? q4[1].id);
  });

  it('tags the 2024 CSAT with its curriculum units (subject 1, unit ≥ 0.9) and every record with a path of the tree', () => {
    const out = execFileSync('node', [SCORER, '--items', itemsFile, '--truth', TRUTH, '--knowledge', path.join(SHARED, 'fixtures/knowledge'), '--json'], { encoding: 'utf8' });
    const s = JSON.parse(out).summary;
    console.log(`knowledge: items=${s.knowledge_items} subject=${s.subject} unit=${s.unit}`);
    expect(s.knowledge_items).toBe(90);
    expect(s.subject).toBe(1);
    expect(s.unit).toBeGreaterThanOrEqual(0.9);
    for (const r of records()) {
      expect(r.knowledge.length, r.id).toBeGreaterThan(0);
      const [subject] = r.knowledge[0].path;
      const want = { 'prob-stat': '확률과 통계', calculus: '미적분', geometry: '기하' }[r.section as string] ?? null;
      if (want) expect(subject, r.id).toBe(want);
      else expect(['수학I', '수학II'], r.id).toContain(subject);
    }
  });

  it('renders nothing and rewrites no record on a second run, even when forced to redo every paper', async () => {
    const before = fs.statSync(itemsFile).mtimeMs;
    const content = fs.readFileSync(itemsFile, 'utf8');
    const config = resolveConfig({ year: KCSAT_YEAR, inDir: KCSAT, outDir: KCSAT_OUT, progress: false }, {});
    const warm = await runBatch(config);
    console.log(`warm run (papers already in the store): ${warm.seconds.toFixed(1)} s`);
    expect(warm.papers.every(p => p.status === 'skipped')).toBe(true);
    expect(warm.jsonlRewritten).toBe(false);
    const forced = await runBatch(resolveConfig({ year: KCSAT_YEAR, inDir: KCSAT, outDir: KCSAT_OUT, progress: false, force: true }, {}));
    console.log(`forced re-run (every stage again, images from cache): ${forced.seconds.toFixed(1)} s`);
    expect(forced.papers.every(p => p.status === 'done')).toBe(true);
    expect(forced.papers.reduce((n, p) => n + p.pagesRendered, 0)).toBe(0);
    expect(forced.papers.reduce((n, p) => n + p.recordsWritten, 0)).toBe(0);
    expect(forced.jsonlRewritten).toBe(false);
    expect(fs.statSync(itemsFile).mtimeMs).toBe(before);
    expect(fs.readFileSync(itemsFile, 'utf8')).toBe(content);
    expect(new Set(records().map(r => r.id)).size).toBe(records().length);
  }, 600_000);

  it('builds the static review site (make review): one data-item-id element per record, opening from file:// with no console error', async () => {
    const yearDir = path.join(KCSAT_OUT, KCSAT_YEAR);
    fs.rmSync(path.join(yearDir, 'review'), { recursive: true, force: true });
    const site = buildReviewSite(yearDir);
    console.log(`review site: ${site.papers} papers, ${site.items} items, built in ${site.seconds.toFixed(1)} s`);
    const ids = fs.readdirSync(path.join(site.dir, 'papers')).flatMap(f => [...fs.readFileSync(path.join(site.dir, 'papers', f), 'utf8').matchAll(/data-item-id="([^"]+)"/g)].map(m => m[1]));
    expect(ids.sort()).toEqual(records().map(r => r.id).sort());
    expect(site.papers).toBe(27);
    const again = buildReviewSite(yearDir);
    console.log(`review site again (nothing changed): ${again.written} pages written, ${again.skipped} unchanged in ${again.seconds.toFixed(1)} s`);
    expect(again.written).toBe(0);
    const opened = await openSiteFromFiles(site.index);
    console.log(`review site in Chromium from file://: ${opened.pages} pages, ${opened.katex} KaTeX formulas, ${opened.errors.length} console errors`);
    expect(opened.pages).toBe(28);
    expect(opened.errors).toEqual([]);
  }, 300_000);
});
