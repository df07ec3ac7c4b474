# mk/results.mk - reproductions of the seeds' figures (docs/results.md).
#
#   make results-zheng   Zheng et al.'s fig. 7 on configs/paper.cfg: every prefetcher vs the
#                        memcpy baseline and the ideal overlap bound (run_mode = memcpy), C model:
#                        the study studies/zheng.toml through gmmu-sweep (docs/sweep.md; runs
#                        only what its store build/sweep/zheng lacks), collected, then its figure
#                        step (scripts/results_zheng.py, reads only the store): plot
#                        docs/img/results_zheng.png, table $(BUILD)/results/zheng.md (pasted into
#                        docs/results.md), JSON beside; RESULTS_ARGS="--only REGEX" runs a part
## make results-zheng          Zheng et al.'s fig. 7 (prefetchers vs memcpy and the ideal bound) on
##                             configs/paper.cfg: docs/img/results_zheng.png, build/results/zheng.md
##                             (studies/zheng.toml through gmmu-sweep)

RESULTS_JOBS ?= 2
RESULTS_ARGS ?=
RESULTS_DIR := $(BUILD)/results

.PHONY: results-zheng
results-zheng: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sweep-tools
	$(PYTHON) $(SWEEP) run studies/zheng.toml -j $(RESULTS_JOBS) $(RESULTS_ARGS)
	$(PYTHON) $(SWEEP) collect studies/zheng.toml
	$(PYTHON) $(SWEEP) figures studies/zheng.toml
