# mk/large.mk - the small workload suite with large pages (docs/handler.md §6f, docs/cosim.md
# "Large pages"): lock-step on the tiny configuration with page_size = 2m and = cocoa.
#
#   $(BUILD)/large/tiny-<mode>.cfg      configs/tiny.cfg + page_size = <mode>
#   $(BUILD)/large/tiny-cocoa-oversub.cfg  ... + cocoa on 1024 frames (2 MB frames: 2): the
#                                       4 MB nn workload oversubscribes them (splinter, evict)
#   $(BUILD)/large/<mode>/traces/      links to the suite's traces; results in check/ there
## make traces-check-large     every small workload (make traces) in lock-step with page_size =
##                             2m, = cocoa and = cocoa with coalesce_by = gmmu (tiny): zero
##                             mismatches, zero integrity errors, and
##                             large pages formed (tb/tools/large_check.py)
## make test-traces-large      the quick subset of it and an oversubscribed
##                             cocoa run
.PHONY: traces-check-large test-traces-large
# (this file is read before mk/workloads.mk: its variables appear in recipes only)
LRG_DIR := $(BUILD)/large
lrg_comma := ,
LRG_MODES := 2m cocoa cocoa-gmmu
LRG_OVERSUB := $(LRG_DIR)/tiny-cocoa-oversub.cfg $(LRG_DIR)/tiny-cocoa-gmmu-oversub.cfg
LRG_QUICK := sgemm,pagerank,accelsim-vectoradd-100-32

$(LRG_DIR)/tiny-%.cfg: configs/tiny.cfg
	@mkdir -p $(@D)
	{ cat configs/tiny.cfg; echo "page_size = $*"; } > $@

$(LRG_DIR)/tiny-cocoa-gmmu.cfg: configs/tiny.cfg
	@mkdir -p $(@D)
	{ cat configs/tiny.cfg; echo "page_size = cocoa"; echo "coalesce_by = gmmu"; } > $@

$(LRG_DIR)/tiny-cocoa-oversub.cfg: configs/tiny.cfg
	@mkdir -p $(@D)
	grep -v '^gpu_mem_pages' configs/tiny.cfg > $@
	{ echo "gpu_mem_pages = 1024"; echo "page_size = cocoa"; } >> $@

$(LRG_DIR)/tiny-cocoa-gmmu-oversub.cfg: $(LRG_DIR)/tiny-cocoa-oversub.cfg
	{ cat $<; echo "coalesce_by = gmmu"; } > $@

# $(1) mode, $(2) config, $(3) trace names, $(4) extra traces_check.py arguments
lrg_run = mkdir -p $(LRG_DIR)/$(1)/traces && rm -f $(LRG_DIR)/$(1)/traces/*.trc $(LRG_DIR)/$(1)/traces/check/*.json && \
  for t in $(3); do ln -s $(abspath $(WL_TRACE_DIR))/$$t.trc $(LRG_DIR)/$(1)/traces/$$t.trc; done && \
  $(PYTHON) tb/tools/traces_check.py --sim $(WL_CHECK_SIM) --gen $(WL_GEN) \
    --traces $(LRG_DIR)/$(1)/traces --small-config $(2) --only small $(4) && \
  $(PYTHON) tb/tools/large_check.py $(LRG_DIR)/$(1)/traces/check $(1)

traces-check-large: traces $(LRG_MODES:%=$(LRG_DIR)/tiny-%.cfg) $(LRG_OVERSUB)
	@$(MAKE) --no-print-directory sim CONFIG=tiny
	@$(foreach m,$(LRG_MODES),$(call lrg_run,$(m),$(LRG_DIR)/tiny-$(m).cfg,$(basename $(notdir $(WL_TRACES) $(WL_REAL_TRACES))),) && ) true
	@$(call lrg_run,cocoa-oversub,$(LRG_DIR)/tiny-cocoa-oversub.cfg,nn,)
	@$(call lrg_run,cocoa-gmmu-oversub,$(LRG_DIR)/tiny-cocoa-gmmu-oversub.cfg,nn,)

test-traces-large: traces $(LRG_MODES:%=$(LRG_DIR)/tiny-%.cfg) $(LRG_OVERSUB)
	@$(MAKE) --no-print-directory sim CONFIG=tiny
	@$(foreach m,$(LRG_MODES),$(call lrg_run,$(m),$(LRG_DIR)/tiny-$(m).cfg,$(subst $(lrg_comma), ,$(LRG_QUICK)),--workloads $(LRG_QUICK)) && ) true
	@$(call lrg_run,cocoa-oversub,$(LRG_DIR)/tiny-cocoa-oversub.cfg,nn,)
	@$(call lrg_run,cocoa-gmmu-oversub,$(LRG_DIR)/tiny-cocoa-gmmu-oversub.cfg,nn,)
# not in make test (its 15-minute budget is full): the large_*.test runs of cosim-regress are
# the lock-step large-page runs make test has
