// The costs of the structural decoder: what makes one reading of a paper's numbered lines better
// than another. Every weight has a name and says what it measures; a score is a sum of rewards for
// anchors taken and penalties for what the reading has to explain away. Templates and the paper's
// own conventions enter as priors here — never as gates.

/** Taking a line as a question's anchor. */
export const REWARD = {
  /** An anchor whose question carries what questions carry on this paper (options, marks, parts). */
  carrying: 1.5,
  /**
   * An anchor whose question carries nothing where others on the paper do, in a run whose questions
   * carried before (a grid-in question after choice questions): a little, the numbering says it is one.
   */
  plain: 0.2,
  /**
   * …in a run that has carried nothing yet (an instruction list): a loss. A run that never carried
   * anything cannot be followed by a new run either (decode.ts), so an instruction list before the
   * questions is never read as a first section.
   */
  plainRun: -0.3,
  /** An anchor on a paper whose questions carry nothing anywhere (a list of free questions). */
  anyOnPlainPaper: 1,
  /**
   * A number the paper states marks for, under its statement (`الأسئلة من 1 إلى 3 لكل منها 5 درجات`
   * over `1．` … `3．`): the paper says a question of that number follows, whatever its block carries
   * (a short answer with no options, marks or parts of its own).
   */
  statedRange: 0.5,
  /** The line matches the family template's own numbering pattern. */
  templateLead: 2,
  /** A bare number that is bold, boxed, alone on its line or hung a tab before its text: printed as a question number is. */
  markedBare: 0.5,
  /** Ending the questions where the paper tells why (it repeats itself, a key or an end mark follows): the rest is explained. */
  endExplained: 0.5,
} as const;

export const PENALTY = {
  /** The lead does not start at its column's edge (indented past the template's tolerance). */
  offEdge: 1.5,
  /** Lines under it start left of it (a number inside text, a table cell). */
  notLeftmost: 1,
  /** A bare number with nothing to mark it as a question number (no word, no stop, not bold, boxed, alone or hung). */
  bareNumber: 1.2,
  /** Set smaller than the body text (a script, a footnote, an axis label). */
  small: 2,
  /** The line stands under an instructions heading (until the page ends or a section starts). */
  inInstructions: 2,
  /** The line is set as a heading with a number (`Часть 2 — Физика`, bold and short, naming something): taken as a question's anchor, more likely a section's heading. */
  headingAnchor: 1,
  /**
   * The line says its question goes on from an earlier page (`Question 27 (continued)`): taken as
   * the anchor, the question would open a page late, and a reading that did so would cost no more
   * than the right one (each question of a paper printed so read unsurely).
   */
  continuedAnchor: 3,
  /** The line reads like an answer key (`1.D 2.A`), not a question. */
  keyLike: 2.5,
  /** The line prints its lead's next numbers after it in the lead's shape (`(1) 56 (2) 64 (3) 54`): a row of options numbered as questions are, not a question. */
  labelRow: 2,
  /** The line states marks for a run of questions from its number on (`問1から問8は各4点。`), not a question. */
  statesMarks: 2.5,
  /** A run that skips numbers (a question lost, or a selection that keeps a longer form's numbers): this much… */
  gap: 0.8,
  /** …and this much more for each number skipped after the first… */
  gapEach: 0.2,
  /** …up to this much for one step. */
  gapMost: 2,
  /** A run's gaps cost this share where the paper states how many questions it holds (gaps are then checked against that count). */
  gapStatedShare: 0.4,
  /** …within the template's `maxJump` (a family known to skip, 13 → 26 with no numbers between). */
  gapAllowed: 0.3,
  /** Numbering that starts again after a section or subject heading, or where the label before the number moves on (A.4 → B.1). Without either, a restart ends the questions instead. */
  restartAtHeading: 0.4,
  /** A restart at the very number the run just took, in its style and label (`Question 27 (continued)` atop the next page): the question going on, not a new section's first. */
  restartSameNumber: 3,
  /** The numbering lead changes style mid-paper (bare numbers, then `Question 11`). */
  switchStyle: 2.5,
  /** The paper's first question is not numbered where papers open (1, or the template's first). */
  openLate: 3,
  /** …where the paper states its count (a selection may open at 2 or 3). */
  openLateStated: 0.8,
  /** OCR read a number other than the one the reading gives it. */
  misread: 1,
  /**
   * …and this much more where the two differ in their count of digits (`23.` taken for 2, `17` for 1):
   * OCR misreads a digit as another far more often than it makes one up or loses one from a clean
   * number, and without this a scan's first question numbered 17 would be read as 1 to save opening late.
   */
  misreadDigits: 2.5,
  /**
   * …but only this much where the number read is the reading's number less one `1` (`6.` for `16.`,
   * `1.` for `11.`): a `1`'s one thin stroke is what OCR loses from a number, run into a lead before
   * it (`Q16.` read `6.`) or dropped beside a bold digit, far more often than any other digit.
   */
  lostOne: 0.3,
  /**
   * …and as little where OCR ran the number on into the text after it (`Question 29+4` for
   * `Question 2 9+4`, decode.ts Candidate.runsOn) and the reading's number is what its leading digits print.
   */
  runOn: 0.3,
  /**
   * A block's letter read from the digit OCR draws like it (`87.` taken for `B.7.`, `8.4.` for
   * `B.4.`: decode.ts Candidate.lookAlike). Less than a misread number: the reading keeps the digits
   * OCR read, and only a letter next to one the paper prints cleanly is read so.
   */
  lookAlike: 0.5,
  /**
   * A step that skips numbers where the number OCR read at one of its ends would have stepped by one
   * (decode.ts transition): the misreading made the gap. With `misread` and the gap's own cost, more
   * than opening late: a scan's `5.` `6.` `7.` is a paper opening at 5, not a `1` misread and 2–5 lost.
   */
  gapByMisread: 2,
  /** OCR read nothing at a mark where the reading places a number. */
  unread: 0.5,
  /** The chain passes over a line of the same lead whose number would stand strictly between its anchors' (a 3 between 2 and 4). */
  passedOver: 1.5,
  /** A step to a number taken at a later line than an earlier line of the same style and number after the last anchor (the first `2.` skipped for a later one). */
  laterTwin: 1,
  /** A line matching the template's numbering, at the edge, that the reading does not take. */
  skipTemplateLead: 0.6,
  /**
   * A block of numbering opened at a two-part number whose first part is the number of the question
   * just read (`4.1.` after `Задание 4`): the question's own part, read as a new block's first question.
   */
  ownPart: 3,
  /** The questions end where the numbering starts over with nothing telling why (no repeat, key or end mark). */
  endPlain: 3.5,
} as const;

/**
 * How hard a paper's stated count first pulls a reading that holds fewer questions (segment.ts
 * `toStatedCount`): each anchor is worth this much more. A pull that overshoots the count is
 * halved, one that falls short doubled, up to STATED_COUNT_PULL_MOST; each try is a whole decode.
 */
export const STATED_COUNT_PULL = 0.5;
/** …tried at most this many times… */
export const STATED_COUNT_TRIES = 2;
/** …and never more than this: a question whose anchor costs more (a line that reads nothing like one) is not made up to meet a count. */
export const STATED_COUNT_PULL_MOST = 1;

/**
 * A run opening late opens where a stated count says (decode.ts `countSpans`) where later lines read
 * at least this share of the numbers the count spans from its opening: its numbers are all there.
 */
export const STATED_RUN_READ = 0.8;

/** A line set smaller than this share of the body size is no question's lead (a script, a footnote, an axis label)… */
export const SMALL_SHARE = 0.8;
/**
 * …on a page read by OCR, this share: a word's size there is its line's box, which reaches down to
 * the descenders only where the line has one (`What is 50% of 260?` has none, and reads a quarter
 * smaller than a line with `g`, `p` or a bracket).
 */
export const OCR_SMALL_SHARE = 0.6;

/** Below this margin (score of the best reading against the best reading without an anchor) a question is unsure. */
export const SURE_MARGIN = 1;
/** A chain's anchors look back at most this many candidates for their predecessor (bounds the work on huge papers). */
export const MAX_LOOKBACK = 400;
/**
 * An OCR number may be read as any number between those its neighbours read (this many candidates
 * with a number on each side), widened by `OCR_NUMBER_SLACK`: a misreading takes a place in the run
 * around it, not any number at all (a year read at the margin would otherwise open 2,000 states).
 */
export const OCR_NEIGHBOURS = 4;
export const OCR_NUMBER_SLACK = 2;
/** Two question openings this alike (Dice over their first words) are the same question printed again. */
export const REPEAT_SIMILARITY = 0.6;
/** A reading that skips numbers (between numbers read as printed) at this many steps is a selection's (decode.ts selectionLike): one or two are questions lost. */
export const SELECTION_GAPS = 3;
/** A paper whose reading claims less than this share of its body text is unsure. */
export const MIN_COVERAGE = 0.6;
