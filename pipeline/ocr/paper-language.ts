// Which language data reads a paper's pages without text, where no template names it: the two bands of
// the first such page that hold the most ink, read once with the languages of every script the
// configuration knows (config.ts `ocrScripts`), and the script most of what was read is written in
// decides. Read in the wrong language a page comes out as look-alike letters (`Задача` as `3anaua`),
// and no question lead or option label of it is found.
import { renderGray, scanGray, type Gray } from '../pixels/gray.ts';
import { cropPng } from '../pixels/crop.ts';
import { ocrPool } from '../providers/ocr.ts';
import { installed } from './script-lang.ts';
import type { PdfPage } from '../providers/pdf.ts';
import { scriptOfText } from '../text/script.ts';

/** Resolution the sample band is read at: body text 25–35 pixels tall. */
const SAMPLE_DPI = 200;
/** The band's height, as a share of the page's: four to six lines of body text. */
const BAND = 0.12;
/** Shares of the page at the top and bottom left out: running heads and footers, in any script. */
const FURNITURE = 0.06;
/** A sample with fewer letters than this tells no script (a page of drawings, a blank page): the next page is asked. */
const MIN_LETTERS = 12;

/** A language set with only what is installed (English where nothing is). */
export function installedOnly(langs: string): string {
  const have = [...new Set(langs.split('+'))].filter(installed);
  return have.length ? have.join('+') : 'eng';
}

/** How many bands are read for the sample: a cover's inkiest band is often its title alone (`中学3年 数学 期末試験`, no kana to tell Japanese from Chinese). */
const SAMPLE_BANDS = 2;

/** The SAMPLE_BANDS bands of the page's body (between its furniture bands) that hold the most ink, none overlapping another, top to bottom. */
function inkiestBands(g: Gray): [number, number, number, number][] {
  // Each row's ink, counted once for every band.
  const rows = new Float64Array(g.height);
  for (let y = 0; y < g.height; y++) {
    let ink = 0;
    for (let x = 0, i = y * g.width; x < g.width; x++, i++) if (g.data[i] < 128) ink++;
    rows[y] = ink;
  }
  const h = Math.max(1, Math.round(g.height * BAND));
  const from = Math.round(g.height * FURNITURE), to = Math.max(from + h, Math.round(g.height * (1 - FURNITURE)));
  const out: [number, number, number, number][] = [];
  for (let k = 0; k < SAMPLE_BANDS; k++) {
    const free = (y: number) => out.every(t => y + h <= t[1] || y >= t[3]);
    let best = -1, sum = 0, top = -1;
    for (let y = from; y < Math.min(to, from + h); y++) sum += rows[y];
    if (free(from)) { top = sum; best = from; }
    for (let y = from + 1; y + h <= to; y++) {
      sum += rows[y + h - 1] - rows[y - 1];
      if (sum > top && free(y)) { top = sum; best = y; }
    }
    if (best < 0) break;
    out.push([0, best, g.width, Math.min(g.height, best + h)]);
  }
  return out.sort((a, b) => a[1] - b[1]);
}

/**
 * The language set for a paper's pages without text, from one of them: its inkiest band read with
 * every language of `table`, and the languages of the script that band is written in. Null where the
 * band holds too few letters to tell.
 */

/** The languages a page is read with where no sample told the script: Latin's, as most pages print numbers and Latin letters. */
function fallbackLanguage(table: Readonly<Record<string, string>>): string {
  return installedOnly(table.Latin ?? 'eng');
}
export async function paperLanguage(pdfPage: PdfPage, size: { width: number; height: number }, table: Readonly<Record<string, string>>, picture?: Buffer): Promise<{ lang: string; script: string; sample: string } | null> {
  const scale = SAMPLE_DPI / 72;
  // A scan's own picture where the page is not turned, as page-ocr.ts reads it.
  const g = picture && pdfPage.rotate === 0 ? await scanGray(picture, Math.ceil(size.width * scale), Math.ceil(size.height * scale)) : await renderGray(pdfPage, SAMPLE_DPI);
  const every = installedOnly(Object.values(table).join('+'));
  // One recogniser for the sample (it holds every language's model): never more than one.
  const pool = ocrPool(every, 1);
  let text = '';
  for (const band of inkiestBands(g)) text += `${(await pool.recognize(await cropPng(g, band), { mode: 'block', dpi: SAMPLE_DPI })).text}\n`;
  if ([...text].filter(ch => /\p{L}/u.test(ch)).length < MIN_LETTERS) return null;
  const script = scriptOfText(text);
  return { lang: installedOnly(table[script] ?? table.Latin ?? 'eng'), script, sample: text };
}

/**
 * The languages to read a page without text with, where neither a template nor OCR_LANG names
 * them: those of the script its band shows (`found`, the paper's from then on), or Latin's for this
 * page alone where the band tells none (`found` null: the next such page is asked again).
 */
export async function pageLanguage(pdfPage: PdfPage, size: { width: number; height: number }, table: Readonly<Record<string, string>>, picture?: Buffer): Promise<{ lang: string; found: { lang: string; script: string; sample: string } | null }> {
  const found = await paperLanguage(pdfPage, size, table, picture);
  return { lang: found?.lang ?? fallbackLanguage(table), found };
}
