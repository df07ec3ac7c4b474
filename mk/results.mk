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

## make results-zheng-compute  Zheng's fig. 7 with kernels that compute (issue 24): derived compute per
##                             memory instruction + sm_issue_ipc = 2, and compute = 100 as a
##                             sensitivity (studies/zheng_compute.toml, 40 of its 100 runs):
##                             docs/img/results_zheng_compute.png, build/results/zheng_compute.md
.PHONY: results-zheng-compute
results-zheng-compute: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sweep-tools
	$(PYTHON) $(SWEEP) run studies/zheng_compute.toml -j $(RESULTS_JOBS) --only \
	    '(config=driver_page_costs,policy=(memcpy|locality\+pipe|oracle\+pipe),)|(config=link_only,policy=(memcpy|locality\+pipe),workload=[a-z]+,)' \
	    $(RESULTS_ARGS)
	$(PYTHON) $(SWEEP) collect studies/zheng_compute.toml --partial
	$(PYTHON) $(SWEEP) figures studies/zheng_compute.toml

## make results-zheng-fig5     Zheng's fig. 5 (blocking vs replayable far-faults, far-fault MSHRs per
##                             CU 1..16; studies/zheng_fig5.toml, 35 runs): docs/img/results_zheng_fig5.png,
##                             build/results/zheng_fig5.md
FIG5_QUOTAS := 1 2 4 8 16
FIG5_CFGS := $(foreach q,$(FIG5_QUOTAS),$(RESULTS_DIR)/cfg/paper_ffq$(q).cfg)
# configs/paper.cfg with only the far-fault MSHRs changed (RTL parameters cannot be --set):
# ff_quota = q per SM and ff_entries = 16 SMs x q in all (q = 4: paper.cfg itself)
$(RESULTS_DIR)/cfg/paper_ffq%.cfg: configs/paper.cfg
	@mkdir -p $(@D)
	sed -e 's/^ff_quota = .*/ff_quota = $*/' -e "s/^ff_entries = .*/ff_entries = $$((16 * $*))/" \
	    $< > $@.tmp
	grep -q '^ff_quota = $*$$' $@.tmp
	grep -q "^ff_entries = $$((16 * $*))$$" $@.tmp
	mv $@.tmp $@
.PHONY: results-zheng-fig5
results-zheng-fig5: $(FIG5_CFGS) | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sweep-tools
	$(PYTHON) $(SWEEP) run studies/zheng_fig5.toml -j $(RESULTS_JOBS) \
	    --only '(config=q4,)|(mode=replayable)' $(RESULTS_ARGS)
	$(PYTHON) $(SWEEP) collect studies/zheng_fig5.toml --partial
	$(PYTHON) $(SWEEP) figures studies/zheng_fig5.toml

# make results-oversub   the oversubscription studies (docs/results.md "Oversubscription"):
#                        studies/oversub_{zheng9,zheng10,uvmsmart,driver,thrash}.toml through
#                        gmmu-sweep (docs/sweep.md; only what a store build/sweep/<study> lacks
#                        is run), collected with the failed runs (a policy or key the simulator
#                        lacks yet is a failed run, shown n/a), then each study's figure step
#                        (scripts/results_oversub.py, reads only the store): Markdown
#                        $(BUILD)/results/oversub_<study>.md, plot docs/img/results_oversub_<study>.png.
#                        OVERSUB_STUDIES="zheng9 driver" a part; RESULTS_ARGS="--only REGEX".
#                        `run` exits 1 while some runs fail (n/a policies): tolerated here, exit
#                        2 (bad study) and 130 (interrupted) are not.
# make results-oversub-quick  zheng9 and uvmsmart on backprop and random_warp only, figures into
#                        $(BUILD)/results/oversub-quick (a check of the pipeline, ~1 min)
## make results-oversub        the oversubscription studies (Zheng fig. 9/10, UVMSmart, driver
##                             eviction, thrashing) through gmmu-sweep: docs/img/results_oversub_*.png,
##                             build/results/oversub_*.md
## make results-oversub-quick  a small part of them, a check of the pipeline (~1 min, not a result)
## make test-oversub-replay    lock-step: the uvm_oversubs patterns at 150% on configs/oversub.cfg,
##                             every eviction policy of OVERSUB_EVICT
OVERSUB_STUDIES ?= zheng9 zheng10 uvmsmart driver thrash
OVERSUB_QUICK_ONLY := workload=(backprop|random_warp)
# run (exit 1 = some runs failed: tolerated), collect with the failed runs
OVERSUB_SWEEP = $(PYTHON) $(SWEEP) run studies/oversub_$$s.toml -j $(RESULTS_JOBS) $(1) \
	  || [ $$? -eq 1 ]; $(PYTHON) $(SWEEP) collect studies/oversub_$$s.toml --partial --with-failed $(1)

.PHONY: results-oversub results-oversub-quick test-oversub-replay
results-oversub: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sweep-tools
	@set -e; for s in $(OVERSUB_STUDIES); do \
	  $(call OVERSUB_SWEEP,$(RESULTS_ARGS)); \
	  $(PYTHON) $(SWEEP) figures studies/oversub_$$s.toml; done

results-oversub-quick: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sweep-tools
	@set -e; for s in zheng9 uvmsmart; do \
	  $(call OVERSUB_SWEEP,--only '$(OVERSUB_QUICK_ONLY)'); \
	  $(PYTHON) scripts/results_oversub.py --store $(BUILD)/sweep/oversub_$$s/results.sqlite \
	    --md $(RESULTS_DIR)/oversub-quick/$$s.md --img $(RESULTS_DIR)/oversub-quick/$$s.png; done

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

## make results-uvmsmart       UVMSmart's figures (seed 002): TBNp vs the other prefetchers and the
##                             driver's, two far-fault costs (studies/uvmsmart_prefetch.toml, 50
##                             runs), and the TLB shootdown per entry vs the whole TLB
##                             (tlb_shootdown; studies/uvmsmart_shootdown.toml, 40 runs), about 20
##                             min at -j 1: docs/img/results_uvmsmart_{prefetch,shootdown}.png,
##                             build/results/uvmsmart_{prefetch,shootdown}.md
.PHONY: results-uvmsmart
UVMSMART_JOBS ?= 2
results-uvmsmart: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sweep-tools
	$(PYTHON) $(SWEEP) run studies/uvmsmart_prefetch.toml -j $(UVMSMART_JOBS)
	$(PYTHON) $(SWEEP) collect studies/uvmsmart_prefetch.toml
	$(PYTHON) $(SWEEP) figures studies/uvmsmart_prefetch.toml
	$(PYTHON) $(SWEEP) run studies/uvmsmart_shootdown.toml -j $(UVMSMART_JOBS)
	$(PYTHON) $(SWEEP) collect studies/uvmsmart_shootdown.toml
	$(PYTHON) $(SWEEP) figures studies/uvmsmart_shootdown.toml
# make results-lichapman  Li & Chapman's object-level placement (docs/results.md "Li & Chapman",
#                        docs/handler.md §6s): studies/lichapman.toml through gmmu-sweep (UM,
#                        Host, LRU, RLM, GLM, RDM, RDM implicit-only / explicit-only and the
#                        memcpy Baseline on six Rodinia workloads at 2 MB, fitted and at 150%),
#                        RDM with partial mapping, then scripts/results_lichapman.py (reads only the store):
#                        $(BUILD)/results/lichapman.md, docs/img/results_lichapman.png (~12 min,
#                        with -j 2)
## make results-lichapman      Li & Chapman's schemes vs UM, fitted and oversubscribed:
##                             docs/img/results_lichapman.png, build/results/lichapman.md
.PHONY: results-lichapman
results-lichapman: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sweep-tools
	$(PYTHON) $(SWEEP) run studies/lichapman.toml -j $(RESULTS_JOBS) $(RESULTS_ARGS)
	$(PYTHON) $(SWEEP) collect studies/lichapman.toml
	$(PYTHON) $(SWEEP) figures studies/lichapman.toml

## make results-zerocopy       zero-copy (pin_host) vs migration, streaming and sparse (docs/results.md)
.PHONY: results-zerocopy
results-zerocopy: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sim CONFIG=tiny
	$(PYTHON) scripts/results_zerocopy.py --sim $(BUILD)/tiny/gmmu-sim --out $(BUILD)/results/zerocopy \
	  --plot docs/img/results_zerocopy.png

## make results-ad            accessed/dirty bits: clock eviction and dirty-only write-back against
##                             lru, lru_oracle and nvidia on configs/oversub_ad.cfg (studies/ad.toml,
##                             24 runs, ~20 s): build/results/ad.md, docs/img/results_ad.png
.PHONY: results-ad
results-ad: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sweep-tools
	$(PYTHON) $(SWEEP) run studies/ad.toml -j $(RESULTS_JOBS) $(RESULTS_ARGS)
	$(PYTHON) $(SWEEP) collect studies/ad.toml
	$(PYTHON) $(SWEEP) figures studies/ad.toml

# make results-dynamap   DynaMap's comparison (issue 21 item 5, docs/results.md "DynaMap"):
#                        studies/dynamap.toml through gmmu-sweep (8 workloads x 100/200/300 %
#                        x Eager, Eager-woPref, LazyPgStatSW, LazyPgDynSW, PinHost, StaticMap
#                        20/50/90, DynaMap, Eager+PST, LazyGrpHW (on configs/paper_acc.cfg, the
#                        access-counter unit), StaticMap 50 % / DynaMap on the GMMU's bitmap
#                        table (pst_source = hw, on configs/paper_bmp.cfg; 368 runs in all,
#                        4 min with -j 1); a run that fails is collected as failed, then
#                        scripts/results_dynamap.py (reads only the store):
#                        $(BUILD)/results/dynamap.md, docs/img/results_dynamap.png,
#                        docs/img/results_dynamap_util.png (fig. 3a alone)
## make results-dynamap        DynaMap vs Eager, PinHost, StaticMap (docs/results.md "DynaMap")
.PHONY: results-dynamap
results-dynamap: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sweep-tools
	$(PYTHON) $(SWEEP) run studies/dynamap.toml -j $(RESULTS_JOBS) $(RESULTS_ARGS) || [ $$? -eq 1 ]
	$(PYTHON) $(SWEEP) collect studies/dynamap.toml --partial --with-failed
	$(PYTHON) $(SWEEP) figures studies/dynamap.toml
