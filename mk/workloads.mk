# mk/workloads.mk - trace library, trace tools, workload generators, importers (issue 3).
#
#   $(BUILD)/lib/libgmmu_trace.a       tools/trace/trace_*.c (docs/trace-format.md)
#   $(BUILD)/lib/libgmmu_trace_san.a   same, with $(SAN)
#   $(BUILD)/lib/libgmmu_trace.so      same, shared: the importers write through it (ctypes)
#   $(BUILD)/bin/gmmu-trace            convert / stats / check / mix / profile
#   $(BUILD)/bin/gmmu-gen              workload trace generators (tools/workloads, docs/workloads.md)
## make trace-lib              trace library (static, sanitized, shared) and gmmu-trace
## make gmmu-gen               the workload trace generators
## make traces                 the suite at its small default size -> $(BUILD)/traces
## make traces-check           replay it (lock-step) and every workload at >= 256 MB (cmodel)
## make traces-bench           generation time / size / RSS at WL_BIG_MB
## make test-trace             cmocka tests of the trace library (normal + sanitizers)
## make test-import            importer tests (tools/import/import_*.py, tb/import)
## make test-trace-gen         generator tests (normal + sanitizers)
## make test-traces-replay     quick lock-step replay of 11 small traces (regular, irregular, real)

WL_LIB_SRC := $(wildcard tools/trace/trace_*.c)
WL_LIB := $(BUILD)/lib/libgmmu_trace.a
WL_LIB_SAN := $(BUILD)/lib/libgmmu_trace_san.a
WL_SO := $(BUILD)/lib/libgmmu_trace.so
WL_TRACE_TOOL := $(BUILD)/bin/gmmu-trace
# cmocka tests of the library: reader + writer (test_trace.c), flat writer calls + copy
WL_TEST_SRC := tb/unit/test_trace.c tb/unit/test_trace_write.c tb/unit/test_trace_host.c \
               tb/unit/test_trace_profile.c \
               tb/unit/test_trace_out.c
WL_TESTS := $(call c_test_bins,$(WL_TEST_SRC))

$(eval $(call c_library,gmmu_trace,$(WL_LIB_SRC)))
$(eval $(call c_tests,$(WL_TEST_SRC),,gmmu_trace gmmu_common))
# the same objects as a shared library, with the common/ objects it calls (err_, num_): the
# Python importers write through it (ctypes)
$(call c_objs,$(WL_LIB_SRC)): CFLAGS_EXTRA := -fPIC
$(WL_SO): $(call c_objs,$(WL_LIB_SRC) $(COMMON_SRC))
	@mkdir -p $(@D)
	$(CC) -shared $^ -o $@

$(WL_TRACE_TOOL): $(call c_objs,tools/trace/gmmu_trace.c) $(WL_LIB) $(COMMON_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $^ -o $@

.PHONY: trace-lib test-trace
trace-lib: $(WL_LIB) $(WL_LIB_SAN) $(WL_SO) $(WL_TRACE_TOOL)
test-trace: $(WL_TESTS) | $(WL_TRACE_TOOL)
	$(RUN_TESTS)
TEST_TARGETS += test-trace

# the importers write through the shared trace library; scripts/run_test.py imports the Accel-Sim
# traces of directed tests (tb/tests/accelsim_*.test) before running them
cosim cosim-regress: $(WL_SO)

# importers of real GPU traces (Accel-Sim, NVBit mem_trace): fixtures + shared real traces
.PHONY: test-import
test-import: $(WL_TRACE_TOOL) $(WL_SO)
	GMMU_TRACE=$(WL_TRACE_TOOL) $(PYTHON) tb/import/test_importers.py

TEST_TARGETS += test-import

# ---- workload trace generators (gmmu-gen) -----------------------------------------------------
WL_GEN := $(BUILD)/bin/gmmu-gen
WL_GEN_SRC := $(wildcard tools/workloads/*.c)
WL_GEN_LIBSRC := $(filter-out tools/workloads/gen_main.c,$(WL_GEN_SRC))
WL_TEST_GEN := $(call c_test_bins,tb/unit/test_trace_gen.c)
$(call c_objs,$(WL_GEN_SRC) tb/unit/test_trace_gen.c) \
$(call c_objs,$(WL_GEN_SRC) tb/unit/test_trace_gen.c,san): CFLAGS_EXTRA := -Itools/workloads

$(WL_GEN): $(call c_objs,$(WL_GEN_SRC)) $(WL_LIB) $(COMMON_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $^ -lm -o $@
$(eval $(call c_tests,tb/unit/test_trace_gen.c,$(WL_GEN_LIBSRC),gmmu_trace gmmu_common,-lm))

.PHONY: gmmu-gen test-trace-gen
gmmu-gen: $(WL_GEN)
test-trace-gen: $(WL_TEST_GEN)
	$(RUN_TESTS)
TEST_TARGETS += test-trace-gen

# ---- the workload suite ------------------------------------------------------------------------
# make traces        every workload at its small default size (+ the shared real Accel-Sim traces)
#                    into $(BUILD)/traces/<name>.trc
# make traces-check  replays them: small ones in lock-step (ENGINE=cosim, CONFIG=tiny), and every
#                    workload at WL_BIG_MB MB with ENGINE=cmodel (WL_BIG_CONFIG); not part of
#                    make test (minutes). TRACES_CHECK_ARGS=--only small|big --workloads a,b
WL_NAMES := backprop bfs hotspot pathfinder srad nw gaussian kmeans nn sgemm stencil atax \
            pagerank sssp bst xsbench
WL_TRACE_DIR := $(BUILD)/traces
WL_REAL := vectoradd-100-32 matrixmul-32-32 lud-perimeter-k8
SHARED_TRACES ?= ../shared/traces/accel-sim
WL_TRACES := $(WL_NAMES:%=$(WL_TRACE_DIR)/%.trc)
WL_REAL_TRACES := $(if $(wildcard $(SHARED_TRACES)),$(WL_REAL:%=$(WL_TRACE_DIR)/accelsim-%.trc))
# 264 MB: every workload then allocates at least 256 MB (they round their dimensions down)
WL_BIG_MB ?= 264
WL_BIG_CONFIG ?= default
# GPU memory for the big runs: 512 MB, so a 264 MB footprint is not oversubscribed (the default
# configuration has 256 MB; oversubscription is studied with configs/oversub.cfg)
WL_BIG_SETS ?= gpu_mem_pages=131072
# one sweep over the footprint is enough at 256 MB: bound iterations / time steps (the graph
# workloads read most edges per level or iteration)
WL_BIG_ITERS ?= bfs=2,sssp=2,pagerank=1,srad=1,gaussian=1,kmeans=1,hotspot=2,stencil=1
WL_CHECK_SIM := $(BUILD)/tiny/gmmu-sim
TRACES_CHECK_ARGS ?=

.PHONY: traces traces-check
traces: $(WL_TRACES) $(WL_REAL_TRACES)
	@ls -l $(WL_TRACES) $(WL_REAL_TRACES) | awk '{s += $$5} END {printf "traces: %d files, %.1f MB\n", NR, s / 1048576}'

$(WL_TRACE_DIR)/%.trc: $(WL_GEN)
	@mkdir -p $(@D)
	$(WL_GEN) $* -o $@

$(WL_TRACE_DIR)/accelsim-%.trc: tools/import/import_accelsim.py tools/import/import_common.py \
                                tools/trace/trace_ctypes.py $(WL_SO)
	@mkdir -p $(@D)
	$(PYTHON) tools/import/import_accelsim.py $(SHARED_TRACES)/$* -o $@ --quiet

traces-check: traces
	@$(MAKE) --no-print-directory sim CONFIG=tiny
	$(PYTHON) tb/tools/traces_check.py --sim $(WL_CHECK_SIM) --gen $(WL_GEN) \
	  --traces $(WL_TRACE_DIR) --small-config configs/tiny.cfg \
	  --big-config configs/$(WL_BIG_CONFIG).cfg --big-mb $(WL_BIG_MB) --iters $(WL_BIG_ITERS) \
	  $(WL_BIG_SETS:%=--big-set %) $(TRACES_CHECK_ARGS)

# generation time, trace size and generator RSS of every workload at WL_BIG_MB (bounded memory)
.PHONY: traces-bench
traces-bench: $(WL_GEN)
	@mkdir -p $(WL_TRACE_DIR)
	$(PYTHON) tb/tools/gen_bench.py --gen $(WL_GEN) --size-mb $(WL_BIG_MB) --iters $(WL_BIG_ITERS) \
	  --out $(WL_TRACE_DIR)/gen-bench.json

# quick lock-step replay of a few small traces (part of make test; the full suite is
# traces-check): the three imported Accel-Sim traces and four fast generated workloads
WL_QUICK := accelsim-vectoradd-100-32,accelsim-matrixmul-32-32,accelsim-lud-perimeter-k8,backprop,nn,sgemm,kmeans,bfs,pagerank,pathfinder,hotspot
.PHONY: test-traces-replay
test-traces-replay: $(WL_TRACE_DIR)/backprop.trc $(WL_TRACE_DIR)/nn.trc $(WL_TRACE_DIR)/sgemm.trc \
                    $(WL_TRACE_DIR)/kmeans.trc $(WL_TRACE_DIR)/bfs.trc $(WL_TRACE_DIR)/pagerank.trc \
                    $(WL_TRACE_DIR)/pathfinder.trc $(WL_TRACE_DIR)/hotspot.trc $(WL_REAL_TRACES)
	@$(MAKE) --no-print-directory sim CONFIG=tiny
	$(PYTHON) tb/tools/traces_check.py --sim $(WL_CHECK_SIM) --gen $(WL_GEN) \
	  --traces $(WL_TRACE_DIR) --small-config configs/tiny.cfg --only small --workloads $(WL_QUICK)

TEST_TARGETS += test-traces-replay

# the uvm_oversubs sample's patterns (tools/workloads/wl_oversub.c): streaming, block_streaming,
# random_warp, sized by an oversubscription factor (docs/workloads.md)
## make test-oversub-gen       unit tests of the uvm_oversubs generators (normal + sanitizers)
WL_OS_TEST_SRC := tb/unit/test_trace_gen_oversub.c
WL_OS_TESTS := $(call c_test_bins,$(WL_OS_TEST_SRC))
$(call c_objs,$(WL_OS_TEST_SRC)) $(call c_objs,$(WL_OS_TEST_SRC),san): CFLAGS_EXTRA := -Itools/workloads
$(eval $(call c_tests,$(WL_OS_TEST_SRC),$(WL_GEN_LIBSRC),gmmu_trace gmmu_common,-lm))
.PHONY: test-oversub-gen
test-oversub-gen: $(WL_OS_TESTS)
	$(RUN_TESTS)
TEST_TARGETS += test-oversub-gen
