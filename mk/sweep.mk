# mk/sweep.mk - gmmu-sweep, the parameter-sweep tool (tools/sweep, docs/sweep.md, issue 23)
## make sweep-tools            the binaries a study runs: build/tiny/gmmu-sim, build/bin/gmmu-gen,
##                             build/bin/gmmu-trace
## make test-sweep             gmmu-sweep's tests: plan keys, resume, atomicity (a run killed
##                             mid-way), bad study files, a small study run, collected and diffed
##                             (tools/sweep/tests, about 20 s)

SWEEP := scripts/gmmu-sweep

.PHONY: sweep-tools test-sweep
sweep-tools: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sim CONFIG=tiny gmmu-gen $(BUILD)/bin/gmmu-trace

test-sweep: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sweep-tools
	$(PYTHON) tools/sweep/tests/test_sweep.py
TEST_TARGETS += test-sweep

## make test-slurm             gmmu-sweep's slurm backend on a real one-node cluster (munged,
##                             slurmctld, slurmd started in a temporary directory and stopped at
##                             the end): a study submitted, one array task cancelled, run
##                             resubmits it, the store equals the local backend's (about 35 s;
##                             root; make deps installs slurm-wlm and munge)
.PHONY: test-slurm
test-slurm: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sweep-tools
	PYTHON=$(PYTHON) tools/sweep/tests/test_slurm.sh
# issue 23's acceptance: in make test if it fits the budget, else make test-full: make test is at
# its limit (docs/verification.md "The time of make test"), so test-full
TEST_FULL_TARGETS += test-slurm

## make results                every figure of docs/results.md and docs/calibration.md:
##                             results-zheng, results-zheng-compute, results-zheng-fig5,
##                             results-mosaic, results-mosaic-compute, results-mosaic-l2d,
##                             results-uvmsmart, results-lichapman, results-oversub,
##                             results-dynamap, results-ad, results-zerocopy (studies through
##                             gmmu-sweep: only what their stores lack is run), calibrate
.PHONY: results
results: results-zheng results-zheng-compute results-zheng-fig5 results-mosaic \
         results-mosaic-compute results-mosaic-l2d results-uvmsmart results-lichapman \
         results-oversub results-dynamap results-ad results-zerocopy calibrate

## make speed-suite264         the C model's speed on the workload suite at 264 MB (issue 23 item 6's
##                             report; studies/speed_suite264.toml, 16 runs, about 15 min of CPU:
##                             not in make results): build/results/speed_suite264.md
##                             (SPEED_ONLY=REGEX runs a part, e.g. the small workloads)
SPEED_ONLY ?= .
.PHONY: speed-suite264
speed-suite264: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sweep-tools
	$(PYTHON) $(SWEEP) run studies/speed_suite264.toml -j 1 --only '$(SPEED_ONLY)'
	$(PYTHON) $(SWEEP) collect studies/speed_suite264.toml --partial --only '$(SPEED_ONLY)'
	$(PYTHON) $(SWEEP) figures studies/speed_suite264.toml
