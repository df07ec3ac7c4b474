# make wave: open the newest FST under build/ (or WAVE=path) in GTKWave with a generated save file:
# at a lock-step mismatch the diverging port's RTL and model values side by side at the top, the
# marker at the mismatch, FSM states by name, then the signals grouped per block
# (scripts/gen_gtkw.py, docs/cosim.md "Waveforms").
## make wave [WAVE=f.fst]      open the newest waveform in GTKWave (at the mismatch, if any)
WAVE ?= $(shell ls -t $$(find $(BUILD) -name '*.fst' 2>/dev/null) 2>/dev/null | head -n 1)
.PHONY: wave test-wave
wave:
	@test -n "$(WAVE)" || { echo "make wave: no .fst under $(BUILD)/ (run make cosim ... WAVES=1)"; exit 1; }
	$(PYTHON) scripts/gen_gtkw.py $(WAVE) $(basename $(WAVE)).gtkw
	gtkwave $(WAVE) $(basename $(WAVE)).gtkw

## make test-wave              an RTL mutant's mismatch FST holds the RTL and model values side by
##                             side (one Verilator build of CONFIG=tiny, about 2 min; not in make test)
test-wave:
	@$(MAKE) --no-print-directory sim CONFIG=tiny
	bash scripts/wave_test.sh

## make test-wave-markers       the waveform's command opcodes by name and its event markers (fault
##                              posted, each command) checked against the FST (fatal.trc, 2 s)
.PHONY: test-wave-markers
test-wave-markers:
	@$(MAKE) --no-print-directory sim CONFIG=tiny
	$(PYTHON) scripts/wave_markers_test.py $(BUILD)
TEST_TARGETS += test-wave-markers
