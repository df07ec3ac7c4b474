# mk/workloads.mk - trace library, trace tools, workload generators, importers (issue 3).
#
#   $(BUILD)/lib/libgmmu_trace.a       tools/trace/trace_*.c (docs/trace-format.md)
#   $(BUILD)/lib/libgmmu_trace_san.a   same, with $(SAN)
#   $(BUILD)/lib/libgmmu_trace.so      same, shared: the importers write through it (ctypes)
#   $(BUILD)/bin/gmmu-trace            convert / stats / check
#   $(BUILD)/bin/gmmu-gen              workload trace generators (tools/workloads, docs/workloads.md)
#   make traces                        the suite at its small default size -> $(BUILD)/traces
#   make traces-check                  replay it (lock-step) and every workload at >= 256 MB (cmodel)
#   make traces-bench                  generation time / size / RSS at WL_BIG_MB
#   make test-trace                    cmocka tests of the trace library (normal + sanitizers)
#   make test-import                   importer tests (tools/import/import_*.py, tb/import)
#   make test-trace-gen                generator tests (normal + sanitizers)
#   make test-traces-replay            quick lock-step replay of 11 small traces (regular, irregular, real)

WL_OBJ := $(BUILD)/obj/workloads
WL_HDR := tools/trace/trace.h tools/trace/trace_int.h
WL_LIB_MODS := trace_util trace_read trace_text trace_write
WL_LIB_OBJ := $(WL_LIB_MODS:%=$(WL_OBJ)/trace/%.o)
WL_LIB_OBJ_SAN := $(WL_LIB_MODS:%=$(WL_OBJ)/trace_san/%.o)
WL_SO := $(BUILD)/lib/libgmmu_trace.so

# the platform reads traces through tools/trace/trace.h (mk/cosim.mk lists only cosim/*.h)
$(COSIM_OBJ) $(COSIM_OBJ_SAN) $(COSIM_OBJDIR)/sim_main.o: $(WL_HDR)
WL_LIB := $(BUILD)/lib/libgmmu_trace.a
WL_LIB_SAN := $(BUILD)/lib/libgmmu_trace_san.a
WL_TRACE_TOOL := $(BUILD)/bin/gmmu-trace
# cmocka tests of the library: reader + writer (test_trace.c), flat writer calls + copy
WL_TEST_TRACE := $(BUILD)/tests/test_trace $(BUILD)/tests/test_trace_write
WL_TEST_TRACE_SAN := $(WL_TEST_TRACE:%=%_san)

.PHONY: trace-lib test-trace

trace-lib: $(WL_LIB) $(WL_LIB_SAN) $(WL_SO) $(WL_TRACE_TOOL)

$(WL_OBJ)/trace/%.o: tools/trace/%.c $(WL_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -fPIC -c $< -o $@

$(WL_OBJ)/trace_san/%.o: tools/trace/%.c $(WL_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(SAN) -c $< -o $@

$(WL_LIB): $(WL_LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(WL_LIB_SAN): $(WL_LIB_OBJ_SAN)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

# the same objects as a shared library: the Python importers write through it (ctypes)
$(WL_SO): $(WL_LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) -shared $^ -o $@

$(WL_TRACE_TOOL): tools/trace/gmmu_trace.c cosim/u64map.c $(WL_LIB) tools/trace/trace.h \
                  cosim/u64map.h cosim/rng.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) tools/trace/gmmu_trace.c cosim/u64map.c $(WL_LIB) -o $@

$(WL_TEST_TRACE): $(BUILD)/tests/%: tb/unit/%.c $(WL_LIB) tools/trace/trace.h \
                  tb/unit/test_trace_fixture.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $< $(WL_LIB) -lcmocka -o $@

$(WL_TEST_TRACE_SAN): $(BUILD)/tests/%_san: tb/unit/%.c $(WL_LIB_SAN) tools/trace/trace.h \
                      tb/unit/test_trace_fixture.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(SAN) $< $(WL_LIB_SAN) -lcmocka -o $@

test-trace: $(WL_TEST_TRACE) $(WL_TEST_TRACE_SAN) $(WL_TRACE_TOOL)
	$(foreach t,$(WL_TEST_TRACE) $(WL_TEST_TRACE_SAN),$(t) &&) true

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
WL_GEN_HDR := $(wildcard tools/workloads/*.h) tools/trace/trace.h
WL_GEN_OBJ := $(patsubst tools/workloads/%.c,$(WL_OBJ)/gen/%.o,$(WL_GEN_SRC))

$(WL_OBJ)/gen/%.o: tools/workloads/%.c $(WL_GEN_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -Itools/workloads -c $< -o $@

$(WL_GEN): $(WL_GEN_OBJ) $(WL_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(WL_GEN_OBJ) $(WL_LIB) -lm -o $@

.PHONY: gmmu-gen
gmmu-gen: $(WL_GEN)

# generator unit tests (tb/unit/test_trace_gen.c), normal + sanitizers
WL_GEN_LIBSRC := $(filter-out tools/workloads/gen_main.c,$(WL_GEN_SRC))
WL_GEN_LIBOBJ := $(patsubst tools/workloads/%.c,$(WL_OBJ)/gen/%.o,$(WL_GEN_LIBSRC))
WL_GEN_LIBOBJ_SAN := $(patsubst tools/workloads/%.c,$(WL_OBJ)/gen_san/%.o,$(WL_GEN_LIBSRC))
WL_TEST_GEN := $(BUILD)/tests/test_trace_gen
WL_TEST_GEN_SAN := $(BUILD)/tests/test_trace_gen_san

$(WL_OBJ)/gen_san/%.o: tools/workloads/%.c $(WL_GEN_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(SAN) -Itools/workloads -c $< -o $@

$(WL_TEST_GEN): tb/unit/test_trace_gen.c $(WL_GEN_LIBOBJ) $(WL_LIB) $(WL_GEN_HDR) \
                tb/unit/test_trace_fixture.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -Itools/workloads $< $(WL_GEN_LIBOBJ) $(WL_LIB) -lcmocka -lm -o $@

$(WL_TEST_GEN_SAN): tb/unit/test_trace_gen.c $(WL_GEN_LIBOBJ_SAN) $(WL_LIB_SAN) $(WL_GEN_HDR) \
                    tb/unit/test_trace_fixture.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(SAN) -Itools/workloads $< $(WL_GEN_LIBOBJ_SAN) $(WL_LIB_SAN) -lcmocka \
	  -lm -o $@

.PHONY: test-trace-gen
test-trace-gen: $(WL_TEST_GEN) $(WL_TEST_GEN_SAN)
	$(WL_TEST_GEN)
	$(WL_TEST_GEN_SAN)

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
