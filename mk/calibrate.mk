# mk/calibrate.mk - calibration against the measured H100 (issue 8, docs/calibration.md).
#
#   make calibrate       every experiment row of $(HW_DIR)/h100-uvm.csv through the C model with
#                        configs/h100.cfg, as a gmmu-sweep study (generated: $(CAL_STUDY); store
#                        $(CAL_STORE); only what the store lacks is run; docs/calibration.md
#                        "How it runs"), then from the store only: table (model vs measured median/min/max, ratio), plot
#                        docs/img/calibration.png, out-of-sample checks; fails when a prediction
#                        is outside [min/1.25, max*1.25] or an out-of-sample check fails
#   make test-calib      the cheap part (in make test): the isolated far-fault (chase pass 0/1)
#                        and a 64 MB stream against their rows
#   make test-calib-gen  cmocka tests of the chase / stream / sparse generators (normal + SAN)
## make calibrate              the C model with configs/h100.cfg vs ../shared/hw/h100-uvm.csv:
##                             table, plot (docs/img/calibration.png), out-of-sample checks
## make test-calib             quick calibration check (isolated far-fault, 64 MB stream)
## make test-calib-gen         unit tests of the probe's generators (chase, stream, sparse)

HW_DIR ?= ../shared/hw
CAL_CONFIG ?= configs/h100.cfg
# any gmmu-sim runs the C model engine; tiny's has the cheapest Verilator build
CAL_SIM := $(BUILD)/tiny/gmmu-sim
CAL_GEN := $(BUILD)/bin/gmmu-gen
CAL_ARGS ?=
CAL_JOBS ?= 2
# the study (generated from the measurement file and the configuration: every row a grid point,
# docs/calibration.md "How it runs"), its store, the evaluation reading only the store
CAL_STUDY := $(BUILD)/calibrate/calibrate.toml
CAL_STORE := $(BUILD)/sweep/calibrate
CAL_PY = $(PYTHON) scripts/calibrate.py --csv $(HW_DIR)/h100-uvm.csv --config $(CAL_CONFIG)
# $(1): the row selection (--quick, or CAL_ARGS's --rows/--oos/--set); $(2): evaluation options
define cal_steps
	$(CAL_PY) --write-study $(CAL_STUDY) --sim $(CAL_SIM) --gen $(CAL_GEN) \
	    --sweep-store $(CAL_STORE) $(1)
	only="$$($(CAL_PY) --only-regex $(1))" && \
	$(PYTHON) $(SWEEP) run $(CAL_STUDY) -j $(CAL_JOBS) --only "$$only" && \
	$(PYTHON) $(SWEEP) collect $(CAL_STUDY) --partial --only "$$only"
	$(CAL_PY) --store $(CAL_STORE)/results.sqlite --study $(CAL_STUDY) $(1) $(2)
endef

CAL_GEN_LIBSRC := $(filter-out tools/workloads/gen_main.c,$(wildcard tools/workloads/*.c))
CAL_TEST_SRC := tb/unit/test_trace_gen_calib.c
CAL_TESTS := $(call c_test_bins,$(CAL_TEST_SRC))
$(call c_objs,$(CAL_TEST_SRC)) $(call c_objs,$(CAL_TEST_SRC),san): CFLAGS_EXTRA := -Itools/workloads
$(eval $(call c_tests,$(CAL_TEST_SRC),$(CAL_GEN_LIBSRC),gmmu_trace gmmu_common,-lm))

.PHONY: calibrate test-calib test-calib-gen cal-sim
cal-sim: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sweep-tools

calibrate: cal-sim
	$(call cal_steps,$(CAL_ARGS),--plot docs/img/calibration.png --table $(BUILD)/calibrate/table.md \
	    --speed $(BUILD)/calibrate/speed.md)

test-calib: cal-sim
	$(call cal_steps,--quick,)

test-calib-gen: $(CAL_TESTS)
	$(RUN_TESTS)

# test-calib: ~10-30 s (chase passes 0-1, the 64 MB stream twice); the full make calibrate takes
# ~45 min of CPU (the 4 GB stream twice: 7 and 11 min of wall time on the shared machine) and
# stays out of make test
TEST_TARGETS += test-calib-gen test-calib
