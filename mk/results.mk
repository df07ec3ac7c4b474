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

# make results-oversub   the oversubscription studies (scripts/results_oversub.py, docs/results.md
#                        "Oversubscription"): Zheng fig. 9 and fig. 10, UVMSmart's eviction x
#                        prefetch at 110/125%, the driver's FIFO vs LRU vs optimal, thrashing
#                        detection; C model on configs/paper.cfg with gpu_mem_pages set per point.
#                        Run list = data (STUDIES in the script); per-run stats cached under
#                        $(RESULTS_DIR)/oversub (keyed by trace, overrides, simulator build), one
#                        table per study ($(RESULTS_DIR)/oversub/tables/<study>.jsonl); the plots
#                        (docs/img/results_oversub_<study>.png) and Markdown
#                        ($(RESULTS_DIR)/oversub/md/<study>.md) are made from the tables only.
#                        OVERSUB_STUDIES=zheng9,... a part; OVERSUB_ARGS="--plot-only" replots.
# make results-oversub-quick  the same on 4 workloads, 1 point, 4 variants, 2 MB (a check: ~1 min)
## make results-oversub        the oversubscription studies (Zheng fig. 9/10, UVMSmart, driver
##                             eviction, thrashing): docs/img/results_oversub_*.png, build/results/oversub/md
## make results-oversub-quick  the same, small (a check of the script, ~1 min, not a result)
## make test-oversub-replay    lock-step: the uvm_oversubs patterns at 150% on configs/oversub.cfg,
##                             every eviction policy of OVERSUB_EVICT
OVERSUB_STUDIES ?= zheng9,zheng10,uvmsmart,driver,thrash
OVERSUB_ARGS ?=
OVERSUB_RUN = $(PYTHON) scripts/results_oversub.py --sim $(BUILD)/tiny/gmmu-sim \
  --gen $(BUILD)/bin/gmmu-gen --trace-tool $(BUILD)/bin/gmmu-trace --jobs $(RESULTS_JOBS) \
  --studies $(OVERSUB_STUDIES)

.PHONY: results-oversub results-oversub-quick test-oversub-replay
results-oversub: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sim CONFIG=tiny gmmu-gen trace-lib
	$(OVERSUB_RUN) --work $(RESULTS_DIR)/oversub --img-dir docs/img $(OVERSUB_ARGS)

results-oversub-quick: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sim CONFIG=tiny gmmu-gen trace-lib
	$(OVERSUB_RUN) --work $(RESULTS_DIR)/oversub-quick --img-dir $(RESULTS_DIR)/oversub-quick/img \
	  --quick $(OVERSUB_ARGS)

# every eviction policy in lock-step (RTL + C model, handler scoreboard) on the three patterns
# at 150% of configs/oversub.cfg's 48 frames; the policies other branches add go in this list
OVERSUB_EVICT ?= lru random fifo
OVERSUB_REPLAY_DIR := $(BUILD)/oversub-replay
test-oversub-replay: $(WL_GEN)
	@$(MAKE) --no-print-directory sim CONFIG=tiny
	@mkdir -p $(OVERSUB_REPLAY_DIR)
	@set -e; for w in streaming block_streaming random_warp; do \
	  $(WL_GEN) $$w --param gpu_pages=48 --param oversub_pct=150 --param page_kb=4 \
	    --param ctas=8 -o $(OVERSUB_REPLAY_DIR)/$$w.trc; \
	  for e in $(OVERSUB_EVICT); do \
	    $(BUILD)/tiny/gmmu-sim --engine cosim --config configs/oversub.cfg --quiet \
	      --trace $(OVERSUB_REPLAY_DIR)/$$w.trc --set evict_policy=$$e \
	      --stats $(OVERSUB_REPLAY_DIR)/$$w.$$e.json; \
	    $(PYTHON) -c "import json,sys; s=json.load(open(sys.argv[1])); \
	      bad={k:s[k] for k in ('exit_status','mismatches','integrity_errors','fatal_faults') if s[k]}; \
	      sys.exit(f'{sys.argv[1]}: {bad}') if bad or not s['evictions'] else \
	      print(f\"test-oversub-replay: {sys.argv[2]:16s} {sys.argv[3]:8s} ok: {s['evictions']} evictions, 0 mismatches\")" \
	      $(OVERSUB_REPLAY_DIR)/$$w.$$e.json $$w $$e; \
	  done; done
TEST_TARGETS += test-oversub-replay

# make oversub-check   the small workload suite (make traces: the 16 generated workloads; the
#                      imported traces touch 1-2 pages) oversubscribed in lock-step: every
#                      trace with gpu_mem_pages = OVERSUB_FIT% of its touched pages, every policy
#                      of OVERSUB_EVICT, configs/tiny.cfg, handler scoreboard on; 0 mismatches,
#                      0 integrity errors, evictions > 0 (tb/tools/oversub_check.py; minutes,
#                      not in make test). OVERSUB_CHECK_ARGS="--workloads a,b" a part.
## make oversub-check          the small suite at 50% fitting in lock-step, every eviction policy
OVERSUB_FIT ?= 50
OVERSUB_CHECK_ARGS ?=
.PHONY: oversub-check
oversub-check: traces
	@$(MAKE) --no-print-directory sim CONFIG=tiny trace-lib
	$(PYTHON) tb/tools/oversub_check.py --sim $(BUILD)/tiny/gmmu-sim \
	  --trace-tool $(BUILD)/bin/gmmu-trace --traces $(WL_TRACE_DIR) --config configs/tiny.cfg \
	  --fit $(OVERSUB_FIT) --evict $(shell echo $(OVERSUB_EVICT) | tr ' ' ,) --jobs $(RESULTS_JOBS) \
	  --workloads $(shell echo $(WL_NAMES) | tr ' ' ,) $(OVERSUB_CHECK_ARGS)
