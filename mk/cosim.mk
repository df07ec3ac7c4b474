# mk/cosim.mk - co-simulation harness and platform models (cosim/), see docs/cosim.md.
#
#   $(BUILD)/lib/libgmmu_plat.a (+ _san)   platform modules (config, pcie, gpumem, hostmem, sm, ...)
#   $(BUILD)/<config>/gmmu-sim             the simulator for one configuration (RTL parameters
#                                          of the Verilator model linked in)
#   make sim CONFIG=x                      build $(BUILD)/x/gmmu-sim
#   make cosim TEST=replay                 run tb/tests/replay.test (TRACE= CONFIG= SEED= ENGINE=
#                                          WAVES=1 override the test's values)
#   make cosim-regress                     every tb/tests/*.test
#   make test-platform                     cmocka unit tests of the platform modules (normal + SAN)
#   make cosim-san                         gmmu-sim built with ASan+UBSan, lock-step runs of a few
#                                          directed traces (configuration tiny)
#   make bench                             simulated cycles/s of each engine -> $(BUILD)/bench.json

COSIM_MODS := config u64map pcie gpumem hostmem sm compare evring plat
COSIM_HDR := $(filter-out cosim/vshim.h,$(wildcard cosim/*.h)) cosim/vshim.h \
             cmodel/include/gmmu_if.h cmodel/include/gmmu_model.h \
             sw-handler/include/uvm_handler.h sw-handler/include/uvm_dev.h $(GEN_H)
COSIM_OBJDIR := $(BUILD)/obj/cosim
COSIM_OBJ := $(patsubst %,$(COSIM_OBJDIR)/%.o,$(COSIM_MODS))
COSIM_OBJ_SAN := $(patsubst %,$(COSIM_OBJDIR)/san/%.o,$(COSIM_MODS))
COSIM_LIB := $(BUILD)/lib/libgmmu_plat.a
COSIM_LIB_SAN := $(BUILD)/lib/libgmmu_plat_san.a
COSIM_MODEL_LIB := $(BUILD)/lib/libgmmu_model.a
COSIM_MODEL_LIB_SAN := $(BUILD)/lib/libgmmu_model_san.a
COSIM_HDL_LIB := $(BUILD)/lib/libuvm_handler.a
COSIM_TRACE_LIB := $(BUILD)/lib/libgmmu_trace.a
COSIM_TRACE_LIB_SAN := $(BUILD)/lib/libgmmu_trace_san.a
SIM_BIN = $(BUILD)/$(CONFIG)/gmmu-sim
SIM_SAN_BIN = $(BUILD)/$(CONFIG)/gmmu-sim-san
COSIM_HDL_LIB_SAN := $(BUILD)/lib/libuvm_handler_san.a

PLAT_TEST_SRC := $(wildcard tb/unit/test_platform_*.c)
PLAT_TESTS := $(patsubst tb/unit/%.c,$(BUILD)/tests/%,$(PLAT_TEST_SRC))
PLAT_TESTS_SAN := $(addsuffix _san,$(PLAT_TESTS))

# Make variables given on the command line (or in the environment) override the test file's.
cosim_ovr = $(if $(filter command line environment,$(origin $(1))),--$(2) '$($(1))')
COSIM_OVERRIDES = $(call cosim_ovr,CONFIG,config) $(call cosim_ovr,SEED,seed) \
                  $(call cosim_ovr,ENGINE,engine) $(if $(TRACE),--trace '$(TRACE)') \
                  $(if $(filter 1 yes true,$(WAVES)),--waves)
COSIM_RUN := $(PYTHON) scripts/run_test.py --make '$(MAKE)' --build $(BUILD)

.PHONY: cosim-lib sim sim-san cosim cosim-regress cosim-san test-platform bench

cosim-lib: $(COSIM_LIB) $(COSIM_LIB_SAN)

$(COSIM_OBJ): $(COSIM_OBJDIR)/%.o: cosim/%.c $(COSIM_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -c $< -o $@

$(COSIM_OBJ_SAN): $(COSIM_OBJDIR)/san/%.o: cosim/%.c $(COSIM_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(SAN) -c $< -o $@

$(COSIM_OBJDIR)/sim_main.o: cosim/sim_main.c $(COSIM_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -c $< -o $@

$(COSIM_LIB): $(COSIM_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(COSIM_LIB_SAN): $(COSIM_OBJ_SAN)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

# g++ links: libvdut is C++.
$(SIM_BIN): $(COSIM_OBJDIR)/sim_main.o $(COSIM_LIB) $(COSIM_MODEL_LIB) $(COSIM_HDL_LIB) \
            $(COSIM_TRACE_LIB) $(BUILD)/$(CONFIG)/vdut/libvdut.a
	@mkdir -p $(@D)
	$(CXX) -o $@ $(COSIM_OBJDIR)/sim_main.o $(COSIM_LIB) $(COSIM_HDL_LIB) $(COSIM_MODEL_LIB) \
	  $(COSIM_TRACE_LIB) $(BUILD)/$(CONFIG)/vdut/libvdut.a $(VDUT_LDLIBS) -lm

sim: $(SIM_BIN)

$(COSIM_OBJDIR)/san/sim_main.o: cosim/sim_main.c $(COSIM_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(SAN) -c $< -o $@

$(SIM_SAN_BIN): $(COSIM_OBJDIR)/san/sim_main.o $(COSIM_LIB_SAN) $(COSIM_MODEL_LIB_SAN) \
                $(COSIM_HDL_LIB_SAN) $(COSIM_TRACE_LIB_SAN) $(BUILD)/$(CONFIG)/vdut/libvdut.a
	@mkdir -p $(@D)
	$(CXX) $(SAN) -o $@ $(COSIM_OBJDIR)/san/sim_main.o $(COSIM_LIB_SAN) $(COSIM_HDL_LIB_SAN) \
	  $(COSIM_MODEL_LIB_SAN) $(COSIM_TRACE_LIB_SAN) $(BUILD)/$(CONFIG)/vdut/libvdut.a \
	  $(VDUT_LDLIBS) -lm

sim-san: $(SIM_SAN_BIN)

# The platform itself under ASan+UBSan: lock-step runs (tiny's Verilator model) of directed
# traces that cover faults, chaos invalidations, eviction, fatal faults and a trace error.
COSIM_SAN_RUNS := tiny:small:0 tiny:inval_walk:0 oversub:evict_inflight:0 tiny:fatal:0 \
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

$(PLAT_TESTS): $(BUILD)/tests/%: tb/unit/%.c $(COSIM_LIB) $(COSIM_MODEL_LIB) $(COSIM_TRACE_LIB) \
               $(COSIM_HDL_LIB) $(COSIM_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $< $(COSIM_LIB) $(COSIM_HDL_LIB) $(COSIM_MODEL_LIB) $(COSIM_TRACE_LIB) \
	  -lcmocka -lm -o $@

$(PLAT_TESTS_SAN): $(BUILD)/tests/%_san: tb/unit/%.c $(COSIM_LIB_SAN) $(COSIM_MODEL_LIB_SAN) \
                   $(COSIM_TRACE_LIB_SAN) $(COSIM_HDL_LIB_SAN) $(COSIM_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(SAN) $< $(COSIM_LIB_SAN) $(COSIM_HDL_LIB_SAN) $(COSIM_MODEL_LIB_SAN) \
	  $(COSIM_TRACE_LIB_SAN) -lcmocka -lm -o $@

test-platform: $(PLAT_TESTS) $(PLAT_TESTS_SAN)
	@set -e; for t in $(PLAT_TESTS) $(PLAT_TESTS_SAN); do echo "== $$t"; $$t; done

cosim:
	$(COSIM_RUN) $(COSIM_OVERRIDES) $(TEST)

cosim-regress:
	$(COSIM_RUN) $(COSIM_OVERRIDES) --all

bench:
	$(PYTHON) scripts/bench.py --make '$(MAKE)' --build $(BUILD) \
	  $(if $(filter command line environment,$(origin CONFIG)),--config $(CONFIG))

TEST_TARGETS += test-platform cosim-san cosim-regress
