# dice: a dice-expression language. `make run` sets up and starts the REPL; `make test` runs every test.
SWIFT ?= swift
PREFIX ?= /usr/local
CONFORMANCE ?= ../shared/conformance/run.py
RELEASE_BIN = .build/release/dice

.PHONY: all build release run test unit-test conformance install uninstall check-install deps bench clean

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

build: deps
	$(SWIFT) build

# The standard library linked statically: the command starts in about 3 ms instead of 7.
release: deps
	$(SWIFT) build -c release --static-swift-stdlib

run: release
	@$(RELEASE_BIN)

# Unit, golden, property and CLI tests, then the public conformance cases against the release build.
test: deps unit-test check-install conformance

# A warning in the project's own code fails the build here (and so in CI). Both commands get
# the same flags, so `swift test` reuses the build instead of compiling everything again.
STRICT = -Xswiftc -warnings-as-errors

unit-test:
	$(SWIFT) build --build-tests $(STRICT)
	$(SWIFT) test $(STRICT)

conformance: release
	@if [ -f "$(CONFORMANCE)" ]; then \
		python3 "$(CONFORMANCE)" --dice $(RELEASE_BIN) --only exact,range,error,robust,cli,dist,sample; \
	else \
		echo "conformance: $(CONFORMANCE) not found; skipped"; \
	fi

# The command, its manual page and its completions for bash, zsh and fish, each where
# that tool looks under $(PREFIX)/share. `make uninstall` removes exactly these files.
MANDIR = $(PREFIX)/share/man/man1
BASH_COMPLETIONS = $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETIONS = $(PREFIX)/share/zsh/site-functions
FISH_COMPLETIONS = $(PREFIX)/share/fish/vendor_completions.d

install: release
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(MANDIR)" "$(DESTDIR)$(BASH_COMPLETIONS)" \
		"$(DESTDIR)$(ZSH_COMPLETIONS)" "$(DESTDIR)$(FISH_COMPLETIONS)"
	install -m 755 $(RELEASE_BIN) "$(DESTDIR)$(PREFIX)/bin/dice"
	install -m 644 man/dice.1 "$(DESTDIR)$(MANDIR)/dice.1"
	install -m 644 completions/dice.bash "$(DESTDIR)$(BASH_COMPLETIONS)/dice"
	install -m 644 completions/_dice "$(DESTDIR)$(ZSH_COMPLETIONS)/_dice"
	install -m 644 completions/dice.fish "$(DESTDIR)$(FISH_COMPLETIONS)/dice.fish"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/dice" "$(DESTDIR)$(MANDIR)/dice.1" \
		"$(DESTDIR)$(BASH_COMPLETIONS)/dice" "$(DESTDIR)$(ZSH_COMPLETIONS)/_dice" \
		"$(DESTDIR)$(FISH_COMPLETIONS)/dice.fish"

# `make install` into a temporary PREFIX, then: the manual page renders with `man -l`, each
# completion file loads and completes, `make uninstall` leaves nothing behind. A check whose
# tool is absent (man, bash-completion, zsh, fish) is skipped with a message.
check-install: release
	scripts/check-install

# dice against rolldice, dicelab, d20, icepool and dyce, side by side: writes bench/results.md
# (see bench/README.md). Python peers go into a throwaway venv under .build/bench-venv.
bench: release
	python3 bench/run --no-build

clean:
	$(SWIFT) package clean

# Fuzzing DiceKit with libFuzzer and AddressSanitizer (fuzz/run): `make fuzz` runs for
# FUZZ_SECONDS (default 10 minutes), `make fuzz-ci` a bounded one-minute run from the seeds.
FUZZ_SECONDS ?= 600
.PHONY: fuzz fuzz-ci

fuzz:
	fuzz/run $(FUZZ_SECONDS)

fuzz-ci:
	FUZZ_SECONDS=60 fuzz/run --ci

# The grammar-aware program generator (Tests/DiceKitTests/Properties/ProgramPropertyTests.swift)
# over DICE_PROGRAMS programs in an optimized test build; `make test` runs 2,000 of them.
DICE_PROGRAMS ?= 300000
.PHONY: fuzz-programs

fuzz-programs: deps
	DICE_PROGRAMS=$(DICE_PROGRAMS) $(SWIFT) test -c release -Xswiftc -enable-testing \
		--scratch-path .build/programs --filter ProgramPropertyTests
