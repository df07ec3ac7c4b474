# FuseSoC/edalize entry point: gmmu.core (CAPI2) describes the RTL (filesets, lint/sim/synth
# targets) so the IP drops into FuseSoC flows. make stays the front door:
## make fusesoc-lint           fusesoc run --target lint ::gmmu (Verilator -Wall, lint-only)
FUSESOC ?= fusesoc
.PHONY: fusesoc-lint
fusesoc-lint: gen
	@rm -rf $(BUILD)/fusesoc && mkdir -p $(BUILD)/fusesoc
	cd $(BUILD)/fusesoc && $(FUSESOC) --cores-root $(CURDIR) run --target lint ::gmmu:0.1.0 \
	  > fusesoc.log 2>&1 || { cat fusesoc.log; exit 1; }
	@echo "fusesoc-lint: clean (gmmu.core, target lint)"
TEST_TARGETS += fusesoc-lint
