# Two commands for a fresh machine: `make run` (the main job) and `make test` (the suite).
# Each installs the system libraries it needs first.

SWIFT ?= swift
BIN = .build/release/unprompt-scan

.PHONY: run test bench deps build

## Installs the system libraries (libyaml, SQLite, simdjson) when pkg-config cannot find them.
deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release

## Reads this machine's AI tool logs with every descriptor and prints what would be counted (writes nothing).
run: build
	$(BIN) --dry-run

test: deps
	$(SWIFT) test

## Generates the 300 MB corpora and times the dry run against aiburn (a benchmark, not a test).
bench: deps
	bash bench/run.sh
