# exam-ingest. `make ingest YEAR=2026 [IN=dir] [OUT=dir] [DPI=144] [TEMPLATE=id] [FORCE=1]` and `make test`.
SHELL := /bin/bash
YEAR ?= $(shell date +%Y)
OUT ?= out
export YEAR IN OUT DPI TEMPLATE FORCE

.PHONY: ingest test typecheck setup deps system-deps samples bench clean

# npm packages, reinstalled when the lock file changes.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

deps: node_modules/.installed

# Debian packages: OCR language data (read by tesseract.js from /usr/share/tesseract-ocr/5/tessdata,
# never downloaded) and the tesseract CLI for the OCR benchmark; Chromium and CJK fonts for building
# the samples; qpdf for the broken-input tests. Installed only where missing.
SYSTEM_PACKAGES := tesseract-ocr tesseract-ocr-kor tesseract-ocr-eng tesseract-ocr-chi-sim tesseract-ocr-spa chromium fonts-noto-cjk qpdf poppler-utils
system-deps:
	@missing=""; for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; fi; \
	fi

setup: deps system-deps

ingest: setup
	npx tsx pipeline/cli.ts

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

clean:
	rm -rf out
