// Rebuilds test/fixtures/translate/ko-en.json from hand-written English translations of real KICE
// items: for each item, its source text from an ingest of the 27 booklets, the protected text the
// model is sent, and the reply (the translation with the source's own placeholders), checked to
// restore to exactly the translation and run through every check. No model is reachable here:
// the translations are ours. Token counts are estimates (characters / 4), marked as such.
//   npx tsx test/translate-record.ts [/tmp/dev/kcsat/2099/items.jsonl]
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../pipeline/config.ts';
import { checkTranslation, type ItemText } from '../pipeline/translate/checks.ts';
import { loadGlossary } from '../pipeline/translate/glossary.ts';
import { protect, token } from '../pipeline/translate/placeholders.ts';
import { parseTranslation } from '../pipeline/translate/prompt.ts';

const FIXTURE = path.join(ROOT, 'test/fixtures/translate/ko-en.json');
const items = process.argv[2] ?? '/tmp/dev/kcsat/2099/items.jsonl';

/** The translation with its protected spans replaced by the source's placeholders for the same text, in order. */
export function replyFor(source: ItemText, translation: ItemText): string {
  const sent = protect([source.stem, ...source.options.map(o => o.text)]);
  const own = protect([translation.stem, ...translation.options.map(o => o.text)]);
  const used = new Set<string>();
  const map = new Map<string, string>();
  for (const p of own.table) {
    const match = sent.table.find(s => !used.has(s.id) && s.field === p.field && s.text === p.text);
    if (!match) throw new Error(`${p.text} (field ${p.field}) is not in the source`);
    used.add(match.id);
    map.set(p.id, match.id);
  }
  const fields = own.fields.map(f => f.replace(/⟦([MFLN]\d+)⟧/g, (_, id: string) => token(map.get(id)!)));
  return JSON.stringify({ stem: fields[0], options: translation.options.map((o, i) => ({ label: o.label, text: fields[i + 1] })) });
}

function main() {
  const records = new Map(fs.readFileSync(items, 'utf8').trim().split('\n').map(l => JSON.parse(l)).map(r => [r.id, r]));
  const fixture = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
  const glossary = loadGlossary(path.join(ROOT, 'glossary/terms'), 'ko', 'en');
  let failing = 0;
  fixture.items = fixture.items.map((it: { id: string; translation: { stem: string; options?: ItemText['options'] } }) => {
    const r = records.get(it.id);
    if (!r) throw new Error(`${it.id} is not in ${items}`);
    const source: ItemText = { stem: r.stem, options: r.options.map((o: ItemText['options'][number]) => ({ label: o.label, text: o.text })) };
    const translation: ItemText = { stem: it.translation.stem, options: it.translation.options ?? source.options };
    const sent = protect([source.stem, ...source.options.map(o => o.text)]);
    const content = replyFor(source, translation);
    const restored = parseTranslation(content, sent, source.options.map(o => o.label));
    if (JSON.stringify(restored) !== JSON.stringify(translation)) throw new Error(`${it.id}: the reply does not restore to the translation`);
    const checks = checkTranslation(source, translation, 'ko', 'en', glossary);
    if (checks.length) { failing++; console.log(`${it.id}:\n  ${checks.map(c => `${c.rule}: ${c.message}`).join('\n  ')}`); }
    return {
      id: it.id, file: r.source.file, sha256: r.source.sha256, section: r.section, number: r.number, exam: r.exam,
      source, protected: { stem: sent.fields[0], options: source.options.map((o, i) => ({ label: o.label, text: sent.fields[i + 1] })) },
      translation: it.translation, content,
      usage: { estimated: true, prompt_tokens: Math.ceil((sent.fields.join('').length + 900) / 4), completion_tokens: Math.ceil(content.length / 4) },
    };
  });
  fs.writeFileSync(FIXTURE, JSON.stringify(fixture, null, 1) + '\n');
  console.log(`${fixture.items.length} items written to ${path.relative(process.cwd(), FIXTURE)}, ${failing} with a failing check`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
