# FastDelegates: the two Quick-start commands (`make bench`, `make test`) and their parts.
# Both install the C core's system library (libbsd-dev) first when it is missing.

SWIFT ?= swift
CC_CHECK ?= cc
C_SOURCES := $(wildcard Sources/CDispatchTable/*.c)

FUZZ_SECONDS ?= 60
SOAK_MINUTES ?= 10
TIMED = start=$$(date +%s); trap 'echo "[$@] $$(( $$(date +%s) - start ))s"' EXIT;

.PHONY: bench test deps c-warnings swift-warnings unit-tests release-tests sanitize-thread sanitize-address fuzz \
	fuzz-coverage soak

## Runs the benchmark CLI (release build).
bench: deps
	$(SWIFT) run -c release fastdelegates-bench $(BENCH_ARGS)

## Runs every check CI runs: warnings, the tests (debug and release), under TSan and ASan, and the fuzzer.
test: deps c-warnings swift-warnings unit-tests release-tests sanitize-thread sanitize-address fuzz

deps:
	@if ! pkg-config --exists libbsd 2>/dev/null && ! dpkg -s libbsd-dev >/dev/null 2>&1; then \
		echo "installing libbsd-dev"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libbsd-dev pkg-config; \
	fi

## The C core is C11 and -Wall -Wextra clean.
c-warnings:
	@for file in $(C_SOURCES); do \
		$(CC_CHECK) -std=c11 -Wall -Wextra -Wpedantic -Werror -O2 -Iinclude -c $$file -o /dev/null || exit 1; \
	done
	@echo "C core: -std=c11 -Wall -Wextra -Wpedantic clean"

## No Swift warnings in this package's own sources and tests.
swift-warnings:
	@$(SWIFT) build --build-tests > .build-warnings.log 2>&1 || { cat .build-warnings.log; rm -f .build-warnings.log; exit 1; }
	@if grep -E "^$(CURDIR)/(Sources|Tests)/.*warning:" .build-warnings.log; then \
		echo "Swift warnings found (above)"; rm -f .build-warnings.log; exit 1; \
	fi
	@rm -f .build-warnings.log
	@echo "Swift: no warnings"

unit-tests:
	@$(TIMED) $(SWIFT) test

## The library's tests optimized, as users run it: lifetimes end earlier than in debug builds,
## which some lifetime bugs need in order to show.
release-tests:
	@$(TIMED) $(SWIFT) test -c release -Xswiftc -enable-testing --skip BenchTests

## The library's tests under ThreadSanitizer (the bench CLI's tests are left to the plain run).
## FASTDELEGATES_TEST_SCALE=sanitizer runs the million-sized tests a tenth as large.
sanitize-thread:
	@$(TIMED) FASTDELEGATES_TEST_SCALE=sanitizer \
		$(SWIFT) test --sanitize=thread --scratch-path .build-tsan --skip BenchTests

## The library's tests under AddressSanitizer and LeakSanitizer (XCTest's own leaks suppressed).
sanitize-address:
	@$(TIMED) LSAN_OPTIONS=suppressions=$(CURDIR)/.ci/lsan.supp FASTDELEGATES_TEST_SCALE=sanitizer \
		$(SWIFT) test --sanitize=address --scratch-path .build-asan --skip BenchTests

## The C core's libFuzzer harness against its reference model (FUZZ_SECONDS, default 60).
fuzz:
	@$(TIMED) Fuzz/run.sh $(FUZZ_SECONDS)

## Line and branch coverage of the C core reached by a fuzz run of FUZZ_SECONDS (llvm-cov).
fuzz-coverage:
	@Fuzz/coverage.sh $(FUZZ_SECONDS)

## Not part of `test`: the concurrency hammer, the differential tests with fresh seeds and the
## fuzzer for SOAK_MINUTES (default 10); reports operations per second and peak memory, and
## fails on a divergence, a sanitizer report or memory growth beyond the bounds in scripts/soak.sh.
soak: deps
	@SOAK_MINUTES=$(SOAK_MINUTES) scripts/soak.sh
