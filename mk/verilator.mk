# Verilator model of gmmu_top for one configuration, plus the C shim (cosim/vshim.cpp).
# Provides $(BUILD)/<config>/vdut/libvdut.a and VDUT_LDLIBS. The -G parameters come from
# configs/<config>.cfg through scripts/cfg_vflags.py (the C side parses the same file); the
# flags go through a shell variable, so a configuration the script refuses stops the build
# (issue 26: a $$(...) inside the command line lost its exit status and built without -G).
#
# The model is built with --prefix V<config> (class Vtiny, Vdefault, ...), so models of several
# configurations (or RTL and a future netlist) link into one binary; the shim is compiled per
# model: vshim.o (C names vshim_*, in libvdut.a, used by gmmu-sim) and vshim_ns.o (-DVSHIM_NS:
# names vshim_<config>_*, for binaries with several models, e.g. test-two-models below).
# A change of the shim or of the port list recompiles the shim only, not the model.
VERILATOR   ?= verilator
VL_ROOT     := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)
VDUT_DIR     = $(BUILD)/$(CONFIG)/vdut
VDUT_LIB     = $(VDUT_DIR)/libvdut.a
VDUT_LDLIBS := -lz -lpthread
RTL_SRCS     = $(RTL_GEN) $(wildcard rtl/*.sv) rtl/files.f
VL_OPTS     := --cc --assert --trace-fst --x-assign fast --x-initial fast -O3 \
               --top-module gmmu_top -CFLAGS -O2
vl_prefix    = V$(subst -,_,$(1))
VL_RUNTIME   = verilated.o verilated_fst_c.o verilated_threads.o
SHIM_DEPS   := cosim/vshim.cpp cosim/vshim.h cmodel/include/gmmu_if.h $(GEN_H) \
               cmodel/gen/gmmu_ports.h cmodel/gen/vshim_ports.inc scripts/cfg_vflags.py
# $(call shim_cxx,config,extra flags,output[,model directory: vdut])
shim_cxx = vdefs=$$($(PYTHON) scripts/cfg_vflags.py --defines configs/$(1).cfg) || exit 1; \
  $(CXX) -std=c++14 -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -faligned-new \
  -c cosim/vshim.cpp -o $(3) -I$(BUILD)/$(1)/$(or $(4),vdut)/obj -I$(VL_ROOT)/include \
  -I$(VL_ROOT)/include/vltstd $(INC) -DVSHIM_TOP=$(call vl_prefix,$(1)) $(2) $$vdefs

## make vdut CONFIG=x          the Verilator model of gmmu_top + shim -> build/x/vdut/libvdut.a
.PHONY: vdut
vdut: $(VDUT_LIB)
# the pattern rules' stamp and objects are not intermediate files (make would delete them)
.PRECIOUS: $(BUILD)/%/vdut/obj/.model $(BUILD)/%/vdut/vshim.o $(BUILD)/%/vdut/vshim_ns.o

# the Verilated model and the Verilator runtime objects
$(BUILD)/%/vdut/obj/.model: $(RTL_SRCS) configs/%.cfg scripts/cfg_vflags.py mk/verilator.mk
	@mkdir -p $(@D)
	@echo "verilator: building gmmu_top for CONFIG=$* (--prefix $(call vl_prefix,$*))"
	vflags=$$($(PYTHON) scripts/cfg_vflags.py configs/$*.cfg) || exit 1; \
	$(VERILATOR) $(VL_OPTS) --prefix $(call vl_prefix,$*) --build -j 2 -Mdir $(@D) -f rtl/files.f \
	  $$vflags > $(@D)/../verilator.log 2>&1 \
	  || { cat $(@D)/../verilator.log; exit 1; }
	$(MAKE) -s -C $(@D) -f $(call vl_prefix,$*).mk $(VL_RUNTIME) > /dev/null
	touch $@

$(BUILD)/%/vdut/vshim.o: $(BUILD)/%/vdut/obj/.model $(SHIM_DEPS)
	$(call shim_cxx,$*,,$@)

$(BUILD)/%/vdut/vshim_ns.o: $(BUILD)/%/vdut/obj/.model $(SHIM_DEPS)
	$(call shim_cxx,$*,-DVSHIM_NS=$(subst -,_,$*),$@)

$(BUILD)/%/vdut/libvdut.a: $(BUILD)/%/vdut/obj/.model $(BUILD)/%/vdut/vshim.o
	cp $(BUILD)/$*/vdut/obj/$(call vl_prefix,$*)__ALL.a $@.tmp
	ar rs $@.tmp $(BUILD)/$*/vdut/vshim.o $(addprefix $(BUILD)/$*/vdut/obj/,$(VL_RUNTIME))
	mv $@.tmp $@

# The debug model for gmmu-sim --state-compare (docs/cosim.md): the same RTL with every _q
# signal public (cosim/statecmp.vlt), in its own directory so the normal model keeps its speed;
# the name table of its registers is generated from the model's symbol table.
.PRECIOUS: $(BUILD)/%/vdut-state/obj/.model $(BUILD)/%/vdut-state/vshim.o \
           $(BUILD)/%/vdut-state/gmmu_state_table.inc
$(BUILD)/%/vdut-state/obj/.model: $(RTL_SRCS) configs/%.cfg scripts/cfg_vflags.py mk/verilator.mk \
                                  cosim/statecmp.vlt
	@mkdir -p $(@D)
	@echo "verilator: building gmmu_top with public _q signals for CONFIG=$*"
	vflags=$$($(PYTHON) scripts/cfg_vflags.py configs/$*.cfg) || exit 1; \
	$(VERILATOR) $(VL_OPTS) --prefix $(call vl_prefix,$*) --build -j 2 -Mdir $(@D) \
	  cosim/statecmp.vlt -f rtl/files.f $$vflags \
	  > $(@D)/../verilator.log 2>&1 || { cat $(@D)/../verilator.log; exit 1; }
	$(MAKE) -s -C $(@D) -f $(call vl_prefix,$*).mk $(VL_RUNTIME) > /dev/null
	touch $@

$(BUILD)/%/vdut-state/gmmu_state_table.inc: $(BUILD)/%/vdut-state/obj/.model \
                                            scripts/gen_state_table.py
	$(PYTHON) scripts/gen_state_table.py $(BUILD)/$*/vdut-state/obj/$(call vl_prefix,$*)__Syms.cpp $@

$(BUILD)/%/vdut-state/vshim.o: $(BUILD)/%/vdut-state/gmmu_state_table.inc $(SHIM_DEPS)
	$(call shim_cxx,$*,-DVSHIM_STATE -I$(BUILD)/$*/vdut-state,$@,vdut-state)

$(BUILD)/%/vdut-state/libvdut.a: $(BUILD)/%/vdut-state/obj/.model $(BUILD)/%/vdut-state/vshim.o
	cp $(BUILD)/$*/vdut-state/obj/$(call vl_prefix,$*)__ALL.a $@.tmp
	ar rs $@.tmp $(BUILD)/$*/vdut-state/vshim.o \
	  $(addprefix $(BUILD)/$*/vdut-state/obj/,$(VL_RUNTIME))
	mv $@.tmp $@

# Two Verilated models of different configurations in one binary (tiny and default: their
# models are built by cosim-regress-full anyway): links, steps each, checks they are independent.
TWO_MODELS_BIN := $(BUILD)/tests/test_two_models
TWO_MODELS_OBJ := $(BUILD)/tiny/vdut/vshim_ns.o $(BUILD)/default/vdut/vshim_ns.o
$(TWO_MODELS_BIN): tb/unit/test_two_models.c $(TWO_MODELS_OBJ) $(SHIM_DEPS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -c tb/unit/test_two_models.c -o $@.o
	$(CXX) -o $@ $@.o $(TWO_MODELS_OBJ) $(BUILD)/tiny/vdut/obj/Vtiny__ALL.a \
	  $(BUILD)/default/vdut/obj/Vdefault__ALL.a \
	  $(addprefix $(BUILD)/tiny/vdut/obj/,$(VL_RUNTIME)) $(VDUT_LDLIBS) -lcmocka
## make test-two-models        two Verilated models (tiny, default) linked in one binary
.PHONY: test-two-models
test-two-models: $(TWO_MODELS_BIN)
	$(TWO_MODELS_BIN)
# make test-full since 2026-11-28: with the default configuration's tests out of make test
# (mk/cosim.mk COSIM_REGRESS_SKIP), default's 100-s Verilator build would be for this test alone
TEST_FULL_TARGETS += test-two-models

# Lock-step unit tests: scenarios of a C model unit test (tb/unit/test_cmodel_<x>.c) run by
# tb/unit/test_<name>_lockstep.c with the Verilated RTL of configs/<cfg>.cfg beside the C model,
# every output port compared every cycle (tb/unit/test_lockstep.h).
# $(1): test name (asid, co, pwc), $(2): the scenario file it includes, $(3): the configuration
# (asid4 when empty)
LS_COMMON_SRC := tb/unit/test_lockstep.h tb/unit/test_cmodel_harness.c \
                 tb/unit/test_cmodel_harness.h cosim/compare.c
define lockstep_test
$(BUILD)/tests/test_$(1)_lockstep: tb/unit/test_$(1)_lockstep.c $(2) $(LS_COMMON_SRC) \
    $(BUILD)/$(or $(3),asid4)/vdut/libvdut.a $(BUILD)/lib/libgmmu_model.a \
    $(BUILD)/lib/libgmmu_common.a $$(SHIM_DEPS)
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS_COMMON) -Icmodel -Itb/unit -c tb/unit/test_$(1)_lockstep.c -o $$@.o
	$$(CC) $$(CFLAGS_COMMON) -Icmodel -Itb/unit -c tb/unit/test_cmodel_harness.c -o $$@.harness.o
	$$(CC) $$(CFLAGS_COMMON) -c cosim/compare.c -o $$@.compare.o
	$$(CXX) -o $$@ $$@.o $$@.harness.o $$@.compare.o $(BUILD)/$(or $(3),asid4)/vdut/libvdut.a \
	  $(BUILD)/lib/libgmmu_model.a $(BUILD)/lib/libgmmu_common.a $$(VDUT_LDLIBS) -lcmocka
.PHONY: test-$(1)-lockstep
test-$(1)-lockstep: $(BUILD)/tests/test_$(1)_lockstep
	$(BUILD)/tests/test_$(1)_lockstep
TEST_TARGETS += test-$(1)-lockstep
endef

# Address spaces in lock-step (docs/microarch.md §14.9): the scenarios of test_cmodel_asid.c (the
# platform drives one address space per SM partition, so several ASIDs in one SM are driven here)
## make test-asid-lockstep     several address spaces, RTL and C model in lock-step (configs/asid4.cfg)
$(eval $(call lockstep_test,asid,tb/unit/test_cmodel_asid.c))
# ... and the same scenarios on a set-associative L1 base array (docs/microarch.md §1.4, issue 25)
## make test-asid_l1sa-lockstep  the address-space scenarios on l1_sets = 4 (configs/l1sa.cfg)
$(eval $(call lockstep_test,asid_l1sa,tb/unit/test_cmodel_asid.c,l1sa))
# Coalesce unit in lock-step (docs/microarch.md §15): the scenarios of test_cmodel_co.c (also a
# coalesce / splinter in one of two address spaces mapping the same region, which the platform
# cannot drive)
## make test-co-lockstep       coalesce / splinter scenarios, RTL and C model in lock-step (asid4)
$(eval $(call lockstep_test,co,tb/unit/test_cmodel_co.c))
# Page-walk cache in lock-step (docs/microarch.md §16): the scenarios of test_cmodel_pwc.c on
# configs/pwc.cfg (hits at each level, the large entry, invalidation by page / ASID / all, the
# race of an in-flight read with an invalidation of its path)
## make test-pwc-lockstep      page-walk cache scenarios, RTL and C model in lock-step (pwc)
$(eval $(call lockstep_test,pwc,tb/unit/test_cmodel_pwc.c,pwc))
