# mk/cmodel.mk - hand-written C golden model of gmmu_top (cmodel/), see docs/cmodel.md.
#
#   $(BUILD)/lib/libgmmu_model.a (+ _san)   cmodel/*.c (needs only libgmmu_common.a besides)
#   $(BUILD)/tests/test_cmodel_* (+ _san)   cmocka unit tests (tb/unit/test_cmodel_*.c, one program
#                                           each, with the harness test_cmodel_harness.c)
## make cmodel                 the C model libraries (normal and ASan+UBSan)
## make test-cmodel            unit tests of every C model block, normal and sanitized

CM_SRC := $(wildcard cmodel/*.c)
CM_LIB := $(BUILD)/lib/libgmmu_model.a
CM_LIB_SAN := $(BUILD)/lib/libgmmu_model_san.a
CM_TEST_SRC := $(filter-out tb/unit/test_cmodel_harness.c,$(wildcard tb/unit/test_cmodel_*.c))
CM_TESTS := $(call c_test_bins,$(CM_TEST_SRC))

$(eval $(call c_library,gmmu_model,$(CM_SRC)))
$(eval $(call c_tests,$(CM_TEST_SRC),tb/unit/test_cmodel_harness.c,gmmu_model gmmu_common))
$(call c_objs,tb/unit/test_cmodel_harness.c $(CM_TEST_SRC)) \
$(call c_objs,tb/unit/test_cmodel_harness.c $(CM_TEST_SRC),san): CFLAGS_EXTRA := -Icmodel -Itb/unit

.PHONY: cmodel test-cmodel
cmodel: $(CM_LIB) $(CM_LIB_SAN)
test-cmodel: $(CM_TESTS)
	$(RUN_TESTS)
TEST_TARGETS += test-cmodel
