# mk/handler.mk - host-side GPU fault handler ("driver", sw-handler/), see docs/handler.md.
#
#   $(BUILD)/lib/libuvm_handler.a (+ _san)  sw-handler/*.c
#   $(BUILD)/tests/test_handler_* (+ _san)  cmocka tests with a fake device
#                                           (tb/unit/test_handler_fake.h), one program per file
## make handler                the handler libraries (normal and ASan+UBSan)
## make test-handler           unit tests of the handler (fake device), normal and sanitized

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
