# Verilator model of gmmu_top for one configuration, plus the C shim (cosim/vshim.cpp).
# Provides $(BUILD)/<config>/vdut/libvdut.a and VDUT_LDLIBS. The -G parameters come from
# configs/<config>.cfg through scripts/cfg_vflags.py (the C side parses the same file).
VERILATOR   ?= verilator
VL_ROOT     := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)
VDUT_DIR     = $(BUILD)/$(CONFIG)/vdut
VDUT_LIB     = $(VDUT_DIR)/libvdut.a
VDUT_LDLIBS := -lz -lpthread
RTL_SRCS     = $(GEN_SV) $(wildcard rtl/*.sv) rtl/files.f
VL_OPTS     := --cc --assert --trace-fst --x-assign fast --x-initial fast -O3 \
               --top-module gmmu_top -CFLAGS -O2

.PHONY: vdut
vdut: $(VDUT_LIB)

$(VDUT_LIB): $(RTL_SRCS) configs/$(CONFIG).cfg cosim/vshim.cpp cosim/vshim.h \
             cmodel/include/gmmu_if.h $(GEN_H) scripts/cfg_vflags.py mk/verilator.mk
	@mkdir -p $(VDUT_DIR)
	@echo "verilator: building gmmu_top for CONFIG=$(CONFIG)"
	$(VERILATOR) $(VL_OPTS) --build -j 2 -Mdir $(VDUT_DIR)/obj -f rtl/files.f \
	  $$($(PYTHON) scripts/cfg_vflags.py configs/$(CONFIG).cfg) > $(VDUT_DIR)/verilator.log 2>&1 \
	  || { cat $(VDUT_DIR)/verilator.log; exit 1; }
	$(MAKE) -s -C $(VDUT_DIR)/obj -f Vgmmu_top.mk verilated.o verilated_fst_c.o verilated_threads.o \
	  > /dev/null
	$(CXX) -std=c++14 -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -faligned-new -c cosim/vshim.cpp -o $(VDUT_DIR)/vshim.o \
	  -I$(VDUT_DIR)/obj -I$(VL_ROOT)/include -I$(VL_ROOT)/include/vltstd $(INC) \
	  $$($(PYTHON) scripts/cfg_vflags.py --defines configs/$(CONFIG).cfg)
	cp $(VDUT_DIR)/obj/Vgmmu_top__ALL.a $@.tmp
	ar rs $@.tmp $(VDUT_DIR)/vshim.o $(VDUT_DIR)/obj/verilated.o \
	  $(VDUT_DIR)/obj/verilated_fst_c.o $(VDUT_DIR)/obj/verilated_threads.o
	mv $@.tmp $@
