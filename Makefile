# Top-level Makefile. Each area owns a fragment in mk/ and appends its test targets to
# TEST_TARGETS. Common variables are defined here.
SHELL := /bin/bash
.DEFAULT_GOAL := help

CONFIG ?= default
TEST   ?= replay
ENGINE ?= cosim
SEED   ?= 1
WAVES  ?= 0
TRACE  ?=
PYTHON ?= python3

BUILD  := build
CC     ?= gcc
CXX    ?= g++
CSTD   := -std=c11
WARN   := -Wall -Wextra -Werror
OPT    ?= -O2 -g
SAN    := -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all
INC    := -Icommon -Icmodel/include -Icmodel/gen -Icosim -Ihost -Isw-handler/include -Itools/trace
CFLAGS_COMMON := $(CSTD) $(WARN) $(OPT) $(INC)

GEN_PKG := rtl/gen/gmmu_pkg.sv
GEN_CONSTS_H := cmodel/gen/gmmu_consts.h
GEN_PARAMS_H := cmodel/gen/gmmu_params.h
GEN_PARAMS_SVH := rtl/gen/gmmu_params_check.svh
GEN_REGMAP_MD := docs/gen/regmap.md
GEN_PARAMS_MD := docs/gen/params.md
GEN_SV := $(GEN_PKG) $(GEN_PARAMS_SVH)
GEN_H  := $(GEN_CONSTS_H) $(GEN_PARAMS_H)
GEN_MD := $(GEN_REGMAP_MD) $(GEN_PARAMS_MD)
SPEC_FILES := spec/gmmu.toml spec/gmmu.rdl spec/params.toml
SPEC_GEN_PY := scripts/gen_consts.py scripts/spec_params.py scripts/spec_rdl.py

TEST_TARGETS :=
# the slower checks make test leaves out for its 15-minute budget (make test-full runs them too)
TEST_FULL_TARGETS := cosim-regress-full test-traces-large traces-check-multi test-wave test-netlist-full \
                     mutation
DEPS_STAMP := $(BUILD)/.deps-ok
# generated files: every fragment appends the outputs of its generators (make gen builds them all)
GEN_FILES := $(GEN_SV) $(GEN_H) $(GEN_MD)

.PHONY: help deps gen test clean stats-golden stats-check stats-quick
## make help                   this list (every target, from the `## make` comments of Makefile and mk/*.mk)
help:
	@grep -h '^##' Makefile mk/*.mk | sed -E 's/^## ?//'

## make deps                   install what the project needs (apt-get, pip; idempotent)
deps:
	@DEPS_LOG=$(BUILD)/deps.log bash scripts/deps.sh
	@mkdir -p $(BUILD) && touch $(DEPS_STAMP)

# generated constants, parameters and register decode: one source of truth (spec/, docs/config.md)
# (systemrdl-compiler comes from make deps)
$(GEN_SV) $(GEN_H) $(GEN_MD) &: $(SPEC_FILES) $(SPEC_GEN_PY) | $(DEPS_STAMP)
	@mkdir -p rtl/gen cmodel/gen docs/gen
	$(PYTHON) scripts/gen_consts.py spec/gmmu.toml --rdl spec/gmmu.rdl --sv $(GEN_PKG) --c $(GEN_CONSTS_H) \
	  --md $(GEN_REGMAP_MD) --params spec/params.toml --params-h $(GEN_PARAMS_H) \
	  --params-svh $(GEN_PARAMS_SVH) --params-md $(GEN_PARAMS_MD)

# the RTL file list (Verilator, Yosys) from the FuseSoC core file, the one list of the RTL's files
GEN_FILELIST := rtl/files.f
GEN_FILES += $(GEN_FILELIST)
$(GEN_FILELIST): gmmu.core scripts/gen_filelist.py | $(DEPS_STAMP)
	$(PYTHON) scripts/gen_filelist.py gmmu.core -o $@

include mk/c.rules
# every generated RTL file (fragments append theirs to GEN_FILES; a prerequisite list sees the
# fragments read before it: the Verilator model rule comes last, lint/synth depend on gen anyway)
RTL_GEN = $(filter rtl/gen/%,$(GEN_FILES))
-include mk/*.mk

## make gen                    every generated file (spec/ -> rtl/gen, cmodel/gen, docs/gen)
gen: $(GEN_FILES)

# C objects (mk/c.rules): one rule for every area, normal and sanitized
$(BUILD)/obj/%.o: %.c | $(GEN_FILES)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS_EXTRA) -MMD -MP -c $< -o $@
$(BUILD)/obj-san/%.o: %.c | $(GEN_FILES)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(SAN) $(CFLAGS_EXTRA) -MMD -MP -c $< -o $@
-include $(shell find $(BUILD)/obj $(BUILD)/obj-san -name '*.d' 2>/dev/null)

## make regdoc                 HTML register documentation (PeakRDL) -> build/regdoc/index.html
.PHONY: regdoc
regdoc: $(SPEC_FILES) $(SPEC_GEN_PY) | $(DEPS_STAMP)
	$(PYTHON) scripts/gen_consts.py spec/gmmu.toml --rdl spec/gmmu.rdl --html $(BUILD)/regdoc
	@echo "regdoc: $(BUILD)/regdoc/index.html"

# user entry points install what they need first (a fresh machine has neither cmocka nor Yosys)
$(DEPS_STAMP): scripts/deps.sh
	@DEPS_LOG=$(BUILD)/deps.log bash scripts/deps.sh
	@mkdir -p $(BUILD) && touch $@
cosim bench synth traces wave fusesoc-lint fusesoc-sim: | $(DEPS_STAMP)

## make test                   everything CI runs, cheap checks first (style, lint, unit tests), stops at
##                             the first failure
# cheap checks first, then unit tests, then the co-simulation runs (in the order of mk/*.mk);
# make stops at the first failing target
TEST_CHEAP := check-style check-ports lint fusesoc-lint
TEST_UNIT  := test-common test-cmodel test-handler check-layers test-platform test-trace test-trace-gen test-import
TEST_ORDER  = $(filter $(TEST_CHEAP),$(TEST_TARGETS)) $(filter $(TEST_UNIT),$(TEST_TARGETS)) \
              $(filter-out $(TEST_CHEAP) $(TEST_UNIT),$(TEST_TARGETS)) stats-quick
# each target's wall time goes to $(BUILD)/test-times.txt (seconds, target), printed slowest first at
# the end: the 15-minute budget is kept by moving the slow parts to make test-full
test: deps
	@mkdir -p $(BUILD) && : > $(BUILD)/test-times.txt
	@for t in $(TEST_ORDER); do s=$$(date +%s); \
	  $(MAKE) --no-print-directory $$t || exit 1; \
	  echo "$$(( $$(date +%s) - s )) $$t" >> $(BUILD)/test-times.txt; done
	@echo "make test: all passed ($(strip $(TEST_ORDER)))"
	@echo "make test: wall seconds per target, slowest first (total $$(awk '{s+=$$1} END {print s}' \
	  $(BUILD)/test-times.txt) s):"; sort -rn $(BUILD)/test-times.txt | head -12 | sed 's/^/  /'

## make test-full              make test, then the checks left out of it for its 15-minute budget
##                             (cosim-regress-full, test-traces-large, traces-check-multi,
##                             test-wave, test-netlist-full, mutation (the full set),
##                             test-statecmp, fusesoc-sim, fpga-sim, fuzz-quick, ...)
.PHONY: test-full
test-full: test
	@$(MAKE) --no-print-directory $(TEST_FULL_TARGETS)
	@echo "make test-full: all passed"

## make clean                  remove build/
clean:
	rm -rf $(BUILD)

# Behaviour-preservation check (scripts/stats_golden.py): the stats of every directed test, every
# small workload trace and the real traces must equal tb/golden/stats.json (the snapshot taken
# before a refactoring). stats-golden re-takes the snapshot after an intended change.
STATS_RUNS = $(MAKE) --no-print-directory cosim-regress-full && \
             $(MAKE) --no-print-directory traces-check TRACES_CHECK_ARGS="--only small"
## make stats-check            every directed test, small workload and real trace: stats equal to
##                             tb/golden/stats.json (behaviour preserved by a refactoring)
stats-check: | $(DEPS_STAMP)
	$(STATS_RUNS)
	$(PYTHON) scripts/stats_golden.py collect $(BUILD)/stats-now.json
	$(PYTHON) scripts/stats_golden.py compare tb/golden/stats.json $(BUILD)/stats-now.json
## make stats-golden           re-take tb/golden/stats.json after an intended change of behaviour
## make stats-quick            the runs make test made (cosim-regress, test-traces-replay) against the
##                             snapshot; part of make test
stats-quick:
	$(PYTHON) scripts/stats_golden.py collect $(BUILD)/stats-now.json
	$(PYTHON) scripts/stats_golden.py compare tb/golden/stats.json $(BUILD)/stats-now.json --present
stats-golden: | $(DEPS_STAMP)
	$(STATS_RUNS)
	$(PYTHON) scripts/stats_golden.py collect tb/golden/stats.json
