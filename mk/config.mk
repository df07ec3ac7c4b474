# mk/config.mk - the non-RTL configuration keys (platform and host handler), declared once in
# spec/config.toml (docs/config.md). scripts/spec_config.py generates (make gen):
#   cmodel/gen/uvm_cfg_gen.h   the handler's uvm_cfg_t, its defaults and the enums of its keys
#   cmodel/gen/cfg_gen.h       cfg_t (every key) and the platform's enums
#   cmodel/gen/cfg_keys.inc    cosim/config.c's key table rows, cfg_t's defaults, the copy into uvm_cfg_t
#   docs/config.md             the two key tables between its generated markers (the rest hand-written)
## make check-config-doc       docs/config.md's key tables agree with spec/config.toml (not rewritten), and
##                             scripts/spec_config.py refuses broken specs (scripts/spec_config_test.py)

GEN_CFG_UVM_H := cmodel/gen/uvm_cfg_gen.h
GEN_CFG_H     := cmodel/gen/cfg_gen.h
GEN_CFG_INC   := cmodel/gen/cfg_keys.inc
GEN_CFG_MD    := docs/config.md
GEN_FILES     += $(GEN_CFG_UVM_H) $(GEN_CFG_H) $(GEN_CFG_INC) $(GEN_CFG_MD)

$(GEN_CFG_UVM_H) $(GEN_CFG_H) $(GEN_CFG_INC) $(GEN_CFG_MD) &: spec/config.toml scripts/spec_config.py
	@mkdir -p cmodel/gen
	$(PYTHON) scripts/spec_config.py --spec spec/config.toml --uvm-h $(GEN_CFG_UVM_H) \
	  --cfg-h $(GEN_CFG_H) --keys-inc $(GEN_CFG_INC) --doc $(GEN_CFG_MD)

.PHONY: check-config-doc
check-config-doc:
	$(PYTHON) scripts/spec_config.py --spec spec/config.toml --check-doc $(GEN_CFG_MD)
	$(PYTHON) scripts/spec_config_test.py
	@echo "check-config-doc: docs/config.md's key tables agree with spec/config.toml"
TEST_TARGETS += check-config-doc
