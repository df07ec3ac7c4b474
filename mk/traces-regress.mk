# In make test: lock-step replay (tiny, cosim) of the three real Accel-Sim traces and a quick
# subset of the generated workloads, regular and irregular. The whole suite and the 256 MB
# C-model runs are `make traces-check` (minutes to an hour).
TRACES_QUICK ?= accelsim-vectoradd-100-32,accelsim-matrixmul-32-32,accelsim-lud-perimeter-k8,backprop,nn,sgemm,kmeans,bfs,pathfinder,hotspot,pagerank
.PHONY: test-traces-lockstep
test-traces-lockstep: traces
	@$(MAKE) --no-print-directory sim CONFIG=tiny
	$(PYTHON) tb/tools/traces_check.py --sim $(WL_CHECK_SIM) --gen $(WL_GEN) \
	  --traces $(WL_TRACE_DIR) --small-config configs/tiny.cfg --only small \
	  --workloads $(TRACES_QUICK) --jobs 2
TEST_TARGETS += test-traces-lockstep
