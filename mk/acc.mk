# mk/acc.mk - access-counter unit (docs/microarch.md §19): block-level lock-step of rtl/gmmu_acc.sv
# against cmodel/acc.c (tb/acc/acc_lockstep.cpp: directed spec checks, then random stimulus with
# every output and the tracker state compared each cycle and the coverage points of §19 required).
## make test-acc-lockstep      gmmu_acc RTL vs cmodel/acc.c, block-level lock-step (AccEntries 1, 4, 5; test-full)

ACC_LS_CFGS := 1:1 4:4 5:2
ACC_LS_BINS := $(foreach c,$(ACC_LS_CFGS),$(BUILD)/acc/e$(word 1,$(subst :, ,$(c)))a$(word 2,$(subst :, ,$(c)))/obj/Vgmmu_acc)

$(BUILD)/acc/e%/obj/Vgmmu_acc: rtl/gmmu_acc.sv cmodel/acc.c cmodel/acc.h tb/acc/acc_lockstep.cpp \
    tb/acc/build.sh $(GEN_PKG) $(GEN_CONSTS_H)
	@echo "verilator: building gmmu_acc block lock-step $*"
	@n=$$(echo $* | sed 's/a.*//'); a=$$(echo $* | sed 's/.*a//'); \
	  tb/acc/build.sh $(BUILD)/acc/e$* $$n $$a > /dev/null

.PHONY: test-acc-lockstep
test-acc-lockstep: $(ACC_LS_BINS)
	@seed=1; for b in $(ACC_LS_BINS); do $$b $$seed 200000 || exit 1; seed=$$((seed + 1)); done
TEST_FULL_TARGETS += test-acc-lockstep
