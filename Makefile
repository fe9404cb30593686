# ThesisCheck build targets. `make run` and `make test` are the two that matter; both install missing
# system packages first (cgo for gojieba and Fyne's OpenGL driver need a C/C++ toolchain and X/GL
# headers, GUI tests need Xvfb, PDF report tests need poppler-utils, and qpdf to re-save a signed
# report the way a PDF tool does; the library tests start a redis-server of their own, to test the
# library on Redis).

SHELL := /usr/bin/env bash
GO ?= go
# gojieba is C++ behind cgo: CGO_ENABLED=0 does not compile.
export CGO_ENABLED := 1

BIN := bin/thesischeck
# The library the app opens in `make run`; empty means the sample library inside the binary
# (`thesischeck open --demo`: built once in the user's cache folder, its sample thesis checked).
DEMO_LIB ?=
FUZZTIME ?= 30s
TEST_FUZZTIME ?= 3s
FYNE_TOOLS := fyne.io/tools/cmd/fyne@v1.7.4
# The linter `make test` runs after go vet: dead code, simplifications and misuses vet does not look for.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
DEB_PACKAGES := gcc g++ pkg-config libgl1-mesa-dev xorg-dev xvfb x11-utils imagemagick poppler-utils qpdf python3 redis-server
# The GUI tests' screen: xvfb-run's default (640×480, 8-bit) is smaller than the window and has too
# few colours for the screenshot tests; the compare screen is photographed at 1920×1080 too.
XVFB_SCREEN := -screen 0 1920x1080x24
# Packages whose tests open windows: everything under ./ui.
GUI_PKG_RE := ^thesischeck/ui(/|$$)

.PHONY: all deps build run test eval archive bench fuzz package clean

all: build

# Installs only what dpkg says is missing, so it is quick and offline when nothing is.
deps:
	@missing=""; \
	for p in $(DEB_PACKAGES) $(EXTRA_PACKAGES); do dpkg -s "$$p" >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "deps: installing$$missing"; \
		if [ "$$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi; \
		$$sudo apt-get update && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	fi

build: deps
	$(GO) build -trimpath -o $(BIN) .

run: build
	./$(BIN) $(if $(DEMO_LIB),open --library $(DEMO_LIB),open --demo)

test: deps
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	@pkgs=$$($(GO) list ./... | grep -Ev '$(GUI_PKG_RE)' || true); \
	if [ -n "$$pkgs" ]; then echo "go test (core)"; $(GO) test $$pkgs; fi
	@echo "go test (third_party/pdf, our patched PDF reader)"; cd third_party/pdf && $(GO) test ./...
	@gui=$$($(GO) list ./... | grep -E '$(GUI_PKG_RE)' || true); \
	if [ -n "$$gui" ]; then echo "go test (GUI, under xvfb-run)"; xvfb-run -a -s "$(XVFB_SCREEN)" $(GO) test $$gui; fi
	scripts/fuzz.sh $(TEST_FUZZTIME)
	@if [ -d ../shared/devset ]; then \
		out=$$(mktemp -d); \
		EVAL_OUT=$$out $(MAKE) --no-print-directory eval && scripts/eval-redis.sh $(BIN) $$out && \
		EVAL_OUT=$$out $(MAKE) --no-print-directory archive; \
		status=$$?; rm -rf $$out; exit $$status; \
	fi

# Scores the built binary on ../shared/devset against the quality bars (scripts/eval.sh); make test
# then checks the same documents against libraries on Redis (scripts/eval-redis.sh): same figures.
eval: build
	scripts/eval.sh $(BIN)

# The thesis sets of ../shared/devset inside an archive of ARCHIVE_DOCS unrelated documents, as a
# school's library holds its theses: no template flagged, recall and precision as alone
# (scripts/archive.sh).
ARCHIVE_DOCS ?= 2000
archive: build
	scripts/archive.sh $(BIN) ../shared/devset $(ARCHIVE_DOCS)

# Go benchmarks, then scripts/bench.sh over generated libraries of BENCH_SIZES documents (import
# speed, check latency of 40 and 600 paragraphs and of a 300-page thesis PDF, open time, peak memory,
# size on disk, PDF extraction against pdftotext) and a class comparison of 1,000 submissions.
BENCH_SIZES ?= 1000 10000 100000
bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./...
	BENCH_SIZES="$(BENCH_SIZES)" scripts/bench.sh $(BIN)

fuzz:
	scripts/fuzz.sh $(FUZZTIME)

# Produces ThesisCheck.tar.xz (binary, icon, .desktop file) from FyneApp.toml.
package: deps
	$(GO) run $(FYNE_TOOLS) package --os linux --release

clean:
	rm -rf bin ThesisCheck.tar.xz
