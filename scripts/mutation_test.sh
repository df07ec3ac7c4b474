#!/usr/bin/env bash
# Mutation test of the co-simulation: a one-line change of behaviour in the RTL or in the C model
# must make the lock-step run fail at the first divergent cycle with a mismatch report and a
# waveform. Each mutation is applied to a scratch copy of the tree (never to the sources), must
# match exactly one line (else the test itself fails), and the run must report "MISMATCH at cycle".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${MUT_WORK:-$root/build/mutation}
config=tiny
trace=tb/traces/replay.trc

mkdir -p "$work"
# sources only (no build products), refreshed every run
# (the files git tracks, so a new top-level folder needs no edit here, plus the generated files
# with their times, so the copied Verilator model stays up to date; outside a checkout, all)
if git -C "$root" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    (cd "$root" && { git ls-files -z; printf '%s\0' rtl/gen cmodel/gen rtl/files.f; } |
        tar --null -cf - -T -) | (cd "$work" && tar -xf -)
else
    (cd "$root" && tar -cf - --exclude=./build .) | (cd "$work" && tar -xf -)
fi
# reuse the already built libraries of the clean tree where possible
mkdir -p "$work/build"
# (objects too: a previous run's objects of a mutated file are newer than the restored source)
for d in lib obj obj-san; do
    rm -rf "${work:?}/build/$d"
    [ -d "$root/build/$d" ] && cp -a "$root/build/$d" "$work/build/"
done
[ -d "$root/build/$config" ] && rm -rf "${work:?}/build/$config" && cp -a "$root/build/$config" "$work/build/"

fail=0
mutate() { # file, sed expression (must change exactly one line), description[, trace[, gmmu-sim
           # options]] (default: the replay trace, no options)
    local file=$1 expr=$2 what=$3 mtrace=${4:-$trace} opts=${5:-}
    cp "$root/$file" "$work/$file"
    sed -i "$expr" "$work/$file"
    local n
    n=$(diff "$root/$file" "$work/$file" | grep -c '^>' || true)
    if [ "$n" != 1 ]; then
        echo "mutation_test: '$what': expected to change 1 line of $file, changed $n" >&2
        cp "$root/$file" "$work/$file"
        fail=1
        return
    fi
    echo "== mutation: $what ($file)"
    diff "$root/$file" "$work/$file" | sed 's/^/   /' || true
    local log=$work/run.log
    if ! (cd "$work" && make -s sim CONFIG=$config > "$work/build.log" 2>&1); then
        echo "mutation_test: '$what' did not build:" >&2; tail -20 "$work/build.log" >&2; fail=1
    else
        set +e
        # shellcheck disable=SC2086 # opts: several words
        (cd "$work" && ./build/$config/gmmu-sim --config configs/$config.cfg --trace $mtrace \
            --engine cosim --quiet --stats "$work/stats.json" $opts) > "$log" 2>&1
        local rc=$?
        set -e
        if [ $rc -ne 0 ] && grep -q "MISMATCH at cycle" "$log" && grep -q "waveform" "$log"; then
            grep -m1 "MISMATCH at cycle" "$log" | sed 's/^/   caught: /'
        else
            echo "mutation_test: '$what' was NOT caught (exit $rc)" >&2; tail -20 "$log" >&2; fail=1
        fi
    fi
    cp "$root/$file" "$work/$file"   # restore for the next mutation
}

mutate cmodel/l2_tlb.c 's/l2->rr = (s + 1u) % l2->n_sm;/l2->rr = s % l2->n_sm;/' \
    "model: L2 round-robin pointer does not advance past the granted SM"
mutate cmodel/plru.c 's/(node == 2u \* parent + 1u) ? 1u : 0u/(node == 2u * parent + 1u) ? 0u : 1u/' \
    "model: PLRU touch points towards the touched way"
mutate rtl/gmmu_l1_req_table.sv "s/(free_cnt >= CntW'(NumPorts))/(free_cnt > CntW'(NumPorts))/" \
    "RTL: L1 back-pressure one entry early (request table)"
# one mutation inside each shared TLB block (RTL and C model)
mutate rtl/gmmu_tlb_fa.sv 's/      lk_data_o\[p\] = ent_data\[lk_idx_o\[p\]\];/      lk_data_o[p] = ent_data[0];/' \
    "RTL: fully associative array returns entry 0's payload on every hit (gmmu_tlb_fa FA-1)"
mutate rtl/gmmu_tlb_sa.sv "s/  assign lk_data_o = ent_data\[idx(lk_set_i, lk_way_o)\];/  assign lk_data_o = ent_data[idx(lk_set_i, '0)];/" \
    "RTL: set-associative array returns way 0's payload on every hit (gmmu_tlb_sa SA-1)"
mutate cmodel/tlb_fa.h 's/            \*idx = i;/            *idx = 0;/' \
    "model: fully associative lookup reports entry 0 on every hit (tlb_fa FA-1)"
mutate cmodel/tlb_sa.c 's/\.data = a->all\.data + b,/.data = a->all.data,/' \
    "model: every set of the set-associative array writes its payload into set 0 (tlb_sa)"
mutate cmodel/l1_req.h 's/(gmmu_popcount64(l1_req_free_mask(r)) >= n_ports)/(gmmu_popcount64(l1_req_free_mask(r)) > n_ports)/' \
    "model: L1 back-pressure one entry early (l1_req request table)"
# the blocking fault mode (docs/microarch.md §4.1), run in blocking mode on the small workload
mutate rtl/gmmu_l1_req_table.sv 's/            if (blocking_i) flt_d\[i\] = 1.b1;/            if (!blocking_i) flt_d[i] = 1'"'"'b1;/' \
    "RTL: a NACK blocks the SM in replayable mode instead of blocking mode (request table flt)" \
    tb/traces/small.trc "--set fault_mode=blocking"
mutate cmodel/l1_req.h 's/^    r->m_nack = 0;$/    r->m_nack = 0; r->m_flt = 0;/' \
    "model: a replay releases a blocked SM (instead of the faulted translation's output)" \
    tb/traces/small.trc "--set fault_mode=blocking"
# address spaces (docs/microarch.md §14): the platform drives one address space (ASID 0), so the
# mutations are ones that one address space sees: the fault entry's ASID field, the command's ASID
mutate rtl/gmmu_ff.sv 's/FB_ASID_W\] = fw_asid_q;/FB_ASID_W] = ~fw_asid_q;/' \
    "RTL: the fault entry carries the complement of the fault's ASID (FB_ASID, word 0)"
mutate cmodel/csr.c 's/GMMU_CSR_CMD_ARG_HI_ASID_MASK \& c->asid_mask);/GMMU_CSR_CMD_ARG_HI_ASID_MASK \& c->asid_mask) ^ 1u;/' \
    "model: a command names ASID 1 instead of CMD_ARG_HI.ASID (CANCEL_PAGE misses the fault's entry)" \
    tb/traces/fatal.trc
# the coalesce unit (docs/microarch.md §15), run with the coalesce test hook during kernel k2 of
# the coalesce trace (tb/tests/coalesce_walks.test)
co_opts="--set co_vpn=0x10000 --set coalesce_at=7300000"
mutate rtl/gmmu_co.sv 's/          co_dat_d\[gmmu_pkg::PTE_D\]   = !co_op_q;/          co_dat_d[gmmu_pkg::PTE_D]   = co_op_q;/' \
    "RTL: COALESCE clears the disabled bits instead of setting them (gmmu_co ERD)" \
    tb/traces/coalesce.trc "$co_opts"
mutate cmodel/co.c 's/            c->state = c->op == 0 ? CO_CHECK : CO_LRD;/            c->state = c->op == 0 ? CO_ERD : CO_LRD;/' \
    "model: COALESCE skips its check pass (writes before it knows the region is mapped)" \
    tb/traces/coalesce.trc "$co_opts"

# several address spaces: the platform cannot drive them yet (docs/microarch.md §14.9), so these
# mutations must make the lock-step ASID test fail (make test-asid-lockstep: the scenarios of
# test_cmodel_asid.c, RTL of configs/asid4.cfg beside the C model, every port every cycle)
[ -d "$root/build/asid4" ] && rm -rf "${work:?}/build/asid4" && cp -a "$root/build/asid4" "$work/build/"
mutate_ls() { # file, sed expression (exactly one line), description
    local file=$1 expr=$2 what=$3
    cp "$root/$file" "$work/$file"
    sed -i "$expr" "$work/$file"
    local n
    n=$(diff "$root/$file" "$work/$file" | grep -c '^>' || true)
    if [ "$n" != 1 ]; then
        echo "mutation_test: '$what': expected to change 1 line of $file, changed $n" >&2
        cp "$root/$file" "$work/$file"
        fail=1
        return
    fi
    echo "== mutation (ASID lock-step): $what ($file)"
    diff "$root/$file" "$work/$file" | sed 's/^/   /' || true
    local log=$work/run-ls.log
    set +e
    (cd "$work" && make -s test-asid-lockstep) > "$log" 2>&1
    local rc=$?
    set -e
    if [ $rc -ne 0 ] && grep -q "lock-step mismatch at cycle" "$log"; then
        grep -m1 "lock-step mismatch at cycle" "$log" | sed 's/^.*\(lock-step mismatch\)/   caught: \1/'
    else
        echo "mutation_test: '$what' was NOT caught by test-asid-lockstep (exit $rc)" >&2
        tail -20 "$log" >&2
        fail=1
    fi
    cp "$root/$file" "$work/$file"
}
mutate_ls rtl/gmmu_l1_tlb.sv "s/    assign b_lk_tag\[p\].asid   = lk_asid\[p\*AsidW +: AsidW\];/    assign b_lk_tag[p].asid   = '0;/" \
    "RTL: the L1 base lookup ignores the request's ASID (looks up ASID 0)"
mutate_ls cmodel/l2_tlb.c 's/ && l2->m_asid\[m\] == asid) {/) {/' \
    "model: an L2 miss merges into an MSHR of another address space (key without the ASID)"
exit $fail
