// Prints what text-layer set aside as page furniture, page by page (lines of the furniture, and
// the margin text kept in the body): a tool for checking headers and footers on a paper.
//   npx tsx test/dump-furniture.ts <paper.pdf> [more.pdf …] [--body]   (--body: also the first and last body line)
import { analyse } from './analyse.ts';
import type { Span } from '../pipeline/document.ts';

const lines = (spans: Span[]) => {
  const out: Span[][] = [];
  for (const s of [...spans].sort((a, b) => a.baseline - b.baseline || a.bbox[0] - b.bbox[0])) {
    const last = out[out.length - 1];
    if (last && Math.abs(last[0].baseline - s.baseline) <= 2) last.push(s);
    else out.push([s]);
  }
  return out.map(l => `${l[0].baseline.toFixed(0).padStart(4)}: ${l.sort((a, b) => a.bbox[0] - b.bbox[0]).map(s => s.text.trim()).join(' | ')}`);
};
const files = process.argv.slice(2).filter(a => !a.startsWith('--'));
for (const file of files) {
  const doc = await analyse(file, 'text-layer');
  console.log(`== ${file} (${doc.pages.length} pages)`);
  for (const p of doc.pages) {
    console.log(`p${p.number} furniture (${p.furniture.length}):`);
    for (const l of lines(p.furniture)) console.log('   ' + l.slice(0, 140));
    if (process.argv.includes('--body')) {
      const b = lines(p.spans);
      if (b.length) console.log(`   body first ${b[0].slice(0, 100)}\n   body last  ${b[b.length - 1].slice(0, 100)}`);
    }
  }
  for (const m of doc.messages.list) if (m.rule === 'text-layer/margin-text') console.log(`margin-text p${m.page}: ${m.message.slice(0, 150)}`);
}
process.exit(0);
