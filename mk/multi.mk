# mk/multi.mk - multi-application workloads (Mosaic, issue 9; docs/trace-format.md "Address
# spaces"): mixes of the small workload suite, each application in its own address space on its
# own SMs, in lock-step on configs/mosaic4.cfg (4 SMs, 4 ASIDs; tb/tools/multi_check.py).
#
#   $(BUILD)/multi/<mode>/<mix>.trc    the mixed traces (gmmu-trace mix), <mix>.json their stats
## make traces-check-multi     five mixes (2 homogeneous, 3 heterogeneous; 2..4 applications) in
##                             lock-step with 4 KB pages, with CoCoA + host coalescing and with
##                             CoCoA + the GMMU's COALESCE: zero mismatches, zero integrity
##                             errors; with CoCoA also large-page hits in the L1 and the L2
##                             (not in make test: its budget is full)
.PHONY: traces-check-multi
# (this file is read before mk/workloads.mk: its variables appear in recipes only)
MULTI_DIR := $(BUILD)/multi
MULTI_SIM = $(BUILD)/mosaic4/gmmu-sim
multi_run = $(PYTHON) tb/tools/multi_check.py --sim $(MULTI_SIM) --trace-tool $(WL_TRACE_TOOL) \
  --traces $(WL_TRACE_DIR) --config configs/mosaic4.cfg --out $(MULTI_DIR)/$(1) $(2)

traces-check-multi: traces
	@$(MAKE) --no-print-directory sim $(WL_TRACE_TOOL) CONFIG=mosaic4
	$(call multi_run,4k,)
	$(call multi_run,cocoa,--set page_size=cocoa --expect-large)
	$(call multi_run,cocoa-gmmu,--set page_size=cocoa --set coalesce_by=gmmu --expect-large)

# ---- Mosaic's results (docs/results.md "Mosaic") -----------------------------------------------
## make results-mosaic         Mosaic's multi-application figures on configs/mosaic_paper.cfg (C
##                             model): L1/L2 TLB miss rates, walks, speedup of CoCoA + coalescing
##                             and of 2 MB pages over the baseline allocator, memory bloat, in
##                             both run modes (demand: demand paging, the whole run timed; memcpy:
##                             resident data, the kernels timed): the study studies/mosaic.toml
##                             through gmmu-sweep (runs only what build/sweep/mosaic lacks), its
##                             figure steps (scripts/results_mosaic.py, reading only the store):
##                             docs/img/results_mosaic.png, build/results/mosaic.md (demand),
##                             docs/img/results_mosaic_memcpy.png, build/results/mosaic_memcpy.md
##                             (MOSAIC_ARGS="--only REGEX" runs a part, MOSAIC_JOBS=N)
.PHONY: results-mosaic
MOSAIC_ARGS ?=
MOSAIC_JOBS ?= 2
results-mosaic: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sweep-tools
	$(PYTHON) $(SWEEP) run studies/mosaic.toml -j $(MOSAIC_JOBS) $(MOSAIC_ARGS)
	$(PYTHON) $(SWEEP) collect studies/mosaic.toml
	$(PYTHON) $(SWEEP) figures studies/mosaic.toml

## make results-mosaic-compute Mosaic with resident data, the page-walk cache (64 x 20 cycles) in every
##                             mode, sm_issue_ipc = 2 and sgemm's measured compute
##                             (studies/mosaic_compute.toml, 102 runs): docs/img/results_mosaic_compute.png,
##                             build/results/mosaic_compute.md
$(BUILD)/results/cfg/mosaic_paper_pwc.cfg: configs/mosaic_paper.cfg
	@mkdir -p $(@D)
	sed -e 's/^pwc_entries = [0-9]*/pwc_entries = 64/' -e 's/^pwc_latency = [0-9]*/pwc_latency = 20/' \
	    $< > $@.tmp
	grep -q '^pwc_entries = 64' $@.tmp
	grep -q '^pwc_latency = 20' $@.tmp
	mv $@.tmp $@
.PHONY: results-mosaic-compute
results-mosaic-compute: $(BUILD)/results/cfg/mosaic_paper_pwc.cfg | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sweep-tools
	$(PYTHON) $(SWEEP) run studies/mosaic_compute.toml -j $(MOSAIC_JOBS) $(MOSAIC_ARGS)
	$(PYTHON) $(SWEEP) collect studies/mosaic_compute.toml
	$(PYTHON) $(SWEEP) figures studies/mosaic_compute.toml

## make results-mosaic-l2d     Mosaic with resident data, the page-walk cache and the L2 data cache
##                             serving the walker's PTE reads (seed 004 Table 1: 2 MB, 16 ways,
##                             10 cycles): with the page-walk cache its capacity swept 0 (off) /
##                             256 KB / 2 MB; Mosaic's own GPU-MMU (no page-walk cache) at 2 MB
##                             with a 10- and a 120-cycle hit (studies/mosaic_l2d.toml, 170 runs,
##                             about 25 min at -j 2 on a loaded 2-core machine):
##                             docs/img/results_mosaic_l2d.png, build/results/mosaic_l2d.md
.PHONY: results-mosaic-l2d
results-mosaic-l2d: $(BUILD)/results/cfg/mosaic_paper_pwc.cfg | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory sweep-tools
	$(PYTHON) $(SWEEP) run studies/mosaic_l2d.toml -j $(MOSAIC_JOBS) $(MOSAIC_ARGS)
	$(PYTHON) $(SWEEP) collect studies/mosaic_l2d.toml
	$(PYTHON) $(SWEEP) figures studies/mosaic_l2d.toml
