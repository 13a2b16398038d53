// Conventions a paper follows, inferred from the paper itself where no family template claims it:
// which numbering lead opens its questions (`1.`, `Câu 1:`, `QUESTÃO 01`, `Q.1`, `第1题` …) and
// which option labels it prints (①, `(A)`, `A.`, `a)` …). Each candidate the fallback template
// lists is tried on the whole paper, and the one that explains it best is kept: numbers at the
// column's edge that run on one after another, labels that run A, B, C within a question. What was
// chosen is recorded on the paper (`exam.conventions`), so that a user can turn it into a template.
import { lineInset } from '../text/direction.ts';
import type { Conventions, Line, PaperDocument } from '../document.ts';
import { rawText } from '../text/line-text.ts';
import { escapeRegExp, type Template } from '../template.ts';
import { MAX_LEAD, ocrNumberText } from './anchors.ts';
import { wordStyle } from './lead.ts';
import { OCR_SMALL_SHARE, SMALL_SHARE } from './model.ts';

/**
 * The texts a line opens with, one span more each (as the anchor reads them: `1.` alone, then
 * `1.3 + 4`), where the line starts at its column's edge; null where it does not.
 */
function leadsOf(doc: PaperDocument, line: Line, bodySize: number, t: Template): string[] | null {
  const first = line.spans[0];
  const page = doc.pages[line.page - 1];
  // On an OCR page a word's size is its line box's, and a number alone has no descender: it reads
  // small there (as the decoder allows, model.ts), and is read through OCR's misreadings.
  if (!first || first.math || first.size < bodySize * (page.ocr ? OCR_SMALL_SHARE : SMALL_SHARE)) return null;
  if (lineInset(line, page.columns[line.column]) > t.numbering.indentTolerance) return null;
  const out: string[] = [];
  let lead = '';
  for (const s of line.spans) {
    if (s.math || lead.length > MAX_LEAD) break;
    lead += s.text;
    out.push(page.ocr ? ocrNumberText(lead) : lead);
  }
  return out;
}

/**
 * How well numbers in reading order run as a sequence: each number that follows its predecessor
 * by one counts, and a 1 may start the count over (numbering that restarts per section). The first
 * run may open where the template lets a paper open (a 理综 paper's chemistry at 7); any run may open
 * at a number the next one follows (a selection whose questions keep their numbers, 6 to 17).
 */
export function sequenceScore(numbers: number[], first: number | number[] | null = 1): number {
  const opens = (n: number) => first === null || (Array.isArray(first) ? first.includes(n) : n === first);
  let score = 0, prev = 0;
  numbers.forEach((n, k) => {
    if (n === prev + 1) { if (prev > 0) score++; prev = n; } else if (n === 1 || (prev === 0 && opens(n)) || numbers[k + 1] === n + 1) prev = n;
  });
  return score;
}

/** How many option labels in the lines follow the label before them (A then B, ① then ②). */
function orderScore(lines: Line[], markers: string[], re: RegExp | null, marks: RegExp | null): number {
  let score = 0, prev = -1;
  for (const line of lines) {
    const text = rawText(line.spans.filter(s => !s.math));
    // A label with marks beside it opens a part, `(a) (4 points)`, not an option.
    if (marks?.test(text)) continue;
    const labels = re ? [...text.matchAll(re)].map(m => m[1]) : [...text].filter(ch => markers.includes(ch));
    for (const label of labels) {
      const i = markers.indexOf(label);
      if (i < 0) continue;
      if (i === prev + 1 && i > 0) score++;
      prev = i;
    }
  }
  return score;
}

function mostCommon(xs: string[]): string | null {
  const counts = new Map<string, number>();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/** A lead word explains at least this many numbers in sequence, or blocks that carry options or marks. */
const WORD_EXPLAINS = 2;

/** The candidates of the template's `infer` block tried on the paper; null when it has none. */
export function inferConventions(doc: PaperDocument, bodySize: number, t: Template = doc.template): { template: Template; conventions: Conventions } | null {
  if (!t.infer) return null;
  const leads = doc.lines.map(l => leadsOf(doc, l, bodySize, t));
  const texts = doc.lines.map(l => rawText(l.spans.filter(s => !s.math)));
  const marks = t.re.points ? new RegExp(t.re.points.source, 'u') : null;
  let options: Conventions['options'] = null;
  for (const c of t.infer.options) {
    const re = c.pattern ? new RegExp(c.pattern, 'gu') : null;
    const inOrder = orderScore(doc.lines, c.markers, re, marks);
    if (inOrder >= 2 && inOrder > (options?.inOrder ?? 0)) options = { ...c, inOrder };
  }
  const optionRe = options?.pattern ? new RegExp(options.pattern, 'gu') : null;
  const labels = (text: string) => optionRe ? [...text.matchAll(optionRe)].length : options ? [...text].filter(ch => options!.markers.includes(ch)).length : 0;
  let numbering: Conventions['numbering'] = { id: 'template', pattern: t.numbering.pattern, inSequence: -1, carrying: 0 };
  let best = -1;
  for (const c of t.infer.numbering) {
    const re = new RegExp(c.pattern, 'u');
    const found = leads.map((l, i) => ({ i, m: l === null ? null : l.map(x => re.exec(x)).find(m => m !== null) ?? null })).filter((x): x is { i: number; m: RegExpExecArray } => x.m !== null);
    // A lead word (`Pregunta`, `Câu`, `QUESTÃO`, `No.`): group 1 the word, group 2 the number. The word
    // the paper uses most is learned, so that other words followed by a number open nothing; in all
    // the forms the paper prints it in that are one word in compatibility form (`№.` and `No.`).
    // The word is compared as a lead's style is (lead.ts wordStyle: compatibility form, lower case).
    const key = c.leadWord ? mostCommon(found.map(x => wordStyle(x.m[1]))) : null;
    const anchors = key === null ? found : found.filter(x => wordStyle(x.m[1]) === key);
    const word = key === null ? null : mostCommon(anchors.map(x => x.m[1]));
    const forms = [...new Set(anchors.map(x => x.m[1]))];
    const pattern = word === null ? c.pattern : `^\\s*(?:${forms.map(escapeRegExp).join('|')})\\s*(\\d{1,3})(?![0-9])\\s*[.:：．)]?`;
    const inSequence = sequenceScore(anchors.map(x => Number(x.m[word === null ? 1 : 2])), t.numbering.first);
    // Questions carry options or marks; a numbered instruction list does not: between one number
    // and the next, a marks marker or two option labels.
    let carrying = 0;
    anchors.forEach((a, k) => {
      const block = texts.slice(a.i, anchors[k + 1]?.i ?? texts.length);
      if (block.some(x => marks?.test(x)) || block.reduce((n, x) => n + labels(x), 0) >= 2) carrying++;
    });
    // A lead word is learned from numbers it leads in sequence or blocks that carry what questions
    // carry: a word that recurs before a number in the questions' text (`A bag holds 6 red balls`,
    // `A bag holds 7 …`, two alternatives drawn on one pattern) leads nothing.
    if (word !== null && inSequence < WORD_EXPLAINS && carrying < WORD_EXPLAINS) continue;
    const score = inSequence + carrying;
    if (score > best) { best = score; numbering = { id: word === null ? c.id : `${c.id}:${word}`, pattern, inSequence, carrying }; }
  }
  const template: Template = Object.freeze({
    ...t,
    // A lead word or `Q` is seldom anything but a question's number: a number it opens may skip
    // ahead (a question lost to the page's edge) without the rest of the paper being lost with it.
    numbering: { ...t.numbering, pattern: numbering.pattern, maxJump: /^(?:word|q)\b/.test(numbering.id) ? 3 : t.numbering.maxJump },
    options: options ? { ...t.options, markers: options.markers, pattern: options.pattern } : t.options,
    re: {
      ...t.re,
      numbering: new RegExp(numbering.pattern, 'u'),
      option: options ? (options.pattern ? new RegExp(options.pattern, 'gu') : null) : t.re.option,
    },
  });
  return { template, conventions: { numbering, options } };
}

/** What the check of a family template's conventions found on a paper. */
export interface ConventionsCheck {
  /** The reading that explains the paper best, the template's own numbering among the candidates. */
  conventions: Conventions;
  /** The template's own numbering (and the options that fit best), scored as the candidates are. */
  own: Conventions;
  /** The template with the winning numbering and options in place of its own. */
  template: Template;
}

/**
 * A paper a family template claims, read by inference as a check: the template's own numbering and
 * options are candidates beside the fallback template's, and win ties. Where another scheme explains
 * the paper better, the family's layout has changed (or the cover matched the wrong family).
 */
export function checkConventions(doc: PaperDocument, bodySize: number, fallback: Template): ConventionsCheck | null {
  const t = doc.template;
  if (t.infer || !fallback.infer) return null;
  const own = { id: 'template', pattern: t.numbering.pattern };
  const ownOptions = t.options.markers.length ? [{ id: 'template', markers: t.options.markers, pattern: t.options.pattern }] : [];
  const hybrid = { ...t, infer: { numbering: [own, ...fallback.infer.numbering], options: [...ownOptions, ...fallback.infer.options] } } as Template;
  const ownOnly = { ...t, infer: { numbering: [own], options: ownOptions } } as Template;
  const best = inferConventions(doc, bodySize, hybrid)!;
  const mine = inferConventions(doc, bodySize, ownOnly)!;
  const { infer: _, ...template } = best.template;
  return { conventions: best.conventions, own: mine.conventions, template: Object.freeze(template) as Template };
}
