# mk/netlist_ecp5.mk - the bitstream's own netlist in lock-step (issue 25 item 4, docs/fpga.md
# "The ECP5 netlist in lock-step"): gmmu_top mapped by synth_ecp5 (the flow of make fpga, without
# place and route) and simulated with Yosys's ECP5 cell models as the engine `netlist` of gmmu-sim
# (the interface of mk/netlist.mk's generic netlist, nl_variant).
#
#   $(BUILD)/<config>/vnetlist-ecp5/gmmu_top_syn.v   the ECP5 netlist (scripts/synth_ecp5_netlist.py:
#                                                     LUT4, TRELLIS_FF, CCU2C, PFUMX, L6MUX21,
#                                                     TRELLIS_DPR16X4, DP16KD instances)
#   $(BUILD)/<config>/vnetlist-ecp5/cells/            the cell models of the Yosys that mapped it
#   $(BUILD)/<config>/gmmu-sim-netlist-ecp5           gmmu-sim with the RTL and this netlist
#   $(BUILD)/<config>/vnetlist-ecp5-mut/              the mis-mapped netlist (synth_mutate.py on
#                                                     TRELLIS_FF cells), gmmu-sim-netlist-ecp5-mut
#
## make sim-netlist-ecp5 CONFIG=x  gmmu-sim-netlist-ecp5: the ECP5 netlist (synth_ecp5) with Yosys's
##                             ECP5 cell models as the engine `netlist`
## make test-netlist-ecp5      NL_QUICK of configuration tiny in lock-step ECP5 netlist vs C model,
##                             one run vs the RTL, and the mis-mapping check (synth_mutate_test.sh
##                             on the ECP5 netlist: a swapped pair of TRELLIS_FF data inputs is
##                             caught); in make test-full (docs/fpga.md "The ECP5 netlist in
##                             lock-step")
.PRECIOUS: $(BUILD)/%/vnetlist-ecp5/gmmu_top_syn.v $(BUILD)/%/vnetlist-ecp5-mut/gmmu_top_syn.v

$(BUILD)/%/vnetlist-ecp5/gmmu_top_syn.v: $(NL_RTL_SRCS) configs/%.cfg scripts/synth_ecp5_netlist.py scripts/synth.py \
                                         | gen $(DEPS_STAMP)
	@mkdir -p $(@D)
	@echo "yosys: synth_ecp5 of gmmu_top for CONFIG=$* (ECP5 netlist engine)"
	$(PYTHON) scripts/synth_ecp5_netlist.py --config configs/$*.cfg --verilog $@ \
	  > $(@D)/synth.log 2>&1 || { cat $(@D)/synth.log; exit 1; }
	@cat $(@D)/synth.log

# the mutant shares the cell models of the checked netlist
$(BUILD)/%/vnetlist-ecp5-mut/gmmu_top_syn.v: $(BUILD)/%/vnetlist-ecp5/gmmu_top_syn.v scripts/synth_mutate.py
	@mkdir -p $(@D)
	rm -rf $(@D)/cells && cp -r $(<D)/cells $(@D)/cells
	$(PYTHON) scripts/synth_mutate.py $< $@

# the cell models are Yosys's, not this project's: fpga/sim/ecp5_cells.vlt waives their lint
# warnings (each named and explained there) and the netlist's unconnected TRELLIS_FF pins
NL_ECP5_VL = fpga/sim/ecp5_cells.vlt $$(@D)/../cells/cells_sim_ecp5.v -I$$(@D)/../cells
$(eval $(call nl_variant,vnetlist-ecp5,gmmu-sim-netlist-ecp5,-O2,$(NL_ECP5_VL),fpga/sim/ecp5_cells.vlt))
$(eval $(call nl_variant,vnetlist-ecp5-mut,gmmu-sim-netlist-ecp5-mut,-O0,$(NL_ECP5_VL),fpga/sim/ecp5_cells.vlt))

.PHONY: sim-netlist-ecp5 sim-netlist-ecp5-mut test-netlist-ecp5
sim-netlist-ecp5: $(BUILD)/$(CONFIG)/gmmu-sim-netlist-ecp5
sim-netlist-ecp5-mut: $(BUILD)/$(CONFIG)/gmmu-sim-netlist-ecp5-mut

test-netlist-ecp5: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory trace-lib sim sim-netlist-ecp5 sim-netlist-ecp5-mut CONFIG=tiny
	$(PYTHON) scripts/run_test.py --make '$(MAKE)' --build $(BUILD) --netlist-ecp5 \
	  --only-binary tiny --no-build -j 2 $(NL_QUICK)
	$(PYTHON) scripts/run_test.py --make '$(MAKE)' --build $(BUILD) --netlist-ecp5 \
	  --only-binary tiny --no-build --engine rtl,netlist random_3
	bash scripts/synth_mutate_test.sh $(BUILD)/tiny ecp5
# In make test-full (2026-11-28, session 7: passed, 40 NL_QUICK tests + random_3 rtl,netlist + the
# mutant caught; docs/fpga.md). Cost: synth_ecp5 of tiny (4 min) and two Verilator builds of the
# cell-model netlist (about 50 min each on the loaded 2-core machine, not measured quiet), then
# about 5 min of runs.
TEST_FULL_TARGETS += test-netlist-ecp5
