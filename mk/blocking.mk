# mk/blocking.mk - the small workload suite in the blocking fault mode (docs/microarch.md §4.1).
#
#   $(BUILD)/blocking/tiny-blocking.cfg  configs/tiny.cfg + fault_mode = blocking
#   $(BUILD)/blocking/traces/            links to the suite's traces; results in check/ there
#                                        (apart from build/traces/check, which the statistics
#                                        snapshot reads)
## make traces-check-blocking  every small workload (make traces) in lock-step, fault_mode =
##                             blocking: zero mismatches, zero integrity errors, no fatal fault
## make test-traces-replay-blocking  the quick subset of test-traces-replay in blocking mode
.PHONY: traces-check-blocking test-traces-replay-blocking
# (this file is read before mk/workloads.mk: its variables appear in recipes only)
BLK_DIR := $(BUILD)/blocking
blk_comma := ,
BLK_CFG := $(BLK_DIR)/tiny-blocking.cfg

$(BLK_CFG): configs/tiny.cfg
	@mkdir -p $(@D)
	{ cat configs/tiny.cfg; echo "fault_mode = blocking"; } > $@

# $(call suite_links,DIR,NAMES): DIR/NAME.trc links to the suite's traces (also mk/prefetch.mk),
# so that a run's check/ results stay apart from build/traces/check (the snapshot reads that)
suite_links = mkdir -p $(1) && rm -f $(1)/*.trc && \
  for t in $(2); do ln -s $(abspath $(WL_TRACE_DIR))/$$t.trc $(1)/$$t.trc; done
blk_links = $(call suite_links,$(BLK_DIR)/traces,$(1))

traces-check-blocking: traces $(BLK_CFG)
	@$(MAKE) --no-print-directory sim CONFIG=tiny
	@$(call blk_links,$(basename $(notdir $(WL_TRACES) $(WL_REAL_TRACES))))
	$(PYTHON) tb/tools/traces_check.py --sim $(WL_CHECK_SIM) --gen $(WL_GEN) \
	  --traces $(BLK_DIR)/traces --small-config $(BLK_CFG) --only small

test-traces-replay-blocking: traces $(BLK_CFG)
	@$(MAKE) --no-print-directory sim CONFIG=tiny
	@$(call blk_links,$(subst $(blk_comma), ,$(WL_QUICK)))
	$(PYTHON) tb/tools/traces_check.py --sim $(WL_CHECK_SIM) --gen $(WL_GEN) \
	  --traces $(BLK_DIR)/traces --small-config $(BLK_CFG) --only small --workloads $(WL_QUICK)
TEST_TARGETS += test-traces-replay-blocking
