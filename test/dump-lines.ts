// Prints a paper's body lines after layout (page, column, indent from the column's edge, size, font,
// text), and what segment made of them: a tool for reading a paper the way the decoder sees it.
//   npx tsx test/dump-lines.ts <paper.pdf> [--pages 1-3]
import { analyse } from './analyse.ts';
import { rawText } from '../pipeline/text/line-text.ts';

const file = process.argv[2];
const range = process.argv.indexOf('--pages') > 0 ? process.argv[process.argv.indexOf('--pages') + 1].split('-').map(Number) : null;
const doc = await analyse(file, 'segment');
const opens = new Map(doc.questions.map(q => [q.lines[0], q]));
for (const line of doc.lines) {
  if (range && (line.page < range[0] || line.page > (range[1] ?? range[0]))) continue;
  const page = doc.pages[line.page - 1];
  const q = opens.get(line);
  const s = line.spans[0];
  const indent = (line.bbox[0] - page.columns[line.column].x0).toFixed(0);
  console.log(`${q ? `Q${q.section ? q.section + ':' : ''}${q.number}`.padEnd(6) : '      '}p${line.page} c${line.column} +${indent.padStart(3)} ${s.size.toFixed(1)} ${s.font.slice(0, 14).padEnd(14)} ${rawText(line.spans).slice(0, 110)}`);
}
console.log(`-- ${doc.questions.length} questions; tail ${doc.tail.length} lines; template ${doc.template.id}`);
for (const m of doc.messages.list ?? []) console.log(`${m.severity} ${m.rule} ${m.message}`.slice(0, 200));
process.exit(0);
