// How far every font of a set of papers is from a legacy 8-bit font: `npx tsx test/scan-legacy-fonts.ts DIR…`
// reads the text layer of every PDF under the folders (no OCR) and prints, per font with at least
// LEGACY_MIN_WORDS weighed words, the share of its words no language spells, highest first, with
// the fonts legacyFonts() takes for legacy ones. The figures quoted in the README come from it.
import fs from 'node:fs';
import path from 'node:path';
import { openPdf, pageSpans } from '../pipeline/providers/pdf.ts';
import { isLegacy, legacyEvidence, LEGACY_MIN_WORDS } from '../pipeline/text/legacy-font.ts';

const dirs = process.argv.slice(2);
if (!dirs.length) {
  console.error('usage: npx tsx test/scan-legacy-fonts.ts DIR…');
  process.exit(2);
}
const files: string[] = [];
const walk = (d: string) => {
  for (const f of fs.readdirSync(d)) {
    const p = path.join(d, f);
    if (fs.statSync(p).isDirectory()) walk(p);
    else if (f.endsWith('.pdf')) files.push(p);
  }
};
dirs.forEach(walk);
const rows: { share: number; line: string; legacy: boolean }[] = [];
let unreadable = 0;
for (const f of files) {
  let pdf;
  try {
    pdf = await openPdf(new Uint8Array(fs.readFileSync(f)));
  } catch {
    unreadable++;
    continue;
  }
  const byFont = new Map<string, string[]>();
  for (let n = 1; n <= pdf.numPages; n++) {
    for (const r of await pageSpans(await pdf.getPage(n))) byFont.set(r.font, [...(byFont.get(r.font) ?? []), r.text]);
  }
  await pdf.destroy();
  for (const [font, texts] of byFont) {
    const e = legacyEvidence(texts.join(' '));
    if (e.words < LEGACY_MIN_WORDS) continue;
    rows.push({ share: e.odd / e.words, legacy: isLegacy(e), line: `${(e.odd / e.words).toFixed(3)} ${e.odd}/${e.words} ${path.relative(process.cwd(), f)} ${font} ${e.examples.join(' ')}` });
  }
}
rows.sort((a, b) => b.share - a.share);
for (const r of rows.slice(0, 15)) console.log(`${r.legacy ? 'LEGACY ' : ''}${r.line}`);
console.log(`${files.length} papers (${unreadable} unreadable), ${rows.length} fonts weighed, ${rows.filter(r => r.legacy).length} taken for legacy fonts`);
process.exit(0);
