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

## Scans this machine's AI tool logs into the store (only what is new), then prints today's usage.
run: build
	$(BIN)

test: deps
	$(SWIFT) test

## Generates the 300 MB corpora and times the dry run against aiburn (a benchmark, not a test).
bench: deps
	bash bench/run.sh
