# mk/badinput.mk - bad input and valid input that went wrong (issue 11): every surface (gmmu-sim,
# gmmu-trace, gmmu-gen, the importers, run_test.py) on one input each, its exit status and its
# message checked (tb/badinput/run.sh, docs/cosim.md "Bad input").
## make test-badinput          bad-input cases: exit status and message of each (about 15 s)
.PHONY: test-badinput
# the tools are named in the recipe: mk/workloads.mk, which defines them, is read after this file
test-badinput:
	@$(MAKE) --no-print-directory sim $(WL_TRACE_TOOL) $(WL_GEN) $(WL_SO) CONFIG=tiny
	@$(MAKE) --no-print-directory sim CONFIG=asid4
	@$(MAKE) --no-print-directory gmmu-board
	bash tb/badinput/run.sh $(BUILD)
TEST_TARGETS += test-badinput
