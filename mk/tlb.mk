# mk/tlb.mk - TLB entry records generated from spec/tlb.toml (scripts/gen_tlb.py), see
# docs/rtl.md and docs/cmodel.md. Appends its outputs to GEN_FILES (make gen).
GEN_TLB_SV := rtl/gen/gmmu_tlb_pkg.sv
GEN_TLB_H  := cmodel/gen/gmmu_tlb_types.h
GEN_FILES  += $(GEN_TLB_SV) $(GEN_TLB_H)

$(GEN_TLB_SV) $(GEN_TLB_H) &: spec/tlb.toml spec/gmmu.toml scripts/gen_tlb.py
	@mkdir -p rtl/gen cmodel/gen
	$(PYTHON) scripts/gen_tlb.py spec/tlb.toml --widths spec/gmmu.toml --sv $(GEN_TLB_SV) \
	  --c $(GEN_TLB_H)

# C objects wait for every GEN_FILES output and record the headers they include (mk/c.rules);
# the RTL rules take every generated rtl/gen file from GEN_FILES (RTL_GEN in the Makefile)
