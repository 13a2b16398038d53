// emit: one record per question in the three modalities (TO text only, TI text + figure crops,
// IO page images + the question's number and regions), written to the store in one transaction.
// A renderer: it reads the document and changes nothing on it.
import type { KnowledgePath } from '../corpus/tagger.ts';
import type { Marking } from '../structure/marking.ts';
import type { PaperDocument, Question } from '../document.ts';
import { round } from '../document.ts';
import type { Stage } from '../stage.ts';
import { recordStructure, verdictOf, type RecordStructure } from '../reading-verdict.ts';

export interface ItemRecord {
  id: string;
  source: { file: string; sha256: string; pages: number };
  exam: Record<string, unknown>;
  section: string | null;
  number: number;
  type: string;
  options: { label: string; text: string }[];
  stem: string;
  answer: string | null;
  points: number | null;
  /** The section's marking scheme where the paper states one: `{full, partial: [], zero, negative}`, each `{marks, when}`. */
  marking?: Marking | null;
  /** Each part's label and marks; `type` on papers read by inferred conventions, `answer` where a key gives one per part. */
  parts: { label: string; marks: number | null; type?: string; answer?: string | null }[];
  /** The key marks the item as a pilot (tried out, not scored). */
  pilot: boolean;
  flags: string[];
  page: number;
  regions: { page: number; bbox: number[] }[];
  figures: { path: string | null; page: number; bbox: number[]; kind: string }[];
  error_rate: number | null;
  difficulty: string | null;
  modalities: {
    TO: { text: string };
    TI: { text: string; images: string[] };
    IO: { page_image: string[]; question: { number: number; section: string | null; regions: { page: number; bbox: number[] }[] } };
  };
  /** Curriculum paths, primary first: filled by the tagging pass over the store (pipeline/corpus). */
  knowledge: KnowledgePath[];
  /** The canonical record of this record's near-duplicate cluster: filled by the dedup pass. */
  duplicate_of: string | null;
  review: { status: 'pending' | 'verified' | 'rejected' };
  /**
   * The structural verdict on the record's paper (pipeline/reading-verdict.ts), apart from the
   * reviewer's `review.status`: `needs-review` with its reasons where the reading is in doubt, the
   * paper's coverage, and whether this question itself was read unsurely; null where not judged.
   */
  structure: RecordStructure | null;
  diagnostics: { severity: string; rule: string; message: string }[];
}

export function toText(q: Question): string {
  return [q.stem, ...q.options.map(o => `${o.label} ${o.text}`)].filter(Boolean).join('\n');
}

export function toRecord(doc: PaperDocument, q: Question): ItemRecord {
  const regions = q.regions.map(r => ({ page: r.page, bbox: round(r.bbox) }));
  const figures = q.figures.map(f => ({ path: f.path ?? null, page: f.page, bbox: round(f.bbox), kind: f.kind }));
  const pages = [...new Set(regions.map(r => r.page))];
  const text = toText(q);
  const { electives, ...exam } = doc.exam;
  return {
    id: q.id,
    source: { file: doc.file, sha256: doc.sha256, pages: doc.pageCount },
    exam: { ...exam, electives, template: doc.template.id },
    section: q.section,
    number: q.number,
    type: q.type,
    options: q.options,
    stem: q.stem,
    answer: q.answer,
    points: q.points,
    marking: q.marking,
    parts: q.parts,
    pilot: q.flags.includes('pilot'),
    flags: q.flags,
    page: q.page,
    regions,
    figures,
    error_rate: q.errorRate,
    difficulty: q.difficulty,
    modalities: {
      TO: { text },
      TI: { text, images: figures.map(f => f.path).filter((p): p is string => !!p) },
      IO: { page_image: pages.map(p => doc.pages[p - 1].image ?? '').filter(Boolean), question: { number: q.number, section: q.section, regions } },
    },
    knowledge: [],
    duplicate_of: null,
    review: { status: 'pending' },
    structure: recordStructure(doc, q),
    diagnostics: doc.messages.list.filter(d => d.item === q.id).map(d => ({ severity: d.severity, rule: d.rule, message: d.message })),
  };
}

export function emitStage(): Stage {
  return {
    name: 'emit',
    kind: 'renderer',
    run(doc, ctx) {
      const records = doc.questions.map(q => toRecord(doc, q));
      const changed = ctx.store.saveDocument(
        { sha256: doc.sha256, file: doc.file, pages: doc.pageCount, template: doc.template.id, exam: JSON.stringify(doc.exam), run_key: ctx.runKey, verdict: verdictOf(doc) },
        doc.pages.map(p => ({ number: p.number, width: p.width, height: p.height, image: p.image ?? null, section: p.section })),
        records.map(r => ({ id: r.id, section: r.section, number: r.number, page: r.page, record: JSON.stringify(r) })),
        doc.messages.list,
      );
      doc.counters.recordsWritten = changed;
    },
  };
}
