# mk/coverage.mk - RTL coverage over the regression (docs/verification.md "Coverage").
#
# The coverage build is gmmu-sim of the tiny configuration linked with a Verilator model built in
# its own tree ($(BUILD)/coverage; the normal build, its rules and flags are untouched) with
# --coverage-line --coverage-toggle --coverage-user and the explicit cover points of
# tb/coverage/cover_points.py (SV `cover property`, bound into the RTL by the generated
# $(BUILD)/coverage/gmmu_cover.sv, which only this build reads). Every gmmu-sim run writes its
# counts (cosim/vshim.cpp built with -DVSHIM_COVERAGE) into $(BUILD)/coverage/dat/; they are
# merged with verilator_coverage, and tb/coverage/report.py writes $(BUILD)/coverage/report.md:
# line, branch and toggle totals, every cover point with its count, the points never hit. It
# fails if a point is unhit and not waived in tb/coverage/waivers.txt (a reason per waiver).
## make coverage               RTL line/toggle coverage + explicit cover points over the tiny
##                             regression (cosim-regress on tiny + the test-traces-replay
##                             workloads); report $(BUILD)/coverage/report.md; fails on an unhit,
##                             unwaived point
COV_BUILD := $(BUILD)/coverage
COV_SV    := $(COV_BUILD)/gmmu_cover.sv
COV_DAT   := $(COV_BUILD)/dat
COV_VDUT  := $(COV_BUILD)/tiny/vdut
COV_SIM   := $(COV_BUILD)/tiny/gmmu-sim
COV_TRACES := $(COV_BUILD)/traces
# wall-clock limit of each coverage run (run_test.py --timeout): the coverage build runs several
# times slower than the normal one, and oversub exceeds the tests' default 1800 s in it
COV_TIMEOUT ?= 7200

$(COV_SV): tb/coverage/cover_points.py configs/tiny.cfg scripts/cfg_vflags.py
	@mkdir -p $(@D)
	$(PYTHON) tb/coverage/cover_points.py --config configs/tiny.cfg -o $@

# the variables of mk/verilator.mk and mk/cosim.mk (read after this file) in the prerequisites:
# second expansion
.SECONDEXPANSION:
$(COV_VDUT)/obj/.model: $$(RTL_SRCS) $(COV_SV) configs/tiny.cfg scripts/cfg_vflags.py
	@mkdir -p $(@D)
	@echo "verilator: building gmmu_top for CONFIG=tiny with coverage (line, toggle, cover points)"
	vflags=$$($(PYTHON) scripts/cfg_vflags.py configs/tiny.cfg) || exit 1; \
	$(VERILATOR) $(VL_OPTS) --coverage-line --coverage-toggle --coverage-user --prefix Vtiny \
	  --build -j 2 -Mdir $(@D) -f rtl/files.f $(COV_SV) \
	  $$vflags > $(@D)/../verilator.log 2>&1 \
	  || { cat $(@D)/../verilator.log; exit 1; }
	$(MAKE) -s -C $(@D) -f Vtiny.mk $(VL_RUNTIME) verilated_cov.o > /dev/null
	touch $@
$(COV_VDUT)/vshim.o: $(COV_VDUT)/obj/.model $$(SHIM_DEPS)
	$(subst -I$(BUILD)/tiny/vdut/obj,-I$(COV_VDUT)/obj,$(call shim_cxx,tiny,-DVSHIM_COVERAGE,$@))
$(COV_VDUT)/libvdut.a: $(COV_VDUT)/obj/.model $(COV_VDUT)/vshim.o
	cp $(COV_VDUT)/obj/Vtiny__ALL.a $@.tmp
	ar rs $@.tmp $(COV_VDUT)/vshim.o $(addprefix $(COV_VDUT)/obj/,$(VL_RUNTIME) verilated_cov.o)
	mv $@.tmp $@
# the C side is the normal build's
$(COV_SIM): $(BUILD)/obj/cosim/sim_main.o $$(call c_libs,$$(SIM_LIBS)) $(COV_VDUT)/libvdut.a
	$(CXX) -o $@ $^ $(VDUT_LDLIBS) -lm

# directed stimulus for cover points the tests do not reach (each run must pass; '|' = space):
# ff_drop_ring_off: FB_SIZE written 0 in cycle 28, so the fault offered in cycle 29 meets a
# disabled ring (the step requires FB_OVF in cycle 29), then FB_SIZE 2 again (PUT, GET, OVERFLOW
# reset; the handler had consumed nothing yet, the dropped SM is replayed by the next REPLAY_ALL);
# ff_blocked, l2_fault_blocked: the 128-fault burst of fb_overflow with the fault-write port
# ready 30% of the cycles (a post offered while the previous fault write is held);
# l1_req_table_DONE_to_WAIT: INVAL_ALL written in cycle 121087 of inval_walk (no chaos), so the
# flush lands in the one cycle where SM 0's request table holds two DONE entries (an L1 merge
# answered both) and the second waits for the output port: the flush sends it back to WAIT. The
# cycle was found by a sweep (docs/verification.md "Coverage"); a behaviour change that moves it
# leaves the point unhit and make coverage fails, so it is re-found, not silently lost;
# l2_ok_passes_fault (mshr_full.trc, the memory taking 5 % of fault writes): an OK result is
# answered while a fault result below it waits for the far-fault unit's write register (§5.3
# step 1); faults come in bursts, so in the regression every waiting entry's neighbours fault too
# (found with a model-side probe over the directed traces, session 12);
# co_PATH_to_IDLE: COALESCE of a region with no page-table path (VPN 0x4000000: no PDE there in
# coalesce.trc), refused NOT_MAPPED in the path walk (coalesce_unmapped's region has its path
# and is refused later, in CHECK)
COV_EXTRA_RUNS := \
  --trace|tb/traces/fb_overflow.trc|--set|fb_entries=2|--csr|28:w:FB_SIZE:0|--csr|29:w:FB_SIZE:2:FB_OVF \
  --trace|tb/traces/fb_overflow.trc|--set|fb_ready_pct=30 \
  --trace|tb/traces/mshr_full.trc|--set|fb_ready_pct=5 \
  --trace|tb/traces/inval_walk.trc|--csr|121087:w:CMD:4 \
  --trace|tb/traces/coalesce.trc|--set|co_vpn=0x4000000|--set|coalesce_at=7000000

.PHONY: coverage coverage-sim coverage-report
## make coverage-sim           the coverage build of gmmu-sim -> $(BUILD)/coverage/tiny/gmmu-sim
# (the importers of the Accel-Sim tests load the normal build's trace library)
coverage-sim: $(COV_SIM) $(BUILD)/lib/libgmmu_trace.so

# the workloads of test-traces-replay, generated by the normal build, copied: traces_check.py
# writes its results beside the traces
COV_WL = $(filter-out accelsim-%,$(subst $(comma), ,$(WL_QUICK)))
comma := ,
coverage: coverage-sim | $(DEPS_STAMP)
	rm -rf $(COV_DAT) $(COV_TRACES) && mkdir -p $(COV_DAT) $(COV_TRACES)
	GMMU_COVERAGE_DIR=$(abspath $(COV_DAT)) $(PYTHON) scripts/run_test.py --build $(COV_BUILD) \
	  --no-build --all --only-binary tiny --timeout $(COV_TIMEOUT)
	@set -e; for r in $(foreach r,$(COV_EXTRA_RUNS),'$(r)'); do echo "coverage: extra run: $$r"; \
	  GMMU_COVERAGE_DIR=$(abspath $(COV_DAT)) $(COV_SIM) --config configs/tiny.cfg --quiet \
	    $$(echo $$r | tr '|' ' ') > /dev/null; done
	$(MAKE) --no-print-directory $(COV_WL:%=$(WL_TRACE_DIR)/%.trc) $(WL_REAL_TRACES) $(WL_GEN)
	cp $(COV_WL:%=$(WL_TRACE_DIR)/%.trc) $(WL_REAL_TRACES) $(COV_TRACES)/
	GMMU_COVERAGE_DIR=$(abspath $(COV_DAT)) $(PYTHON) tb/tools/traces_check.py --sim $(COV_SIM) \
	  --gen $(WL_GEN) --traces $(COV_TRACES) --small-config configs/tiny.cfg --only small \
	  --workloads $(WL_QUICK)
	@$(MAKE) --no-print-directory coverage-report

coverage-report:
	verilator_coverage --write $(COV_BUILD)/merged.dat $(COV_DAT)/*.dat
	rm -rf $(COV_BUILD)/annotated
	verilator_coverage --annotate $(COV_BUILD)/annotated $(COV_BUILD)/merged.dat \
	  > $(COV_BUILD)/annotate.log
	$(PYTHON) tb/coverage/report.py $(COV_BUILD)/merged.dat --waivers tb/coverage/waivers.txt \
	  --points "$$($(PYTHON) tb/coverage/cover_points.py --list)" -o $(COV_BUILD)/report.md

# Page-walk cache (docs/microarch.md §16): tiny has none, so its cover points (gmmu_pwc, the
# walker's PWC state and pwc_* events) are measured on configs/pwc.cfg by the lock-step scenarios
# of test_cmodel_pwc.c (make test-pwc-lockstep) linked with a coverage build of that
# configuration; report $(BUILD)/coverage/pwc/report.md over the page-walk-cache points only
# (fails on an unhit one). The tiny report waives them with a pointer here.
## make coverage-pwc           cover points of the page-walk cache (configs/pwc.cfg lock-step tests)
COVP_DIR  := $(COV_BUILD)/pwc
COVP_SV   := $(COVP_DIR)/gmmu_cover.sv
COVP_VDUT := $(COVP_DIR)/vdut
COVP_TEST := $(COVP_DIR)/test_pwc_lockstep
$(COVP_SV): tb/coverage/cover_points.py configs/pwc.cfg scripts/cfg_vflags.py
	@mkdir -p $(@D)
	$(PYTHON) tb/coverage/cover_points.py --config configs/pwc.cfg -o $@
$(COVP_VDUT)/obj/.model: $$(RTL_SRCS) $(COVP_SV) configs/pwc.cfg scripts/cfg_vflags.py
	@mkdir -p $(@D)
	@echo "verilator: building gmmu_top for CONFIG=pwc with coverage (line, toggle, cover points)"
	$(VERILATOR) $(VL_OPTS) --coverage-line --coverage-toggle --coverage-user --prefix Vpwc \
	  --build -j 2 -Mdir $(@D) -f rtl/files.f $(COVP_SV) \
	  $$($(PYTHON) scripts/cfg_vflags.py configs/pwc.cfg) > $(@D)/../verilator.log 2>&1 \
	  || { cat $(@D)/../verilator.log; exit 1; }
	$(MAKE) -s -C $(@D) -f Vpwc.mk $(VL_RUNTIME) verilated_cov.o > /dev/null
	touch $@
$(COVP_VDUT)/vshim.o: $(COVP_VDUT)/obj/.model $$(SHIM_DEPS)
	$(subst -I$(BUILD)/pwc/vdut/obj,-I$(COVP_VDUT)/obj,$(call shim_cxx,pwc,-DVSHIM_COVERAGE,$@))
$(COVP_TEST): tb/unit/test_pwc_lockstep.c tb/unit/test_cmodel_pwc.c $$(LS_COMMON_SRC) \
    $(COVP_VDUT)/vshim.o $(BUILD)/lib/libgmmu_model.a $(BUILD)/lib/libgmmu_common.a
	$(CC) $(CFLAGS_COMMON) -Icmodel -Itb/unit -c tb/unit/test_pwc_lockstep.c -o $@.o
	$(CC) $(CFLAGS_COMMON) -Icmodel -Itb/unit -c tb/unit/test_cmodel_harness.c -o $@.harness.o
	$(CC) $(CFLAGS_COMMON) -c cosim/compare.c -o $@.compare.o
	$(CXX) -o $@ $@.o $@.harness.o $@.compare.o $(COVP_VDUT)/vshim.o \
	  $(COVP_VDUT)/obj/Vpwc__ALL.a $(addprefix $(COVP_VDUT)/obj/,$(VL_RUNTIME) verilated_cov.o) \
	  $(BUILD)/lib/libgmmu_model.a $(BUILD)/lib/libgmmu_common.a $(VDUT_LDLIBS) -lcmocka
.PHONY: coverage-pwc
coverage-pwc: $(COVP_TEST)
	rm -rf $(COVP_DIR)/dat && mkdir -p $(COVP_DIR)/dat
	GMMU_COVERAGE_DIR=$(abspath $(COVP_DIR)/dat) $(COVP_TEST)
	verilator_coverage --write $(COVP_DIR)/merged.dat $(COVP_DIR)/dat/*.dat
	$(PYTHON) tb/coverage/report.py $(COVP_DIR)/merged.dat \
	  --points "$$($(PYTHON) tb/coverage/cover_points.py --list | grep -E '(pwc_|gmmu_pwc:|PWC)')" \
	  -o $(COVP_DIR)/report.md

# Accessed/dirty bits (docs/microarch.md §18): tiny has ad_bits = 0, so the walker's A/D points
# (gmmu_ptw:ad_*) are measured on the RTL of configs/ad.cfg by the lock-step test oversub_clock
# (configs/oversub_ad.cfg runs on ad's binary) with a coverage build of that configuration;
# report $(BUILD)/coverage/ad/report.md over the ad_* points only (fails on an unhit one that is
# not waived). The tiny report waives them with a pointer here. ad_write_after_read hits
# ad_update_drt_only, the random seeds ad_flush_write_held, ad_wait_co and ad_flush_pending
# (scripted COALESCE / INVAL_ALL at the cycle of a pending set-bits write) the last two.
## make coverage-ad            cover points of the accessed/dirty update (configs/ad.cfg: oversub_clock,
##                             ad_write_after_read, ad_coalesce, ad_flush_pending, ad_wait_co,
##                             COVA_SEEDS random mix seeds)
COVA_DIR  := $(COV_BUILD)/ad
COVA_SV   := $(COVA_DIR)/gmmu_cover.sv
COVA_VDUT := $(COVA_DIR)/vdut
# run_test.py runs oversub_ad on build/oversub_ad/gmmu-sim (its RTL keys are not tiny's or
# default's): the coverage binary of ad's RTL is linked under that name
COVA_SIM  := $(COV_BUILD)/oversub_ad/gmmu-sim
# seeds of the random lock-step mix on configs/ad.cfg (chaos invalidations racing with the
# walkers' set-bits writes, memory back-pressure holding a write in the request register)
COVA_SEEDS ?= 12
$(COVA_SV): tb/coverage/cover_points.py configs/ad.cfg scripts/cfg_vflags.py
	@mkdir -p $(@D)
	$(PYTHON) tb/coverage/cover_points.py --config configs/ad.cfg -o $@
$(COVA_VDUT)/obj/.model: $$(RTL_SRCS) $(COVA_SV) configs/ad.cfg scripts/cfg_vflags.py
	@mkdir -p $(@D)
	@echo "verilator: building gmmu_top for CONFIG=ad with coverage (line, toggle, cover points)"
	$(VERILATOR) $(VL_OPTS) --coverage-line --coverage-toggle --coverage-user --prefix Vad \
	  --build -j 2 -Mdir $(@D) -f rtl/files.f $(COVA_SV) \
	  $$($(PYTHON) scripts/cfg_vflags.py configs/ad.cfg) > $(@D)/../verilator.log 2>&1 \
	  || { cat $(@D)/../verilator.log; exit 1; }
	$(MAKE) -s -C $(@D) -f Vad.mk $(VL_RUNTIME) verilated_cov.o > /dev/null
	touch $@
$(COVA_VDUT)/vshim.o: $(COVA_VDUT)/obj/.model $$(SHIM_DEPS)
	$(subst -I$(BUILD)/ad/vdut/obj,-I$(COVA_VDUT)/obj,$(call shim_cxx,ad,-DVSHIM_COVERAGE,$@))
$(COVA_VDUT)/libvdut.a: $(COVA_VDUT)/obj/.model $(COVA_VDUT)/vshim.o
	cp $(COVA_VDUT)/obj/Vad__ALL.a $@.tmp
	ar rs $@.tmp $(COVA_VDUT)/vshim.o $(addprefix $(COVA_VDUT)/obj/,$(VL_RUNTIME) verilated_cov.o)
	mv $@.tmp $@
$(COVA_SIM): $(BUILD)/obj/cosim/sim_main.o $$(call c_libs,$$(SIM_LIBS)) $(COVA_VDUT)/libvdut.a
	@mkdir -p $(@D)
	$(CXX) -o $@ $^ $(VDUT_LDLIBS) -lm
# the tests and the random mix on config ad itself run build/coverage/ad/gmmu-sim: the same binary
$(COV_BUILD)/ad/gmmu-sim: $(COVA_SIM)
	@mkdir -p $(@D)
	cp $< $@

.PHONY: coverage-ad
coverage-ad: $(COVA_SIM) $(COV_BUILD)/ad/gmmu-sim | $(DEPS_STAMP)
	rm -rf $(COVA_DIR)/dat && mkdir -p $(COVA_DIR)/dat
	GMMU_COVERAGE_DIR=$(abspath $(COVA_DIR)/dat) $(PYTHON) scripts/run_test.py \
	  --build $(COV_BUILD) --no-build oversub_clock ad_write_after_read ad_coalesce \
	  ad_flush_pending ad_wait_co
	GMMU_COVERAGE_DIR=$(abspath $(COVA_DIR)/dat) $(PYTHON) scripts/random_lockstep.py \
	  --build $(COV_BUILD) --config ad --seeds $(COVA_SEEDS)
	verilator_coverage --write $(COVA_DIR)/merged.dat $(COVA_DIR)/dat/*.dat
	$(PYTHON) tb/coverage/report.py $(COVA_DIR)/merged.dat \
	  --points "$$($(PYTHON) tb/coverage/cover_points.py --list | grep -E 'gmmu_ptw:ad_')" \
	  -o $(COVA_DIR)/report.md

# Cover points of the access-counter unit (docs/microarch.md §19; the 12 gmmu_acc:* points of
# tb/coverage/cover_points.py) on configs/acc.cfg: the lock-step tests acc_count (scripted ring
# fill, overflow, wrap, GRAN change, clears), acc_race (same-cycle races timed to the cycle), acc_ring_off,
# lazy_grp_hw and lazy_grp_hw_wrap (the handler's service, docs/handler.md §6w), and 4 seeds of
# the random mix on acc (make test-random-acc): 12 of 12 points hit. A separate
# coverage build of acc's RTL (about 4-5 min of Verilator); not part of make test or test-full.
## make coverage-acc           cover points of the access-counter unit (configs/acc.cfg: acc_count,
##                             acc_race, acc_ring_off, lazy_grp_hw, lazy_grp_hw_wrap, 4 random seeds)
COVC_DIR  := $(COV_BUILD)/acc
COVC_SV   := $(COVC_DIR)/gmmu_cover.sv
COVC_VDUT := $(COVC_DIR)/vdut
COVC_SIM  := $(COV_BUILD)/acc/gmmu-sim
COVC_TESTS ?= acc_count acc_race acc_ring_off lazy_grp_hw lazy_grp_hw_wrap
# seeds of the random lock-step mix with lazy_grp_hw (test-random-acc): many regions at once,
# so a region replaces a valid tracker entry (acc_replace, which no directed test reaches)
COVC_SEEDS ?= 4
$(COVC_SV): tb/coverage/cover_points.py configs/acc.cfg scripts/cfg_vflags.py
	@mkdir -p $(@D)
	$(PYTHON) tb/coverage/cover_points.py --config configs/acc.cfg -o $@
$(COVC_VDUT)/obj/.model: $$(RTL_SRCS) $(COVC_SV) configs/acc.cfg scripts/cfg_vflags.py
	@mkdir -p $(@D)
	@echo "verilator: building gmmu_top for CONFIG=acc with coverage (line, toggle, cover points)"
	$(VERILATOR) $(VL_OPTS) --coverage-line --coverage-toggle --coverage-user --prefix Vacc \
	  --build -j 2 -Mdir $(@D) -f rtl/files.f $(COVC_SV) \
	  $$($(PYTHON) scripts/cfg_vflags.py configs/acc.cfg) > $(@D)/../verilator.log 2>&1 \
	  || { cat $(@D)/../verilator.log; exit 1; }
	$(MAKE) -s -C $(@D) -f Vacc.mk $(VL_RUNTIME) verilated_cov.o > /dev/null
	touch $@
$(COVC_VDUT)/vshim.o: $(COVC_VDUT)/obj/.model $$(SHIM_DEPS)
	$(subst -I$(BUILD)/acc/vdut/obj,-I$(COVC_VDUT)/obj,$(call shim_cxx,acc,-DVSHIM_COVERAGE,$@))
$(COVC_VDUT)/libvdut.a: $(COVC_VDUT)/obj/.model $(COVC_VDUT)/vshim.o
	cp $(COVC_VDUT)/obj/Vacc__ALL.a $@.tmp
	ar rs $@.tmp $(COVC_VDUT)/vshim.o $(addprefix $(COVC_VDUT)/obj/,$(VL_RUNTIME) verilated_cov.o)
	mv $@.tmp $@
$(COVC_SIM): $(BUILD)/obj/cosim/sim_main.o $$(call c_libs,$$(SIM_LIBS)) $(COVC_VDUT)/libvdut.a
	@mkdir -p $(@D)
	$(CXX) -o $@ $^ $(VDUT_LDLIBS) -lm

.PHONY: coverage-acc
coverage-acc: $(COVC_SIM) | $(DEPS_STAMP)
	rm -rf $(COVC_DIR)/dat && mkdir -p $(COVC_DIR)/dat
	GMMU_COVERAGE_DIR=$(abspath $(COVC_DIR)/dat) $(PYTHON) scripts/run_test.py \
	  --build $(COV_BUILD) --no-build $(COVC_TESTS)
	GMMU_COVERAGE_DIR=$(abspath $(COVC_DIR)/dat) $(PYTHON) scripts/random_lockstep.py \
	  --build $(COV_BUILD) --config acc --seeds $(COVC_SEEDS)
	verilator_coverage --write $(COVC_DIR)/merged.dat $(COVC_DIR)/dat/*.dat
	$(PYTHON) tb/coverage/report.py $(COVC_DIR)/merged.dat \
	  --points "$$($(PYTHON) tb/coverage/cover_points.py --list | grep -E 'gmmu_acc:')" \
	  -o $(COVC_DIR)/report.md

# Cover points of the referenced-line bitmaps (docs/microarch.md §20.6; the gmmu_bmp:* and
# gmmu_l1_tlb:bmp_* points of tb/coverage/cover_points.py) on configs/bitmap.cfg: the lock-step
# tests bitmap and bitmap_flush. A separate coverage build of bitmap's RTL (a few minutes of
# Verilator); not part of make test or test-full.
## make coverage-bmp           cover points of the referenced-line bitmaps (configs/bitmap.cfg:
##                             bitmap, bitmap_flush, dynamap_hw, bitmap_backpressure, 12 random
##                             seeds with BMP_FLUSH)
COVB_DIR  := $(COV_BUILD)/bitmap
COVB_SV   := $(COVB_DIR)/gmmu_cover.sv
COVB_VDUT := $(COVB_DIR)/vdut
COVB_SIM  := $(COV_BUILD)/bitmap/gmmu-sim
COVB_TESTS ?= bitmap bitmap_flush dynamap_hw bitmap_backpressure
# seeds of the random lock-step mix on bitmap.cfg with BMP_FLUSH at random cycles
# (test-random-bmp): departures into a full queue, a flush scan waiting for a slot, table writes
# behind walks, which the directed tests do not all reach
COVB_SEEDS ?= 12
$(COVB_SV): tb/coverage/cover_points.py configs/bitmap.cfg scripts/cfg_vflags.py
	@mkdir -p $(@D)
	$(PYTHON) tb/coverage/cover_points.py --config configs/bitmap.cfg -o $@
$(COVB_VDUT)/obj/.model: $$(RTL_SRCS) $(COVB_SV) configs/bitmap.cfg scripts/cfg_vflags.py
	@mkdir -p $(@D)
	@echo "verilator: building gmmu_top for CONFIG=bitmap with coverage (line, toggle, cover points)"
	$(VERILATOR) $(VL_OPTS) --coverage-line --coverage-toggle --coverage-user --prefix Vbitmap \
	  --build -j 2 -Mdir $(@D) -f rtl/files.f $(COVB_SV) \
	  $$($(PYTHON) scripts/cfg_vflags.py configs/bitmap.cfg) > $(@D)/../verilator.log 2>&1 \
	  || { cat $(@D)/../verilator.log; exit 1; }
	$(MAKE) -s -C $(@D) -f Vbitmap.mk $(VL_RUNTIME) verilated_cov.o > /dev/null
	touch $@
$(COVB_VDUT)/vshim.o: $(COVB_VDUT)/obj/.model $$(SHIM_DEPS)
	$(subst -I$(BUILD)/bitmap/vdut/obj,-I$(COVB_VDUT)/obj,$(call shim_cxx,bitmap,-DVSHIM_COVERAGE,$@))
$(COVB_VDUT)/libvdut.a: $(COVB_VDUT)/obj/.model $(COVB_VDUT)/vshim.o
	cp $(COVB_VDUT)/obj/Vbitmap__ALL.a $@.tmp
	ar rs $@.tmp $(COVB_VDUT)/vshim.o $(addprefix $(COVB_VDUT)/obj/,$(VL_RUNTIME) verilated_cov.o)
	mv $@.tmp $@
$(COVB_SIM): $(BUILD)/obj/cosim/sim_main.o $$(call c_libs,$$(SIM_LIBS)) $(COVB_VDUT)/libvdut.a
	@mkdir -p $(@D)
	$(CXX) -o $@ $^ $(VDUT_LDLIBS) -lm

.PHONY: coverage-bmp
coverage-bmp: $(COVB_SIM) | $(DEPS_STAMP)
	rm -rf $(COVB_DIR)/dat && mkdir -p $(COVB_DIR)/dat
	GMMU_COVERAGE_DIR=$(abspath $(COVB_DIR)/dat) $(PYTHON) scripts/run_test.py \
	  --build $(COV_BUILD) --no-build $(COVB_TESTS)
	GMMU_COVERAGE_DIR=$(abspath $(COVB_DIR)/dat) $(PYTHON) scripts/random_lockstep.py \
	  --build $(COV_BUILD) --config bitmap --seeds $(COVB_SEEDS)
	verilator_coverage --write $(COVB_DIR)/merged.dat $(COVB_DIR)/dat/*.dat
	$(PYTHON) tb/coverage/report.py $(COVB_DIR)/merged.dat \
	  --points "$$($(PYTHON) tb/coverage/cover_points.py --list | grep -E 'gmmu_bmp:|gmmu_l1_tlb:bmp_')" \
	  -o $(COVB_DIR)/report.md
