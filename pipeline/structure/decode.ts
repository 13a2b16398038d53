// One decision over the whole paper: which numbered lines open its questions, with which numbers.
// Every line that could open a question is a candidate (candidates.ts); a reading is a chain of
// them in reading order, scored by the costs of model.ts — steps of one, gaps, restarts at a
// heading, a change of numbering style, an instruction list or a key left aside, a repeat of the
// paper (worked solutions) or an appended key ending it — and the best chain is found by dynamic
// programming (Viterbi over candidates × numbers). Each anchor's margin is the best score less the
// best score of a reading that does without it: how sure the reading is of that question.
import stringSimilarity from 'string-similarity';
import { leadWords, type LineFeatures } from './candidates.ts';
import type { Lead } from './lead.ts';
import { MAX_LOOKBACK, OCR_NEIGHBOURS, OCR_NUMBER_SLACK, OCR_SMALL_SHARE, PENALTY, REPEAT_SIMILARITY, REWARD, SELECTION_GAPS, SMALL_SHARE, STATED_RUN_READ } from './model.ts';

/** The numbers that read `read` with one of their `1`s lost (`14` and `41` for 4; `10` for 0; `11` for 1). */
const withOne = (read: number): number[] => {
  const digits = String(read);
  return sorted([...Array(digits.length + 1).keys()].map(k => `${digits.slice(0, k)}1${digits.slice(k)}`).filter(d => !d.startsWith('0')).map(Number));
};

/** Whether `read` is `n` with one of its `1`s lost (`6` for 16, `1` for 11, `2` for 21). */
const lostOne = (n: number, read: number) => withOne(read).includes(n);

/** Numbers once each, in order. */
function sorted(ns: number[]): number[] { return [...new Set(ns)].sort((a, b) => a - b); }

/** A line that could open a question: its features, the style of its lead, and the number read (null: OCR read nothing there). */
export interface Candidate {
  f: LineFeatures;
  /** The lead as this candidate reads it (a line may be read two ways: `12.298K` as 12.298 or as 12), or null (an OCR mark). */
  lead: Lead | null;
  style: string;
  read: number | null;
  /** A label before the number (`A` in `A.1.`), moving on where a new block of numbering starts. */
  major: string | null;
  /** The line stands under an instructions heading (a numbered instruction more likely than a question). */
  instructions?: boolean;
  /**
   * The number read is OCR's guess at a mark in the number's place (`3)`, `2.` where `(12)` is
   * printed): free where the reading takes it, costing no more than an unread mark where it does not.
   */
  guess?: boolean;
  /** The block's letter is read from a digit OCR draws like it (`8.4.` for `B.4.`): a misreading, at its cost. */
  lookAlike?: boolean;
  /**
   * OCR read the number run on into the text after it, the space between them lost (`Question 29+4`
   * for `Question 2 9+4`): the number may be the one its leading digits print, at `PENALTY.runOn`.
   */
  runsOn?: boolean;
}

export interface DecodeSettings {
  /** Numbers a run may open with (1, or the template's first). */
  opens: (n: number) => boolean;
  /** The paper states how many questions it holds (gaps and a late opening are cheaper, then checked). */
  stated: boolean;
  /**
   * The count the paper states, where it states one: a run opening late at m whose count of numbers
   * from m the paper's lines read (`countSpans`) opens where the count says (a paper's second part, 5
   * to 18 of 14 questions), at the stated opening's cost, whatever its first number.
   */
  statedCount?: number | null;
  /**
   * An earlier reading of the paper skipped numbers again and again between numbers read as printed
   * (a selection that keeps a longer form's numbers, `selectionLike`): its gaps and a late opening
   * cost as on a paper stating its count, rather than a misreading of the number after a gap.
   */
  skips?: boolean;
  /** How far a number may skip ahead at the low cost the template grants (its `maxJump`). */
  maxJump: number;
  /** The template says a number going back ends the questions (the paper repeats itself). */
  restartStops: boolean;
  /** Questions on this paper carry options, marks or parts (so a block carrying none is doubtful). */
  paperCarries: boolean;
  /** The largest number a question may carry. */
  max: number;
  /** Any heading may open a section (a paper no family template claims); else only the template's section headings. */
  plainHeadingsSection: boolean;
  /**
   * A first look only, to learn what the paper's questions print from (segment.ts): a bare number
   * costs nothing, so a paper numbered `1 …` whose options no known scheme names still shows its blocks.
   */
  bareNumbersFree?: boolean;
  /**
   * What each anchor taken is worth besides its own score (0 unless set): a stated count's pull
   * (segment.ts `toStatedCount`), where the reading holds fewer questions than the paper states.
   */
  perAnchor?: number;
  /**
   * Numbers the paper states marks for, at the line stating them: a range (`Questions 1 to 3 carry 5
   * marks each`, structure/range-marks.ts), or every number under a heading that states each
   * question's marks (`Vật lí (mỗi câu 3 điểm)`), up to the next heading (`until`).
   */
  ranges?: readonly { from: number; to: number; line: number; until?: number }[];
}

export interface Anchor {
  candidate: Candidate;
  number: number;
  /** Score of the best reading less that of the best reading without this anchor. */
  margin: number;
}

export interface Reading {
  anchors: Anchor[];
  /** Index (in the paper's lines) where the questions end and the tail starts, or null. */
  end: number | null;
  /** Why the questions end there: a repeat, a key, a heading. */
  endReason: string | null;
  score: number;
}

/** Prefix counts over lines, so that what a block of lines holds is read in constant time. */
class Prefix {
  private readonly sums: Int32Array;
  constructor(n: number, has: (i: number) => boolean) {
    this.sums = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) this.sums[i + 1] = this.sums[i] + (has(i) ? 1 : 0);
  }
  /** How many lines in [from, to) have it. */
  count(from: number, to: number): number { return to <= from ? 0 : this.sums[to] - this.sums[from]; }
}

/**
 * A state of the lattice: candidate `c` taken with its `k`-th number; `run` 1 where its run of
 * numbering has carried what questions carry (options, marks, parts) before it, else 0.
 */
interface State { c: number; k: number; run: number }
const RUNS = 2;

/** A question's predecessor in a repeat says something of its own in at least this many characters (`4² 的值是`; not a key's `B`). */
const OWN_OPENING = 3;

export function decode(features: LineFeatures[], candidates: Candidate[], s: DecodeSettings): Reading {
  const L = features.length;
  const C = candidates.length;
  if (!C) return { anchors: [], end: null, endReason: null, score: 0 };
  const first = new Prefix(L, i => features[i].optionLabels.includes(0));
  // A label after the first: OCR garbles one now and then (`1. 10 223 3. 20 4. 27`: the 2 read into
  // its option), and the row still carries options.
  const second = new Prefix(L, i => features[i].optionLabels.some(k => k >= 1));
  const marks = new Prefix(L, i => features[i].marks);
  const parts = new Prefix(L, i => features[i].part);
  // Where a new run of numbering may start: a section heading (or a page naming another section); on a
  // paper read by its own conventions, any heading (a family template names its sections, so only those count).
  // A numbered heading (`Часть 2 — Физика`) counts where the reading does not take it as a question:
  // a chain that restarts after it passes over it, one that takes it has it as an anchor, not between two.
  const headings = new Prefix(L, i => features[i].heading === 'section' || features[i].sectionChange || (s.plainHeadingsSection && (features[i].heading === 'plain' || features[i].heading === 'type' || features[i].numberedHeading !== null)));
  const ends = new Prefix(L, i => features[i].heading === 'end');
  // The first heading a new run may start at, from each line on (L where none): a block before a
  // restart ends there, so what it carries is only what stands above that heading (an instruction
  // list does not carry the options of the first question under the section heading after it).
  const nextHeading = new Int32Array(L + 1).fill(L);
  for (let i = L - 1; i >= 0; i--) nextHeading[i] = headings.count(i, i + 1) ? i : nextHeading[i + 1];
  const line = (c: number) => candidates[c].f.index;
  // The option labels of an anchor's own line: without the first where it opens the line (the
  // anchor's number read as a label, where options are numbered as questions are: `1.`–`4.`).
  const ownLabels = candidates.map(c => (c.f.labelOpens ? c.f.optionLabels.slice(1) : c.f.optionLabels));
  /** What questions carry on this paper, held by the lines of candidate i's block [line(i), to): the first option label and a later one, a mark, a part. */
  const carries = (i: number, to: number) => {
    const from = line(i);
    const firstLabel = ownLabels[i].includes(0) || first.count(from + 1, to) > 0;
    const laterLabel = ownLabels[i].some(k => k >= 1) || second.count(from + 1, to) > 0;
    return (firstLabel && laterLabel) || marks.count(from, to) > 0 || parts.count(from, to) > 0;
  };
  /** A block's worth: what it carries, and for one that carries nothing, whether its run did before (a grid-in question after choice questions) or not (an instruction list). */
  const blockReward = (carried: boolean, runCarried = true) => (!s.paperCarries ? REWARD.anyOnPlainPaper : carried ? REWARD.carrying : runCarried ? REWARD.plain : REWARD.plainRun);
  // A number led by a word (`Задача 14`, `Question 3`, `第2题`) names a question: an instruction list
  // numbers its items bare (`1.`, `1)`), so a worded block that carries nothing opening a run (a
  // task whose parts OCR garbled) is a plain question, not an instruction.
  const worded = candidates.map(c => !!(c.lead ?? c.f.lead)?.word);
  /**
   * The worth of candidate i's block [line(i), to): under an instructions heading, a block that carries
   * nothing is an instruction. What a line under an instructions heading carries is what stands above
   * the next heading: not the options of the first question under the section heading after it.
   */
  const worth = (i: number, to: number, runCarried = true) => {
    const carried = carries(i, candidates[i].instructions ? Math.min(to, nextHeading[line(i) + 1]) : to);
    return blockReward(carried, runCarried || worded[i]) - (candidates[i].instructions && !carried ? PENALTY.inInstructions : 0);
  };

  // A candidate that prints again a question already printed: the same label and number (`A.1` twice),
  // or the same number opening the same words. The paper repeats itself (worked solutions, criteria):
  // such a line can end the questions, never open one.
  // A question printed again prints its quantities again: openings alike in words but with other
  // numbers (`f(x) = 3x + 6` against `f(x) = 6x + 4`) are two questions of one kind (a second
  // subject's questions drawn on the first's pattern), not a repeat.
  const opening = candidates.map(c => c.lead?.rest.slice(0, 60).toLocaleLowerCase() ?? '');
  const quantities = opening.map(o => (o.match(/\d+/g) ?? []).join(' '));
  // A letter read from a digit's look-alike (Candidate.lookAlike) is a reading the chain may take, no
  // line printed: it is no twin of another, and makes none of the lines around it one.
  const twinOf = candidates.map((c, j) => (c.read === null || c.lookAlike ? -1 : candidates.slice(0, j).findIndex((e, i) => !e.lookAlike && e.read === c.read && e.style === c.style && e.major === c.major
    && (c.major !== null || (opening[i].length >= 8 && quantities[i] === quantities[j] && stringSimilarity.compareTwoStrings(opening[i], opening[j]) >= REPEAT_SIMILARITY)))));
  // A paper printed again is printed in its order: a question whose number's predecessor, printed
  // after its own twin, is a question of its own (no twin before it) belongs to a run of new questions
  // (a second subject's section that draws one question from the first's), not to a repeat.
  // A row of option labels in the paper's scheme from its first (`1. 2. 3. 4.` under each question,
  // its pictures the options) prints again what every question's options print: no repeat of a question.
  const repeats = candidates.map((c, j) => {
    if (twinOf[j] < 0 || (c.f.labelOpens && c.f.optionLabels.length >= 2)) return false;
    if (c.major !== null) return true;
    let k = j - 1;
    while (k > twinOf[j] && !(candidates[k].read === c.read! - 1 && candidates[k].style === c.style)) k--;
    return k <= twinOf[j] || twinOf[k] >= 0 || opening[k].trim().length < OWN_OPENING;
  });

  /** Per lead style, how many of the candidates before each one are repeats in that style. */
  const repeatPrefix = new Map<string, Int32Array>();
  const repeatsBetween = (style: string, from: number, to: number) => {
    let p = repeatPrefix.get(style);
    if (!p) {
      p = new Int32Array(C + 1);
      for (let j = 0; j < C; j++) p[j + 1] = p[j] + (repeats[j] && candidates[j].style === style ? 1 : 0);
      repeatPrefix.set(style, p);
    }
    return to <= from ? 0 : p[to] - p[from];
  };

  // A number with no word, bracket, stop or label around it (OCR's numbers are judged by their reading).
  const bare = candidates.map(c => c.lead !== null && c.style !== 'ocr' && !c.lead.word && !c.lead.close && !c.lead.open && !c.lead.major);
  // What taking a candidate costs or gains by itself.
  const own = candidates.map((c, j) => {
    if (repeats[j]) return -Infinity;
    const f = c.f;
    let v = c.lookAlike ? -PENALTY.lookAlike : 0;
    if (f.templateLead) v += REWARD.templateLead;
    if (!f.atEdge) v -= PENALTY.offEdge;
    if (!f.leftmost) v -= PENALTY.notLeftmost;
    if (bare[j]) v += f.bold || f.boxed || f.alone || f.hanging ? REWARD.markedBare : s.bareNumbersFree ? 0 : -PENALTY.bareNumber;
    if (f.sizeRatio < (f.ocr ? OCR_SMALL_SHARE : SMALL_SHARE)) v -= PENALTY.small;
    if (f.keyLike) v -= PENALTY.keyLike;
    else if (f.labelRow) v -= PENALTY.labelRow;
    if (f.statesMarks) v -= PENALTY.statesMarks;
    if (f.continued) v -= PENALTY.continuedAnchor;
    if (s.plainHeadingsSection && f.numberedHeading !== null) v -= PENALTY.headingAnchor;
    return v;
  });
  /** Candidate j, numbered m, stands under a statement of marks for a range holding m. */
  const statedAbove = (j: number, m: number) => (s.ranges ?? []).some(r => r.line < line(j) && line(j) < (r.until ?? L) && m >= r.from && m <= r.to);
  /** …a statement a heading makes for the questions under it, up to the next heading. */
  const statedUnder = (j: number, m: number) => (s.ranges ?? []).some(r => r.until !== undefined && r.line < line(j) && line(j) < r.until && m >= r.from && m <= r.to);
  // A bare number whose line's text hangs past it (the next line of its column starts further in):
  // set as a question's number is, out of its text.
  const hangs = candidates.map(c => {
    const next = features[c.f.index + 1];
    return !!next && next.line.page === c.f.line.page && next.line.column === c.f.line.column && next.indent >= c.f.indent + c.f.line.spans[0].size * 0.5;
  });
  const skipCost = candidates.map(c => (c.f.templateLead && c.f.atEdge ? PENALTY.skipTemplateLead : 0));
  const skipBefore = new Float64Array(C + 1);
  for (let i = 0; i < C; i++) skipBefore[i + 1] = skipBefore[i] + skipCost[i];
  const skipBetween = (i: number, j: number) => skipBefore[j] - skipBefore[i + 1];

  // The candidate before each one in the same style, or -1.
  const previousWhere = (alike: (a: Candidate, b: Candidate) => boolean) => candidates.map((c, j) => {
    for (let k = j - 1; k >= 0; k--) if (!candidates[k].lookAlike && candidates[k].style === c.style && candidates[k].major === c.major && alike(candidates[k], c)) return k;
    return -1;
  });
  // …at its column's edge: the lines a chain passes over (a number inside a formula, set off the
  // edge, between question 5 and question 7 does not hide the 6 at the edge before them).
  const previousAtEdge = previousWhere(a => a.f.atEdge);
  // The candidate before each one in the same style with the same number read, at its column's
  // edge, or -1 (an option `2.` set in under question 1 is no twin of question 2's `2．`).
  const previousTwin = previousWhere((a, c) => c.read !== null && a.read === c.read && a.f.atEdge);
  // For each candidate, the first later one in its style and label, at its column's edge, that reads
  // the number after its own, or -1 (the line a run ending there would pass over).
  const follower = candidates.map(() => -1);
  const latest = new Map<string, number>();
  for (let j = C - 1; j >= 0; j--) {
    const c = candidates[j];
    if (c.read === null) continue;
    follower[j] = latest.get(`${c.style}|${c.major}|${c.read + 1}`) ?? -1;
    if (c.f.atEdge && !c.lookAlike) latest.set(`${c.style}|${c.major}|${c.read}`, j);
  }
  /**
   * A run ending at anchor i numbered n (a restart follows, or the questions end) before line `to`
   * while a later line of its own style, at the edge, prints n + 1: the chain passes over it as it
   * would over a 3 between 2 and 4. Without this, a run's last question that carries nothing (a
   * grid-in after choice questions) is worth only its block, and a reading without it scores little
   * less: it would read unsurely though its number follows on.
   */
  const leftBehind = (i: number, n: number, to: number) => {
    const k = follower[i];
    return k >= 0 && candidates[i].read === n && line(k) < to ? PENALTY.passedOver : 0;
  };
  // Opening the reading at a line whose number an earlier line of its style printed already, at the
  // edge and carrying what questions carry (a paper set in two languages side by side: the second
  // language's `2.` after the first's): the earlier twin opens it, as a step would take it
  // (`laterTwin`). An earlier twin that carries nothing (a numbered instruction) costs nothing.
  const openTwin = candidates.map((_, j) => {
    const tw = previousTwin[j];
    if (tw < 0 || !candidates[tw].f.atEdge) return 0;
    let next = tw + 1;
    while (next < C && line(next) === line(tw)) next++;
    return carries(tw, next < C ? line(next) : L) ? PENALTY.laterTwin : 0;
  });
  // Opening the reading at m where the line before it in its style, at the edge, reads m - 1 (a
  // selection opening at 15 whose first question carries nothing): the chain passes over its own
  // first question as it would over a 3 between 2 and 4.
  const openAfterOwn = (j: number, m: number) => {
    const k = previousAtEdge[j];
    return k >= 0 && m > 1 && candidates[k].read === m - 1 ? PENALTY.passedOver : 0;
  };
  // The numbers each candidate may take: the one read; on an OCR page any, at a cost where it differs.
  const readNumbers = candidates.map(c => c.read).filter((n): n is number => n !== null);
  const highest = Math.min(s.max, Math.max(1, ...readNumbers) + 2);
  const readAt = candidates.map((c, j) => ({ j, n: c.read })).filter((x): x is { j: number; n: number } => x.n !== null);
  /** The numbers an OCR candidate may take: those its neighbours' readings span, with some slack, and its own reading. */
  const ocrNumbers = (j: number, c: Candidate): number[] => {
    const found = readAt.findIndex(x => x.j >= j);
    const at = found < 0 ? readAt.length : found;
    const near = readAt.slice(Math.max(0, at - OCR_NEIGHBOURS), at + OCR_NEIGHBOURS + 1).filter(x => x.j !== j && x.n <= highest).map(x => x.n);
    const lo = near.length ? Math.max(1, Math.min(...near) - OCR_NUMBER_SLACK) : 1;
    const hi = near.length ? Math.min(highest, Math.max(...near) + OCR_NUMBER_SLACK) : highest;
    const out = Array.from({ length: Math.max(0, hi - lo + 1) }, (_, k) => lo + k);
    if (c.read !== null && c.read <= highest && !out.includes(c.read)) out.push(c.read);
    return out.sort((a, b) => a - b);
  };
  // A lead OCR read cleanly in its own style, bracketed or led by the paper's word (`[25]` read
  // `[29]`, `[15]` read `[5]`, `प्रश्न 10` read `प्रश्न 0`) may still hold a digit misread or a `1`
  // lost: it takes its neighbours' numbers of as many digits, or with a `1` more, too, at the
  // misreading's cost. After the paper's word, any number with a `1` more: OCR may lose the `1`
  // from a whole run of them (11–17 read as 1–7), beyond the reach of the neighbours' numbers; a
  // bracket holds a mark as often (`[3]`), and keeps to its neighbours'. Never one with a digit
  // fewer: a `1` made up inside the bracket (`[13]` taken for 3, to follow an instruction list's
  // `1.` `2.` on) is not how OCR errs.
  // (A word the paper leads its questions with: not one opening a sentence that a number follows, `A rectangle measures 18 cm`.)
  const words = leadWords(features);
  /** A lead of words the paper does not lead its questions with (see `transition`). */
  const stray = candidates.map(c => !!c.lead?.word && !words.has(c.lead.word));
  const numbersRead = candidates.map((c, j) => (c.read === null ? null : c.f.ocr && c.style === 'ocr' ? ocrNumbers(j, c)
    : c.f.ocr && c.lead?.word && words.has(c.lead.word) ? sorted([...ocrNumbers(j, c).filter(n => n >= 1 && String(n).length === String(c.read).length), ...withOne(c.read!).filter(n => n <= s.max)])
      : c.f.ocr && c.lead?.open ? ocrNumbers(j, c).filter(n => String(n).length === String(c.read).length || lostOne(n, c.read!))
      : [c.read]));
  // A mark OCR could not read takes its neighbours' numbers, and the numbers between what the lines
  // at the edge around it may be (`प्रश्न` between `प्रश्न 0` and `प्रश्न 2`, OCR's readings of 10
  // and 12, takes 11, which no neighbour read).
  const edgeWithNumber = (j: number, step: 1 | -1) => {
    for (let k = j + step; k >= 0 && k < C; k += step) if (numbersRead[k] && candidates[k].f.atEdge && line(k) !== line(j)) return k;
    return -1;
  };
  const between = (j: number) => [edgeWithNumber(j, -1), edgeWithNumber(j, 1)].flatMap((k, side) => (k < 0 ? [] : numbersRead[k]!.map(n => n + (side === 0 ? 1 : -1))));
  const numbersOf = candidates.map((c, j) => numbersRead[j] ?? (c.f.ocr && c.style === 'ocr' ? sorted([...ocrNumbers(j, c), ...between(j).filter(n => n >= 1 && n <= s.max)]) : []));
  // A `1` lost (`6.` for 16) or one made up of a thin stroke before the number (`16` for `Q.6`, the
  // lead's stop read as a 1) costs as little.
  const misreadCost = (c: Candidate, n: number) => (c.read === n ? 0 : c.read === null || c.guess ? PENALTY.unread
    : PENALTY.misread + (String(c.read).length === String(n).length ? 0 : lostOne(n, c.read) || lostOne(c.read, n) ? PENALTY.lostOne
      : c.runsOn && String(c.read).startsWith(String(n)) ? PENALTY.runOn : PENALTY.misreadDigits));
  /** Numbers a step leaves out (a question lost, or a selection that keeps a longer form's numbers). */
  const gapCost = (skipped: number) => {
    if (skipped <= 0) return 0;
    const gap = Math.min(PENALTY.gapMost, PENALTY.gap + PENALTY.gapEach * (skipped - 1));
    return skipped <= s.maxJump - 1 ? skipped * PENALTY.gapAllowed : s.stated || s.skips ? gap * PENALTY.gapStatedShare : gap;
  };
  const openCost = (n: number) => (s.opens(n) ? 0 : (s.stated || s.skips) && n <= 3 ? PENALTY.openLateStated : PENALTY.openLate);
  /**
   * Where the stated count spans a run opened at candidate j numbered m: lines of j's style from it
   * on read most of m … m + count − 1 (STATED_RUN_READ), as a paper's second part does (5 … 18 of
   * 14 questions); a selection's numbers leave most of such a span unread. (Lines of j's style only:
   * a table's `Monday 10` `Tuesday 13` fill no span.)
   */
  const lastRead = new Map<string, number>();
  candidates.forEach((c, k) => { if (c.read !== null) lastRead.set(`${c.style}|${c.read}`, k); });
  const countSpans = (j: number, m: number) => {
    const count = s.statedCount;
    if (!count) return false;
    let read = 0;
    for (let n = m; n < m + count; n++) if ((lastRead.get(`${candidates[j].style}|${n}`) ?? -1) >= j) read++;
    return read >= count * STATED_RUN_READ;
  };
  // Once per candidate and number, not in each pass of the lattice (the margins run it once per anchor).
  const openingCost = numbersOf.map((ns, j) => ns.map(m => (!s.opens(m) && countSpans(j, m) ? Math.min(openCost(m), PENALTY.openLateStated) : openCost(m))));

  // A block's letter (`A` in `A.4`), not a number before the number (`8` in `8.1.`, question 8's part).
  const lettered = candidates.map(c => c.major !== null && /\D/.test(c.major));
  /** The step from anchor i numbered n to anchor j numbered m, given how i's run went (carrying more blocks than not); -Infinity where no reading goes so. */
  const transition = (i: number, n: number, j: number, m: number, runCarried: boolean): number => {
    const a = candidates[i], b = candidates[j];
    let v = 0;
    // A new run of numbering starts where the label before the numbers moves on (A.4 → B.1) or after
    // a heading; only a run that carried what questions carry (not an instruction list) may precede it,
    // and never at a question printed again (that ends the questions instead).
    const moved = a.major !== b.major;
    if (moved || m <= n) {
      if (repeats[j] || (s.paperCarries && !runCarried)) return -Infinity;
      if (!moved && headings.count(line(i) + 1, line(j)) === 0) return -Infinity;
      v -= PENALTY.restartAtHeading;
      // A two-part number whose first part is the number of the question it follows (`Задание 4`,
      // then `4.1.`) is that question's part, not the first of a new block of questions.
      if (a.major === null && b.major === String(n) && !lettered[j]) v -= PENALTY.ownPart;
      // A block whose label moves on opens where numbering opens (B.1), or, from one lettered block
      // to the next (A.7 → B.2), later at the cost of the numbers it leaves out: its first question's
      // lead lost to OCR (`B.1` read `(00)`) costs that question, not the whole block. (A number
      // before the number is no block's label: `8.1.` is question 8's part, and a run of them no
      // block to go on from at `Задание 10`.)
      if (moved && !(s.opens(m) || m === 1)) {
        if (!lettered[i] || !lettered[j]) return -Infinity;
        v -= gapCost(m - 1);
      }
      // On a paper read by its own conventions, a run that starts over under a heading opens where
      // its numbering opens (1): one opening later has lost its first questions to the run before.
      // (A family template's sections open where it says: KICE's electives at 23.)
      if (!moved && s.plainHeadingsSection) v -= openCost(m);
      if (!moved && m === n && a.style === b.style) v -= PENALTY.restartSameNumber;
      v -= leftBehind(i, n, line(j));
    } else {
      v -= gapCost(m - n - 1);
      // A misreading makes a run whole, never a gap: where i's number as OCR read it is the one
      // before m, or j's the one after n, the gap is of the reading's making (a scan's `5.` read as
      // question 1 to open where papers open, then a jump to `6.`), not a question lost.
      if (m > n + 1 && ((a.read === m - 1 && n !== a.read) || (b.read === n + 1 && m !== b.read))) v -= PENALTY.gapByMisread;
    }
    // A bare number that follows the run's bare number by one, its text hanging past it: the run
    // says what the number is, as a mark would (a paper numbering its questions in the margin).
    // One already set apart by its own line (bold, boxed, alone, an em from its text) has its reward.
    if (m === n + 1 && bare[j] && a.style === b.style && hangs[j] && !b.f.bold && !b.f.boxed && !b.f.alone && !b.f.hanging) v += PENALTY.bareNumber;
    // OCR misreads a run of numbers the same way (the `1` of 11–17 lost from each, `प्रश्न 12` read
    // `प्रश्न 2`): a `1` lost from the number after one that lost its `1` too costs the loss alone.
    if (m === n + 1 && a.read !== null && b.read !== null && a.read !== n && b.read !== m && lostOne(n, a.read) && lostOne(m, b.read)) v += PENALTY.misread;
    // OCR reads the same printed lead in many ways: its style says nothing there. A lead of words
    // the paper does not lead its questions with (`What is 25% of 100?`, a translation's line under
    // a question numbered in a box) is no OCR reading of the paper's lead: a switch as on any page.
    if (a.style !== b.style && ((a.style !== 'ocr' && b.style !== 'ocr') || stray[i] || stray[j])) v -= PENALTY.switchStyle;
    // Passing over a line of j's own style whose number would stand between i's and j's (a 3
    // between 2 and 4): the chain should go through it.
    const k = previousAtEdge[j];
    const passesOwn = k > i && candidates[k].read !== null && candidates[k].read! > n && candidates[k].read! < m;
    // …or a line of i's own style reading n + 1 (the chain leaves its run for another style's 11,
    // passing over the run's own 10).
    const f = follower[i];
    const passesRun = m > n + 1 && f > i && f < j && a.read === n;
    if (passesOwn || passesRun) v -= PENALTY.passedOver;
    // Stepping on to m at a line after another of the same style reading m (an instruction `2.`
    // passed over for a question's `2.`): the earlier twin was the step.
    const twin = previousTwin[j];
    // …or after a line of i's own style reading m, the next in its run (`3.` `4.` of a numbered
    // instruction list, the run stepping from its `3.` over the `4.` to a question's `4` below a
    // section heading): the run's own next line was the step.
    const runTwin = m === n + 1 && f > i && f < j && a.read === n && a.style !== b.style;
    if (m > n && ((twin > i && candidates[twin].f.atEdge) || runTwin)) v -= PENALTY.laterTwin;
    return v;
  };
  /** Where the questions may end at candidate j after anchor i numbered n: what ending there costs (null: no ending there). */
  const endCost = (i: number, n: number, j: number): number | null => {
    const b = candidates[j];
    if (b.read === null || b.read > n || !(s.opens(b.read) || b.read === 1)) return null;
    // The paper starts over at its first repeat of a question (the run's style): a later ending would take some of the repeat in.
    if (repeatsBetween(candidates[i].style, i + 1, j) > 0) return null;
    const marked = repeats[j] || b.f.keyLike || ends.count(line(i) + 1, line(j)) > 0;
    // Numbering that starts over is numbering of the run's own style (a part's `(1)` inside the
    // last question is no new start), unless the line says what follows (a repeat, a key, an end heading).
    const sameStyle = b.style === candidates[i].style || b.style === 'ocr' || candidates[i].style === 'ocr';
    if (!marked && !sameStyle) return null;
    return marked || s.restartStops ? -REWARD.endExplained : PENALTY.endPlain;
  };

  // The last question's block taking in a run the paper starts again under a heading (numbered from
  // its opening, in the run's style, at the edge), whose blocks carry what questions carry (a third
  // subject's questions under `Hóa học`): the numbering started over there, and ending there costs
  // what ending at a restart costs (endPlain); its questions' options are not the last question's.
  // A list that carries nothing (instructions or notes at the back) is no run taken in.
  const swallows = candidates.map((a, i) => {
    for (let j = i + 1; j < C; j++) {
      const b = candidates[j];
      if (b.style !== a.style || b.major !== a.major || b.read === null || !(s.opens(b.read) || b.read === 1) || !b.f.atEdge) continue;
      if (repeats[j] || b.f.keyLike || headings.count(line(i) + 1, line(j)) === 0) continue;
      if (carries(j, L)) return PENALTY.endPlain;
    }
    return 0;
  });

  /** The lattice run forward, leaving out candidate `banned` (-1: none). */
  function forward(banned: number) {
    const best: Float64Array[][] = numbersOf.map(ns => Array.from({ length: RUNS }, () => new Float64Array(ns.length).fill(-Infinity)));
    const from: (State | null)[][][] = numbersOf.map(ns => Array.from({ length: RUNS }, () => ns.map(() => null)));
    for (let j = 0; j < C; j++) {
      if (j === banned || own[j] === -Infinity) continue;
      const b = candidates[j];
      numbersOf[j].forEach((m, k) => {
        const emit = own[j] - misreadCost(b, m) + (statedAbove(j, m) ? REWARD.statedRange : 0) + (s.perAnchor ?? 0);
        // Opening the first run here: what comes before is skipped.
        const open = -skipBefore[j] - openingCost[j][k] - openTwin[j] - openAfterOwn(j, m);
        const top: number[] = new Array(RUNS).fill(-Infinity);
        const back: (State | null)[] = new Array(RUNS).fill(null);
        top[0] = open;
        for (let i = Math.max(0, j - MAX_LOOKBACK); i < j; i++) {
          if (i === banned || line(i) === line(j)) continue;
          const carried = carries(i, line(j));
          const cut = Math.min(line(j), nextHeading[line(i) + 1]);
          const carriedAbove = carries(i, cut);
          const skipped = skipBetween(i, j);
          const ns = numbersOf[i];
          for (let kk = 0; kk < ns.length; kk++) {
            for (let r = 0; r < RUNS; r++) {
              const prev = best[i][r][kk];
              if (prev === -Infinity) continue;
              const restarts = candidates[i].major !== b.major || m <= ns[kk];
              // A run under a heading that states each question's marks (`Sezione A (5 punti ciascuno)`
              // over short answers that carry nothing of their own) is a run of questions, as one that
              // carries is. (Not a range stated once for the paper, `Questions 1–10`: a list numbered
              // again after the questions, a formula sheet's `1.`–`9.`, stands under it too.)
              const runCarried = r === 1 || statedUnder(i, ns[kk]) || (restarts ? carriedAbove : carried);
              const t = transition(i, ns[kk], j, m, runCarried);
              if (t === -Infinity) continue;
              const next = restarts ? 0 : runCarried ? 1 : 0;
              const v = prev + worth(i, restarts ? cut : line(j), r === 1) - skipped + t;
              if (v > top[next]) { top[next] = v; back[next] = { c: i, k: kk, run: r }; }
            }
          }
        }
        for (let r = 0; r < RUNS; r++) if (top[r] > -Infinity) { best[j][r][k] = top[r] + emit; from[j][r][k] = back[r]; }
      });
    }
    // The end: after the last anchor (its block runs to the last line), or at a candidate where the paper starts over.
    let score = 0, last: State | null = null, end: number | null = null, endAt = -1;
    for (let i = 0; i < C; i++) {
      if (i === banned) continue;
      numbersOf[i].forEach((n, k) => {
        for (let r = 0; r < RUNS; r++) {
          const prev = best[i][r][k];
          if (prev === -Infinity) continue;
          const plain = prev + worth(i, L, r === 1) - (skipBefore[C] - skipBefore[i + 1]) - leftBehind(i, n, L) - swallows[i];
          if (plain > score) { score = plain; last = { c: i, k, run: r }; end = null; endAt = -1; }
          for (let j = i + 1; j < C; j++) {
            const cost = endCost(i, n, j);
            if (cost === null) continue;
            const v = prev + worth(i, line(j), r === 1) - skipBetween(i, j) - cost - leftBehind(i, n, line(j));
            if (v > score) { score = v; last = { c: i, k, run: r }; end = line(j); endAt = j; }
          }
        }
      });
    }
    return { score, last, end, endAt, from };
  }

  const run = forward(-1);
  const chain: State[] = [];
  for (let at: State | null = run.last; at; at = run.from[at.c][at.run][at.k]) chain.unshift(at);
  const anchors: Anchor[] = chain.map(st => ({ candidate: candidates[st.c], number: numbersOf[st.c][st.k], margin: Infinity }));
  const margins = marginsWithout(chain.map(st => st.c), C, run.score, banned => forward(banned).score);
  anchors.forEach((a, k) => { a.margin = margins[k]; });
  const endReason = run.endAt < 0 ? null : repeats[run.endAt] ? 'the paper repeats itself' : candidates[run.endAt].f.keyLike ? 'a key follows' : 'the numbering starts over';
  return { anchors, end: run.end, endReason, score: run.score };
}

/**
 * Each chosen anchor's margin: the best score less the best score of a reading without it. A paper
 * with many anchors and candidates gets the margins of a sample spread over it and the rest from
 * their neighbours' (a full pass per anchor is quadratic in candidates).
 */
function marginsWithout(chain: number[], candidates: number, best: number, without: (banned: number) => number): number[] {
  const budget = Math.max(8, Math.floor(2e7 / Math.max(1, candidates * candidates)));
  const step = Math.max(1, Math.ceil(chain.length / budget));
  const out = chain.map(() => Infinity);
  for (let k = 0; k < chain.length; k += step) out[k] = best - without(chain[k]);
  for (let k = 0; k < chain.length; k++) if (out[k] === Infinity) out[k] = out[k - (k % step)];
  return out;
}

/**
 * A reading that skips numbers at `SELECTION_GAPS` steps or more, each between two questions whose
 * numbers OCR or the text layer read as the reading gives them (`6:` → `10:`, `12:` → `15:`), within
 * one run of numbering: the paper is a selection keeping a longer form's numbers, whether or not it
 * says so in words a reader finds (`DecodeSettings.skips`). One gap, or gaps at misread numbers,
 * are questions lost, not a convention.
 */
export function selectionLike(reading: Reading): boolean {
  let gaps = 0;
  for (let k = 1; k < reading.anchors.length; k++) {
    const a = reading.anchors[k - 1], b = reading.anchors[k];
    const asRead = (x: Anchor) => x.candidate.read === x.number && !x.candidate.guess && !x.candidate.lookAlike;
    if (a.candidate.major === b.candidate.major && b.number > a.number + 1 && asRead(a) && asRead(b)) gaps++;
  }
  return gaps >= SELECTION_GAPS;
}
