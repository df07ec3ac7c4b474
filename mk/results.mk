# mk/results.mk - reproductions of the seeds' figures (docs/results.md).
#
#   make results-zheng   Zheng et al.'s fig. 7 on configs/paper.cfg: every prefetcher vs the
#                        memcpy baseline and the ideal overlap bound (run_mode = memcpy), C model,
#                        RESULTS_SIZE_MB per workload; plot docs/img/results_zheng.png, table
#                        $(BUILD)/results/zheng.md (pasted into docs/results.md), raw JSON beside;
#                        RESULTS_ARGS="--reuse" keeps finished runs, "--workloads w,.. --variants
#                        v,.." runs a part (scripts/results_zheng.py --help)
## make results-zheng          Zheng et al.'s fig. 7 (prefetchers vs memcpy and the ideal bound) on
##                             configs/paper.cfg: docs/img/results_zheng.png, build/results/zheng.md

RESULTS_SIZE_MB ?= 16
RESULTS_JOBS ?= 2
RESULTS_PLOT ?= docs/img/results_zheng.png
RESULTS_ARGS ?=
RESULTS_DIR := $(BUILD)/results

.PHONY: results-zheng
results-zheng: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sim CONFIG=tiny gmmu-gen
	@mkdir -p $(RESULTS_DIR)
	$(PYTHON) scripts/results_zheng.py --sim $(BUILD)/tiny/gmmu-sim --gen $(BUILD)/bin/gmmu-gen \
	  --work $(RESULTS_DIR)/zheng --size-mb $(RESULTS_SIZE_MB) --jobs $(RESULTS_JOBS) \
	  --plot $(RESULTS_PLOT) --table $(RESULTS_DIR)/zheng.md \
	  --json $(RESULTS_DIR)/zheng.json $(RESULTS_ARGS)
