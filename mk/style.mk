# C style and static analysis: clang-format (.clang-format) and cppcheck over every C source and
# header of the project (generated headers excluded).
STYLE_C   = $(shell git ls-files '*.c' '*.h' 2>/dev/null | grep -v '/gen/')
STYLE_SRC = $(filter %.c,$(STYLE_C))
## make check-style            clang-format, cppcheck, size limits (C file <= 600 lines, function <= 100
##                             lines in cosim/ cmodel/ sw-handler/ common/: scripts/check_sizes.py)
## make format                 clang-format -i every C source and header
.PHONY: check-style format
check-style: gen
	@clang-format --dry-run --Werror $(STYLE_C)
	@cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability --std=c11 \
	  --inline-suppr --suppress=missingIncludeSystem $(INC) $(STYLE_SRC)
	@$(PYTHON) scripts/check_sizes.py
	@echo "check-style: clang-format and cppcheck clean ($(words $(STYLE_C)) files), size limits held"
format:
	clang-format -i $(STYLE_C)
TEST_TARGETS += check-style
