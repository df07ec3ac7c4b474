# mk/tlb.mk - TLB entry records generated from spec/tlb.toml (scripts/gen_tlb.py), see
# docs/rtl.md and docs/cmodel.md. Appends its outputs to GEN_FILES (make gen) and makes the
# C model objects, the unit tests and the Verilator model depend on them.
GEN_TLB_SV := rtl/gen/gmmu_tlb_pkg.sv
GEN_TLB_H  := cmodel/gen/gmmu_tlb_types.h
GEN_FILES  += $(GEN_TLB_SV) $(GEN_TLB_H)

$(GEN_TLB_SV) $(GEN_TLB_H) &: spec/tlb.toml spec/gmmu.toml scripts/gen_tlb.py
	@mkdir -p rtl/gen cmodel/gen
	$(PYTHON) scripts/gen_tlb.py spec/tlb.toml --widths spec/gmmu.toml --sv $(GEN_TLB_SV) \
	  --c $(GEN_TLB_H)

# extra prerequisites of rules defined in mk/cmodel.mk, mk/verilator.mk, mk/rtl.mk
$(CM_OBJ) $(CM_OBJ_SAN) $(CM_TESTS) $(CM_TESTS_SAN): $(GEN_TLB_H)
$(VDUT_LIB) lint synth rtl-build-check: $(GEN_TLB_SV)
