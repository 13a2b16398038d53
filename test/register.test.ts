// register: hash, page count, template, cover facts; and inputs that must fail alone, clearly.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../pipeline/config.ts';
import { DocumentError } from '../pipeline/diagnostics.ts';
import { analyse } from './analyse.ts';
import { haveShared, KCSAT, SHARED } from './helpers.ts';
import { loadTemplates, pickTemplate } from '../pipeline/template.ts';
import { withGapsClosed } from '../pipeline/text/ocr-gaps.ts';
import { readCover } from '../pipeline/text/cover.ts';

const SAMPLE = path.join(ROOT, 'fixtures/samples/2026-sample-math-dif.pdf');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'register-'));

async function failure(file: string): Promise<DocumentError> {
  try {
    await analyse(file, 'text-layer');
  } catch (e) {
    expect(e).toBeInstanceOf(DocumentError);
    return e as DocumentError;
  }
  throw new Error(`${file} was accepted`);
}

describe('register', () => {
  it('picks the template of a cover OCR read with its syllables set apart, and dates the sitting by the template', () => {
    const templates = loadTemplates(path.join(ROOT, 'templates'), ROOT);
    const ocr = '2024 학 년 도 대 학 수 학 능 력 시 험 문 제 지 수 학 영 역';
    expect(withGapsClosed('Physics paper 2')).toBe('Physics paper 2');
    const cover = withGapsClosed(ocr);
    expect(cover).toContain('학년도대학수학능력시험');
    const t = pickTemplate(templates, cover, null)!;
    expect(t.id).toBe('kcsat-math');
    // 2024학년도 수능 is sat in November 2023 (the template's offset and the sitting's month).
    expect(readCover(t, withGapsClosed('2024 학 년 도 대 학 수 학 능 력 시 험'))).toMatchObject({ year: 2024, sitting: 'csat', sat: { year: 2023, month: 11 } });
  });

  it('reads what the shipped sample says about itself', async () => {
    const doc = await analyse(SAMPLE, 'text-layer');
    expect(doc.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(doc.pageCount).toBe(4);
    expect(doc.template.id).toBe('kcsat-math');
    expect(doc.exam).toMatchObject({ family: 'kcsat', year: 2026, sitting: 'june-mock', session: 2, form: 'odd', electives: ['calculus'] });
  });

  it('fails an empty file, a non-PDF and a password-protected PDF, each with its reason', async () => {
    fs.writeFileSync(path.join(tmp, 'empty.pdf'), '');
    fs.writeFileSync(path.join(tmp, 'notes.pdf'), 'these are lecture notes, not a PDF\n');
    execFileSync('qpdf', ['--encrypt', 'user-pw', 'owner-pw', '256', '--', SAMPLE, path.join(tmp, 'locked.pdf')]);
    expect((await failure(path.join(tmp, 'empty.pdf'))).rule).toBe('register/empty');
    expect((await failure(path.join(tmp, 'notes.pdf'))).message).toMatch(/not a PDF/);
    const locked = await failure(path.join(tmp, 'locked.pdf'));
    expect(locked.rule).toBe('register/password');
    expect(locked.message).toMatch(/password/);
  });

  it('fails a PDF cut short on its own', async () => {
    const cut = path.join(tmp, 'cut.pdf');
    const bytes = fs.readFileSync(SAMPLE);
    fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 3)));
    const e = await failure(cut);
    expect(e.message.length).toBeGreaterThan(10);
  });
});

describe.skipIf(!haveShared())('register on real papers', () => {
  it.each([
    ['202106-h3-math-pro.pdf', { year: 2022, sat: { year: 2021, month: 6 }, sitting: 'june-mock', session: 2, form: null, electives: ['prob-stat'] }],
    ['202311-h3-math-dif.pdf', { year: 2024, sat: { year: 2023, month: 11 }, sitting: 'csat', session: 2, form: 'odd', electives: ['calculus'] }],
    ['202409-h3-math-geo.pdf', { year: 2025, sat: { year: 2024, month: 9 }, sitting: 'september-mock', session: 2, form: null, electives: ['geometry'] }],
    ['202411-h3-math-pro.pdf', { year: 2025, sat: { year: 2024, month: 11 }, sitting: 'csat', session: 2, form: 'odd', electives: ['prob-stat'] }],
  ])('%s (its file names the month it was sat)', async (file, want) => {
    const doc = await analyse(path.join(KCSAT, file), 'text-layer');
    expect(doc.pageCount).toBe(12);
    expect(doc.exam).toMatchObject({ family: 'kcsat', subject: 'mathematics', ...want });
  });

  it('fails the truncated PDFs of ../shared/fixtures/broken with a message', async () => {
    for (const f of fs.readdirSync(path.join(SHARED, 'fixtures/broken'))) {
      const e = await failure(path.join(SHARED, 'fixtures/broken', f));
      expect(e.rule).toMatch(/^register\//);
      expect(e.message).toMatch(/pdf\.js cannot read it|cannot be read/);
    }
  });
});
