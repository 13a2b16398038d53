-- The store: one file per batch year (<out>/<year>/store.sqlite), WAL, one transaction per document.
CREATE TABLE IF NOT EXISTS papers (
  sha256      TEXT PRIMARY KEY,
  file        TEXT NOT NULL,
  pages       INTEGER,
  template    TEXT,
  exam        TEXT,            -- JSON: what the cover says
  status      TEXT NOT NULL,   -- done | failed
  error       TEXT,
  run_key     TEXT,            -- pipeline version + settings that produced the rows
  updated_at  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS pages (
  paper   TEXT NOT NULL REFERENCES papers(sha256) ON DELETE CASCADE,
  number  INTEGER NOT NULL,
  width   REAL NOT NULL,
  height  REAL NOT NULL,
  image   TEXT,
  section TEXT,
  PRIMARY KEY (paper, number)
);
CREATE TABLE IF NOT EXISTS items (
  id      TEXT PRIMARY KEY,      -- <paper-hash>-<section>-<number>
  paper   TEXT NOT NULL REFERENCES papers(sha256) ON DELETE CASCADE,
  section TEXT,
  number  INTEGER NOT NULL,
  page    INTEGER NOT NULL,
  record  TEXT NOT NULL          -- the JSON line written to items.jsonl
);
CREATE INDEX IF NOT EXISTS items_paper ON items(paper, section, number);
CREATE TABLE IF NOT EXISTS diagnostics (
  paper    TEXT NOT NULL,
  severity TEXT NOT NULL,
  rule     TEXT NOT NULL,
  message  TEXT NOT NULL,
  page     INTEGER,
  item     TEXT
);
CREATE INDEX IF NOT EXISTS diagnostics_paper ON diagnostics(paper);
CREATE TABLE IF NOT EXISTS runs (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  started_at  TEXT NOT NULL,
  finished_at TEXT,
  papers      INTEGER,
  skipped     INTEGER,
  failed      INTEGER,
  pages       INTEGER,
  questions   INTEGER,
  written     INTEGER,
  seconds     REAL
);
