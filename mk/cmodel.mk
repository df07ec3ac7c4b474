# mk/cmodel.mk - hand-written C golden model of gmmu_top (cmodel/), see docs/cmodel.md.
#
#   $(BUILD)/lib/libgmmu_model.a        cmodel/*.c
#   $(BUILD)/lib/libgmmu_model_san.a    same, with $(SAN) (ASan + UBSan)
#   $(BUILD)/tests/test_cmodel_*        cmocka unit tests, plus *_san variants
#   make cmodel                         both libraries
#   make test-cmodel                    build and run the tests, normal and sanitized

CM_SRC := $(wildcard cmodel/*.c)
CM_HDR := $(wildcard cmodel/*.h) cmodel/include/gmmu_if.h cmodel/include/gmmu_model.h $(GEN_H)
CM_OBJDIR := $(BUILD)/obj/cmodel
CM_OBJ := $(patsubst cmodel/%.c,$(CM_OBJDIR)/%.o,$(CM_SRC))
CM_OBJ_SAN := $(patsubst cmodel/%.c,$(CM_OBJDIR)/%_san.o,$(CM_SRC))
CM_LIB := $(BUILD)/lib/libgmmu_model.a
CM_LIB_SAN := $(BUILD)/lib/libgmmu_model_san.a

CM_TEST_SRC := $(filter-out tb/unit/test_cmodel_harness.c,$(wildcard tb/unit/test_cmodel_*.c))
CM_TEST_HDR := $(wildcard tb/unit/test_cmodel_*.h)
CM_TEST_LIBSRC := $(wildcard tb/unit/test_cmodel_harness.c)
CM_TESTS := $(patsubst tb/unit/%.c,$(BUILD)/tests/%,$(CM_TEST_SRC))
CM_TESTS_SAN := $(addsuffix _san,$(CM_TESTS))
CM_TEST_INC := -Icmodel -Itb/unit

.PHONY: cmodel test-cmodel

cmodel: $(CM_LIB) $(CM_LIB_SAN)

$(CM_OBJ): $(CM_OBJDIR)/%.o: cmodel/%.c $(CM_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -c $< -o $@

$(CM_OBJ_SAN): $(CM_OBJDIR)/%_san.o: cmodel/%.c $(CM_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(SAN) -c $< -o $@

$(CM_LIB): $(CM_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(CM_LIB_SAN): $(CM_OBJ_SAN)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(CM_TESTS): $(BUILD)/tests/%: tb/unit/%.c $(CM_TEST_LIBSRC) $(CM_TEST_HDR) $(CM_LIB) $(CM_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(CM_TEST_INC) $< $(CM_TEST_LIBSRC) $(CM_LIB) -lcmocka -o $@

$(CM_TESTS_SAN): $(BUILD)/tests/%_san: tb/unit/%.c $(CM_TEST_LIBSRC) $(CM_TEST_HDR) $(CM_LIB_SAN) \
                 $(CM_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(SAN) $(CM_TEST_INC) $< $(CM_TEST_LIBSRC) $(CM_LIB_SAN) -lcmocka -o $@

test-cmodel: $(CM_TESTS) $(CM_TESTS_SAN)
	@set -e; for t in $(CM_TESTS) $(CM_TESTS_SAN); do echo "== $$t"; $$t; done

TEST_TARGETS += test-cmodel
