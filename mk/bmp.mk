# mk/bmp.mk - referenced-line bitmaps (docs/microarch.md §20): block-level lock-step of
# rtl/gmmu_bmp.sv (write-back queue, BMP_FLUSH scanner) against cmodel/bmp.c (tb/bmp/bmp_lockstep.cpp:
# random stimulus, every output and the state compared each cycle, coverage points required).
## make test-bmp-lockstep      gmmu_bmp RTL vs cmodel/bmp.c, block-level lock-step (NumScan 16 / 3, NumDep 4 / 3; test-full)

BMP_LS_CFGS := 16:4 3:3
BMP_LS_BINS := $(foreach c,$(BMP_LS_CFGS),$(BUILD)/bmp/s$(word 1,$(subst :, ,$(c)))d$(word 2,$(subst :, ,$(c)))/obj/Vgmmu_bmp)

$(BUILD)/bmp/s%/obj/Vgmmu_bmp: rtl/gmmu_bmp.sv cmodel/bmp.c cmodel/bmp.h tb/bmp/bmp_lockstep.cpp \
    tb/bmp/build.sh $(GEN_PKG) $(GEN_CONSTS_H)
	@echo "verilator: building gmmu_bmp block lock-step $*"
	@n=$$(echo $* | sed 's/d.*//'); d=$$(echo $* | sed 's/.*d//'); \
	  tb/bmp/build.sh $(BUILD)/bmp/s$* $$n $$d > /dev/null

.PHONY: test-bmp-lockstep
test-bmp-lockstep: $(BMP_LS_BINS)
	@seed=1; for b in $(BMP_LS_BINS); do $$b $$seed 100000 || exit 1; seed=$$((seed + 1)); done
TEST_FULL_TARGETS += test-bmp-lockstep
