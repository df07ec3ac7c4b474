# Mutation test: the lock-step co-simulation must catch one-line behaviour changes in the RTL and
# in the C model (scripts/mutation_test.sh). Needs the clean tiny build first.
## make test-mutation          one-line RTL / C model mutations must be caught by lock-step
.PHONY: test-mutation
test-mutation:
	@$(MAKE) --no-print-directory sim CONFIG=tiny
	bash scripts/mutation_test.sh
TEST_TARGETS += test-mutation
