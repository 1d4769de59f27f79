# slokit — build, test, bench and install.
#
#   make            build every tool into build/bin (fails early if a dependency is missing)
#   make deps       install the Debian packages the build, tests and benches need
#   make check      build (normal + ASan/UBSan) and run the whole test suite
#   make check-engines   the Slurm and ssh tests alone (root, network namespaces)
#   make bench      run every benchmark in bench/ (prints ratios, asserts nothing)
#   make lint       cppcheck + clang-tidy;  make arch  the architecture targets
#   make compile_commands.json   for editors and clang-tidy (bear)
#   make install PREFIX=/usr/local DESTDIR=
#
# Tools, lib modules, unit tests, CLI tests and benches are discovered by
# file name: cmd/<tool>.c, lib/<system>/*.c, tests/unit/*.c, tests/cli/*.sh, bench/*.sh.
# Header dependencies come from the compiler (-MMD), so editing a header
# rebuilds exactly what includes it.

PREFIX   ?= /usr/local
DESTDIR  ?=
CC       ?= gcc
OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
WARN     := -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes \
            -Wmissing-prototypes -Wpointer-arith -Wundef -Wvla \
            -Wno-unused-parameter -Werror
CPPFLAGS += -Ilib -D_GNU_SOURCE
DEPFLAGS := -MMD -MP
STD      := -std=c11
LDLIBS   := -lglpk -lfftw3 -lcsv -lz -lzstd -lm
VERSION  := $(shell cat VERSION 2>/dev/null || echo 0.1.0)

# Debian packages: what builds, what the tests use, what the benches compare against.
DEPS_BUILD := gcc make libglpk-dev libfftw3-dev libcsv-dev zlib1g-dev libzstd-dev
DEPS_TEST  := glpk-utils gnuplot-nox parallel python3 python3-numpy python3-scipy gawk mawk valgrind time bsdextrautils strace locales
# the real engines tests/cli/engines.sh starts (a Slurm cluster, sshd hosts)
DEPS_TEST  += slurm-wlm munge openssh-server openssh-client rsync iproute2 zstd
DEPS_BENCH := miller datamash python3-sklearn hyperfine
DEPS_FUZZ  := clang libclang-rt-14-dev afl++
DEPS_LINT  := bear cppcheck clang-tidy clang-format universal-ctags
DEPS_ALL   := $(DEPS_BUILD) $(DEPS_TEST) $(DEPS_BENCH) $(DEPS_FUZZ) $(DEPS_LINT)

TOOLS    := $(sort $(basename $(notdir $(wildcard cmd/*.c))))
LIBSRC   := $(sort $(wildcard lib/*/*.c))
LIBHDR   := $(sort $(wildcard lib/*/*.h))
UNITSRC  := $(sort $(wildcard tests/unit/*.c))

B        := build
BA       := build-asan
ASANFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

.PHONY: all tools asan deps depcheck check check-fast check-engines bench install uninstall clean valgrind fuzz run lint format-check arch
.DEFAULT_GOAL := all

# run and check build on every CPU unless make itself was given -j.
SUBJOBS   = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 1))

all: tools $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNITSRC))
tools: depcheck $(addprefix $(B)/bin/,$(TOOLS))
asan: depcheck $(addprefix $(BA)/bin/,$(TOOLS)) $(patsubst tests/unit/%.c,$(BA)/tests/%,$(UNITSRC))

# ---- dependencies -----------------------------------------------------------
# depcheck fails before any compiler error when a header or library is missing.
depcheck:
	@missing=""; \
	for h in glpk.h fftw3.h csv.h argp.h zlib.h zstd.h; do \
	  printf '#include <%s>\n' $$h | $(CC) $(CPPFLAGS) -E -x c - >/dev/null 2>&1 || missing="$$missing $$h"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "slokit: missing headers:$$missing" >&2; \
	  echo "slokit: install them with: make deps   (or: sudo apt-get install -y $(DEPS_BUILD))" >&2; \
	  exit 1; fi

# deps installs only what is missing, so it is cheap to run every time.
deps:
	@need=""; for p in $(DEPS_ALL); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || need="$$need $$p"; \
	done; \
	if [ -z "$$need" ]; then echo "deps: all Debian packages present"; exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
	  echo "deps: installing$$need"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$need >/dev/null || exit 1; \
	else \
	  echo "deps: run as root: apt-get install -y$$need" >&2; exit 1; \
	fi

# ---- normal build -----------------------------------------------------------
LIBOBJ   := $(patsubst lib/%.c,$(B)/lib/%.o,$(LIBSRC))
LIBOBJ_A := $(patsubst lib/%.c,$(BA)/lib/%.o,$(LIBSRC))

$(B)/lib/%.o: lib/%.c
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(CPPFLAGS) $(DEPFLAGS) -DSLOKIT_VERSION='"$(VERSION)"' $(CFLAGS) $(WARN) -c -o $@ $<
$(B)/libslokit.a: $(LIBOBJ)
	ar rcs $@ $^
$(B)/bin/%: cmd/%.c $(B)/libslokit.a | $(B)/bin
	$(CC) $(STD) $(CPPFLAGS) $(DEPFLAGS) -MF $(B)/deps/$(notdir $@).d $(CFLAGS) $(WARN) -o $@ $< $(B)/libslokit.a $(LDLIBS)
$(B)/tests/%: tests/unit/%.c $(B)/libslokit.a | $(B)/tests
	$(CC) $(STD) $(CPPFLAGS) $(DEPFLAGS) -MF $(B)/deps/$(notdir $@).d $(CFLAGS) $(WARN) -o $@ $< $(B)/libslokit.a $(LDLIBS)

# ---- sanitizer build (AddressSanitizer + UBSan) -----------------------------
$(BA)/lib/%.o: lib/%.c
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(CPPFLAGS) $(DEPFLAGS) -DSLOKIT_VERSION='"$(VERSION)"' $(ASANFLAGS) $(WARN) -c -o $@ $<
$(BA)/libslokit.a: $(LIBOBJ_A)
	ar rcs $@ $^
$(BA)/bin/%: cmd/%.c $(BA)/libslokit.a | $(BA)/bin
	$(CC) $(STD) $(CPPFLAGS) $(DEPFLAGS) -MF $(BA)/deps/$(notdir $@).d $(ASANFLAGS) $(WARN) -o $@ $< $(BA)/libslokit.a $(LDLIBS)
$(BA)/tests/%: tests/unit/%.c $(BA)/libslokit.a | $(BA)/tests
	$(CC) $(STD) $(CPPFLAGS) $(DEPFLAGS) -MF $(BA)/deps/$(notdir $@).d $(ASANFLAGS) $(WARN) -o $@ $< $(BA)/libslokit.a $(LDLIBS)

$(B)/bin $(B)/tests $(BA)/bin $(BA)/tests:
	mkdir -p $@ $(dir $@)deps

# The compiler's own header dependencies (written by -MMD beside each object).
-include $(shell find $(B) $(BA) -name '*.d' 2>/dev/null)

# ---- tests, benches ---------------------------------------------------------
# check: the whole suite, once on the -O2 build and once under ASan+UBSan.
check: deps
	$(MAKE) $(SUBJOBS) all asan
	LC_ALL=C bash tests/run.sh

# check-fast: the -O2 build only, for the edit-compile-test loop.
check-fast: all
	LC_ALL=C SLOKIT_BUILDS=$(B) bash tests/run.sh

# check-engines: only the real-engine tests (a Slurm cluster and sshd hosts in
# network namespaces; skipped, and counted so, without root).  make check
# runs them too, on the -O2 build (tests/cli/engines.sh says why).
check-engines: all
	LC_ALL=C SLOKIT_BUILDS=$(B) SLOKIT_ONLY=engines bash tests/run.sh

valgrind: all
	LC_ALL=C SLOKIT_BUILDS=$(B) SLOKIT_WRAP="valgrind -q --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect --error-exitcode=99" bash tests/run.sh

bench: all
	LC_ALL=C SLOKIT_BUILD=$(B) bash bench/run.sh $(BENCH)

# run: the main job on the shipped example telemetry (installs and builds as needed).
run: deps
	$(MAKE) $(SUBJOBS) tools
	SLOKIT_BIN=$(CURDIR)/$(B)/bin bash examples/nightly-plan.sh examples/telemetry $(B)/nightly-state

# ---- code habits -------------------------------------------------------------
# compile_commands.json: the compiler's view of every file (bear records a
# full build in a scratch directory), for editors and clang-tidy.
compile_commands.json: $(LIBSRC) $(LIBHDR) $(wildcard cmd/*.c tests/unit/*.c) Makefile
	rm -rf build-bear
	bear --output $@ -- $(MAKE) --no-print-directory B=build-bear all >/dev/null
	rm -rf build-bear
	@# tools compile and link in one command: drop the link inputs (the
	@# library archive, -l flags), which clang-tidy would try to read
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); \
	  [e.__setitem__("arguments", [a for a in e["arguments"] if not a.endswith(".a") and not a.startswith("-l")]) for e in d if "arguments" in e]; \
	  json.dump(d, open(sys.argv[1], "w"), indent=1)' $@

# lint: cppcheck and clang-tidy (checks and the reasons for what is off are in
# .clang-tidy; cppcheck's false positives, each explained, in .lint/).
# Fails when either reports a finding.
lint: compile_commands.json
	cppcheck -q --enable=warning,portability,performance --std=c11 -Ilib -D_GNU_SOURCE \
	  --inline-suppr --suppressions-list=.lint/cppcheck.supp --error-exitcode=1 lib cmd
	@out=$$(clang-tidy -p . --quiet $(LIBSRC) $(wildcard cmd/*.c) 2>/dev/null | grep -E '(warning|error):'); \
	if [ -n "$$out" ]; then printf '%s\n' "$$out"; echo "lint: $$(printf '%s\n' "$$out" | wc -l) clang-tidy findings"; exit 1; fi; \
	echo "lint: clean"

# arch: the architecture targets (cmd/ share of the lines, function length,
# one exit path per main), measured by tests/check/arch_targets.py.
arch:
	python3 tests/check/arch_targets.py

# format-check: changed C lines that .clang-format would lay out differently
# (the tree is not reformatted wholesale; new code follows it).
format-check:
	git clang-format --diff --quiet HEAD -- '*.c' '*.h' || true

# ---- install ----------------------------------------------------------------
# IBIN: the binaries installed (the suite's install test gives the build it tests)
IBIN ?= $(B)/bin
# EXLIB: the scripts of examples/ that are sourced, not run (installed 644)
EXLIB := examples/common.sh examples/shardlib.sh
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man7
	install -m 755 $(addprefix $(IBIN)/,$(TOOLS)) $(DESTDIR)$(PREFIX)/bin/
	for m in man/*.1; do [ -e "$$m" ] && install -m 644 "$$m" $(DESTDIR)$(PREFIX)/share/man/man1/; done; true
	for m in man/*.7; do [ -e "$$m" ] && install -m 644 "$$m" $(DESTDIR)$(PREFIX)/share/man/man7/; done; true
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 contrib/slokit.bash-completion $(DESTDIR)$(PREFIX)/share/bash-completion/completions/slokit
	for t in $(TOOLS); do ln -sf slokit $(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$t; done
	# the scripts of examples/ (the nightly plan for cron, the evaluations,
	# the trace adapters) with their sample telemetry, as Debian ships examples
	install -d $(DESTDIR)$(PREFIX)/share/slokit/examples/telemetry $(DESTDIR)$(PREFIX)/share/slokit/examples/slurm
	install -m 755 $(filter-out $(EXLIB),$(wildcard examples/*.sh)) $(DESTDIR)$(PREFIX)/share/slokit/examples/
	install -m 644 $(EXLIB) $(DESTDIR)$(PREFIX)/share/slokit/examples/
	install -m 644 examples/telemetry/* $(DESTDIR)$(PREFIX)/share/slokit/examples/telemetry/
	install -m 755 examples/slurm/*.sh $(DESTDIR)$(PREFIX)/share/slokit/examples/slurm/
	install -m 644 examples/slurm/README.md $(DESTDIR)$(PREFIX)/share/slokit/examples/slurm/

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/bin/,$(TOOLS)) $(patsubst %,$(DESTDIR)$(PREFIX)/share/man/man1/%.1,$(TOOLS))
	rm -f $(DESTDIR)$(PREFIX)/share/man/man7/slokit.7 $(DESTDIR)$(PREFIX)/share/bash-completion/completions/slokit
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/share/bash-completion/completions/,$(TOOLS))
	rm -rf $(DESTDIR)$(PREFIX)/share/slokit

clean:
	rm -rf $(B) $(BA) build-fuzz build-bear tests/out compile_commands.json

-include fuzz.mk
