// One process of the WORKERS=n pool: reads the pages it is sent (pipeline/pages/read.ts: the image
// drawn and written where it is not on disk yet, the text layer read) and sends each page's result
// back. It never writes the store. The PDFs of the papers in hand stay open (a few, the least
// recently used closed first); it ends when the pool disconnects.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { readPage } from '../pages/read.ts';
import type { PageResult, PageTask } from '../pages/task.ts';
import { openPdf, type PdfDocument } from '../providers/pdf.ts';

export type PoolRequest = { type: 'page'; id: number; task: PageTask };
export interface PoolReply { id: number; result: PageResult }

/** Open PDFs kept, beyond those in use. */
const KEEP_OPEN = 3;

interface Open { pdf: Promise<PdfDocument | null>; busy: number; used: number }
const open = new Map<string, Open>();
let clock = 0;

/** The paper's PDF, opened once; null when the file is not the one the batch listed any more. */
function acquire(task: PageTask): Open {
  let o = open.get(task.sha256);
  if (!o) {
    const bytes = fs.readFileSync(task.file);
    const same = crypto.createHash('sha256').update(bytes).digest('hex') === task.sha256;
    o = { pdf: same ? openPdf(new Uint8Array(bytes)) : Promise.resolve(null), busy: 0, used: 0 };
    open.set(task.sha256, o);
  }
  o.busy++;
  o.used = ++clock;
  return o;
}

function release(o: Open): void {
  o.busy--;
  const idle = [...open].filter(([, x]) => x.busy === 0).sort((a, b) => a[1].used - b[1].used);
  for (const [sha, x] of idle.slice(0, Math.max(0, idle.length - KEEP_OPEN))) {
    open.delete(sha);
    void x.pdf.then(pdf => pdf?.destroy()).catch(() => undefined);
  }
}

async function read(task: PageTask): Promise<PageResult> {
  let o: Open;
  try {
    o = acquire(task);
  } catch (e) {
    const message = (e as Error).message;
    return { page: task.page, image: null, renderError: message, textError: message };
  }
  try {
    const pdf = await o.pdf;
    if (!pdf) return { page: task.page, image: null, changed: true };
    return await readPage(pdf, task);
  } catch (e) {
    const message = (e as Error).message;
    return { page: task.page, image: null, renderError: message, textError: message };
  } finally {
    release(o);
  }
}

process.on('message', (m: PoolRequest) => {
  if (m.type === 'page') void read(m.task).then(result => process.send!({ id: m.id, result } satisfies PoolReply));
});

process.on('disconnect', () => process.exit(0));
