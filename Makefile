# exam-ingest. `make ingest YEAR=2026 [IN=dir] [OUT=dir] [DPI=144] [TEMPLATE=id] [FORCE=1]` and `make test`.
SHELL := /bin/bash
# No built-in implicit rules: with them make asks, for each of the ~220 source files dist/ depends
# on, whether some rule could remake it (RCS, SCCS, yacc…), 0.05 s of CPU on every `make ingest`,
# a quarter of a warm run (README, "Speed").
MAKEFLAGS += --no-builtin-rules
.SUFFIXES:
YEAR ?= $(shell date +%Y)
OUT ?= out
export YEAR IN OUT DPI TEMPLATE FORCE
# WORKERS=n worker processes on this machine (default one per core); QUEUE=redis://host:port sends
# the papers to `make worker` processes instead (README, "Many papers: WORKERS and QUEUE").
export WORKERS QUEUE QUEUE_STALL_MS
# glibc malloc's settings for the commands' processes (pool processes get the same, and why:
# MALLOC_SETTINGS in pipeline/queue/pool.ts): two arenas instead of up to eight a core, and a fixed
# mmap threshold, so page-sized buffers are given back to the system when freed (README, "Speed").
MALLOC_ARENA_MAX ?= 2
MALLOC_MMAP_THRESHOLD_ ?= 1048576
export MALLOC_ARENA_MAX MALLOC_MMAP_THRESHOLD_

.PHONY: ingest worker tag dedup refresh select translate review serve export lint test typecheck setup deps build ocr-deps system-deps samples bench bench-generality clean

# npm packages, reinstalled when the lock file changes.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

deps: node_modules/.installed

# The commands compiled to dist/ (build.mjs, esbuild: a second or so), again whenever a source
# file, the build script or the lock file changes: a command starts in a tenth of a second instead
# of the seconds tsx takes to compile the sources on every run (README, "Speed").
SOURCES := $(shell find pipeline -name '*.ts' -o -name '*.sql') build.mjs package-lock.json
dist/.built: node_modules/.installed $(SOURCES)
	node build.mjs
	@touch $@

build: dist/.built

# Debian packages, installed only where missing. OCR language data (read by tesseract.js from
# /usr/share/tesseract-ocr/5/tessdata, never downloaded), the tesseract CLI for the benchmark and
# poppler's pdfimages (a scanned page's picture taken out as stored) are what ingest needs; the
# tests also want Chromium and CJK fonts (building the samples), qpdf, and redis-server (the queue
# test starts its own on a free loopback port), and xmllint (libxml2-utils: the QTI export's items
# are validated against the QTI 2.1 schema).
OCR_PACKAGES := tesseract-ocr tesseract-ocr-kor tesseract-ocr-eng tesseract-ocr-chi-sim tesseract-ocr-spa tesseract-ocr-jpn tesseract-ocr-rus tesseract-ocr-ell tesseract-ocr-ara tesseract-ocr-hin tesseract-ocr-tha tesseract-ocr-vie poppler-utils
# Fonts of the generated papers (fixtures/make-papers.ts): Noto for Devanagari, Thai, Arabic, Greek and
# Cyrillic; Nanum, IPA and WenQuanYi beside Noto CJK, which Chromium takes seconds to embed.
FONT_PACKAGES := fonts-noto-cjk fonts-noto-core fonts-liberation fonts-dejavu-core fonts-nanum fonts-ipafont-mincho fonts-ipafont-gothic fonts-wqy-microhei
TEST_PACKAGES := $(OCR_PACKAGES) chromium $(FONT_PACKAGES) qpdf redis-server libxml2-utils

# One dpkg-query for all of them (a dpkg -s each costs a tenth of a second on every make ingest).
define apt_install
	@have=" $$(dpkg-query -W -f='$${db:Status-Abbrev}$${Package}\n' $(1) 2>/dev/null | sed -n 's/^ii *//p' | tr '\n' ' ')"; \
	missing=""; for p in $(1); do case "$$have" in *" $$p "*) ;; *) missing="$$missing $$p";; esac; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; fi; \
	fi
endef

# Checked again only when dpkg's database changes (a package installed or removed): a warm `make
# ingest` (nothing new to read) runs no dpkg-query (`make ocr-deps` took 0.31 s with it, under load;
# a warm run's bar is 2 % of a cold one: README, "Speed").
DPKG_STATUS := $(wildcard /var/lib/dpkg/status)
node_modules/.ocr-deps: $(DPKG_STATUS)
	$(call apt_install,$(OCR_PACKAGES))
	@mkdir -p node_modules && touch $@

ocr-deps: node_modules/.ocr-deps

system-deps:
	$(call apt_install,$(TEST_PACKAGES))

setup: deps system-deps

# The run's last line is its exit status and what it means (0 done, 1 a paper failed or the disk is
# full, 2 bad usage, 3 partial); make itself exits 2 for any failure, so a script calls the bin
# (`npx exam-ingest`, bin/exam-ingest.mjs) and reads the status from it.
ingest: build ocr-deps
	node dist/cli.js

# A worker for `make ingest QUEUE=redis://host:port`: start any number, on any machine that sees the
# same IN and OUT folders; Ctrl-C finishes the paper in hand first.
worker: build ocr-deps
	node dist/worker.js

# The passes over the whole store alone, after a curriculum tree or a threshold changed: no PDF is read.
tag: build
	node dist/cli.js --only tag

dedup: build
	node dist/cli.js --only dedup

# The benchmark's splits (README "Splits and exports"). Ingest what is new in inbox/ (and its folders
# one level down; IN= for another), then write the next frozen split <OUT>/splits/<YY-MM>/ for
# CUTOFF=YYYY-MM (default: this month); REVIEWED_ONLY=1 keeps verified records only. Nothing new:
# nothing written, exit 0. One refresh at a time (a lock file).
export CUTOFF REVIEWED_ONLY AFTER
refresh: build ocr-deps
	node dist/refresh.js refresh

# Every split's items sat after a model's training cut-off, with every export: make select AFTER=2025-06.
select: build
	node dist/refresh.js select

# Translations of a stored set: `make translate YEAR=y LANGS=en[,ko]` with LLM_BASE_URL / LLM_MODEL
# (README, "Translations"); resumes where it stopped.
export LLM_BASE_URL LLM_MODEL LLM_API_KEY
translate: build
	@test -n "$(or $(LANGS),$(TRANSLATE))" || { echo "make translate: name the target languages, e.g. LANGS=en"; exit 2; }
	TRANSLATE="$(or $(LANGS),$(TRANSLATE))" node dist/cli.js --only translate

# Human review. `make review YEAR=y [OUT=dir]`: the static site <OUT>/<YEAR>/review/index.html (opens
# from file://). `make serve [HOST=127.0.0.1] [PORT=8730] [REVIEW_TOKEN=…] [UPLOAD_LIMIT_MB=100]`: the
# local server for uploads and the review queue (it ingests, so it wants the OCR data too).
export HOST PORT REVIEW_TOKEN UPLOAD_LIMIT_MB
review: build
	node dist/review.js

serve: build ocr-deps
	node dist/serve.js

# Exports for a classroom (README, "Exports for the classroom"): `make export FORMAT=moodle|qti|worksheet
# [SET=<name>|YEAR=<y>] [OUT=<dir>] [STATUS=verified|all] [COLUMNS=2] [DEST=<path>] [TITLE=…]`; the last
# line it prints is the path written. COLUMNS counts only on make's command line (shells export
# COLUMNS as the terminal's width). The worksheet's PDFs are printed by Chromium.
export FORMAT SET STATUS DEST TITLE CHROMIUM
export: build
	$(if $(filter worksheet,$(FORMAT)),$(call apt_install,chromium fonts-noto-cjk))
	node dist/export.js $(if $(filter command line,$(origin COLUMNS)),--columns $(COLUMNS))

# The lint rules over a stored set: `make lint YEAR=y [OUT=dir]` prints each finding (file, page,
# item, rule) of <OUT>/<YEAR>/items.jsonl and a summary; exit 1 when something is found.
lint: build
	node dist/lint.js

test: setup
	npx vitest run

# Types, and imports one way down (dependency-cruiser, .dependency-cruiser.cjs): no cycle among
# pipeline/'s modules, no stage importing another, nothing below the stages importing one, nothing
# below the runner importing it, the review, the exports or translation. A violation fails the
# target, naming the rule and both files.
typecheck: deps
	npx tsc --noEmit
	npx depcruise pipeline --config .dependency-cruiser.cjs

# Rebuild the shipped sample papers from fixtures/make-samples.ts (needs Chromium).
samples: setup
	npx tsx fixtures/make-samples.ts

bench: setup build
	npx tsx test/bench.ts
	npx tsx test/bench-ocr.ts
	npx tsx test/bench-dedup.ts
	npx tsx test/bench-server.ts

# The layout fuzzer's papers read and scored per dimension (README "Generated papers"): N papers
# (default 1000) of a fixed SEED, generated under out/generality/<SEED>/ and kept between runs.
bench-generality: setup
	N=$(or $(N),1000) SEED=$(or $(SEED),20261201) npx tsx test/bench-generality.ts

clean:
	rm -rf out dist
