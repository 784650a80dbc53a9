# Two commands for a fresh machine: `make run` (the main job) and `make test` (the suite). Each installs the
# system libraries it needs first. `make install`, `make uninstall` and `make dist` package the release build.

SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
BIN = .build/release/unprompt-scan
# The data the binary reads, installed to $(PREFIX)/share/unprompt-scan/ (found beside bin/ at run time).
DATA = readers pricing water
SHARE = $(DESTDIR)$(PREFIX)/share/unprompt-scan
VERSION := $(shell sed -n 's/.*static let release = "\(.*\)"/\1/p' Sources/unprompt-scan/Version.swift)
PLATFORM := $(shell uname -s | tr A-Z a-z)-$(shell uname -m)
DIST = unprompt-scan-$(VERSION)-$(PLATFORM)

.PHONY: run test bench fuzz deps build install uninstall dist test-dist

## Installs the system libraries (libyaml, SQLite, simdjson, zstd) when pkg-config cannot find them.
deps:
	@bash scripts/install-deps.sh

## The release binary. On Linux the Swift runtime, Foundation and the C libraries that ship a static archive are
## linked in (scripts/release-build.sh): a third less start-up time, which every scan pays, and ~5 MB less memory.
build: deps
	SWIFT="$(SWIFT)" bash scripts/release-build.sh

## Scans this machine's AI tool logs into the store (only what is new), then prints today's usage.
run: build
	$(BIN)

test: deps
	$(SWIFT) test

## Generates the corpora and times the dry run, the cold scan, the rescan and the watch against aiburn (a benchmark,
## not a test; BENCH_LARGE=1 adds the 3 GB tree).
bench: deps
	bash bench/run.sh

## Fuzzes the descriptor loader, the line reader and the record extractor with libFuzzer (Fuzz/, scripts/fuzz.sh) for
## FUZZ_SECONDS, seeded from readers/ and Fixtures/; a crash or hang fails it and leaves its input in .build/fuzz/.
## FUZZ_SEED=N (FUZZ_RUNS=N) make the run repeatable (CI: FUZZ_SEED=1). Linux only (elsewhere it is skipped, saying why).
FUZZ_SECONDS ?= 600
FUZZ_SEED ?= 0
FUZZ_RUNS ?= -1
fuzz: deps
	SWIFT="$(SWIFT)" FUZZ_SECONDS="$(FUZZ_SECONDS)" FUZZ_SEED="$(FUZZ_SEED)" FUZZ_RUNS="$(FUZZ_RUNS)" bash scripts/fuzz.sh

## bin/unprompt-scan and share/unprompt-scan/{readers,pricing,water} under $(DESTDIR)$(PREFIX).
install: build
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 $(BIN) "$(DESTDIR)$(PREFIX)/bin/unprompt-scan"
	for dir in $(DATA); do \
		install -d "$(SHARE)/$$dir" && install -m 644 $$dir/* "$(SHARE)/$$dir/" || exit 1; \
	done

## Removes exactly what `make install` wrote; folders are removed only once empty.
uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/unprompt-scan"
	for dir in $(DATA); do \
		for file in $$dir/*; do rm -f "$(SHARE)/$$file"; done; \
		rmdir "$(SHARE)/$$dir" 2>/dev/null || true; \
	done
	rmdir "$(SHARE)" 2>/dev/null || true

## dist/$(DIST).tar.gz (bin/, share/unprompt-scan/, README.md, LICENSE) and its .sha256. On Linux the binary is
## stripped (a quarter smaller; macOS would need it signed again).
dist: build
	rm -rf "dist/$(DIST)" "dist/$(DIST).tar.gz" "dist/$(DIST).tar.gz.sha256"
	$(MAKE) --no-print-directory install PREFIX= DESTDIR="$(CURDIR)/dist/$(DIST)"
	if [ "$$(uname -s)" = Linux ]; then strip "dist/$(DIST)/bin/unprompt-scan"; fi
	install -m 644 README.md LICENSE "dist/$(DIST)/"
	bash scripts/dist-archive.sh dist "$(DIST)"

## The release tarball, installed into a temporary prefix and used there: version, readers, a scan.
test-dist: dist
	bash scripts/test-dist.sh "dist/$(DIST).tar.gz"
