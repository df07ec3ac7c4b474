# make wave: open the newest FST under build/ (or WAVE=path) in GTKWave, signals grouped per block.
## make wave [WAVE=f.fst]      open the newest waveform in GTKWave, signals grouped per block
WAVE ?= $(shell ls -t $$(find $(BUILD) -name '*.fst' 2>/dev/null) 2>/dev/null | head -n 1)
.PHONY: wave
wave:
	@test -n "$(WAVE)" || { echo "make wave: no .fst under $(BUILD)/ (run make cosim ... WAVES=1)"; exit 1; }
	$(PYTHON) scripts/gen_gtkw.py $(WAVE) $(basename $(WAVE)).gtkw
	gtkwave $(WAVE) $(basename $(WAVE)).gtkw
