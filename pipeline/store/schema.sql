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
  updated_at  TEXT NOT NULL,
  added_at    TEXT,            -- when the store first saw the paper; never changes (a split's date where the cover has none). Old stores get it from db.ts
  -- The structural verdict (pipeline/reading-verdict.ts), apart from status: a needs-review paper is
  -- stored as done (not read again under the same run key) and stays flagged. NULL: not judged.
  structure   TEXT,            -- sure | needs-review
  structure_reasons TEXT,      -- JSON array: why it needs review
  coverage    REAL,            -- share of the body text the reading explains (0–1)
  unsure      TEXT             -- JSON array: numbers of the questions read unsurely
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
-- Passes over the whole store (pipeline/corpus): what they add to a record is kept beside it and
-- merged in when items.jsonl is written, so a record's own row changes only when its paper is redone.
CREATE TABLE IF NOT EXISTS knowledge (
  item   TEXT PRIMARY KEY,       -- items.id
  input  TEXT NOT NULL,          -- hash of what the tags were made from (record text, trees, tagger)
  paths  TEXT NOT NULL,          -- JSON: [{path, confidence, evidence, tree, by}], primary first
  note   TEXT                    -- why, where the tags are not plain evidence
);
CREATE TABLE IF NOT EXISTS clusters (
  item         TEXT PRIMARY KEY, -- items.id of a member of a near-duplicate cluster of two or more
  duplicate_of TEXT,             -- the cluster's canonical id; NULL for the canonical member itself
  canonical    TEXT NOT NULL,
  evidence     TEXT              -- JSON: similarity to the canonical record (text, math, options, figureBits)
);
-- Reviewers' decisions (pipeline/server/reviews.ts): kept beside the parse, never over it, and
-- merged into the record when items.jsonl is written (review.status follows them).
CREATE TABLE IF NOT EXISTS reviews (
  item       TEXT PRIMARY KEY,   -- items.id; no foreign key, so a decision outlives its paper being redone
  version    INTEGER NOT NULL,   -- bumped by every decision; a write naming an older one is refused
  status     TEXT NOT NULL,      -- pending | verified | rejected
  edits      TEXT NOT NULL,      -- JSON: the current value of every field a reviewer edited
  original   TEXT NOT NULL,      -- JSON: the parse's value of each edited field, taken at its first edit
  history    TEXT NOT NULL,      -- JSON array, append-only: {who, when, version, status, edits}
  updated_at TEXT NOT NULL
);
-- Translations (pipeline/translate): one row per item and target language, written as each item is
-- done; merged into the record's `translations` when items.jsonl is written. A failed row holds no
-- text, only why (an unusable reply is never stored).
CREATE TABLE IF NOT EXISTS translations (
  item        TEXT NOT NULL,      -- items.id
  lang        TEXT NOT NULL,      -- target language (ISO 639-1)
  input       TEXT NOT NULL,      -- hash of what it was made from (source text, languages, glossary, model, translator version)
  status      TEXT NOT NULL,      -- ok | flagged (a check failed) | failed (no usable reply)
  stem        TEXT,               -- NULL when failed
  options     TEXT,               -- JSON [{label, text}]; NULL when failed
  checks      TEXT NOT NULL,      -- JSON [{rule, severity, message}]: the item's own checks, or why it failed
  consistency TEXT NOT NULL,      -- JSON: checks over every record of the pass (a glossary term translated two ways)
  by          TEXT NOT NULL,      -- model:<name>, copy:<item> (same source text), or the reviewer who edited it
  version     INTEGER NOT NULL,   -- bumped by every new text; an edit naming an older one is refused
  history     TEXT NOT NULL,      -- JSON array of earlier texts: {who, when, version, stem, options, checks}
  updated_at  TEXT NOT NULL,
  PRIMARY KEY (item, lang)
);
-- What each pass over the store (tag, dedup) last ran on: its records (the done papers and their
-- run keys) and its settings, hashed. A batch that brings nothing new finds the same and skips it.
CREATE TABLE IF NOT EXISTS passes (
  name   TEXT PRIMARY KEY,
  input  TEXT NOT NULL
);
-- What items.jsonl is made from changes only through these tables. Every row written to one of them
-- bumps `generation` (by trigger, whoever writes: a batch, a pass, the review server, an edit), so
-- a run that finds the generation, its papers and the file as it last left them writes nothing and
-- reads no record (pipeline/store/jsonl.ts; a warm re-run's bar: README, "Speed").
CREATE TABLE IF NOT EXISTS generation (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  n  INTEGER NOT NULL
);
INSERT OR IGNORE INTO generation (id, n) VALUES (1, 0);
CREATE TRIGGER IF NOT EXISTS papers_insert AFTER INSERT ON papers BEGIN UPDATE generation SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS papers_update AFTER UPDATE ON papers BEGIN UPDATE generation SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS papers_delete AFTER DELETE ON papers BEGIN UPDATE generation SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS items_insert AFTER INSERT ON items BEGIN UPDATE generation SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS items_update AFTER UPDATE ON items BEGIN UPDATE generation SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS items_delete AFTER DELETE ON items BEGIN UPDATE generation SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS knowledge_insert AFTER INSERT ON knowledge BEGIN UPDATE generation SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS knowledge_update AFTER UPDATE ON knowledge BEGIN UPDATE generation SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS knowledge_delete AFTER DELETE ON knowledge BEGIN UPDATE generation SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS clusters_insert AFTER INSERT ON clusters BEGIN UPDATE generation SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS clusters_update AFTER UPDATE ON clusters BEGIN UPDATE generation SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS clusters_delete AFTER DELETE ON clusters BEGIN UPDATE generation SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS reviews_insert AFTER INSERT ON reviews BEGIN UPDATE generation SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS reviews_update AFTER UPDATE ON reviews BEGIN UPDATE generation SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS reviews_delete AFTER DELETE ON reviews BEGIN UPDATE generation SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS translations_insert AFTER INSERT ON translations BEGIN UPDATE generation SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS translations_update AFTER UPDATE ON translations BEGIN UPDATE generation SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS translations_delete AFTER DELETE ON translations BEGIN UPDATE generation SET n = n + 1; END;
-- Files written from the store (items.jsonl), each with the state it was written at: the generation,
-- the papers it holds, and the file's size and times as the write left them.
CREATE TABLE IF NOT EXISTS outputs (
  file  TEXT PRIMARY KEY,
  state TEXT NOT NULL
);
-- A paper file's hash by where it is and what its stat says (size, modification and change times,
-- inode), as git's index keeps one: a re-run does not read a file it has hashed and that has not
-- changed since. The change time cannot be set back by hand, so a file rewritten and touched to its
-- old time is hashed again.
CREATE TABLE IF NOT EXISTS file_hashes (
  path   TEXT PRIMARY KEY,
  stat   TEXT NOT NULL,
  sha256 TEXT NOT NULL
);
