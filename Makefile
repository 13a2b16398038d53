# exam-ingest. `make ingest YEAR=2026 [IN=dir] [OUT=dir] [DPI=144] [TEMPLATE=id] [FORCE=1]` and `make test`.
SHELL := /bin/bash
YEAR ?= $(shell date +%Y)
OUT ?= out
export YEAR IN OUT DPI TEMPLATE FORCE

.PHONY: ingest tag dedup test typecheck setup deps ocr-deps system-deps samples bench clean

# npm packages, reinstalled when the lock file changes.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

deps: node_modules/.installed

# Debian packages, installed only where missing. OCR language data (read by tesseract.js from
# /usr/share/tesseract-ocr/5/tessdata, never downloaded) and the tesseract CLI for the benchmark are
# what ingest needs; the tests also want Chromium and CJK fonts (building the samples), qpdf and poppler.
OCR_PACKAGES := tesseract-ocr tesseract-ocr-kor tesseract-ocr-eng tesseract-ocr-chi-sim tesseract-ocr-spa
TEST_PACKAGES := $(OCR_PACKAGES) chromium fonts-noto-cjk qpdf poppler-utils

define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; fi; \
	fi
endef

ocr-deps:
	$(call apt_install,$(OCR_PACKAGES))

system-deps:
	$(call apt_install,$(TEST_PACKAGES))

setup: deps system-deps

ingest: deps ocr-deps
	npx tsx pipeline/cli.ts

# The passes over the whole store alone, after a curriculum tree or a threshold changed: no PDF is read.
tag: deps
	npx tsx pipeline/cli.ts --only tag

dedup: deps
	npx tsx pipeline/cli.ts --only dedup

test: setup
	npx vitest run

typecheck: deps
	npx tsc --noEmit

# Rebuild the shipped sample papers from fixtures/make-samples.ts (needs Chromium).
samples: setup
	npx tsx fixtures/make-samples.ts

bench: setup
	npx tsx test/bench.ts
	npx tsx test/bench-ocr.ts
	npx tsx test/bench-dedup.ts

clean:
	rm -rf out
