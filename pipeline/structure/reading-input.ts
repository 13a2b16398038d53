// What the decoder reads: the lines it may take as anchors (candidates) and the lines set aside
// before any decision — a block under an instructions heading, what follows the end of the
// questions in a column (the template's end marks: KICE's `확인 사항`, an `END OF PAPER`), and a key
// printed after the questions (key-block.ts).
import type { PaperDocument } from '../document.ts';
import type { Template } from '../template.ts';
import { markText } from './marks.ts';
import { frameAround, leadWords, wordAlone, type LineFeatures } from './candidates.ts';
import type { Candidate } from './decode.ts';
import { matchAnchor, ocrNumberText } from './anchors.ts';
import { marginMark } from './ocr-numbering.ts';
import { firstPartLead } from './lead.ts';
import { appendedKeyStart } from './key-block.ts';

/** Why a line is set aside: an instruction block, past the end of the questions in its column, or a key appended to the paper. */
export type AsideKind = 'instructions' | 'stopped' | 'key';

/** A line starting this many points further out than the instructions heading has left its block. */
const OUTDENT = 3;

export function setAside(features: LineFeatures[], doc: PaperDocument): Map<number, AsideKind> {
  const aside = new Map<number, AsideKind>();
  const t = doc.template;
  const stopped = new Set<string>();
  let instructionsOn: number | null = null;
  let instructionsIndent = 0;
  let instructionsColumn = -1;
  const key = appendedKeyStart(features);
  for (const f of features) {
    if (key !== null && f.index >= key) { aside.set(f.index, 'key'); continue; }
    const column = `${f.line.page}:${f.line.column}`;
    if (stopped.has(column) || f.heading === 'end') { stopped.add(column); aside.set(f.index, 'stopped'); continue; }
    // A block of numbered instructions runs to the next section or type heading, the end of its page,
    // or a line set further out than its heading (the block is indented under its heading; the
    // questions after it start back at the column's edge, `Instrucciones` at +9, `Pregunta 1` at 0).
    if (instructionsOn !== null && instructionsOn !== f.line.page) instructionsOn = null;
    if (f.heading === 'instructions') { instructionsOn = f.line.page; instructionsIndent = f.indent; instructionsColumn = f.line.column; aside.set(f.index, 'instructions'); continue; }
    const outdented = f.indent < instructionsIndent - OUTDENT && f.line.column === instructionsColumn;
    if (instructionsOn !== null && !outdented && f.heading !== 'section' && f.heading !== 'type' && !statesMarks(f, t)) { aside.set(f.index, 'instructions'); continue; }
    instructionsOn = null;
  }
  return aside;
}

/**
 * A heading that states the marks of the questions under it (`서술형 (각 1점)`, `Section B (5 marks each)`)
 * heads questions, not instructions: it ends an instruction block as a section heading does.
 */
const statesMarks = (f: LineFeatures, t: Template) => f.heading === 'plain' && (t.re.sectionPoints?.test(markText(f.text)) ?? false);

/**
 * The lines that could open a question. On a page with a text layer, every line with a numbered
 * lead; on a page read by OCR, a number at the margin read through OCR's usual misreadings, or a
 * mark in a number's place that OCR could not read (its number is then the decoder's to give).
 */
export function candidatesOf(doc: PaperDocument, features: LineFeatures[], aside: ReadonlyMap<number, AsideKind>, bodySize: number, lookAlikes: LookAlikes = {}): Candidate[] {
  const t = doc.template;
  const out: Candidate[] = [];
  const words = leadWords(features);
  for (const f of features) {
    // Past the end of the questions in its column, or in a key appended to the paper: no candidate.
    // Under an instructions heading: a candidate still (the questions may start there), that the
    // decoder takes only at a cost.
    const kind = aside.get(f.index);
    if (kind === 'stopped' || kind === 'key') continue;
    // A question printed again beside itself (its twin, structure/twin-columns.ts) opens none.
    if (f.line.twin) continue;
    // Every candidate of a line under an instructions heading says so, however it was read.
    const push = (c: Candidate) => out.push(kind === 'instructions' ? { ...c, instructions: true } : c);
    if (f.ocr) {
      const left = doc.pages[f.line.page - 1].columns[f.line.column];
      // A letter OCR's misreadings make a digit (`A.` read as `4.`) opens an option row, not a question,
      // where the line holds the paper's later option labels too (`A, 28 B. 41`), or opens a stack of
      // them, the next line opening with the next label (`A. 84` over `B. 85`).
      const next = features[f.index + 1];
      const opensOptions = f.optionLabels.some(i => i > 0) || (f.optionLabels[0] === 0 && next?.optionLabels[0] === 1);
      if (ocrNumberText(f.text) !== f.text && /^\s*\p{L}/u.test(f.text) && opensOptions) continue;
      const anchor = matchAnchor(f.line, left, bodySize, t, true);
      const read = anchor?.number ?? null;
      // A bracketed lead OCR read cleanly (`(2)`, `[9]`): as on any page, its style its own (a stacked
      // option's `(2)` set in under `Задача 2` is not of the question's style, whatever OCR's
      // misreadings of a bare number make of either). A word's lead is read through the template's
      // numbering first (`Q.5`, `(05.`, `0॥5.`: OCR reads a lead's word in many ways).
      const clean = f.lead !== null && ocrNumberText(f.text) === f.text;
      if (clean && f.lead!.open) {
        push({ f: read === f.lead!.number ? { ...f, templateLead: !t.infer } : f, lead: f.lead, style: f.lead!.style, read: f.lead!.number, major: f.lead!.major });
        continue;
      }
      // Read through OCR's misreadings at the margin: the template's own numbering (a family's prior
      // holds). A number at the margin in OCR's style (`guess`: see Candidate.guess).
      const prior = { ...f, templateLead: !t.infer, atEdge: true };
      const atMargin = (n: number | null, guess?: true): Candidate => ({ f: prior, lead: null, style: 'ocr', read: n, major: null, ...(guess ? { guess } : {}) });
      if (read !== null) { push({ ...atMargin(read), ...(anchor!.runsOn ? { runsOn: true } : {}) }); continue; }
      if (wordAlone(f, words)) { push(atMargin(null)); continue; }
      if (clean && f.lead!.word) { push({ f, lead: f.lead, style: f.lead!.style, read: f.lead!.number, major: f.lead!.major }); continue; }
      // A mark in a number's place (a mark printed in a box stands where its box does: the box's
      // padding sets its digit in). One OCR read as a bare number (`17 (0–5) …`, a bold number
      // printed without a stop) is read as that number; anything else there is the decoder's to number.
      const frame = f.line.spans[0] ? frameAround(f.line.spans[0], doc) : null;
      const [x0, y0, x1, y1] = f.line.bbox;
      const mark = marginMark(frame ? { ...f.line, bbox: [Math.min(frame[0], x0), y0, Math.max(frame[2], x1), y1] } : f.line, left, bodySize, t);
      const unread = mark !== null && bareNumber(mark[0].text, t.numbering.max) === null;
      // A mark that is a lead OCR read cleanly, of a kind the template's numbering does not name
      // (`3)` on a paper whose other numbers OCR read `19.`; `2.`, OCR's `(12)` with a bracket and a
      // digit dropped): its number is a guess, the decoder's to take or leave as for an unread mark.
      if (unread && clean) { push(atMargin(f.lead!.number, true)); continue; }
      if (mark && !(unread && continuesNumbered(features, f.index, out[out.length - 1]))) { push(atMargin(bareNumber(mark[0].text, t.numbering.max))); continue; }
      if (clean) push({ f, lead: f.lead, style: f.lead!.style, read: f.lead!.number, major: f.lead!.major });
      continue;
    }
    if (!f.lead) continue;
    push({ f, lead: f.lead, style: f.lead.style, read: f.lead.number, major: f.lead.major });
    // `12.298K 时…`: a number with a stop and digits is a two-part number or a question whose text opens
    // with a quantity; both readings are candidates, and the sequence decides.
    const other = firstPartLead(f.line, f.lead);
    if (other) push({ f, lead: other, style: other.style, read: other.number, major: null });
  }
  return labelsOrWords(labelsReadAsDigits(out, features, lookAlikes));
}

/** What OCR misreads each label as (glossary/labels/ocr-look-alikes.json: `B` as `8`, `A` as `4`). */
export type LookAlikes = Readonly<Record<string, readonly string[]>>;

/**
 * A block's letter OCR read as the digit drawn like it (`B.4.` read `8.4.`, `B.1.` read `81.` with
 * its stop lost): on a paper whose blocks are lettered, a lead on an OCR page, at its column's edge,
 * whose label or first digit is the look-alike of a letter next to one the paper prints cleanly is
 * read that way too (Candidate.lookAlike, at its own cost, model.ts PENALTY.lookAlike); the
 * sequence decides. Without it a block whose letters OCR misread lost its questions to the block
 * before, or the block was lost whole.
 */
function labelsReadAsDigits(candidates: Candidate[], features: LineFeatures[], lookAlikes: LookAlikes): Candidate[] {
  const lettersOf = new Map<string, string[]>();
  for (const [letter, alike] of Object.entries(lookAlikes)) {
    if (!/^[A-Z]$/.test(letter)) continue;
    for (const d of alike) if (/^\d$/.test(d)) lettersOf.set(d, [...(lettersOf.get(d) ?? []), letter]);
  }
  const clean = new Map<string, Set<number>>();
  for (const c of candidates) if (c.major !== null && /^[A-Z]$/.test(c.major) && c.f.atEdge) {
    if (!clean.has(c.style)) clean.set(c.style, new Set());
    clean.get(c.style)!.add(c.major.charCodeAt(0));
  }
  if (!clean.size) return candidates;
  const out: Candidate[] = [];
  const seen = new Set<number>();
  for (const c of candidates) {
    out.push(c);
    const f = features[c.f.index];
    const lead = f.lead;
    if (!f.ocr || !f.atEdge || !lead || lead.word || lead.open || seen.has(f.index)) continue;
    seen.add(f.index);
    // `8.4.`: the label is the digit; `81.`: the number's first digit, the stop between them lost.
    const digits = String(lead.number);
    const [digit, number, style] = lead.major !== null && /^\d$/.test(lead.major) ? [lead.major, lead.number, lead.style.replace(/^#\./, 'L.')]
      : lead.major === null && /^[1-9]\d?$/.test(digits.slice(1)) ? [digits[0], Number(digits.slice(1)), `L.${lead.style}`] : [null, 0, ''];
    const letters = clean.get(style);
    if (digit === null || !letters) continue;
    for (const letter of lettersOf.get(digit) ?? []) {
      const code = letter.charCodeAt(0);
      if (![...letters].some(l => Math.abs(l - code) <= 1)) continue;
      out.push({ f, lead: { ...lead, major: letter, number, style }, style, read: number, major: letter, lookAlike: true, ...(c.instructions ? { instructions: true } : {}) });
    }
  }
  return out;
}

/**
 * The line goes on with the paragraph a read number opened on the line just above it: set closer
 * under that line than that line is under what stands before it (`18. In triangle ABC, ∠A = 30°` /
 * `∠C is …`, the `∠C` read as `८0`). A mark OCR could not read there is the question's own text, not
 * the next question's number: a question opens a paragraph, it does not continue one.
 */
function continuesNumbered(features: LineFeatures[], i: number, last: Candidate | undefined): boolean {
  if (!last || last.read === null || last.f.index !== i - 1) return false;
  const above = features[i - 1].line, line = features[i].line;
  if (above.page !== line.page || above.column !== line.column) return false;
  const before = features[i - 2]?.line;
  const gapAbove = before && before.page === above.page && before.column === above.column ? above.bbox[1] - before.bbox[3] : Infinity;
  return line.bbox[1] - above.bbox[3] < gapAbove;
}

/**
 * A letter before the number is a section's label where the paper uses several (`A.1` … `B.1`),
 * and part of the lead where it is always the same (`Q.1`, `Q.2`): decided over the whole paper.
 */
function labelsOrWords(candidates: Candidate[]): Candidate[] {
  const letters = new Map<string, Set<string>>();
  for (const c of candidates) if (c.major !== null && /\D/.test(c.major) && c.f.atEdge) {
    if (!letters.has(c.style)) letters.set(c.style, new Set());
    letters.get(c.style)!.add(c.major);
  }
  return candidates.map(c => {
    if (c.major === null || !/\D/.test(c.major) || (letters.get(c.style)?.size ?? 0) > 1) return c;
    return { ...c, style: c.style.replace('L.', `${c.major.toLocaleLowerCase()}.`), major: null };
  });
}

/**
 * The number a mark at the margin reads as, where it is digits alone or digits and a stop other than
 * the paper's (`2:` where the paper's numbering was learned as `2.` from OCR's other readings), 1 to
 * the template's largest; else null.
 */
export function bareNumber(text: string, max: number): number | null {
  const m = /^\d{1,3}(?=[:;]?$)/.exec(text.trim());
  const n = m ? Number(m[0]) : 0;
  return n >= 1 && n <= max ? n : null;
}
