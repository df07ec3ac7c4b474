# mk/common.mk - shared C utilities (common/), see docs/architecture.md: the one hash map
# (u64map_), the PRNGs and hashes (rng.h, header only), the number parser (num_) and the
# error-message helper (err_). Every C area links it last.
#
#   $(BUILD)/lib/libgmmu_common.a (+ _san)  common/*.c (position-independent: the shared trace
#                                           library $(BUILD)/lib/libgmmu_trace.so includes them)
#   $(BUILD)/tests/test_common_* (+ _san)   cmocka unit tests (tb/unit/test_common_*.c)
## make common                 the shared C utility libraries (normal and ASan+UBSan)
## make test-common            unit tests of common/ (hash map, PRNGs, number parser, errors)

COMMON_SRC := $(wildcard common/*.c)
COMMON_LIB := $(BUILD)/lib/libgmmu_common.a
COMMON_LIB_SAN := $(BUILD)/lib/libgmmu_common_san.a
COMMON_TEST_SRC := $(wildcard tb/unit/test_common_*.c)
COMMON_TESTS := $(call c_test_bins,$(COMMON_TEST_SRC))

$(eval $(call c_library,gmmu_common,$(COMMON_SRC)))
$(eval $(call c_tests,$(COMMON_TEST_SRC),,gmmu_common))
$(call c_objs,$(COMMON_SRC)): CFLAGS_EXTRA := -fPIC

.PHONY: common test-common
common: $(COMMON_LIB) $(COMMON_LIB_SAN)
test-common: $(COMMON_TESTS)
	$(RUN_TESTS)
TEST_TARGETS += test-common
