# mk/handler.mk - host-side GPU fault handler ("driver", sw-handler/), see docs/handler.md.
#
#   $(BUILD)/lib/libuvm_handler.a       sw-handler/*.c
#   $(BUILD)/lib/libuvm_handler_san.a   same, with $(SAN) (ASan + UBSan)
#   $(BUILD)/tests/test_handler_*       cmocka tests (fake device, tb/unit/test_handler_fake.h), plus
#                                       *_san variants; every tb/unit/test_handler_*.c is one program
#   make handler                        both libraries
#   make test-handler                   build and run the tests, normal and sanitized

HDL_SRC := $(wildcard sw-handler/*.c)
HDL_HDR := $(wildcard sw-handler/*.h) sw-handler/include/uvm_handler.h \
           sw-handler/include/uvm_dev.h $(GEN_H)
HDL_OBJDIR := $(BUILD)/obj/sw-handler
HDL_OBJ := $(patsubst sw-handler/%.c,$(HDL_OBJDIR)/%.o,$(HDL_SRC))
HDL_OBJ_SAN := $(patsubst sw-handler/%.c,$(HDL_OBJDIR)/%_san.o,$(HDL_SRC))
HDL_LIB := $(BUILD)/lib/libuvm_handler.a
HDL_LIB_SAN := $(BUILD)/lib/libuvm_handler_san.a

HDL_TEST_SRC := $(wildcard tb/unit/test_handler_*.c)
HDL_TESTS := $(patsubst tb/unit/%.c,$(BUILD)/tests/%,$(HDL_TEST_SRC))
HDL_TESTS_SAN := $(addsuffix _san,$(HDL_TESTS))
HDL_TEST_HDR := $(wildcard tb/unit/test_handler_*.h)

.PHONY: handler test-handler

handler: $(HDL_LIB) $(HDL_LIB_SAN)

$(HDL_OBJ): $(HDL_OBJDIR)/%.o: sw-handler/%.c $(HDL_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -c $< -o $@

$(HDL_OBJ_SAN): $(HDL_OBJDIR)/%_san.o: sw-handler/%.c $(HDL_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(SAN) -c $< -o $@

$(HDL_LIB): $(HDL_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(HDL_LIB_SAN): $(HDL_OBJ_SAN)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(HDL_TESTS): $(BUILD)/tests/%: tb/unit/%.c $(HDL_LIB) $(HDL_HDR) $(HDL_TEST_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $< $(HDL_LIB) -lcmocka -o $@

$(HDL_TESTS_SAN): $(BUILD)/tests/%_san: tb/unit/%.c $(HDL_LIB_SAN) $(HDL_HDR) $(HDL_TEST_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(SAN) $< $(HDL_LIB_SAN) -lcmocka -o $@

test-handler: $(HDL_TESTS) $(HDL_TESTS_SAN)
	@set -e; for t in $(HDL_TESTS) $(HDL_TESTS_SAN); do echo "== $$t"; $$t; done

TEST_TARGETS += test-handler
