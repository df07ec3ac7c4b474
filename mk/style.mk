# C style and static analysis: clang-format (.clang-format) and cppcheck over every C source and
# header of the project (generated headers excluded).
STYLE_C   = $(shell git ls-files '*.c' '*.h' 2>/dev/null | grep -v '/gen/')
STYLE_SRC = $(filter %.c,$(STYLE_C))
## make check-style            clang-format, cppcheck, size limits (C file <= 600 lines, function <= 100
##                             lines in cosim/ cmodel/ sw-handler/ common/: scripts/check_sizes.py)
##                             and no page-size key tested, no PTE map/unmap, INVAL_PAGE or D2H
##                             copy outside the handler's placement layer
## make format                 clang-format -i every C source and header
.PHONY: check-style format
check-style: gen
	@clang-format --dry-run --Werror $(STYLE_C)
	@cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability --std=c11 \
	  --inline-suppr --suppress=missingIncludeSystem $(INC) $(STYLE_SRC)
	@$(PYTHON) scripts/check_sizes.py
	@$(PLACE_CHECK)
	@$(PLACE_OPS_CHECK)
	@echo "check-style: clang-format and cppcheck clean ($(words $(STYLE_C)) files), size limits held"
format:
	clang-format -i $(STYLE_C)
TEST_TARGETS += check-style

# The handler's placement layer (docs/handler.md "Placement layer"): no source of sw-handler/ but
# the placement selection and implementations (uvm_place*) tests a page-size key (the public
# headers of sw-handler/include/ declare them and are not searched).
PLACE_ALLOWED := $(wildcard sw-handler/uvm_place*)
PLACE_GREP := UVM_PSIZE_|UVM_FRAME_(ANY|COCOA)|(\.|->)(page_size|frame_alloc)\b|uvm_mem_cocoa
PLACE_CHECK = if grep -nE '$(PLACE_GREP)' $(filter-out $(PLACE_ALLOWED),$(wildcard \
  sw-handler/*.c sw-handler/*.h)); then echo "check-style: a page-size \
  key tested outside the placement layer (sw-handler/uvm_place*; docs/handler.md)"; exit 1; fi

# The placement's map / unmap / writeback (docs/handler.md §6h): leaf PTE writes and clears, the
# TLB shoot-down of a page and the D2H write-back happen in the placement implementations and
# the mechanics they use (uvm_pt.c, uvm_large.c, uvm_dev_cmd.c), never in their callers.
PLACE_OPS_ALLOWED := $(PLACE_ALLOWED) sw-handler/uvm_pt.c sw-handler/uvm_large.c \
  sw-handler/uvm_dev_cmd.c sw-handler/uvm_priv.h
PLACE_OPS_GREP := uvm_pt_(map_charged|map_large_charged|unmap)\(|UVM_DMA_D2H|GMMU_CMD_INVAL_PAGE
PLACE_OPS_CHECK = if grep -nE '$(PLACE_OPS_GREP)' $(filter-out $(PLACE_OPS_ALLOWED),$(wildcard \
  sw-handler/*.c sw-handler/*.h)); then echo "check-style: a PTE map/unmap, INVAL_PAGE or D2H \
  write-back outside the placement ops (sw-handler/uvm_place*; docs/handler.md §6h)"; exit 1; fi
