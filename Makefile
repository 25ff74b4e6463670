# FastDelegates: the two Quick-start commands (`make bench`, `make test`) and their parts.
# Both install the C core's system library (libbsd-dev) first when it is missing, and python3
# (the generator of the benchmark's hand-written forwarders) for `make test`.

SWIFT ?= swift
# The debug steps (swift-warnings, compile-fail, unit-tests, full-fences, dependent-check) share one
# build: with the `Macros` trait (the @DelegateProxy macro and its tests) and under ThreadSanitizer,
# in one scratch path, so that swift-syntax and the tests are built once and every debug test runs
# under TSan (the generated Sendable proxies included). The release and ASan steps leave the trait
# off: a release build of swift-syntax takes minutes (make bench never builds it; the benchmark
# compiles a checked-in expansion instead).
TRAITS ?= --traits Macros
DEBUG_SCRATCH ?= .build-debug-tsan
RELEASE_SCRATCH ?= .build-release-asan
DEBUG_FLAGS ?= $(TRAITS) --sanitize=thread --scratch-path $(DEBUG_SCRATCH)
# SwiftPM 6.3 fails a second invocation on a sanitizer scratch path with "unknown build
# description"; without its cached build description it builds incrementally as it should.
FORGET_DESCRIPTION = rm -f $(DEBUG_SCRATCH)/debug.yaml $(DEBUG_SCRATCH)/plugin-tools.yaml $(DEBUG_SCRATCH)/debug/description.json \
	$(RELEASE_SCRATCH)/release.yaml $(RELEASE_SCRATCH)/plugin-tools.yaml $(RELEASE_SCRATCH)/release/description.json;
CC_CHECK ?= cc
C_SOURCES := $(wildcard Sources/CDispatchTable/*.c)

FUZZ_SECONDS ?= 60
SOAK_MINUTES ?= 10
TIMED = start=$$(date +%s); trap 'echo "[$@] $$(( $$(date +%s) - start ))s"' EXIT;

.PHONY: bench test deps c-warnings c-layers swift-warnings format-lint docs-check format generate generated-check \
	compile-fail readme-check docs-snippets unit-tests full-fences dependent-check proxy-sdk-check release-build release-tests callgrind-check callgrind-and-fuzz fuzz \
	fuzz-coverage soak objc-tests bench-objc

## Runs the benchmark CLI (release build): prints the table, and writes the published results
## (docs/benchmarks.md, with the date, machine, Swift version and commit) and the chart (docs/bench.svg);
## then, when valgrind is installed, the instruction counts of the same build (scripts/callgrind.sh
## --publish: the marked section of docs/benchmarks.md and docs/callgrind.tsv, which
## callgrind-check reads). The rewrite keeps the Objective-C section `make bench-objc` writes.
bench: deps
	$(SWIFT) run -c release fastdelegates-bench --markdown docs/benchmarks.md --chart docs/bench.svg $(BENCH_ARGS)
	@if [ -n "$(BENCH_ARGS)" ]; then \
		echo "make bench: instruction counts skipped: a partial run (BENCH_ARGS); scripts/callgrind.sh --publish writes them"; \
	elif command -v valgrind >/dev/null 2>&1; then \
		scripts/callgrind.sh --publish; \
	else \
		echo "make bench: instruction counts skipped: valgrind is not installed (apt-get install -y valgrind)"; \
	fi

## Runs every check CI runs: warnings, formatting, generated code, snippets the compiler must reject,
## the tests (debug under TSan, optimized under ASan), the DocC catalog, a dependent package each
## way, the instruction counts and the fuzzer.
test: deps c-warnings c-layers objc-tests format-lint generated-check swift-warnings docs-check compile-fail readme-check docs-snippets unit-tests \
	full-fences dependent-check proxy-sdk-check release-build release-tests callgrind-and-fuzz

deps:
	@if ! pkg-config --exists libbsd 2>/dev/null && ! dpkg -s libbsd-dev >/dev/null 2>&1; then \
		echo "installing libbsd-dev"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libbsd-dev pkg-config; \
	fi
	@if ! command -v python3 >/dev/null 2>&1; then \
		echo "installing python3 (runs scripts/generate-handwritten-weak.py)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3; \
	fi

## The C core is C11 and -Wall -Wextra clean.
c-warnings:
	@for file in $(C_SOURCES); do \
		$(CC_CHECK) -std=c11 -Wall -Wextra -Wpedantic -Werror -O2 -Iinclude -c $$file -o /dev/null || exit 1; \
	done
	@echo "C core: -std=c11 -Wall -Wextra -Wpedantic clean"

## The C core is layered: the graph of calls (and internal includes) between its .c files has no
## cycle, each file includes the header of what it calls, and every exported symbol is `cdt_`.
## Prints each file's dependencies and the layers (scripts/c-layers.sh; about a second).
c-layers:
	@CC_CHECK=$(CC_CHECK) scripts/c-layers.sh

## The Objective-C multicaster (Sources/FastDelegatesObjC), debug, in two legs: each
## Tests/ObjCBridge/*.m with a `main` is a program whose exit status is its result, run under
## GCC's runtime and GNUstep (the manual retain/release branch, ASan; installs gobjc and
## GNUstep Base when missing), then under clang ARC on libobjc2 (the Apple branch, ASan, UBSan,
## -fsanitize=function; /opt/objc-arc, from ../shared/objc-arc/install.sh: without it the leg is
## skipped, saying how to get it, except under CI=true, where it fails). scripts/objc-tests.sh.
objc-tests:
	@$(TIMED) scripts/objc-tests.sh

## The Objective-C multicaster's benchmark on both runtimes (optimized, one run): a direct send,
## the hand-written forwarder to one __weak delegate (assign on GCC's runtime), the typed path at
## N = 1, 4 and 16, forwardInvocation:, a hand-written MDC-style multiplexer; writes its section of
## docs/benchmarks.md (scripts/bench-objc.sh; --callgrind counts instructions instead), which
## `make bench` keeps.
bench-objc:
	@scripts/bench-objc.sh --publish

## No Swift warnings in this package's own sources and tests.
swift-warnings:
	@$(FORGET_DESCRIPTION) $(SWIFT) build --build-tests $(DEBUG_FLAGS) > .build-warnings.log 2>&1 || { cat .build-warnings.log; rm -f .build-warnings.log; exit 1; }
	@if grep -E "^$(CURDIR)/(Sources|Tests)/.*warning:" .build-warnings.log; then \
		echo "Swift warnings found (above)"; rm -f .build-warnings.log; exit 1; \
	fi
	@rm -f .build-warnings.log
	@echo "Swift: no warnings"

## Sources and Tests follow .swift-format (`make format` fixes what it can).
format-lint:
	@$(SWIFT) format lint --strict --recursive --parallel Sources Tests Plugins Examples
	@echo "swift format: Sources, Tests, Plugins and Examples clean"

format:
	$(SWIFT) format format --in-place --recursive --parallel Sources Tests Plugins Examples

## The library's DocC catalog, and FastDelegatesFoundation's documentation, build with no warning (every symbol link resolves to one symbol):
## `swift package generate-documentation --target FastDelegates --warnings-as-errors`, with the
## debug steps' flags, so that it reuses their build (a few seconds after swift-warnings).
docs-check:
	@$(TIMED) $(FORGET_DESCRIPTION) BUILD_FLAGS="$(DEBUG_FLAGS)" scripts/docs-check.sh

## Regenerates the hand-written forwarders of the benchmark (HandWrittenWeak+Generated.swift), and,
## with the generate-delegate-proxies plugin, the checked-in @DelegateProxy expansions that the
## benchmark (BenchScrollDelegate+Generated.swift and its copies, BenchFrameDelegate+Generated.swift)
## and FastDelegatesFoundation (its *+Generated.swift) compile without the `Macros` trait.
PROXY_TARGETS = --target FastDelegatesFoundation --target fastdelegates-bench
generate:
	scripts/generate-handwritten-weak.py
	@$(FORGET_DESCRIPTION) $(SWIFT) package $(DEBUG_FLAGS) --allow-writing-to-package-directory \
		generate-delegate-proxies $(PROXY_TARGETS)

## The generated sources are what their generators make today: the hand-written forwarders, and
## every checked-in @DelegateProxy expansion (`generate-delegate-proxies --check`, whose tool the
## debug steps' build shares).
generated-check:
	@scripts/generate-handwritten-weak.py --check
	@$(FORGET_DESCRIPTION) $(SWIFT) package $(DEBUG_FLAGS) --allow-writing-to-package-directory \
		generate-delegate-proxies --check $(PROXY_TARGETS)
	@echo "generated sources up to date"

## Snippets the compiler must reject (Tests/CompileFail): non-Sendable handlers on the
## concurrent chain, a @MainActor-owned chain reached from a detached task, and others.
compile-fail:
	@$(TIMED) $(FORGET_DESCRIPTION) BUILD_FLAGS="$(DEBUG_FLAGS)" scripts/compile-fail.sh

## Every ```swift block of README.md compiles, extracted from the README itself: the manifest
## against PackageDescription, the examples against the debug steps' FastDelegates module and
## @DelegateProxy plugin (scripts/snippet-check.sh).
readme-check:
	@$(TIMED) $(FORGET_DESCRIPTION) BUILD_FLAGS="$(DEBUG_FLAGS)" scripts/snippet-check.sh README.md

## Every ```swift block of the DocC articles compiles the same way, with `import FastDelegates`
## presumed; a block marked `<!-- snippet: context NAME -->` with the declarations it takes as
## given (Tests/Snippets/NAME.swift), one marked `fragment` (with its reason) not at all.
docs-snippets:
	@$(TIMED) $(FORGET_DESCRIPTION) BUILD_FLAGS="$(DEBUG_FLAGS)" scripts/snippet-check.sh --import FastDelegates \
		Sources/FastDelegates/FastDelegates.docc/*.md

## Every test in debug under ThreadSanitizer, the macro's expansion tests and the generated proxies'
## tests included. FASTDELEGATES_TEST_SCALE=sanitizer runs the million-sized tests a tenth as large
## (release-tests runs them full size).
unit-tests:
	@$(TIMED) $(FORGET_DESCRIPTION) FASTDELEGATES_TEST_SCALE=sanitizer $(SWIFT) test $(DEBUG_FLAGS)

## The concurrent chain's suites again with full fences on both sides, as on platforms without a
## process-wide memory barrier (on Linux, sends are otherwise fence-free over membarrier). The
## `Chain…` suites run each behaviour over every chain, the concurrent one included.
full-fences:
	@$(TIMED) $(FORGET_DESCRIPTION) FASTDELEGATES_FULL_FENCES=1 FASTDELEGATES_TEST_SCALE=sanitizer \
		$(SWIFT) test $(DEBUG_FLAGS) \
		--filter "Concurrent|RemovalWait|FenceMode|ReadSideModel|ChainParity|ChainMembership|ChainReentrancy|ChainDifferential|ChainZeroingHold|DispatcherResponder|MessageIdentity|SendableProxy"

## A dependent package each way: the library alone resolves no other package and fetches
## nothing; with the `Macros` trait it resolves swift-syntax only, and its app runs the generated
## proxies under ThreadSanitizer (the Sendable one from several threads). The Macros dependent is
## built in the debug steps' scratch path, with their flags, so it reuses their swift-syntax.
dependent-check:
	@$(TIMED) $(FORGET_DESCRIPTION) DEPENDENT_SCRATCH="$(CURDIR)/$(DEBUG_SCRATCH)" scripts/dependent-check.sh

## An SDK ships @DelegateProxy proxies without swift-syntax (Examples/ProxySDK): the app that uses
## it builds cold with no package but the SDK's and ours and no swift-syntax, and runs;
## `generate-delegate-proxies --check` passes on the SDK's checked-in file and fails on a stale
## copy; a refused protocol gets the macro's error at its line (scripts/proxy-sdk-check.sh; the
## plugin's tool builds swift-syntax once, in debug).
proxy-sdk-check:
	@$(TIMED) scripts/proxy-sdk-check.sh

## `swift build -c release` of the whole package, as most Swift developers first build a clone:
## every target but the tests (the test-support target included, which must therefore reach the
## library through `package` access, not `@testable`). In the default build folder, which `make
## bench` shares.
release-build:
	@$(TIMED) $(SWIFT) build -c release

## The library's tests optimized, as users run it (lifetimes end earlier than in debug builds,
## which some lifetime bugs need in order to show), full size, with the long model searches
## (FASTDELEGATES_LONG_MODELS: the weak-ordering read-side model, too slow under TSan), under AddressSanitizer and
## LeakSanitizer (XCTest's own leaks suppressed). One build for both: an optimized ASan build
## costs about what a plain one does, and a debug ASan build less than their difference.
release-tests:
	@$(TIMED) $(FORGET_DESCRIPTION) LSAN_OPTIONS=suppressions=$(CURDIR)/.ci/lsan.supp FASTDELEGATES_LONG_MODELS=1 \
		$(SWIFT) test -c release -Xswiftc -enable-testing --sanitize=address --scratch-path $(RELEASE_SCRATCH) \
		--skip BenchTests

## The default weak path's instructions per target (fastdelegates-weak, N = 4 and 16) stay within
## 10 % of the committed figure in docs/callgrind.tsv; skipped when valgrind is missing. It builds
## the bench alone, as `make bench` does, in a scratch path of its own (CALLGRIND_SCRATCH): the
## binary release-tests builds has -enable-testing, which about doubles the counts (181 instead of
## 92 per target, and 134 instead of 52 for the zeroing floor), so its counts cannot be compared.
CALLGRIND_SCRATCH ?= .build-callgrind
callgrind-check:
	@$(TIMED) if ! command -v valgrind >/dev/null 2>&1; then \
		echo "callgrind-check: skipped: valgrind is not installed (apt-get install -y valgrind)"; \
	else \
		CALLGRIND_SCRATCH=$(CALLGRIND_SCRATCH) scripts/callgrind.sh --check; \
	fi

## Both at once: each is single-threaded once built (valgrind runs one thread; so does the fuzzer).
callgrind-and-fuzz:
	@$(MAKE) --no-print-directory -j2 --output-sync=target callgrind-check fuzz

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
