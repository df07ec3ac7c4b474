# mk/coverage.mk - RTL coverage over the regression (docs/verification.md "Coverage").
#
# The coverage build is the normal gmmu-sim of the tiny configuration built in its own tree
# ($(BUILD)/coverage, so the normal build is untouched) with Verilator --coverage-line
# --coverage-toggle --coverage-user and the explicit cover points of tb/coverage/cover_points.py
# (SV `cover property`, bound into the RTL by the generated $(BUILD)/coverage/gmmu_cover.sv, which
# only this build reads). Every gmmu-sim run writes its counts (cosim/vshim.cpp, VSHIM_COVERAGE)
# into $(BUILD)/coverage/dat/; they are merged with verilator_coverage, and
# tb/coverage/report.py writes $(BUILD)/coverage/report.md: line and toggle totals, every cover
# point with its count, the points never hit. It fails if a point is unhit and not waived in
# tb/coverage/waivers.txt (a reason per waiver).
## make coverage               RTL line/toggle coverage + explicit cover points over the tiny
##                             regression (cosim-regress on tiny + test-traces-replay); report in
##                             $(BUILD)/coverage/report.md; fails on an unhit, unwaived point
COV_BUILD := $(BUILD)/coverage
COV_SV    := $(COV_BUILD)/gmmu_cover.sv
COV_DAT   := $(COV_BUILD)/dat
COV_VL    := --coverage-line --coverage-toggle --coverage-user
COV_MAKE   = $(MAKE) --no-print-directory BUILD=$(COV_BUILD) VL_COV_OPTS='$(COV_VL)' \
             VL_COV_RUNTIME=verilated_cov.o VL_SHIM_DEFS=-DVSHIM_COVERAGE VL_COV_DEPS=$(COV_SV)

$(COV_SV): tb/coverage/cover_points.py configs/tiny.cfg scripts/cfg_vflags.py
	@mkdir -p $(@D)
	$(PYTHON) tb/coverage/cover_points.py --config configs/tiny.cfg -o $@

.PHONY: coverage coverage-sim coverage-report
coverage-sim: $(COV_SV) | $(DEPS_STAMP)
	$(COV_MAKE) sim CONFIG=tiny

coverage: coverage-sim
	rm -rf $(COV_DAT) && mkdir -p $(COV_DAT)
	GMMU_COVERAGE_DIR=$(abspath $(COV_DAT)) $(PYTHON) scripts/run_test.py --build $(COV_BUILD) \
	  --no-build --all --only-binary tiny
	GMMU_COVERAGE_DIR=$(abspath $(COV_DAT)) $(COV_MAKE) test-traces-replay
	@$(MAKE) --no-print-directory coverage-report

coverage-report:
	verilator_coverage --write $(COV_BUILD)/merged.dat $(COV_DAT)/*.dat
	rm -rf $(COV_BUILD)/annotated
	verilator_coverage --annotate $(COV_BUILD)/annotated $(COV_BUILD)/merged.dat \
	  > $(COV_BUILD)/annotate.log
	$(PYTHON) tb/coverage/report.py $(COV_BUILD)/merged.dat --waivers tb/coverage/waivers.txt \
	  --points "$$($(PYTHON) tb/coverage/cover_points.py --list)" -o $(COV_BUILD)/report.md
