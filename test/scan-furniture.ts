// Measures page furniture on papers of the layout fuzzer (`fixtures/make-papers.ts`): the fuzzer
// prints its running heads and footers within 12 mm of the page's edge and its body no nearer
// than 14 mm, so text-layer's reading can be checked by place alone. Per paper and per furniture
// style: edge runs left in the body (furniture missed) and body runs set aside (content lost).
//   npx tsx test/scan-furniture.ts DIR [--list] [--no-scan]   (--no-scan: leave out the papers printed as scans)
import fs from 'node:fs';
import path from 'node:path';
import { analyse } from './analyse.ts';
import { centerY } from '../pipeline/document.ts';

const dir = process.argv[2];
const list = process.argv.includes('--list');
const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { papers: { stem: string; pages: number; dims: { furniture: string; scan: boolean } }[] };
/** The fuzzer's furniture lies within this distance of the page's edge (points: 12 mm). */
const EDGE = 12 * 72 / 25.4;
/** Its body starts no nearer the edge than this (points: 14 mm, the margin of a page without furniture). */
const BODY = 14 * 72 / 25.4;
const by = new Map<string, { papers: number; pages: number; missed: number; lost: number; missedPapers: number; lostPapers: number }>();
for (const p of manifest.papers.filter(x => !(process.argv.includes('--no-scan') && x.dims.scan))) {
  const doc = await analyse(path.join(dir, `${p.stem}.pdf`), 'text-layer');
  let missed = 0, lost = 0;
  const notes: string[] = [];
  for (const page of doc.pages) {
    const edge = (y: number) => y < EDGE || y > page.height - EDGE;
    const inBody = (y: number) => y > BODY && y < page.height - BODY;
    const m = page.spans.filter(s => edge(centerY(s.bbox)));
    const l = page.furniture.filter(s => inBody(centerY(s.bbox)));
    missed += m.length; lost += l.length;
    if (list && m.length) notes.push(`  p${page.number} missed: ${m.map(s => JSON.stringify(s.text)).join(' ').slice(0, 160)}`);
    if (list && l.length) notes.push(`  p${page.number} lost: ${l.map(s => JSON.stringify(s.text)).join(' ').slice(0, 160)}`);
  }
  const key = `${p.dims.furniture}${p.dims.scan ? ' (scan)' : ''}`;
  const e = by.get(key) ?? { papers: 0, pages: 0, missed: 0, lost: 0, missedPapers: 0, lostPapers: 0 };
  e.papers++; e.pages += doc.pages.length; e.missed += missed; e.lost += lost; e.missedPapers += missed ? 1 : 0; e.lostPapers += lost ? 1 : 0;
  by.set(key, e);
  if (list) console.log(`${p.stem} ${key} ${doc.pages.length}p: missed ${missed}, lost ${lost}${notes.length ? '\n' + notes.join('\n') : ''}`);
}
console.log('furniture style      papers pages  missed runs (papers)  lost runs (papers)');
for (const [k, e] of [...by].sort()) console.log(`${k.padEnd(20)} ${String(e.papers).padStart(6)} ${String(e.pages).padStart(5)}  ${String(e.missed).padStart(11)} (${e.missedPapers})  ${String(e.lost).padStart(17)} (${e.lostPapers})`);
process.exit(0);
