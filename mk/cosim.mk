# mk/cosim.mk - co-simulation harness and platform models (cosim/), see docs/cosim.md.
#
#   $(BUILD)/lib/libgmmu_plat.a (+ _san)   platform modules (config, pcie, gpumem, hostmem, sm, ...)
#   $(BUILD)/<config>/gmmu-sim             the simulator for one configuration (RTL parameters
#                                          of the Verilator model linked in)
## make cosim-lib              the platform libraries (normal and ASan+UBSan)
## make sim-san CONFIG=x       gmmu-sim built with ASan+UBSan
## make sim CONFIG=x           build $(BUILD)/x/gmmu-sim
## make cosim TEST=replay      run tb/tests/replay.test (TRACE= CONFIG= SEED= ENGINE=
##                             WAVES=1 override the test's values)
## make cosim-regress          every tb/tests/*.test
## make cosim-regress-state    every tb/tests/*.test with gmmu-sim-state --state-compare (every
##                             _q register compared each clocked cycle; docs/cosim.md)
## make test-platform          cmocka unit tests of the platform modules (normal + SAN)
## make cosim-san              gmmu-sim built with ASan+UBSan, lock-step runs of a few
##                             directed traces (configuration tiny)
## make bench                  simulated cycles/s of each engine -> $(BUILD)/bench.json, then
##                             make bench-speed (the C model against issue 23's base tree, side by
##                             side, statistics compared; BENCH_SPEED=0 leaves it out)

COSIM_SRC := $(filter-out cosim/sim_main.c,$(wildcard cosim/*.c))
COSIM_LIB := $(BUILD)/lib/libgmmu_plat.a
COSIM_LIB_SAN := $(BUILD)/lib/libgmmu_plat_san.a
SIM_BIN = $(BUILD)/$(CONFIG)/gmmu-sim
SIM_SAN_BIN = $(BUILD)/$(CONFIG)/gmmu-sim-san
# link order of gmmu-sim and the platform tests: platform, host program (host/host_drv.c,
# libgmmu_host of mk/fpga.mk), handler, C model, trace library, shared utilities (common/)
SIM_LIBS := gmmu_plat gmmu_host uvm_handler gmmu_model gmmu_trace gmmu_common

PLAT_TEST_SRC := $(wildcard tb/unit/test_platform_*.c)
PLAT_TESTS := $(call c_test_bins,$(PLAT_TEST_SRC))

$(eval $(call c_library,gmmu_plat,$(COSIM_SRC)))
$(eval $(call c_tests,$(PLAT_TEST_SRC),,$(SIM_LIBS),-lm))

# Make variables given on the command line (or in the environment) override the test file's.
# cosim_shq: one shell word in single quotes, a ' inside as '\'' (issue 26: TRACE=it's.trc)
cosim_sq := '
cosim_shq = '$(subst $(cosim_sq),$(cosim_sq)\$(cosim_sq)$(cosim_sq),$(1))'
cosim_ovr = $(if $(filter command line environment,$(origin $(1))),--$(2) $(call cosim_shq,$($(1))))
COSIM_OVERRIDES = $(call cosim_ovr,CONFIG,config) $(call cosim_ovr,SEED,seed) \
                  $(call cosim_ovr,ENGINE,engine) $(if $(TRACE),--trace $(call cosim_shq,$(TRACE))) \
                  $(if $(filter 1 yes true,$(WAVES)),--waves)
COSIM_RUN := $(PYTHON) scripts/run_test.py --make '$(MAKE)' --build $(BUILD)

.PHONY: cosim-lib sim sim-state sim-san cosim cosim-regress cosim-regress-full cosim-regress-state cosim-san test-platform bench

cosim-lib: $(COSIM_LIB) $(COSIM_LIB_SAN)

# g++ links: libvdut is C++.
$(SIM_BIN): $(BUILD)/obj/cosim/sim_main.o $(call c_libs,$(SIM_LIBS)) $(BUILD)/$(CONFIG)/vdut/libvdut.a
	@mkdir -p $(@D)
	$(CXX) -o $@ $^ $(VDUT_LDLIBS) -lm
$(SIM_SAN_BIN): $(BUILD)/obj-san/cosim/sim_main.o $(call c_libs,$(SIM_LIBS),san) \
                $(BUILD)/$(CONFIG)/vdut/libvdut.a
	@mkdir -p $(@D)
	$(CXX) $(SAN) -o $@ $^ $(VDUT_LDLIBS) -lm

## make sim-state CONFIG=x     gmmu-sim-state: gmmu-sim with the debug model of public _q
##                             signals, for --state-compare (docs/cosim.md)
SIM_STATE_BIN = $(BUILD)/$(CONFIG)/gmmu-sim-state
$(SIM_STATE_BIN): $(BUILD)/obj/cosim/sim_main.o $(call c_libs,$(SIM_LIBS)) \
                  $(BUILD)/$(CONFIG)/vdut-state/libvdut.a
	@mkdir -p $(@D)
	$(CXX) -o $@ $^ $(VDUT_LDLIBS) -lm

sim: $(SIM_BIN)
sim-state: $(SIM_STATE_BIN)
sim-san: $(SIM_SAN_BIN)

# The platform itself under ASan+UBSan: lock-step runs (tiny's Verilator model) of directed
# traces that cover faults, chaos invalidations, eviction, fatal faults and a trace error.
COSIM_SAN_RUNS := tiny:small:0 tiny:inval_walk:0 oversub:evict_inflight:0 tiny:fatal:3 \
                  tiny:fb_overflow:0 tiny:bad_record:2
cosim-san:
	@$(MAKE) --no-print-directory sim-san CONFIG=tiny
	@set -e; mkdir -p $(BUILD)/cosim/san; for r in $(COSIM_SAN_RUNS); do \
	  IFS=: read -r c t want <<< "$$r"; \
	  log=$(BUILD)/cosim/san/$$t.log; rc=0; \
	  $(BUILD)/tiny/gmmu-sim-san --config configs/$$c.cfg --trace tb/traces/$$t.trc --quiet \
	    --set chaos_inval=700 --stats $(BUILD)/cosim/san/$$t.json > $$log 2>&1 || rc=$$?; \
	  if [ $$rc != $$want ] || grep -q -E 'ERROR: AddressSanitizer|runtime error' $$log; then \
	    cat $$log; echo "cosim-san: $$t: exit $$rc (want $$want) or sanitizer report"; exit 1; fi; \
	  echo "cosim-san: $$t ok (exit $$rc)"; done

test-platform: $(PLAT_TESTS)
	$(RUN_TESTS)

cosim:
	$(COSIM_RUN) $(COSIM_OVERRIDES) $(TEST)

# make test leaves out the tests of configurations that cost a Verilator build of their own and
# cover one feature (ff256: the 256-entry far-fault unit, about 3 minutes to build on 2 cores;
# ad, oversub_ad: the accessed/dirty bits, docs/microarch.md §18, about 3 minutes each; acc: the
# access counters, docs/microarch.md §19.8, about 4 minutes); cosim-regress-full (and
# stats-golden / stats-check) runs every test. Since 2026-11-28 also `default` (the 16-SM paper-like
# configuration: its Verilator build took 100 s of make test's 888 s, its 13 tests about 30 s more;
# tiny keeps the replay, every prefetcher (the *_tiny / *_local variants) and the quiet-skip
# equivalence in make test): make test's budget, docs/verification.md "The time of make test"
# ... and bitmap (docs/microarch.md §20: line_bitmap = 1, its own Verilator build; cosim-regress-full;
# with it dynamap_hw, DynaMap on the hardware table, docs/handler.md §6x.7, 0.3 s)
COSIM_REGRESS_SKIP ?= ff256,ad,oversub_ad,acc,default,bitmap
# ... and the tests of pipelined transfer sets (docs/handler.md §6m: an optional mode of Zheng's
# prefetchers, about 10 s; make test's budget is full) and of the memcpy baseline with large
# pages (docs/handler.md §6e: page_size 2m / cocoa in uvm_handler_populate, about 2 s)
# ... and the thrashing policies on the replay trace (docs/handler.md §6j, about 18 s and 35 s;
# their decisions are pinned by tb/unit/test_handler_thrashing.c in make test)
# ... and the long-batch watchdog test and lfu eviction (docs/handler.md §6p, about 7 s and 8 s)
# ... and optimal eviction and pre-eviction (docs/handler.md §6t, §6u, about 7 s each; pinned by
# tb/unit/test_handler_evict_optimal.c and test_handler_reserve.c in make test)
# ... and tbne eviction and Zheng's continued prefetch (docs/handler.md §6y, §6p.5; pinned by
# test_handler_evict_tbne.c and test_handler_ts_full.c)
COSIM_REGRESS_SKIP_TESTS ?= prefetch_sequential_pipe,prefetch_locality_pipe,memcpy_2m,memcpy_cocoa,memcpy_cocoa_gmmu,oversub_thrash_nvidia,oversub_thrash_capacity,watchdog_long_batch,oversub_lfu,oversub_optimal,oversub_reserve,oversub_thrash_pin,oversub_thrash_pin_full,oversub_tbne,oversub_ts_evict
# ... and DynaMap's static_map / dynamap on tiny (docs/handler.md §6x, 1.2 s and 1.9 s)
COSIM_REGRESS_SKIP_TESTS := $(COSIM_REGRESS_SKIP_TESTS),static_map,dynamap
# ... and DynaMap's LazyPgStatSW / LazyPgDynSW on tiny (docs/handler.md §6x.4, 0.7 s and 0.7 s;
# pinned by tb/unit/test_handler_lazypg.c in make test)
COSIM_REGRESS_SKIP_TESTS := $(COSIM_REGRESS_SKIP_TESTS),lazy_pg_stat_sw,lazy_pg_dyn_sw
## make cosim-regress-full     every directed co-simulation test (cosim-regress leaves out COSIM_REGRESS_SKIP)
cosim-regress:
	$(COSIM_RUN) $(COSIM_OVERRIDES) --all --skip-config $(COSIM_REGRESS_SKIP) \
	  --skip-test $(COSIM_REGRESS_SKIP_TESTS)

cosim-regress-full:
	$(COSIM_RUN) $(COSIM_OVERRIDES) --all

cosim-regress-state:
	$(COSIM_RUN) $(COSIM_OVERRIDES) --all --state-compare

## make test-statecmp          --state-compare: a clean run passes with identical statistics; a
##                             model PLRU mutation is named (plru_q) before the ports diverge
.PHONY: test-statecmp
test-statecmp:
	@$(MAKE) --no-print-directory sim-state CONFIG=tiny
	bash scripts/statecmp_test.sh
# 14 s, plus one Verilator build (~30 s) of tiny's public-signal model; it also keeps every
# RTL register covered by a model accessor (strict --state-compare fails on a missing one)
TEST_FULL_TARGETS += test-statecmp

BENCH_SPEED ?= 1
bench:
	$(PYTHON) scripts/bench.py --make '$(MAKE)' --build $(BUILD) \
	  $(if $(filter command line environment,$(origin CONFIG)),--config $(CONFIG))
	$(if $(filter 1,$(BENCH_SPEED)),@$(MAKE) --no-print-directory bench-speed)

## make bench-speed            C model + generator wall time, base commit (BENCH_BASE) vs this tree,
##                             statistics compared -> $(BUILD)/bench-speed.json (a few minutes)
BENCH_BASE ?= 4a1b7b9
.PHONY: bench-speed
bench-speed: | $(DEPS_STAMP)
	$(PYTHON) scripts/bench_speed.py --make '$(MAKE)' --build $(BUILD) --base $(BENCH_BASE) \
	  $(if $(BENCH_RUNS),--runs $(BENCH_RUNS))

TEST_TARGETS += test-platform cosim-san cosim-regress

# The port list of gmmu_top (spec/ports.toml) generates gmmu_in_t/gmmu_out_t with the port tables
# (included by cmodel/include/gmmu_if.h) and the shim's drive()/sample(); make check-ports checks
# that rtl/gmmu_top.sv declares exactly these ports.
GEN_PORTS_H := cmodel/gen/gmmu_ports.h
GEN_PORTS_SHIM := cmodel/gen/vshim_ports.inc
GEN_FILES += $(GEN_PORTS_H) $(GEN_PORTS_SHIM)
$(GEN_PORTS_H) $(GEN_PORTS_SHIM) &: spec/ports.toml spec/gmmu.toml scripts/gen_ports.py
	@mkdir -p cmodel/gen
	$(PYTHON) scripts/gen_ports.py spec/ports.toml spec/gmmu.toml --c $(GEN_PORTS_H) \
	  --shim $(GEN_PORTS_SHIM)

## make check-ports            rtl/gmmu_top.sv declares exactly the ports of spec/ports.toml
.PHONY: check-ports
check-ports:
	$(PYTHON) scripts/gen_ports.py spec/ports.toml spec/gmmu.toml --check-sv rtl/gmmu_top.sv
	$(PYTHON) scripts/spec_params.py --check-sv rtl/gmmu_top.sv
TEST_TARGETS += check-ports

## make test-scoreboard         the handler scoreboard bites: lock-step runs (tiny's binary) with a
##                             handler fault injected by the platform (--score-break K) must fail
##                             with exit 6 naming the check K (docs/cosim.md "Handler scoreboard")
##                             (also with page_size = 2m and cocoa: Mosaic's large pages)
# config:trace:K:check[:KEY=V,KEY=V (--set)]
SCORE_2M := page_size=2m,gpu_mem_pages=1024
SCORE_COCOA := page_size=cocoa,gpu_mem_pages=1024
SCORE_BREAK_RUNS := tiny:small:perm:perm tiny:small:dup:frame tiny:small:tag:tag \
                    oversub:evict_inflight:noinval:inval oversub:evict_inflight:order:order \
                    tiny:replay:perm:perm:$(SCORE_2M) tiny:replay:dup:frame:$(SCORE_2M) \
                    tiny:replay:tag:tag:$(SCORE_2M) tiny:replay:noinval:inval:$(SCORE_2M) \
                    tiny:replay:perm:perm:$(SCORE_COCOA) tiny:replay:dup:frame:$(SCORE_COCOA) \
                    tiny:replay:tag:tag:$(SCORE_COCOA)
.PHONY: test-scoreboard
TEST_TARGETS += test-scoreboard
test-scoreboard:
	@$(MAKE) --no-print-directory sim CONFIG=tiny
	@set -e; mkdir -p $(BUILD)/cosim/score; for r in $(SCORE_BREAK_RUNS); do \
	  IFS=: read -r c t k check sets <<< "$$r"; log=$(BUILD)/cosim/score/$$k$${sets:+-$${sets%%,*}}.log; \
	  rc=0; extra=; [ $$k = order ] && extra="--set evict_policy=random"; \
	  for kv in $${sets//,/ }; do extra="$$extra --set $$kv"; done; \
	  $(BUILD)/tiny/gmmu-sim --config configs/$$c.cfg --trace tb/traces/$$t.trc --quiet \
	    --score-break $$k $$extra > $$log 2>&1 || rc=$$?; \
	  if [ $$rc != 6 ] || ! grep -q "scoreboard: $$check:" $$log; then \
	    cat $$log; echo "test-scoreboard: --score-break $$k: exit $$rc, want 6 and a '$$check' violation"; exit 1; fi; \
	  echo "test-scoreboard: --score-break $$k$${sets:+ ($$sets)} caught: $$(grep -o "scoreboard: $$check:.*" $$log | head -1)"; done
