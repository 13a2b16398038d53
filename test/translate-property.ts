// The placeholder property over real records: for every record, protect its stem and options,
// scramble the prose around the placeholders (other words, the non-anchor placeholders shuffled
// within their stretch, as a translation reorders them), restore, and compare. Used by
// test/e2e-kcsat.test.ts on the 27 booklets it ingests; `npx tsx test/translate-property.ts FILE`
// runs it on any items.jsonl.
import fs from 'node:fs';
import { formulas } from '../pipeline/stages/math.ts';
import { PlaceholderError, protect, restore, type Protected } from '../pipeline/translate/placeholders.ts';

export interface PropertyResult { records: number; formulas: number; placeholders: number; problems: string[] }

/** A seeded generator, so a failing case can be replayed. */
export function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['the', 'value', 'of', 'find', 'where', 'let', '값은', '\\', '}', '(', '\n'];

/** Another text with the same placeholders: anchors in place, the others shuffled within their stretch, new prose around. */
export function scrambled(p: Protected, random: () => number): string[] {
  const anchor = new Map(p.table.map(x => [x.id, x.anchor]));
  const word = () => WORDS[Math.floor(random() * WORDS.length)];
  return p.fields.map(field => {
    const tokens = field.match(/⟦[MFLN]\d+⟧/g) ?? [];
    const out: string[] = [];
    let stretch: string[] = [];
    const flush = () => {
      for (let i = stretch.length - 1; i > 0; i--) { const j = Math.floor(random() * (i + 1)); [stretch[i], stretch[j]] = [stretch[j], stretch[i]]; }
      out.push(...stretch);
      stretch = [];
    };
    for (const t of tokens) {
      if (anchor.get(t.slice(1, -1))) { flush(); out.push(`\n${t}\n`); } else stretch.push(t);
    }
    flush();
    return out.map(t => `${word()} ${t} ${word()}`).join(' ') || word();
  });
}

const sorted = (xs: string[]) => JSON.stringify([...xs].sort());

export function placeholderProperty(records: readonly { id: string; stem: string; options: { text: string }[] }[], seed = 16): PropertyResult {
  const random = rng(seed);
  const result: PropertyResult = { records: 0, formulas: 0, placeholders: 0, problems: [] };
  for (const r of records) {
    const fields = [r.stem, ...r.options.map(o => o.text)];
    const want = fields.flatMap(formulas);
    const p = protect(fields);
    result.records++;
    result.formulas += want.length;
    result.placeholders += p.table.length;
    if (p.fields.some(f => f.includes('$'))) result.problems.push(`${r.id}: a $ is left after protection`);
    if (JSON.stringify(restore(p.fields, p.table)) !== JSON.stringify(fields)) result.problems.push(`${r.id}: protect then restore is not the identity`);
    const back = restore(scrambled(p, random), p.table);
    if (sorted(back.flatMap(formulas)) !== sorted(want)) result.problems.push(`${r.id}: the formulas after a scrambled round trip differ`);
    // Dropping or altering any one placeholder must be refused.
    const victim = p.table[Math.floor(random() * p.table.length)];
    if (victim) {
      const token = `⟦${victim.id}⟧`;
      for (const broken of [p.fields.map(f => f.replace(token, '')), p.fields.map(f => f.replace(token, `⟦${victim.id} ⟧`)), p.fields.map(f => f.replace(token, `${token}${token}`))]) {
        try {
          restore(broken, p.table);
          result.problems.push(`${r.id}: a reply without ${token} intact was accepted`);
        } catch (e) {
          if (!(e instanceof PlaceholderError)) throw e;
        }
      }
    }
  }
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const records = fs.readFileSync(process.argv[2], 'utf8').trim().split('\n').map(l => JSON.parse(l));
  const r = placeholderProperty(records);
  console.log(`${r.records} records, ${r.formulas} formulas, ${r.placeholders} placeholders, ${r.problems.length} problems`);
  for (const p of r.problems.slice(0, 10)) console.log('  ' + p);
}
