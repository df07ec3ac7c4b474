# mk/fuzz.mk - coverage-guided fuzzing of every input surface (tb/fuzz/, docs/verification.md
# "Fuzzing"): libFuzzer through Debian's clang (libclang-rt-14-dev) with ASan + UBSan for the C
# readers and parsers, atheris (PyPI) for the Python importers and the test-file parser.
#
#   $(BUILD)/fuzz/obj/...            the project's C sources compiled with clang, -fsanitize=
#                                    fuzzer-no-link,address,undefined (own tree: the normal and
#                                    the -san builds are untouched)
#   $(BUILD)/fuzz/bin/fuzz_<h>       one libFuzzer binary per C harness tb/fuzz/fuzz_<h>.c
#   tb/fuzz/corpus/<h>/              seed corpus (small, in git); the working corpus that grows
#                                    is $(BUILD)/fuzz/corpus/<h>/
#   tb/fuzz/regress/<h>/             every input that once crashed or failed a harness check:
#                                    replayed by fuzz-quick and fuzz
## make fuzz                   every fuzz harness for FUZZ_SECONDS each (default: 1 h in total),
##                             nice -n15; report in $(BUILD)/fuzz/report.md
## make fuzz-quick             replay the seed corpora and regression inputs, then fuzz each harness
##                             a few seconds (< 60 s; part of make test)
FUZZ_CC     ?= clang-14
FUZZ_CXX    ?= clang++-14
FUZZ_SAN    := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all \
               -fno-omit-frame-pointer
FUZZ_CFLAGS := $(CSTD) $(WARN) -O1 -g $(INC) -Icosim $(FUZZ_SAN)
FUZZ_C_HARNESSES := trace_text trace_bin trace_xz config sim_args trace_args
FUZZ_PY_HARNESSES := accelsim nvbit testfile
FUZZ_HARNESSES := $(FUZZ_C_HARNESSES) $(FUZZ_PY_HARNESSES)
# 9 harnesses x 400 s = 1 h
FUZZ_SECONDS ?= 400
FUZZ_QUICK_SECONDS ?= 2
# (the source lists of the other fragments are not read yet: mk/fuzz.mk comes first)
FUZZ_SRC := $(wildcard common/*.c tools/trace/trace_*.c cmodel/*.c sw-handler/*.c) \
            $(filter-out cosim/sim_main.c,$(wildcard cosim/*.c)) host/host_drv.c
FUZZ_OBJ := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(FUZZ_SRC))
FUZZ_LIB := $(BUILD)/fuzz/libfuzzsrc.a
FUZZ_BINS := $(FUZZ_C_HARNESSES:%=$(BUILD)/fuzz/bin/fuzz_%)
# gmmu-sim's command line links the engines: the Verilator model of tiny (gcc-built, not
# instrumented) provides the RTL engine's symbols
FUZZ_VDUT := $(BUILD)/tiny/vdut/libvdut.a

# (GEN_FILES: second expansion; the TLB headers of mk/tlb.mk are
# added after this file is read)
.SECONDEXPANSION:
$(BUILD)/fuzz/obj/%.o: %.c | $$(GEN_FILES) $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@
-include $(shell find $(BUILD)/fuzz/obj -name '*.d' 2>/dev/null)

$(FUZZ_LIB): $(FUZZ_OBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/fuzz/bin/fuzz_%: $(BUILD)/fuzz/obj/tb/fuzz/fuzz_%.o $(FUZZ_LIB)
	@mkdir -p $(@D)
	$(FUZZ_CXX) $(FUZZ_SAN) -fsanitize=fuzzer $^ -lm -o $@
$(BUILD)/fuzz/bin/fuzz_sim_args: $(BUILD)/fuzz/obj/tb/fuzz/fuzz_sim_args.o $(FUZZ_LIB) $(FUZZ_VDUT)
	@mkdir -p $(@D)
	$(FUZZ_CXX) $(FUZZ_SAN) -fsanitize=fuzzer $^ $(VDUT_LDLIBS) -lm -o $@

FUZZ_RUN := $(PYTHON) tb/fuzz/run_fuzz.py --build $(BUILD) $(FUZZ_C_HARNESSES:%=--c %) \
            $(FUZZ_PY_HARNESSES:%=--py %)
FUZZ_PREREQ := $(FUZZ_BINS) $(BUILD)/lib/libgmmu_trace.so $(BUILD)/bin/gmmu-trace

.PHONY: fuzz fuzz-quick fuzz-bins
fuzz-bins: $(FUZZ_PREREQ)
fuzz: $(FUZZ_PREREQ)
	$(FUZZ_RUN) --seconds $(FUZZ_SECONDS) --nice 15
fuzz-quick: $(FUZZ_PREREQ)
	$(FUZZ_RUN) --seconds $(FUZZ_QUICK_SECONDS) --quick
# fuzz-quick: ~75 s (mostly the clang builds of the harnesses); in make test-full since 2026-11-28
# for make test's budget (the deterministic bad-input cases, test-badinput, stay in make test)
TEST_FULL_TARGETS += fuzz-quick
