# Mutation test: the lock-step co-simulation must catch one-line behaviour changes in the RTL and
# in the C model (scripts/mutation_test.sh). Needs the clean tiny build first.
## make test-mutation          one-line RTL / C model mutations must be caught by lock-step
##                             (the base set but three RTL mutations + the C model mutations of
##                             the issue 11 holes and blocks: make test's budget) and handler
##                             mutations by the platform's independent checks (mutate_hdl)
## make mutation               the whole set: also every RTL mutation (holes and two per block,
##                             one Verilator rebuild each, 31 in all: ~40 s each quiet, 2-3 min on
##                             2 busy cores) and
##                             every handler mutation (MUT_SURVIVORS=1: also the known survivors)
.PHONY: test-mutation mutation
test-mutation:
	@$(MAKE) --no-print-directory sim CONFIG=tiny
	MUT_SET=quick bash scripts/mutation_test.sh
mutation:
	@$(MAKE) --no-print-directory sim CONFIG=tiny
	MUT_SET=full bash scripts/mutation_test.sh
TEST_TARGETS += test-mutation
