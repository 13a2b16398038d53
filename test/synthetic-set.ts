// A large review set made from real records: the done papers of a store copied, each copy a paper
// of its own (a new hash, so new item ids, as a re-upload of a changed file would have), written
// straight into a new store with the same tags and pages. The page and figure images are the
// source's own, linked: a copy's records name the same files. Used by the server benchmark.
import Database from 'better-sqlite3';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openStore } from '../pipeline/open-store.ts';

export interface SyntheticSet {
  items: number;
  papers: number;
  ids: string[];
  seconds: number;
}

interface ItemRow { id: string; paper: string; section: string | null; number: number; page: number; record: string }

/**
 * Copies the done papers of `<fromYearDir>/store.sqlite` into `<toYearDir>/store.sqlite` until the
 * new store holds `questions` items (the last copy cut short where needed).
 */
export function buildSyntheticSet(fromYearDir: string, toYearDir: string, questions: number): SyntheticSet {
  const t0 = performance.now();
  const source = new Database(path.join(fromYearDir, 'store.sqlite'), { readonly: true, fileMustExist: true });
  const papers = source.prepare(`SELECT * FROM papers WHERE status = 'done' ORDER BY file`).all() as Record<string, unknown>[];
  const pages = source.prepare('SELECT * FROM pages WHERE paper = ?');
  const items = source.prepare('SELECT id, paper, section, number, page, record FROM items WHERE paper = ? ORDER BY rowid');
  const knowledge = source.prepare('SELECT * FROM knowledge WHERE item = ?');
  if (!papers.length) throw new Error(`no done paper in ${fromYearDir}/store.sqlite`);

  fs.mkdirSync(toYearDir, { recursive: true });
  for (const dir of ['pages', 'figures']) {
    const link = path.join(toYearDir, dir);
    if (!fs.existsSync(link) && fs.existsSync(path.join(fromYearDir, dir))) fs.symlinkSync(path.join(fromYearDir, dir), link);
  }
  const store = openStore(path.join(toYearDir, 'store.sqlite'));
  const ids: string[] = [];
  let copies = 0;
  try {
    const db = store.db;
    const putPaper = db.prepare(`INSERT INTO papers (sha256, file, pages, template, exam, status, error, run_key, updated_at, added_at)
      VALUES (@sha256, @file, @pages, @template, @exam, 'done', NULL, @run_key, datetime('now'), datetime('now'))`);
    const putPage = db.prepare('INSERT INTO pages (paper, number, width, height, image, section) VALUES (?, ?, ?, ?, ?, ?)');
    const putItem = db.prepare('INSERT INTO items (id, paper, section, number, page, record) VALUES (?, ?, ?, ?, ?, ?)');
    const putTags = db.prepare('INSERT INTO knowledge (item, input, paths, note) VALUES (?, ?, ?, ?)');
    db.transaction(() => {
      while (ids.length < questions) {
        for (const p of papers) {
          if (ids.length >= questions) break;
          copies++;
          const sha = crypto.createHash('sha256').update(`${p.sha256}:${copies}`).digest('hex');
          const file = `copy-${String(copies).padStart(4, '0')}-${p.file}`;
          putPaper.run({ ...p, sha256: sha, file });
          for (const g of pages.all(p.sha256) as { number: number; width: number; height: number; image: string | null; section: string | null }[]) putPage.run(sha, g.number, g.width, g.height, g.image, g.section);
          for (const it of items.all(p.sha256) as ItemRow[]) {
            if (ids.length >= questions) break;
            const id = sha.slice(0, 16) + it.id.slice(16);
            const record = { ...JSON.parse(it.record), id, source: { ...JSON.parse(it.record).source, file, sha256: sha } };
            putItem.run(id, sha, it.section, it.number, it.page, JSON.stringify(record));
            const tags = knowledge.get(it.id) as { input: string; paths: string; note: string | null } | undefined;
            if (tags) putTags.run(id, tags.input, tags.paths, tags.note);
            ids.push(id);
          }
        }
      }
    })();
  } finally {
    store.close();
    source.close();
  }
  return { items: ids.length, papers: copies, ids, seconds: (performance.now() - t0) / 1000 };
}
