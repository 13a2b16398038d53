// A quick structural reading of papers, no images and no keys: register → text-layer → layout →
// segment on each PDF, one line per paper (questions, coverage, sure or the decoder's reasons,
// seconds), and the records as ../shared/tools/score.mjs reads them, for scoring with --page-match.
//   npx tsx test/read-structure.ts OUT.jsonl <pdf or folder>...
//   node ../shared/tools/score.mjs --items OUT.jsonl --truth ../shared/fixtures/truth --page-match
// Answers, figures and formulas are not read: score recall, precision, points, type, options, page.
import fs from 'node:fs';
import path from 'node:path';
import { analyse } from './analyse.ts';

const out = process.argv[2];
if (!out || process.argv.length < 4) {
  console.error('usage: npx tsx test/read-structure.ts OUT.jsonl <pdf or folder>...');
  process.exit(2);
}
const files = process.argv.slice(3).flatMap(a => (fs.statSync(a).isDirectory()
  ? fs.readdirSync(a).filter(f => f.endsWith('.pdf') && !/-answer\.pdf$|_ms_/.test(f)).sort().map(f => path.join(a, f))
  : [a]));
const rows: string[] = [];
for (const file of files) {
  const t0 = performance.now();
  try {
    const doc = await analyse(file, 'segment');
    for (const q of doc.questions) rows.push(JSON.stringify({ source: { file: path.basename(file) }, section: q.section, number: q.number, type: q.type, options: q.options, points: q.points, page: q.page, answer: null, figures: [] }));
    const r = doc.reading;
    const verdict = r?.reasons.length ? `needs-review: ${r.reasons.join('; ').slice(0, 120)}` : 'sure';
    console.log(`${path.basename(file).slice(0, 40).padEnd(40)} ${String(doc.questions.length).padStart(4)} q  coverage ${r ? r.coverage.toFixed(2) : '-'}  ${verdict}  ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } catch (e) {
    console.log(`${path.basename(file)} FAILED ${(e as Error).message}`);
  }
}
fs.writeFileSync(out, rows.length ? `${rows.join('\n')}\n` : '');
process.exit(0);
