# fuzz.mk — fuzzing campaigns (included by the Makefile).
#
#   make fuzz FUZZ_SECONDS=600            every target, one after the other
#   make fuzz FUZZ=csv FUZZ_SECONDS=60    some targets (names from both lists below)
#   make fuzz-build                       only build the fuzzers
#
# Two kinds of target:
# - libFuzzer, tests/fuzz/fuzz_<t>.c: clang -fsanitize=fuzzer,address,undefined
#   against a lib compiled the same way, in build-fuzz/.  Working corpus in
#   build-fuzz/corpus/<t>, seeded from tests/fuzz/corpus/<t>; crashes land in
#   build-fuzz/crashes/.
# - AFL++, one line NAME|COMMAND of tests/fuzz/afl.targets: the real tool
#   binary, built with afl-clang-fast plus ASan and UBSan into build-afl/bin,
#   fed a file (@@) that AFL mutates from tests/fuzz/corpus/NAME/.  Output
#   (queue, crashes, hangs, fuzzer_stats) in build-afl/out/NAME/; a second run
#   resumes (AFL_AUTORESUME).
# Every finding must be kept under tests/fuzz/regress/<tool>/; make check
# replays them through the tools (tests/cli/fuzz_regress.sh).  One summary
# line per run is appended to build-fuzz/fuzz.log or build-afl/fuzz.log.

FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FZ           := build-fuzz
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
AFL_TARGETS  := $(shell sed -n 's/^\([a-z][a-z0-9-]*\)|.*/\1/p' tests/fuzz/afl.targets 2>/dev/null)
FUZZ         ?= $(FUZZ_TARGETS) $(AFL_TARGETS)
FUZZ_LF      := $(filter $(FUZZ_TARGETS),$(FUZZ))
FUZZ_AFL     := $(filter $(AFL_TARGETS),$(FUZZ))
FUZZ_LF_OPTS ?= -timeout=60 -rss_limit_mb=2048
# Leaks stop a libFuzzer run at once; FUZZ_ASAN_OPTIONS=detect_leaks=0 plus
# FUZZ_LF_OPTS+=-detect_leaks=0 keep fuzzing past a known leak.
FUZZ_ASAN_OPTIONS ?= detect_leaks=1
FUZZ_CFLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined
FUZZ_LIBOBJ  := $(patsubst lib/%.c,$(FZ)/lib/%.o,$(LIBSRC))

.PHONY: fuzz fuzz-build fuzz-lf fuzz-afl
$(FZ)/lib/%.o: lib/%.c $(LIBHDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(STD) $(CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<
$(FZ)/libslokit.a: $(FUZZ_LIBOBJ)
	ar rcs $@ $^
$(FZ)/fuzz_%: tests/fuzz/fuzz_%.c $(FZ)/libslokit.a
	$(FUZZ_CC) $(STD) $(CPPFLAGS) -O1 -g -fsanitize=fuzzer,address,undefined -o $@ $< $(FZ)/libslokit.a $(LDLIBS)

# ---- AFL++ ------------------------------------------------------------------
AFL          := build-afl
AFL_CC       ?= afl-clang-fast
AFL_ENV      := AFL_USE_ASAN=1 AFL_USE_UBSAN=1 AFL_QUIET=1
AFL_CFLAGS   := -O1 -g -fno-omit-frame-pointer
AFL_LIBOBJ   := $(patsubst lib/%.c,$(AFL)/lib/%.o,$(LIBSRC))
AFL_TOOLS    := $(sort $(foreach t,$(FUZZ_AFL),$(shell sed -n 's/^$(t)|\([a-z]*\).*/\1/p' tests/fuzz/afl.targets)))

$(AFL)/lib/%.o: lib/%.c $(LIBHDR)
	@mkdir -p $(dir $@)
	$(AFL_ENV) $(AFL_CC) $(STD) $(CPPFLAGS) -DSLOKIT_VERSION='"$(VERSION)"' $(AFL_CFLAGS) -c -o $@ $<
$(AFL)/libslokit.a: $(AFL_LIBOBJ)
	ar rcs $@ $^
$(AFL)/bin/%: cmd/%.c $(AFL)/libslokit.a $(LIBHDR)
	@mkdir -p $(AFL)/bin
	$(AFL_ENV) $(AFL_CC) $(STD) $(CPPFLAGS) $(AFL_CFLAGS) -o $@ $< $(AFL)/libslokit.a $(LDLIBS)

fuzz-build: deps $(addprefix $(FZ)/fuzz_,$(FUZZ_LF)) $(addprefix $(AFL)/bin/,$(AFL_TOOLS))

fuzz: fuzz-build
	@$(MAKE) --no-print-directory fuzz-lf fuzz-afl FUZZ="$(FUZZ)" FUZZ_SECONDS=$(FUZZ_SECONDS)

fuzz-lf:
	@mkdir -p $(FZ)/crashes
	@for t in $(FUZZ_LF); do \
	  mkdir -p $(FZ)/corpus/$$t; \
	  echo "== fuzz $$t (libFuzzer) for $(FUZZ_SECONDS) s"; \
	  ASAN_OPTIONS=$(FUZZ_ASAN_OPTIONS) ./$(FZ)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -close_fd_mask=3 $(FUZZ_LF_OPTS) \
	    -print_final_stats=1 -artifact_prefix=$(FZ)/crashes/$$t- \
	    $(FZ)/corpus/$$t tests/fuzz/corpus/$$t 2>$(FZ)/$$t.log; rc=$$?; \
	  grep -E '^stat::(number_of_executed_units|peak_rss_mb)|cov: ' $(FZ)/$$t.log | tail -3; \
	  echo "$$(date -u +%FT%TZ) $$t seconds=$(FUZZ_SECONDS) exit=$$rc $$(grep -o 'cov: [0-9]*' $(FZ)/$$t.log | tail -1) $$(grep '^stat::number_of_executed_units' $(FZ)/$$t.log)" >> $(FZ)/fuzz.log; \
	  [ $$rc = 0 ] || { echo "fuzz $$t: crash, see $(FZ)/crashes/ and $(FZ)/$$t.log"; exit 1; }; \
	done

# fuzz-afl: each AFL target for FUZZ_SECONDS (-V); fails at the end when any
# target saved a crash or a hang (listed with the command to reproduce).
fuzz-afl:
	@bad=0; for t in $(FUZZ_AFL); do \
	  bash tests/fuzz/afl-run.sh "$$t" $(FUZZ_SECONDS) $(AFL) || bad=1; \
	done; exit $$bad
