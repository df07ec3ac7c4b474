# mk/handler.mk - host-side GPU fault handler ("driver", sw-handler/), see docs/handler.md.
#
#   $(BUILD)/lib/libuvm_handler.a (+ _san)  sw-handler/*.c
#   $(BUILD)/tests/test_handler_* (+ _san)  cmocka tests with a fake device
#                                           (tb/unit/test_handler_fake.h), one program per file
## make handler                the handler libraries (normal and ASan+UBSan)
## make test-handler           unit tests of the handler (fake device), normal and sanitized
## make check-layers           the file-level call graphs (nm of the objects,
##                             scripts/check_layers.py) of the handler, the C model and the
##                             platform with the host program: each fails on a cycle

HDL_SRC := $(wildcard sw-handler/*.c)
HDL_LIB := $(BUILD)/lib/libuvm_handler.a
HDL_LIB_SAN := $(BUILD)/lib/libuvm_handler_san.a
HDL_TEST_SRC := $(wildcard tb/unit/test_handler_*.c)
HDL_TESTS := $(call c_test_bins,$(HDL_TEST_SRC))

$(eval $(call c_library,uvm_handler,$(HDL_SRC)))
$(eval $(call c_tests,$(HDL_TEST_SRC),,uvm_handler gmmu_common))

.PHONY: handler test-handler
handler: $(HDL_LIB) $(HDL_LIB_SAN)
test-handler: $(HDL_TESTS)
	$(RUN_TESTS)
TEST_TARGETS += test-handler

# A file depends on another when its object references a symbol the other defines; ops tables
# (function pointers) are not references. The handler, the C model and the platform with the
# host program must each be acyclic (docs/handler.md "Layers", docs/cosim.md "Platform models").
LAYER_COSIM_SRC = $(filter-out cosim/vshim.cpp,$(COSIM_SRC)) host/host_drv.c
.PHONY: check-layers
check-layers: $(call c_objs,$(HDL_SRC)) $(call c_objs,$(CM_SRC)) $(call c_objs,$(LAYER_COSIM_SRC))
	@sh scripts/check_layers_test.sh
	@$(PYTHON) scripts/check_layers.py $(call c_objs,$(HDL_SRC))
	@$(PYTHON) scripts/check_layers.py --quiet $(call c_objs,$(CM_SRC))
	@$(PYTHON) scripts/check_layers.py --quiet $(call c_objs,$(LAYER_COSIM_SRC))
TEST_TARGETS += check-layers
