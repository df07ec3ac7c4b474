# FuseSoC/edalize entry point: gmmu.core (CAPI2) describes the RTL (filesets, lint and sim
# targets) so the IP drops into FuseSoC flows. make stays the front door:
## make fusesoc-sim            fusesoc run --target sim ::gmmu (Verilator build + smoke test of the core)
## make fusesoc-lint           fusesoc run --target lint ::gmmu (Verilator -Wall, lint-only)
# FuseSoC searches the tree for core files: build/ (FUSESOC_IGNORE) holds copies (mutation test)
FUSESOC ?= fusesoc
.PHONY: fusesoc-lint fusesoc-sim
fusesoc-lint: gen
	@rm -rf $(BUILD)/fusesoc && mkdir -p $(BUILD)/fusesoc && touch $(BUILD)/FUSESOC_IGNORE
	cd $(BUILD)/fusesoc && $(FUSESOC) --cores-root $(CURDIR) run --target lint ::gmmu:0.1.0 \
	  > fusesoc.log 2>&1 || { cat fusesoc.log; exit 1; }
	@echo "fusesoc-lint: clean (gmmu.core, target lint)"
TEST_TARGETS += fusesoc-lint
fusesoc-sim: gen
	@rm -rf $(BUILD)/fusesoc-sim && mkdir -p $(BUILD)/fusesoc-sim && touch $(BUILD)/FUSESOC_IGNORE
	cd $(BUILD)/fusesoc-sim && $(FUSESOC) --cores-root $(CURDIR) run --target sim ::gmmu:0.1.0 \
	  > fusesoc.log 2>&1 || { cat fusesoc.log; exit 1; }
	@grep -q "smoke: PASS" $(BUILD)/fusesoc-sim/fusesoc.log
	@echo "fusesoc-sim: the packaged core builds and passes its smoke test"
TEST_FULL_TARGETS += fusesoc-sim

## make fusesoc-fpga-check     the FuseSoC trellis targets (ulx3s, orangecrab) of gmmu.core set up
##                             the same synthesis, place-and-route and packing as make fpga
##                             (scripts/fusesoc_fpga_check.py: fusesoc --setup, no tool run; 2 s;
##                             issue 25 item 6)
.PHONY: fusesoc-fpga-check
fusesoc-fpga-check: gen
	@touch $(BUILD)/FUSESOC_IGNORE 2>/dev/null || { mkdir -p $(BUILD) && touch $(BUILD)/FUSESOC_IGNORE; }
	$(PYTHON) scripts/fusesoc_fpga_check.py --fusesoc $(FUSESOC) --out $(BUILD)/fusesoc-check
TEST_TARGETS += fusesoc-fpga-check
