# Stronger random lock-step (issue 11 hole 5): scripts/random_lockstep.py runs seeds of
# scripts/gen_random_trace.py --mix in lock-step on tiny with each seed's knobs (ring size,
# replay policy, chaos invalidations, eviction, back-pressure, blocking mode, 2 MB / nocache
# preloads); a failure prints the seed and a one-line reproducer.
## make random SEEDS=N [FIRST=S] [JOBS=J]  N random lock-step seeds from S (default 200 from 1),
##                              then N/4 of them on configs/pwc.cfg (page-walk cache), N/4 on
##                              configs/ad.cfg (accessed/dirty bits) and N/4 on configs/bitmap.cfg
##                              (referenced-line bitmaps, BMP_FLUSH at random cycles)
## make test-random             a quick run of 8 seeds, the seeds that once ended before their
##                              CSR script (issue 26: 3315 preload-only, 77386 one far-fault), and
##                              4 seeds on pwc
SEEDS ?= 200
FIRST ?= 1
JOBS  ?= 1
.PHONY: random test-random test-random-ad
random:
	@$(MAKE) --no-print-directory sim CONFIG=tiny
	python3 scripts/random_lockstep.py --seeds $(SEEDS) --first $(FIRST) --jobs $(JOBS)
	@$(MAKE) --no-print-directory sim CONFIG=pwc
	python3 scripts/random_lockstep.py --seeds $$(( ($(SEEDS) + 3) / 4 )) --first $(FIRST) \
	  --jobs $(JOBS) --config pwc
	@$(MAKE) --no-print-directory sim CONFIG=ad
	python3 scripts/random_lockstep.py --seeds $$(( ($(SEEDS) + 3) / 4 )) --first $(FIRST) \
	  --jobs $(JOBS) --config ad
	@$(MAKE) --no-print-directory sim CONFIG=bitmap
	python3 scripts/random_lockstep.py --seeds $$(( ($(SEEDS) + 3) / 4 )) --first $(FIRST) \
	  --jobs $(JOBS) --config bitmap
## make test-random-ad          12 seeds of the mix on configs/ad.cfg (make test-full: its own
##                              Verilator build): chaos invalidations and memory back-pressure
##                              racing with the walkers' accessed/dirty set-bits writes
test-random-ad:
	@$(MAKE) --no-print-directory sim CONFIG=ad
	python3 scripts/random_lockstep.py --seeds 12 --first 1 --config ad
TEST_FULL_TARGETS += test-random-ad
## make test-random-acc         12 seeds of the mix on configs/acc.cfg with remote_policy = lazy_grp_hw
##                              (make test-full: acc's Verilator build): the handler's service of
##                              the access counters racing with faults, evictions, chaos, back-pressure
.PHONY: test-random-acc
test-random-acc:
	@$(MAKE) --no-print-directory sim CONFIG=acc
	python3 scripts/random_lockstep.py --seeds 12 --first 1 --config acc
TEST_FULL_TARGETS += test-random-acc
## make test-random-bmp         12 seeds of the mix on configs/bitmap.cfg with 1-4 BMP_FLUSH commands
##                             at random cycles (make test-full: bitmap's Verilator build): the L1
##                             bitmaps' departures and table writes racing with shootdowns, chaos
##                             invalidations, walks and back-pressure; the platform's table check
.PHONY: test-random-bmp
test-random-bmp:
	@$(MAKE) --no-print-directory sim CONFIG=bitmap
	python3 scripts/random_lockstep.py --seeds 12 --first 1 --config bitmap
TEST_FULL_TARGETS += test-random-bmp
test-random:
	@$(MAKE) --no-print-directory sim CONFIG=tiny
	python3 scripts/random_lockstep.py --seeds 8 --first 1
	python3 scripts/random_lockstep.py --seed 3315
	python3 scripts/random_lockstep.py --seed 77386
	@$(MAKE) --no-print-directory sim CONFIG=pwc
	python3 scripts/random_lockstep.py --seeds 4 --first 1 --config pwc
TEST_TARGETS += test-random
