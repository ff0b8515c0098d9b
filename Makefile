# dice: a dice-expression language. `make run` sets up and starts the REPL; `make test` runs every test.
SWIFT ?= swift
PREFIX ?= /usr/local
CONFORMANCE ?= ../shared/conformance/run.py
RELEASE_BIN = .build/release/dice

.PHONY: all build release startup-order run test unit-test conformance install uninstall check-install docs docs-check public-api-check deps bench clean

all: build

# libedit-dev and pkg-config: installed with apt-get when missing and possible.
deps:
	@if pkg-config --exists libedit 2>/dev/null; then :; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
		echo "Installing libedit-dev and pkg-config..."; \
		(apt-get install -y -qq libedit-dev pkg-config >/dev/null 2>&1 || \
		 (apt-get update -qq && apt-get install -y -qq libedit-dev pkg-config >/dev/null)) ; \
	elif command -v apt-get >/dev/null 2>&1 && command -v sudo >/dev/null 2>&1; then \
		echo "Installing libedit-dev and pkg-config with sudo..."; \
		sudo apt-get install -y libedit-dev pkg-config; \
	else \
		echo "libedit is missing. Install it, then run make again:"; \
		echo "    sudo apt-get install libedit-dev pkg-config     (Debian, Ubuntu)"; \
		echo "    brew install libedit pkg-config                (macOS)"; \
		exit 1; \
	fi

# A warning in the project's own code fails the build (and so CI). `make build`, `make test`
# and `make docs` build with the same flags, so each reuses what the last one compiled.
STRICT = -Xswiftc -warnings-as-errors

build: deps
	$(SWIFT) build $(STRICT)

# On Linux one static executable: the Swift runtime, libedit (with what it needs, from
# pkg-config) and the C library linked in, so nothing is loaded at start-up. `dice -e 1d20`
# then runs in about 1.4 ms here, against 3 ms with only the Swift standard library static
# and 7 ms with nothing static. getpwnam_r and dlopen in a static program need the same glibc
# at run time (libedit's `~user` completion, the Swift runtime's optional prespecializations;
# gold says so in warnings, lld does not): harmless where it was built. Without static
# libraries (or off Linux) only the standard library is linked statically.
STATIC_LINK = -Xswiftc -static-executable \
	$(patsubst %,-Xlinker %,$(shell pkg-config --static --libs-only-l libedit libbsd 2>/dev/null))

# Start-up layout, when the toolchain has lld: most of a short command's millisecond is the
# kernel mapping pages of the executable, one page fault per first touch of a 64 KB stretch.
# Functions get sections of their own and lld lays out what short commands touch side by
# side, in the order of scripts/startup.order (written by scripts/make-startup-order.py).
# (Package.swift gives concrete generic types metadata accessors, so no demangler code and
# tables are touched.) `dice --stats -e 3d6`: 131 page faults -> about 80.
LLD = $(shell command -v ld.lld 2>/dev/null || ls "$$(dirname "$$(readlink -f "$$(command -v $(SWIFT))")")/ld.lld" 2>/dev/null)
STARTUP_LAYOUT = -Xswiftc -Xfrontend -Xswiftc -function-sections \
	-Xswiftc -use-ld=lld -Xlinker --symbol-ordering-file=$(CURDIR)/scripts/startup.order \
	-Xlinker --no-warn-symbol-ordering

release: deps
	@# SwiftPM does not know the order file is an input of the link.
	@if [ scripts/startup.order -nt $(RELEASE_BIN) ]; then rm -f $(RELEASE_BIN); fi
	@if [ "$$(uname -s)" = Linux ] && [ -n "$(LLD)" ] && \
		$(SWIFT) build -c release --static-swift-stdlib $(STATIC_LINK) $(STARTUP_LAYOUT); then :; \
	elif [ "$$(uname -s)" = Linux ] && $(SWIFT) build -c release --static-swift-stdlib $(STATIC_LINK); then :; \
	else \
		echo "release: no fully static executable; linking only the Swift standard library statically"; \
		$(SWIFT) build -c release --static-swift-stdlib; \
	fi

# Re-traces scripts/startup.order from the release build (needs valgrind), then relinks.
startup-order: release
	python3 scripts/make-startup-order.py
	@$(MAKE) --no-print-directory release

run: release
	@$(RELEASE_BIN)

# Unit, golden, property and CLI tests; the documentation builds (when docc is there); the
# installed files work; then the outside conformance cases, when ../shared/conformance is there
# (less those a later part of the contract replaced: scripts/conformance-superseded.txt).
test: deps unit-test docs-check check-install conformance

unit-test:
	$(SWIFT) build --build-tests $(STRICT)
	$(SWIFT) test $(STRICT)

conformance: release
	@if [ -f "$(CONFORMANCE)" ]; then \
		awk 'NR == FNR { if ($$0 !~ /^#/ && NF) skip["\"" $$1 "\""] = 1; next } \
			{ match($$0, /"id":"[^"]*"/); id = substr($$0, RSTART + 5, RLENGTH - 5); if (!(id in skip)) print }' \
			scripts/conformance-superseded.txt "$(CONFORMANCE:run.py=cases.jsonl)" > .build/conformance-cases.jsonl && \
		python3 "$(CONFORMANCE)" --dice $(RELEASE_BIN) --cases .build/conformance-cases.jsonl \
			--only exact,range,error,robust,cli,dist,sample && \
		python3 "$(CONFORMANCE)" --dice $(RELEASE_BIN) --cases "$(dir $(CONFORMANCE))next.jsonl" && \
		python3 "$(CONFORMANCE)" --dice $(RELEASE_BIN) --cases "$(dir $(CONFORMANCE))outcomes.jsonl"; \
	else \
		echo "conformance: $(CONFORMANCE) not found; skipped (optional: the outside runner of the shared cases)"; \
	fi

# DiceKit's documentation: symbol graphs extracted by the compiler from the module `make build`
# compiled (no second build), and the catalog Sources/DiceKit/Documentation.docc, converted
# by the toolchain's docc into .build/docs/DiceKit.doccarchive. A broken link fails it.
DOCS_DIR = .build/docs
DOCC ?= $(shell d="$$(dirname "$$(realpath "$$(command -v $(SWIFT))" 2>/dev/null)" 2>/dev/null)"; \
	if [ -x "$$d/docc" ]; then echo "$$d/docc"; elif command -v docc >/dev/null 2>&1; then command -v docc; \
	elif command -v xcrun >/dev/null 2>&1; then xcrun --find docc 2>/dev/null; fi)

docs: deps
	@test -n "$(DOCC)" || { echo "docs: docc not found (it comes with the Swift toolchain, beside swift)"; exit 1; }
	$(SWIFT) build $(STRICT) --target DiceKit
	rm -rf $(DOCS_DIR) && mkdir -p $(DOCS_DIR)/symbol-graphs
	$(SWIFT) symbolgraph-extract -module-name DiceKit -minimum-access-level public \
		-I "$$($(SWIFT) build $(STRICT) --show-bin-path)/Modules" \
		-target "$$($(SWIFT) -print-target-info | sed -n 's/.*"triple": *"\([^"]*\)".*/\1/p' | head -n 1)" \
		-output-dir $(DOCS_DIR)/symbol-graphs
	"$(DOCC)" convert Sources/DiceKit/Documentation.docc --additional-symbol-graph-dir $(DOCS_DIR)/symbol-graphs \
		--fallback-display-name DiceKit --fallback-bundle-identifier dice.DiceKit \
		--disable-parameters-and-returns-validation --warnings-as-errors \
		--output-path $(DOCS_DIR)/DiceKit.doccarchive
	@echo "docs: $(DOCS_DIR)/DiceKit.doccarchive (browse: $(DOCC) preview Sources/DiceKit/Documentation.docc --additional-symbol-graph-dir $(DOCS_DIR)/symbol-graphs)"

# The library's examples (README.md and the DocC articles, as DocSnippets copies them) and the
# tests that use DiceKit as a bot would, type-checked outside the package: no `package`
# declaration is in their reach there, so they compile with the public API alone.
SWIFTC ?= $(SWIFT)c
PUBLIC_API_FILES = Tests/DiceKitTests/Docs/DocSnippets.swift Tests/DiceKitTests/Docs/DocOutput.swift \
	Tests/DiceKitTests/Session/LibraryExampleTests.swift Tests/DiceKitTests/Session/SessionConcurrencyTests.swift \
	Tests/DiceKitTests/Support/Value+Testing.swift

public-api-check: deps
	$(SWIFT) build $(STRICT) --target DiceKit
	$(SWIFTC) -typecheck -swift-version 6 -I "$$($(SWIFT) build $(STRICT) --show-bin-path)/Modules" $(PUBLIC_API_FILES)

# `make docs` in `make test`, skipped with a message where the toolchain has no docc; and
# the examples against the public API.
docs-check: public-api-check
	@scripts/check-layout
	@if [ -n "$(DOCC)" ]; then $(MAKE) --no-print-directory docs; else echo "docs: docc not found; skipped"; fi

# The command (stripped of symbols and debug information: 10 MB instead of 25), its manual
# page dice(1), the language reference dice-language(7) (made from README.md by
# scripts/make-language-page), the example scripts (executable: each is a program) and the
# completions for bash, zsh and fish, each where its tool looks under $(PREFIX)/share. The
# pages name the examples' directory under $(PREFIX). The directories install creates are
# listed in $(DOCDIR)/directories; `make uninstall` removes exactly the files it installed,
# then those directories that are left empty.
MANDIR = $(PREFIX)/share/man/man1
MAN7DIR = $(PREFIX)/share/man/man7
DOCDIR = $(PREFIX)/share/doc/dice
EXAMPLESDIR = $(DOCDIR)/examples
BASH_COMPLETIONS = $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETIONS = $(PREFIX)/share/zsh/site-functions
FISH_COMPLETIONS = $(PREFIX)/share/fish/vendor_completions.d
INSTALL_DIRS = $(PREFIX)/bin $(MANDIR) $(MAN7DIR) $(EXAMPLESDIR) $(BASH_COMPLETIONS) $(ZSH_COMPLETIONS) $(FISH_COMPLETIONS)
EXAMPLES = $(notdir $(wildcard examples/*.dice))
PAGE_PATHS = sed 's|/usr/local/share/doc/dice|$(PREFIX)/share/doc/dice|g'

install: release
	@created=""; for dir in $(INSTALL_DIRS); do \
		path="$(DESTDIR)$$dir"; \
		while [ -n "$$path" ] && [ ! -d "$$path" ]; do \
			created="$$created$${path#"$(DESTDIR)"}\n"; parent=$${path%/*}; \
			if [ "$$parent" = "$$path" ]; then break; fi; path=$$parent; \
		done; \
	done; \
	install -d $(foreach dir,$(INSTALL_DIRS),"$(DESTDIR)$(dir)"); \
	{ cat "$(DESTDIR)$(DOCDIR)/directories" 2>/dev/null || true; printf '%b' "$$created"; } | sort -u \
		> "$(DESTDIR)$(DOCDIR)/directories.new"; \
	mv "$(DESTDIR)$(DOCDIR)/directories.new" "$(DESTDIR)$(DOCDIR)/directories"
	install -m 755 -s $(RELEASE_BIN) "$(DESTDIR)$(PREFIX)/bin/dice"
	$(PAGE_PATHS) man/dice.1 > "$(DESTDIR)$(MANDIR)/dice.1" && chmod 644 "$(DESTDIR)$(MANDIR)/dice.1"
	$(PAGE_PATHS) man/dice-language.7 > "$(DESTDIR)$(MAN7DIR)/dice-language.7" && chmod 644 "$(DESTDIR)$(MAN7DIR)/dice-language.7"
	install -m 755 $(addprefix examples/,$(EXAMPLES)) "$(DESTDIR)$(EXAMPLESDIR)"
	install -m 644 completions/dice.bash "$(DESTDIR)$(BASH_COMPLETIONS)/dice"
	install -m 644 completions/_dice "$(DESTDIR)$(ZSH_COMPLETIONS)/_dice"
	install -m 644 completions/dice.fish "$(DESTDIR)$(FISH_COMPLETIONS)/dice.fish"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/dice" "$(DESTDIR)$(MANDIR)/dice.1" "$(DESTDIR)$(MAN7DIR)/dice-language.7" \
		$(foreach example,$(EXAMPLES),"$(DESTDIR)$(EXAMPLESDIR)/$(example)") \
		"$(DESTDIR)$(BASH_COMPLETIONS)/dice" "$(DESTDIR)$(ZSH_COMPLETIONS)/_dice" \
		"$(DESTDIR)$(FISH_COMPLETIONS)/dice.fish"
	@dirs=$$(sort -r "$(DESTDIR)$(DOCDIR)/directories" 2>/dev/null || true); \
	rm -f "$(DESTDIR)$(DOCDIR)/directories"; \
	printf '%s\n' "$$dirs" | while IFS= read -r dir; do \
		[ -z "$$dir" ] || rmdir "$(DESTDIR)$$dir" 2>/dev/null || true; \
	done

# `make install` into a temporary PREFIX, then: the manual page renders with `man -l`, each
# completion file loads and completes, `make uninstall` leaves nothing behind. A check whose
# tool is absent (man, bash-completion, zsh, fish) is skipped with a message.
check-install: release
	scripts/check-install

# dice against rolldice, dicelab, d20, icepool and dyce, side by side: writes bench/results.md
# (see bench/README.md). Python peers go into a throwaway venv under .build/bench-venv.
# bench/run builds `make release` and DiceBench itself.
bench:
	python3 bench/run

clean:
	$(SWIFT) package clean

# Fuzzing with libFuzzer and AddressSanitizer (fuzz/run): the language (fuzz-dice) and the
# command's input paths (fuzz-cli: options, scripts, REPL commands, log, history, widths).
# `make fuzz` runs each for FUZZ_SECONDS (default 10 minutes), one after the other
# (FUZZ_TARGET=dice or cli: that one only), `make fuzz-ci` each for 45 s from the seeds.
FUZZ_SECONDS ?= 600
.PHONY: fuzz fuzz-ci

fuzz:
	fuzz/run $(FUZZ_SECONDS)

fuzz-ci:
	FUZZ_SECONDS=45 fuzz/run --ci

# The grammar-aware program generator (Tests/DiceKitTests/Properties/ProgramPropertyTests.swift)
# over DICE_PROGRAMS programs in an optimized test build; `make test` runs 2,000 of them.
DICE_PROGRAMS ?= 300000
.PHONY: fuzz-programs

fuzz-programs: deps
	DICE_PROGRAMS=$(DICE_PROGRAMS) $(SWIFT) test -c release -Xswiftc -enable-testing \
		--scratch-path .build/programs --filter ProgramPropertyTests
