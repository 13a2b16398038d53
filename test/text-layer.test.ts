// text-layer: the equation font decoded through our own table, furniture set aside, page sections.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../pipeline/config.ts';
import { decodeSpan } from '../pipeline/stages/text-layer.ts';
import { analyse, templates } from './analyse.ts';
import { haveShared, KCSAT, SHARED } from './helpers.ts';

const kcsat = templates.find(t => t.id === 'kcsat-math')!;

describe('text-layer', () => {
  it('decodes private-use glyphs of the equation font and flags formula runs', () => {
    const d = decodeSpan({ text: '\ue0ea\ue044\ue0fc\ue045 \ue047 \ue035\ue0fc', bbox: [0, 0, 1, 1], baseline: 1, size: 11, font: 'HyhwpEQ' }, kcsat);
    expect(d).toEqual({ text: 'f(x) = 2x', math: true, unknown: [] });
    const plain = decodeSpan({ text: '의 값은', bbox: [0, 0, 1, 1], baseline: 1, size: 11, font: 'HYSinMyeongJo' }, kcsat);
    expect(plain.math).toBe(false);
    const unknown = decodeSpan({ text: '\ue7ff', bbox: [0, 0, 1, 1], baseline: 1, size: 11, font: 'HyhwpEQ' }, kcsat);
    expect(unknown.unknown).toEqual([0xe7ff]);
  });

  it('sets aside the running head, page number and copyright line of the sample', async () => {
    const doc = await analyse(path.join(ROOT, 'fixtures/samples/2026-sample-math-dif.pdf'), 'text-layer');
    const body = doc.pages.flatMap(p => p.spans.map(s => s.text)).join(' ');
    const furniture = doc.pages.flatMap(p => p.furniture.map(s => s.text)).join(' ');
    expect(body).not.toMatch(/저작권|문제지|홀수형/);
    expect(furniture).toMatch(/저작권/);
    expect(doc.pages.map(p => p.section)).toEqual(['common', 'common', 'common', 'calculus']);
  });
});

describe.skipIf(!haveShared())('text-layer on real papers', () => {
  it('keeps a font table that agrees with the reference on every code point', () => {
    const ref = JSON.parse(fs.readFileSync(path.join(SHARED, 'fixtures/reference/hwp_pua_map.json'), 'utf8')).map as Record<string, { char: string }>;
    const ours = kcsat.fontMaps.get('HyhwpEQ')!;
    for (const [cp, v] of Object.entries(ref)) expect(ours.get(parseInt(cp.slice(2), 16)), cp).toBe(v.char);
  });

  it('decodes every equation glyph of a booklet and leaves no furniture in the body', async () => {
    const doc = await analyse(path.join(KCSAT, '202311-h3-math-pro.pdf'), 'text-layer');
    expect(doc.messages.list.filter(m => m.rule === 'text-layer/unknown-glyph')).toEqual([]);
    const spans = doc.pages.flatMap(p => p.spans);
    expect(spans.filter(s => s.math).length).toBeGreaterThan(500);
    expect(spans.some(s => /[\ue000-\uf8ff]/u.test(s.text))).toBe(false);
    const body = spans.map(s => s.text).join(' ');
    expect(body).not.toMatch(/저작권|대학수학능력시험 문제지/);
    for (const p of doc.pages) expect(p.spans.some(s => /^\s*\d+\s*\/\s*\d+\s*$/.test(s.text) && s.bbox[1] > p.body.y1), `page ${p.number}`).toBe(false);
  });

  it('trusts the elective heading of a page, not the notice that announces the next one', async () => {
    const doc = await analyse(path.join(KCSAT, '202311-h3-math-dif.pdf'), 'text-layer');
    expect(doc.pages[7].spans.map(s => s.text).join('')).toMatch(/확률과 통계/);
    expect(doc.pages.map(p => p.section)).toEqual([...Array(8).fill('common'), ...Array(4).fill('calculus')]);
  });
});
