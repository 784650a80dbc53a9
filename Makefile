# Two commands for a fresh machine: `make run` (the main job) and `make test` (the suite).
# Each installs the system libraries it needs first.

SWIFT ?= swift
BIN = .build/release/unprompt-scan
# On Linux the Swift runtime and Foundation are linked into the binary: a third less start-up time (which
# every scan, and every rescan with nothing new, pays) and ~5 MB less memory. macOS ships them with the OS.
STATIC = $(if $(filter Linux,$(shell uname -s)),--static-swift-stdlib,)

.PHONY: run test bench deps build

## Installs the system libraries (libyaml, SQLite, simdjson, zstd) when pkg-config cannot find them.
deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release $(STATIC)

## Scans this machine's AI tool logs into the store (only what is new), then prints today's usage.
run: build
	$(BIN)

test: deps
	$(SWIFT) test

## Generates the 300 MB corpora and times the dry run against aiburn (a benchmark, not a test).
bench: deps
	bash bench/run.sh
