# fuzz.mk — libFuzzer campaigns (included by the Makefile).
#
#   make fuzz FUZZ_SECONDS=600          every target in tests/fuzz/fuzz_*.c
#   make fuzz FUZZ=csv FUZZ_SECONDS=60  one target
#
# Each target is built with clang -fsanitize=fuzzer,address,undefined against a
# lib compiled the same way.  The working corpus grows in build-fuzz/corpus/<t>,
# seeded from tests/fuzz/corpus/<t>; crashing inputs land in build-fuzz/crashes/
# and must be copied to tests/fuzz/regress/<t>/ once fixed (make check replays
# them through the tools).  Results are appended to build-fuzz/fuzz.log.

FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FZ           := build-fuzz
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ         ?= $(FUZZ_TARGETS)
FUZZ_CFLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined
FUZZ_LIBOBJ  := $(patsubst lib/%.c,$(FZ)/lib/%.o,$(LIBSRC))

.PHONY: fuzz fuzz-build
$(FZ)/lib/%.o: lib/%.c lib/*.h
	@mkdir -p $(FZ)/lib
	$(FUZZ_CC) $(STD) $(CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<
$(FZ)/libslokit.a: $(FUZZ_LIBOBJ)
	ar rcs $@ $^
$(FZ)/fuzz_%: tests/fuzz/fuzz_%.c $(FZ)/libslokit.a
	$(FUZZ_CC) $(STD) $(CPPFLAGS) -O1 -g -fsanitize=fuzzer,address,undefined -o $@ $< $(FZ)/libslokit.a $(LDLIBS)

fuzz-build: deps $(addprefix $(FZ)/fuzz_,$(FUZZ))

fuzz: fuzz-build
	@mkdir -p $(FZ)/crashes
	@for t in $(FUZZ); do \
	  mkdir -p $(FZ)/corpus/$$t; \
	  echo "== fuzz $$t for $(FUZZ_SECONDS) s"; \
	  ASAN_OPTIONS=detect_leaks=1 ./$(FZ)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -close_fd_mask=3 \
	    -print_final_stats=1 -artifact_prefix=$(FZ)/crashes/$$t- \
	    $(FZ)/corpus/$$t tests/fuzz/corpus/$$t 2>$(FZ)/$$t.log; rc=$$?; \
	  grep -E '^stat::(number_of_executed_units|peak_rss_mb)|cov: ' $(FZ)/$$t.log | tail -3; \
	  echo "$$(date -u +%FT%TZ) $$t seconds=$(FUZZ_SECONDS) exit=$$rc $$(grep -o 'cov: [0-9]*' $(FZ)/$$t.log | tail -1) $$(grep '^stat::number_of_executed_units' $(FZ)/$$t.log)" >> $(FZ)/fuzz.log; \
	  [ $$rc = 0 ] || { echo "fuzz $$t: crash, see $(FZ)/crashes/ and $(FZ)/$$t.log"; exit 1; }; \
	done
