# mk/prefetch.mk - the small workload suite in lock-step under every prefetcher (issue 8,
# docs/handler.md §6c-6d).
#
#   $(BUILD)/prefetch/tiny-POLICY.cfg   configs/tiny.cfg + prefetch_policy = POLICY + PF_SETS (written
#                                       by each run)
#   $(BUILD)/prefetch/POLICY/           links to the suite's traces; results in check/ there
## make traces-check-prefetch  every small workload (make traces) in lock-step under each
##                             prefetcher (PF_POLICIES): zero mismatches, zero integrity errors,
##                             no fatal fault; PF_POLICIES='oracle locality' runs a part,
##                             PF_SETS='migrate_max_pages=1' other keys (default: multi-page DMA)
.PHONY: traces-check-prefetch
PF_DIR := $(BUILD)/prefetch
PF_POLICIES ?= nvidia tbn seq_local random_local random sequential locality oracle
# the driver's multi-page DMA (a run of contiguous pages is one copy), as docs/handler.md measured
PF_SETS ?= migrate_max_pages=512

traces-check-prefetch: traces configs/tiny.cfg
	@$(MAKE) --no-print-directory sim CONFIG=tiny
	@set -e; for p in $(PF_POLICIES); do \
	  echo "== prefetch_policy = $$p $(PF_SETS)"; cfg=$(PF_DIR)/tiny-$$p.cfg; \
	  $(call suite_links,$(PF_DIR)/$$p,$(basename $(notdir $(WL_TRACES) $(WL_REAL_TRACES)))); \
	  { cat configs/tiny.cfg; echo "prefetch_policy = $$p"; \
	    for kv in $(PF_SETS); do echo "$${kv%%=*} = $${kv#*=}"; done; } > $$cfg; \
	  $(PYTHON) tb/tools/traces_check.py --sim $(WL_CHECK_SIM) --gen $(WL_GEN) \
	    --traces $(PF_DIR)/$$p --small-config $$cfg --only small; \
	done
