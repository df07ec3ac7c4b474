# mk/workloads.mk - trace library, trace tools, workload generators, importers (issue 3).
#
#   $(BUILD)/lib/libgmmu_trace.a       cosim/trace.c (docs/trace-format.md)
#   $(BUILD)/lib/libgmmu_trace_san.a   same, with $(SAN)
#   $(BUILD)/bin/gmmu-trace            convert / stats / check
#   make test-trace                    cmocka tests of the trace library (normal + sanitizers)

WL_OBJ := $(BUILD)/obj/workloads
WL_LIB := $(BUILD)/lib/libgmmu_trace.a
WL_LIB_SAN := $(BUILD)/lib/libgmmu_trace_san.a
WL_TRACE_TOOL := $(BUILD)/bin/gmmu-trace
WL_TEST_TRACE := $(BUILD)/tests/test_trace
WL_TEST_TRACE_SAN := $(BUILD)/tests/test_trace_san

.PHONY: trace-lib test-trace

trace-lib: $(WL_LIB) $(WL_LIB_SAN) $(WL_TRACE_TOOL)

$(WL_OBJ)/trace.o: cosim/trace.c cosim/trace.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -c $< -o $@

$(WL_OBJ)/trace_san.o: cosim/trace.c cosim/trace.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(SAN) -c $< -o $@

$(WL_LIB): $(WL_OBJ)/trace.o
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(WL_LIB_SAN): $(WL_OBJ)/trace_san.o
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(WL_TRACE_TOOL): tb/tools/gmmu_trace.c $(WL_LIB) cosim/trace.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $< $(WL_LIB) -o $@

$(WL_TEST_TRACE): tb/unit/test_trace.c $(WL_LIB) cosim/trace.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $< $(WL_LIB) -lcmocka -o $@

$(WL_TEST_TRACE_SAN): tb/unit/test_trace.c $(WL_LIB_SAN) cosim/trace.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(SAN) $< $(WL_LIB_SAN) -lcmocka -o $@

test-trace: $(WL_TEST_TRACE) $(WL_TEST_TRACE_SAN) $(WL_TRACE_TOOL)
	$(WL_TEST_TRACE)
	$(WL_TEST_TRACE_SAN)

TEST_TARGETS += test-trace

# importers of real GPU traces (Accel-Sim, NVBit mem_trace): fixtures + shared real traces
.PHONY: test-import
test-import: $(WL_TRACE_TOOL)
	GMMU_TRACE=$(WL_TRACE_TOOL) $(PYTHON) tb/import/test_importers.py

TEST_TARGETS += test-import

# ---- workload trace generators (gmmu-gen) -----------------------------------------------------
WL_GEN := $(BUILD)/bin/gmmu-gen
WL_GEN_SRC := $(wildcard tb/workloads/*.c)
WL_GEN_HDR := $(wildcard tb/workloads/*.h) cosim/trace.h
WL_GEN_OBJ := $(patsubst tb/workloads/%.c,$(WL_OBJ)/gen/%.o,$(WL_GEN_SRC))

$(WL_OBJ)/gen/%.o: tb/workloads/%.c $(WL_GEN_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -Itb/workloads -c $< -o $@

$(WL_GEN): $(WL_GEN_OBJ) $(WL_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(WL_GEN_OBJ) $(WL_LIB) -lm -o $@

.PHONY: gmmu-gen
gmmu-gen: $(WL_GEN)
