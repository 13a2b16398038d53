// The command behind `make export` (cli.ts is its entry): arguments and environment in, lines out,
// an exit status back. Exports the questions of an ingest (YEAR) or of an uploaded set (SET) for a
// classroom: Moodle XML, a QTI 2.1 package, or a printable worksheet with its answer key (HTML and
// PDF). The last line on stdout is the path written. Exit 0 written; 1 nothing to export (with
// STATUS=verified and nothing verified a user is told so, not handed an empty file) or the export
// failed; 2 bad usage. A question two papers share (the dedup pass's duplicate_of) is written once.
import path from 'node:path';
import { dropDuplicates, questionLabel, selectRecords, toQuestions, type QuestionKind } from './question.ts';
import { ClassroomUsageError, resolveClassroomSettings, type ClassroomInput } from './settings.ts';
import { loadRecords } from './source.ts';
import { writeClassroomExport } from './write.ts';

const FLAGS: Record<string, keyof ClassroomInput> = {
  '--format': 'format', '--set': 'set', '--year': 'year', '--out': 'outDir', '--status': 'status', '--columns': 'columns', '--dest': 'dest', '--title': 'title',
};

function parseArgs(argv: readonly string[]): ClassroomInput {
  const input: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const key = FLAGS[flag];
    if (!key) throw new ClassroomUsageError(`unknown argument ${argv[i]} (options: ${Object.keys(FLAGS).join(' ')})`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new ClassroomUsageError(`${flag} needs a value`);
    input[key] = value;
  }
  return input as ClassroomInput;
}

const shown = (file: string) => {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
};

export interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** The whole command: arguments and environment in, lines out, the exit status back. */
export async function runClassroomExport(argv: readonly string[], env: NodeJS.ProcessEnv, io: Output): Promise<number> {
  let settings;
  try {
    settings = resolveClassroomSettings(parseArgs(argv), env);
  } catch (e) {
    io.err(`export: ${(e as Error).message}`);
    return e instanceof ClassroomUsageError ? 2 : 1;
  }
  try {
    const loaded = loadRecords(settings.source);
    const counts = { pending: 0, verified: 0, rejected: 0 };
    for (const r of loaded.records) counts[r.review?.status ?? 'pending']++;
    const chosen = selectRecords(loaded.records, settings.status);
    const tally = `${loaded.records.length} questions: ${counts.verified} verified, ${counts.pending} pending, ${counts.rejected} rejected`;
    if (!chosen.length) {
      const why = settings.status === 'verified'
        ? `no verified question to export in ${loaded.from} (${tally}): verify questions on the review page (make serve), or export every question not rejected with STATUS=all`
        : `no question to export in ${loaded.from} (${tally})`;
      io.err(`export: ${why}`);
      return 1;
    }
    const { kept, dropped } = dropDuplicates(chosen);
    const { questions, missingImages } = toQuestions(kept, loaded.baseDir);
    const kinds = new Map<QuestionKind, number>();
    for (const q of questions) kinds.set(q.kind, (kinds.get(q.kind) ?? 0) + 1);
    io.out(`export: ${settings.format}, ${questions.length} ${settings.status === 'verified' ? 'verified ' : 'not rejected '}questions of ${loaded.from} (${tally})`);
    io.out(`kinds: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}`);
    const label = (r: (typeof chosen)[number]) => questionLabel({ paper: r.source.file, section: r.section, number: r.number });
    for (const d of dropped) io.out(`note: ${label(d.record)} left out: the same question as ${label(d.sameAs)}`);
    for (const q of questions.filter(x => x.essayReason)) io.out(`note: ${q.n}. ${questionLabel(q)} is marked by hand: ${q.essayReason}`);
    for (const m of missingImages) io.err(`warning: image missing, left out: ${m}`);
    const written = await writeClassroomExport(settings, questions);
    for (const f of written.files) io.out(`wrote ${shown(f)}`);
    io.out(`${shown(written.target)}`);
    return 0;
  } catch (e) {
    io.err(`export failed: ${(e as Error).message}`);
    return 1;
  }
}


