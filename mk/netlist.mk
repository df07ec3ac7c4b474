# mk/netlist.mk - post-synthesis simulation: the gate-level netlist of gmmu_top as the engine
# `netlist` of gmmu-sim (cosim/engine_netlist.c, docs/cosim.md "The netlist engine").
#
#   $(BUILD)/<config>/vnetlist/gmmu_top_syn.v   Yosys netlist (scripts/synth.py --verilog: slang
#                                                front end, generic synth -flatten, flip-flop
#                                                count checked before the file is written)
#   $(BUILD)/<config>/vnetlist/obj/              its Verilator model, --prefix V<config>_netlist
#   $(BUILD)/<config>/vnetlist/vshim_ns.o        the shim in the name space "netlist"
#   $(BUILD)/<config>/gmmu-sim-netlist           gmmu-sim with the RTL and the netlist models
#
## make sim-netlist CONFIG=x   gmmu-sim-netlist: gmmu-sim with the synthesized netlist linked in
##                             as the engine `netlist` (--engine cmodel,netlist / rtl,netlist)
## make test-netlist           the regression of configuration tiny in lock-step netlist vs C
##                             model, one run netlist vs RTL, and the struct mis-synthesis check
##                             (netlist of the old read_verilog front end caught)
NL_CONFIG = $(if $(filter command line environment,$(origin CONFIG)),$(CONFIG),tiny)
nl_prefix = $(call vl_prefix,$(1))_netlist
# UNOPTFLAT: bit vectors of the flattened netlist that Verilator cannot split (speed only)
NL_VL_OPTS := --cc --trace-fst --x-assign fast --x-initial fast -O3 -Wno-UNOPTFLAT \
              --top-module gmmu_top -CFLAGS -O2
NL_SIM_BIN = $(BUILD)/$(CONFIG)/gmmu-sim-netlist

.PRECIOUS: $(BUILD)/%/vnetlist/gmmu_top_syn.v $(BUILD)/%/vnetlist/obj/.model \
           $(BUILD)/%/vnetlist/vshim_ns.o

$(BUILD)/%/vnetlist/gmmu_top_syn.v: $(RTL_SRCS) configs/%.cfg scripts/synth.py | $(DEPS_STAMP)
	@mkdir -p $(@D)
	@echo "yosys: synthesizing gmmu_top for CONFIG=$* (netlist engine)"
	$(PYTHON) scripts/synth.py --config configs/$*.cfg --out $(@D)/synth --verilog $@ \
	  > $(@D)/synth.log 2>&1 || { cat $(@D)/synth.log; exit 1; }

$(BUILD)/%/vnetlist/obj/.model: $(BUILD)/%/vnetlist/gmmu_top_syn.v mk/netlist.mk
	@mkdir -p $(@D)
	@echo "verilator: building the gmmu_top netlist for CONFIG=$* (--prefix $(call nl_prefix,$*))"
	$(VERILATOR) $(NL_VL_OPTS) --prefix $(call nl_prefix,$*) --build -j 2 -Mdir $(@D) $< \
	  > $(@D)/../verilator.log 2>&1 || { cat $(@D)/../verilator.log; exit 1; }
	touch $@

# the shim of the netlist model: vshim.cpp with the netlist's class and the name space "netlist"
$(BUILD)/%/vnetlist/vshim_ns.o: $(BUILD)/%/vnetlist/obj/.model $(SHIM_DEPS)
	$(call shim_cxx,$*,-UVSHIM_TOP -DVSHIM_TOP=$(call nl_prefix,$*) -DVSHIM_NS=netlist,$@,vnetlist)

# both models and the Verilator runtime of the RTL model (same Verilator, same options)
$(NL_SIM_BIN): $(BUILD)/obj/cosim/sim_main.o $(call c_libs,$(SIM_LIBS)) \
               $(BUILD)/$(CONFIG)/vdut/libvdut.a $(BUILD)/$(CONFIG)/vnetlist/vshim_ns.o
	@mkdir -p $(@D)
	$(CXX) -o $@ $(BUILD)/obj/cosim/sim_main.o $(BUILD)/$(CONFIG)/vnetlist/vshim_ns.o \
	  $(BUILD)/$(CONFIG)/vnetlist/obj/$(call nl_prefix,$(CONFIG))__ALL.a \
	  $(call c_libs,$(SIM_LIBS)) $(BUILD)/$(CONFIG)/vdut/libvdut.a $(VDUT_LDLIBS) -lm

.PHONY: sim-netlist test-netlist
sim-netlist: $(NL_SIM_BIN)
