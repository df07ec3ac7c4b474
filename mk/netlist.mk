# mk/netlist.mk - post-synthesis simulation: the gate-level netlist of gmmu_top as the engine
# `netlist` of gmmu-sim (cosim/engine_netlist.c, docs/cosim.md "The netlist engine").
#
#   $(BUILD)/<config>/vnetlist/gmmu_top_syn.v   Yosys netlist (scripts/synth.py --verilog: slang
#                                                front end, generic synth -flatten, flip-flop
#                                                count checked before the file is written)
#   $(BUILD)/<config>/vnetlist/obj/              its Verilator model, --prefix V<config>_netlist
#   $(BUILD)/<config>/vnetlist/vshim_ns.o        the shim in the name space "netlist"
#   $(BUILD)/<config>/gmmu-sim-netlist           gmmu-sim with the RTL and the netlist models
#
## make sim-netlist CONFIG=x   gmmu-sim-netlist: gmmu-sim with the synthesized netlist linked in
##                             as the engine `netlist` (--engine cmodel,netlist / rtl,netlist)
## make test-netlist           the regression of configuration tiny (NL_QUICK) in lock-step netlist
##                             vs C model, and one run netlist vs RTL (test-netlist-full: every
##                             test, and the struct mis-synthesis check: the netlist of the old
##                             read_verilog front end caught)
NL_CONFIG = $(if $(filter command line environment,$(origin CONFIG)),$(CONFIG),tiny)
nl_prefix = $(call vl_prefix,$(1))_netlist
# UNOPTFLAT: bit vectors of the flattened netlist that Verilator cannot split (speed only)
NL_VL_OPTS := --cc --trace-fst --x-assign fast --x-initial fast -O3 -Wno-UNOPTFLAT \
              --top-module gmmu_top
NL_SIM_BIN = $(BUILD)/$(CONFIG)/gmmu-sim-netlist
# mk/verilator.mk is read after this file: its variables are only used in recipes here ($$), and
# prerequisites are spelled out (the RTL sources; SHIM_DEPS of mk/verilator.mk)
NL_RTL_SRCS := $(wildcard rtl/*.sv rtl/gen/*.sv rtl/gen/*.svh) rtl/files.f
NL_SHIM_DEPS := cosim/vshim.cpp cosim/vshim.h cmodel/include/gmmu_if.h $(GEN_H) \
                cmodel/gen/gmmu_ports.h cmodel/gen/vshim_ports.inc scripts/cfg_vflags.py

.PRECIOUS: $(BUILD)/%/vnetlist/gmmu_top_syn.v $(BUILD)/%/vnetlist-mut/gmmu_top_syn.v

$(BUILD)/%/vnetlist/gmmu_top_syn.v: $(NL_RTL_SRCS) configs/%.cfg scripts/synth.py | gen $(DEPS_STAMP)
	@mkdir -p $(@D)
	@echo "yosys: synthesizing gmmu_top for CONFIG=$* (netlist engine)"
	$(PYTHON) scripts/synth.py --config configs/$*.cfg --out $(@D)/synth --verilog $@ \
	  > $(@D)/synth.log 2>&1 || { cat $(@D)/synth.log; exit 1; }

# the deliberately mis-synthesized netlist of make test-netlist (scripts/synth_mutate.py)
$(BUILD)/%/vnetlist-mut/gmmu_top_syn.v: $(BUILD)/%/vnetlist/gmmu_top_syn.v scripts/synth_mutate.py
	@mkdir -p $(@D)
	$(PYTHON) scripts/synth_mutate.py $< $@

# $(call nl_variant,dir,binary,C++ optimization[,more Verilator arguments]): the Verilator model
# of $(BUILD)/<config>/<dir>/gmmu_top_syn.v, its shim (name space "netlist") and
# $(BUILD)/<config>/<binary>: gmmu-sim with the RTL model and this netlist model (the Verilator
# runtime objects of the RTL model: same Verilator); the 4th argument: the cell library of a
# mapped netlist (mk/netlist_ecp5.mk), the 5th: files the Verilator build reads besides the
# netlist (its waiver file)
define nl_variant
.PRECIOUS: $(BUILD)/%/$(1)/obj/.model $(BUILD)/%/$(1)/vshim_ns.o
$(BUILD)/%/$(1)/obj/.model: $(BUILD)/%/$(1)/gmmu_top_syn.v mk/netlist.mk $(5)
	@mkdir -p $$(@D)
	@echo "verilator: building the gmmu_top netlist $(1) for CONFIG=$$* (--prefix $$(call nl_prefix,$$*))"
	$$(VERILATOR) $(NL_VL_OPTS) -CFLAGS $(3) --prefix $$(call nl_prefix,$$*) --build -j 2 -Mdir $$(@D) $(4) $$< \
	  > $$(@D)/../verilator.log 2>&1 || { cat $$(@D)/../verilator.log; exit 1; }
	touch $$@
$(BUILD)/%/$(1)/vshim_ns.o: $(BUILD)/%/$(1)/obj/.model $(NL_SHIM_DEPS)
	$$(call shim_cxx,$$*,-UVSHIM_TOP -DVSHIM_TOP=$$(call nl_prefix,$$*) -DVSHIM_NS=netlist,$$@,$(1))
$(BUILD)/$(CONFIG)/$(2): $(BUILD)/obj/cosim/sim_main.o $(call c_libs,$(SIM_LIBS)) \
                         $(BUILD)/$(CONFIG)/vdut/libvdut.a $(BUILD)/$(CONFIG)/$(1)/vshim_ns.o
	@mkdir -p $$(@D)
	$(CXX) -o $$@ $(BUILD)/obj/cosim/sim_main.o $(BUILD)/$(CONFIG)/$(1)/vshim_ns.o \
	  $(BUILD)/$(CONFIG)/$(1)/obj/$$(call nl_prefix,$(CONFIG))__ALL.a \
	  $(call c_libs,$(SIM_LIBS)) $(BUILD)/$(CONFIG)/vdut/libvdut.a $$(VDUT_LDLIBS) -lm
endef
$(eval $(call nl_variant,vnetlist,gmmu-sim-netlist,-O2))
# the mutant runs a few thousand cycles: compiled without optimization, it builds faster
$(eval $(call nl_variant,vnetlist-mut,gmmu-sim-netlist-mut,-O0))

.PHONY: sim-netlist sim-netlist-mut test-netlist
sim-netlist: $(NL_SIM_BIN)
sim-netlist-mut: $(BUILD)/$(CONFIG)/gmmu-sim-netlist-mut

# The regression of configuration tiny (the tests on tiny's binary: oversub's too) in lock-step
# cmodel,netlist, but for these, which take minutes in the gate-level model and whose mechanisms
# other tests cover: oversub, oversub_fifo, oversub_nvidia, oversub_lru_oracle, oversub_lru64k
# (1.8 M, 2.4 M, 1.75 M, 1.76 M, 1.75 M clocked cycles; 200 s and 100 s, the last three not
# timed at gate level;
# evictions: evict_inflight, chaos_evict; the eviction policy is host software, the same
# gate-level traffic), quiet_equiv_chaos and quiet_equiv_stall (C model quiet skipping: their
# --no-skip runs clock 2.8 M and 0.9 M cycles, 290 s and 100 s).
NL_SKIP  := oversub oversub_fifo oversub_nvidia oversub_lru_oracle oversub_lru64k oversub_lfu \
            oversub_optimal oversub_reserve oversub_thrash_pin oversub_thrash_pin_full oversub_tbne oversub_ts_evict \
            quiet_equiv_chaos quiet_equiv_stall
NL_TESTS := $(filter-out $(NL_SKIP),$(basename $(notdir $(wildcard tb/tests/*.test))))
# make test runs NL_QUICK, a list by name (opt-in, so that a new directed test does not grow make
# test's gate-level time unseen): the tests that drive a hardware mechanism of their own in under
# 10 s at gate level each (measured 2026-11-28, build/tiny, -j 2: 54 tests took 440 s of CPU, two
# of them 100 s each). Left to make test-netlist-full (NL_TESTS): the handler-policy tests, whose
# gate-level traffic other tests already drive (prefetch_locality_tiny, prefetch_sequential_tiny:
# 100 s each; policy_once, policy_batch; prefetch_nvidia_oversub, prefetch_nvidia_block,
# prefetch_seq_local, prefetch_random_local; large_cocoa_gmmu and memcpy_cocoa_gmmu, the GMMU
# variants of large_cocoa and memcpy_cocoa), and the --no-skip twins of the skip-equivalence
# tests (skip_equiv, block_skip_equiv, quiet_equiv, block_quiet_equiv: 0.5-2 M clocked cycles),
# prefetch_tbn, grow_64k_channels, prefetch_nvidia; and, for the budget (17 min at cd5d0e8),
# coalesce_unmapped, large_cocoa, large_2m_oversub (17, 20, 9 s; the coalesce unit, the 2 MB
# entries and eviction of 2 MB pages stay driven by coalesce_walks, large_2m, splinter_cached,
# block_evict). A new test joins NL_QUICK when it drives
# hardware no test here drives (say which in its header).
NL_QUICK := accelsim_lud bad_trace block_evict block_fatal block_fb_overflow block_inval \
            block_one_sm block_one_sm_ref block_policy_batch block_policy_batch_flush \
            block_policy_block block_policy_once block_quota block_random chaos_evict \
            coalesce_walks csr_errors evict_inflight fatal fb_overflow fb_race \
            inval_walk large_2m large_pages mem_backpressure memcpy \
            memcpy_2m memcpy_cocoa memcpy_late_alloc memcpy_oversub mshr_full policy_block quota \
            random_1 random_2 random_3 random_4 ro_hit splinter_cached watchdog
NL_UNKNOWN := $(filter-out $(NL_TESTS),$(NL_QUICK))
ifneq ($(NL_UNKNOWN),)
$(error mk/netlist.mk: NL_QUICK names tests that are not in tb/tests (or are in NL_SKIP): $(NL_UNKNOWN))
endif
NL_RUN    = $(PYTHON) scripts/run_test.py --make '$(MAKE)' --build $(BUILD) --netlist \
            --only-binary tiny
.PHONY: test-netlist-full
## make test-netlist-full      test-netlist with every tiny test but NL_SKIP's four slowest
test-netlist test-netlist-full: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory trace-lib sim sim-netlist CONFIG=tiny \
	  $(if $(filter test-netlist-full,$@),sim-netlist-mut)
	$(NL_RUN) --no-build -j 2 $(if $(filter test-netlist-full,$@),$(NL_TESTS),$(NL_QUICK))
	$(NL_RUN) --no-build --engine rtl,netlist random_3
	$(if $(filter test-netlist-full,$@),bash scripts/synth_mutate_test.sh $(BUILD)/tiny)
# make test keeps the synthesis of tiny (scripts/synth.py: slang front end, flip-flop count and
# latch checks, the struct member-select check) and leaves the gate-level lock-step to make
# test-full (test-netlist-full runs NL_QUICK and every other tiny test): the netlist's Verilator
# build alone took 100-230 s of make test's 946 s on the CI machine (docs/verification.md "The time
# of make test", 2026-11-28 evening).
## make test-synth-tiny        Yosys synthesis of tiny with its flip-flop count and latch checks
##                             (the netlist of make test-netlist, without its simulation)
.PHONY: test-synth-tiny
test-synth-tiny: $(BUILD)/tiny/vnetlist/gmmu_top_syn.v
	@grep -E "^  total|latches|struct check|^synth: ok" $(BUILD)/tiny/vnetlist/synth.log | sed 's/^/test-synth-tiny: /'
TEST_TARGETS += test-synth-tiny

## make fpga-util              ECP5 (synth_ecp5) and Xilinx 7-series (synth_xilinx) utilization of
##                             gmmu_top out of context for FPGA_UTIL_CONFIGS, per block and total
##                             -> build/fpga_util/; fails on > 5% LUT growth against
##                             tb/golden/fpga_util.json (docs/fpga.md)
## make fpga-util-baseline     re-run and record tb/golden/fpga_util.json (improvements, on purpose)
FPGA_UTIL_CONFIGS ?= tiny,default
FPGA_UTIL_ARCHS ?= ecp5,xilinx
FPGA_UTIL = $(PYTHON) scripts/fpga_util.py --configs $(FPGA_UTIL_CONFIGS) --archs $(FPGA_UTIL_ARCHS) \
            --out $(BUILD)/fpga_util --baseline tb/golden/fpga_util.json
.PHONY: fpga-util fpga-util-baseline
fpga-util: gen | $(DEPS_STAMP)
	$(FPGA_UTIL)
fpga-util-baseline: gen | $(DEPS_STAMP)
	$(FPGA_UTIL) --update-baseline
