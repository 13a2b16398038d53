// Builds glossary/unicode/cjk-radicals.json: each Kangxi radical (U+2F00–U+2FDF) and CJK radical
// supplement (U+2E80–U+2EFF) code point with the unified ideograph that looks the same, from the
// Unicode Character Database's EquivalentUnifiedIdeograph.txt (Debian `unicode-data`, read where it
// is installed or where its package was unpacked: `apt-get download unicode-data && dpkg-deb -x …`).
// The Kangxi entries are checked against Node's NFKC, which maps those radicals by itself; the
// supplement has no decomposition, hence the table. Run: npx tsx glossary/unicode/make-cjk-radicals.ts [UCD_DIR]
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2] ?? '/usr/share/unicode';
const file = path.join(dir, 'EquivalentUnifiedIdeograph.txt');
const text = fs.readFileSync(file, 'utf8');
const version = /EquivalentUnifiedIdeograph-([\d.]+)\.txt/.exec(text)?.[1];
if (!version) throw new Error(`${file}: no version line`);

const inBlocks = (cp: number) => (cp >= 0x2e80 && cp <= 0x2eff) || (cp >= 0x2f00 && cp <= 0x2fdf);
const hex = (cp: number) => 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
const map: Record<string, string> = {};
const none: string[] = [];
for (const line of text.split('\n')) {
  const m = /^([0-9A-F]{4,6})(?:\.\.([0-9A-F]{4,6}))?\s*;\s*([0-9A-F]{4,6})/.exec(line);
  if (m) {
    const from = parseInt(m[1], 16), to = parseInt(m[2] ?? m[1], 16), target = parseInt(m[3], 16);
    for (let cp = from; cp <= to; cp++) if (inBlocks(cp)) map[hex(cp)] = String.fromCodePoint(target);
    continue;
  }
  // The file lists the radicals with no equivalent ideograph as comments at its end.
  const n = /^#\s*([0-9A-F]{4,6});/.exec(line);
  if (n && inBlocks(parseInt(n[1], 16))) none.push(hex(parseInt(n[1], 16)));
}
const disagree = Object.entries(map).filter(([k, v]) => {
  const cp = parseInt(k.slice(2), 16);
  return cp >= 0x2f00 && String.fromCodePoint(cp).normalize('NFKC') !== v;
});
if (disagree.length) throw new Error(`Kangxi entries that NFKC maps otherwise: ${disagree.map(([k]) => k).join(' ')}`);

const out = {
  source: `Unicode ${version}, EquivalentUnifiedIdeograph.txt (Debian unicode-data ${version}), U+2E80–U+2EFF and U+2F00–U+2FDF; built by glossary/unicode/make-cjk-radicals.ts`,
  note: 'Fonts that share one glyph between a radical and its ideograph let a PDF\'s text layer name the radical (⼤ U+2F24 for 大, ⺟ U+2E9F for 母). Read as the ideograph; the Kangxi entries agree with NFKC. Radicals with no equivalent ideograph are listed under `none` and are left as they are (the lint flags them).',
  none,
  map,
};
const target = path.join(path.dirname(new URL(import.meta.url).pathname), 'cjk-radicals.json');
fs.writeFileSync(target, JSON.stringify(out, null, 1) + '\n');
console.log(`${target}: ${Object.keys(map).length} radicals, ${none.length} without an equivalent`);
