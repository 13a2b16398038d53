// Writes one classroom export where the settings say: the Moodle XML file, the QTI zip, or the
// worksheet's folder (worksheet.html, worksheet.pdf, answer-key.html, answer-key.pdf). Files are
// written whole (a temporary name, then a rename), so a reader never sees half of one.
import fs from 'node:fs';
import path from 'node:path';
import { moodleXml } from './moodle.ts';
import { printPdfs } from './pdf.ts';
import { qtiPackage, zipPackage } from './qti.ts';
import type { ClassroomQuestion } from './question.ts';
import type { ClassroomSettings } from './settings.ts';
import { worksheetHtml } from './worksheet.ts';

export const WORKSHEET_FILES = { worksheet: 'worksheet.html', worksheetPdf: 'worksheet.pdf', key: 'answer-key.html', keyPdf: 'answer-key.pdf' } as const;

function writeWhole(file: string, content: string | Uint8Array): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, content);
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

export interface WrittenExport {
  /** The file or folder written (settings.target). */
  target: string;
  /** Every file written, in order. */
  files: string[];
}

export async function writeClassroomExport(settings: ClassroomSettings, questions: readonly ClassroomQuestion[]): Promise<WrittenExport> {
  const { target } = settings;
  if (settings.format === 'moodle') {
    writeWhole(target, moodleXml(questions, settings.label));
    return { target, files: [target] };
  }
  if (settings.format === 'qti') {
    writeWhole(target, zipPackage(qtiPackage(questions, settings.label, settings.title)));
    return { target, files: [target] };
  }
  if (!fs.existsSync(settings.chromium)) throw new Error(`the worksheet's PDFs are printed by Chromium, and ${settings.chromium} is not there: make setup installs Debian's chromium (or set CHROMIUM= to another)`);
  if (fs.existsSync(target) && !fs.statSync(target).isDirectory()) throw new Error(`${target} is a file: the worksheet is a folder (DEST= names the folder)`);
  const html = worksheetHtml(questions, { title: settings.title, columns: settings.columns });
  const at = (name: string) => path.join(target, name);
  writeWhole(at(WORKSHEET_FILES.worksheet), html.worksheet);
  writeWhole(at(WORKSHEET_FILES.key), html.key);
  // Printed under temporary names, renamed once both are whole.
  const jobs = [
    { html: at(WORKSHEET_FILES.worksheet), pdf: `${at(WORKSHEET_FILES.worksheetPdf)}.${process.pid}.tmp`, final: at(WORKSHEET_FILES.worksheetPdf) },
    { html: at(WORKSHEET_FILES.key), pdf: `${at(WORKSHEET_FILES.keyPdf)}.${process.pid}.tmp`, final: at(WORKSHEET_FILES.keyPdf) },
  ];
  try {
    await printPdfs(jobs, settings.chromium);
    for (const j of jobs) fs.renameSync(j.pdf, j.final);
  } finally {
    for (const j of jobs) fs.rmSync(j.pdf, { force: true });
  }
  return { target, files: [jobs[0].html, jobs[0].final, jobs[1].html, jobs[1].final] };
}
