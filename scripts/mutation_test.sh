#!/usr/bin/env bash
# Mutation test of the co-simulation: a one-line change of behaviour in the RTL or in the C model
# must make the lock-step run fail at the first divergent cycle with a mismatch report and a
# waveform. Each mutation is applied to a scratch copy of the tree (never to the sources), must
# match exactly one line (else the test itself fails), and the run must report "MISMATCH at cycle".
#
# MUT_SET=quick (default, make test-mutation in make test): the base mutations (but three RTL
# ones marked below, kept for make test's 15-minute budget) and the C model mutations of the
# issue 11 holes (cheap: no Verilator rebuild). MUT_SET=full (make mutation):
# also the RTL mutations of the holes (one Verilator rebuild each, about 2-3 min each).
# MUT_SET=models: every C model mutation of the holes, no RTL one. MUT_BASE=0 skips the base set.
# The holes table of docs/verification.md lists each hole, its test and its mutations.
# MUT_ONLY=REGEX: only the mutations whose description matches (e.g. MUT_ONLY='^RTL').
# MUT_RANDOM=N (measurement, any set): also run N seeds of the random mix
# (scripts/random_lockstep.py) on each mutant and count the mutants it catches.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/scratch_tree.sh
. "$root/scripts/scratch_tree.sh"
work=${MUT_WORK:-$root/build/mutation}
config=tiny
trace=tb/traces/replay.trc

mkdir -p "$work"
# sources only (no build products), refreshed every run
# (the files git tracks, so a new top-level folder needs no edit here, plus the generated files
# with their times, so the copied Verilator model stays up to date; outside a checkout, all)
scratch_sources "$root" "$work"
# reuse the already built libraries of the clean tree where possible
mkdir -p "$work/build"
# (objects too: a previous run's objects of a mutated file are newer than the restored source)
for d in lib obj obj-san; do
    rm -rf "${work:?}/build/$d"
    [ -d "$root/build/$d" ] && cp -a "$root/build/$d" "$work/build/"
done
[ -d "$root/build/$config" ] && rm -rf "${work:?}/build/$config" && cp -a "$root/build/$config" "$work/build/"

fail=0
rnd_caught=0
rnd_total=0
mutate() { # file, sed expression (must change exactly one line), description[, trace[, gmmu-sim
           # options]] (default: the replay trace, no options)
    local file=$1 expr=$2 what=$3 mtrace=${4:-$trace} opts=${5:-}
    if [ -n "${MUT_ONLY:-}" ] && ! printf '%s' "$what" | grep -qE -- "$MUT_ONLY"; then
        return 0
    fi
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
        if [ -n "${MUT_RANDOM:-}" ]; then # measurement: would the random mix catch it too?
            (cd "$work" && python3 scripts/random_lockstep.py --seeds "$MUT_RANDOM" \
                --build "$work/build") > "$work/random.log" 2>&1 || true
            if grep -q "MISMATCH at cycle" "$work/random.log"; then
                echo "   random mix ($MUT_RANDOM seeds): caught by seed" \
                    "$(grep -m1 -o 'random seed [0-9]*: FAIL' "$work/random.log" | grep -o '[0-9]*')"
                rnd_caught=$((rnd_caught + 1))
            else
                echo "   random mix ($MUT_RANDOM seeds): not caught"
            fi
            rnd_total=$((rnd_total + 1))
        fi
    fi
    cp "$root/$file" "$work/$file"   # restore for the next mutation
}

if [ "${MUT_BASE:-1}" = 1 ]; then # MUT_BASE=0: only the hole mutations below (iterating)
mutate cmodel/l2_tlb.c 's/l2->rr = (s + 1u) % l2->n_sm;/l2->rr = s % l2->n_sm;/' \
    "model: L2 round-robin pointer does not advance past the granted SM"
mutate cmodel/plru.c 's/(node == 2u \* parent + 1u) ? 1u : 0u/(node == 2u * parent + 1u) ? 0u : 1u/' \
    "model: PLRU touch points towards the touched way"
mutate rtl/gmmu_l1_req_table.sv "s/(free_cnt >= CntW'(NumPorts))/(free_cnt > CntW'(NumPorts))/" \
    "RTL: L1 back-pressure one entry early (request table)"
# one mutation inside each shared TLB block (RTL and C model)
mutate rtl/gmmu_tlb_fa.sv 's/      lk_data_o\[p\] = ent_data\[lk_idx_o\[p\]\];/      lk_data_o[p] = ent_data[0];/' \
    "RTL: fully associative array returns entry 0's payload on every hit (gmmu_tlb_fa FA-1)"
if [ "${MUT_SET:-quick}" = full ]; then # (make mutation only: the budget of make test)
mutate rtl/gmmu_tlb_sa.sv "s/  assign lk_data_o = rd_data\[lk_way_o\];/  assign lk_data_o = rd_data[0];/" \
    "RTL: set-associative array returns way 0's payload on every hit (gmmu_tlb_sa SA-1)"
fi
# the L2 base array's payload RAM read path (docs/microarch.md §1.3 "payload RAM")
mutate rtl/gmmu_ram_1r1w.sv 's/    rdata_q <= (we_i && waddr_i == raddr_i) ? wdata_i : mem\[raddr_i\];/    rdata_q <= mem[raddr_i];/' \
    "RTL: payload RAM is read-first (a fill and the read of its set in one cycle read the old word)"
mutate cmodel/l2_tlb.c 's/    tlb_sa_ram_read(&l2->base, (uint32_t)(l2->pvpn\[L\] & (l2->sets - 1u)));/    tlb_sa_ram_read(\&l2->base, (uint32_t)(l2->pvpn[0] \& (l2->sets - 1u)));/' \
    "model: payload RAM read address = the set of stage 1 instead of the next last stage"
mutate cmodel/tlb_fa.h 's/            \*idx = i;/            *idx = 0;/' \
    "model: fully associative lookup reports entry 0 on every hit (tlb_fa FA-1)"
mutate cmodel/tlb_sa.c 's/\.data = a->all\.data + b,/.data = a->all.data,/' \
    "model: every set of the set-associative array writes its payload into set 0 (tlb_sa)"
mutate cmodel/l1_req.h 's/(gmmu_popcount64(l1_req_free_mask(r)) >= n_ports)/(gmmu_popcount64(l1_req_free_mask(r)) > n_ports)/' \
    "model: L1 back-pressure one entry early (l1_req request table)"
# the blocking fault mode (docs/microarch.md §4.1), run in blocking mode on the small workload
if [ "${MUT_SET:-quick}" = full ]; then # (make mutation only: the budget of make test)
mutate rtl/gmmu_l1_req_table.sv 's/            if (blocking_i) flt_d\[i\] = 1.b1;/            if (!blocking_i) flt_d[i] = 1'"'"'b1;/' \
    "RTL: a NACK blocks the SM in replayable mode instead of blocking mode (request table flt)" \
    tb/traces/small.trc "--set fault_mode=blocking"
fi
mutate cmodel/l1_req.h 's/^    r->m_nack = 0;$/    r->m_nack = 0; r->m_flt = 0;/' \
    "model: a replay releases a blocked SM (instead of the faulted translation's output)" \
    tb/traces/small.trc "--set fault_mode=blocking"
# address spaces (docs/microarch.md §14): the platform drives one address space (ASID 0), so the
# mutations are ones that one address space sees: the fault entry's ASID field, the command's ASID
if [ "${MUT_SET:-quick}" = full ]; then # (make mutation only: the budget of make test)
mutate rtl/gmmu_ff.sv 's/FB_ASID_W\] = fw_asid_q;/FB_ASID_W] = ~fw_asid_q;/' \
    "RTL: the fault entry carries the complement of the fault's ASID (FB_ASID, word 0)"
fi
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
fi

# ---------------------------------------------------------------------------------------------
# issue 11: the lock-step coverage holes, each mutation run on the directed test of its hole
# (tb/tests/<test>.test: its trace, set, csr, preload, expect_fault and args)
set_=${MUT_SET:-quick}
test_opts() { # test name -> "trace options..." (the test's own gmmu-sim arguments)
    python3 - "$root" "$1" <<'PY'
import os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "scripts"))
import run_test
t = run_test.parse_test(os.path.join(sys.argv[1], "tb", "tests", sys.argv[2] + ".test"))
o = [t["trace"]]
for s in t["set"]:
    o += ["--set", s]
o += ["--expect-fault"] if t["expect_fault"] else []
print(" ".join(o + t["args"]))
PY
}
hole() { # kind (model: quick set, model2 / rtl: full set only), test, file, sed expression,
         # description
    local kind=$1 test=$2 file=$3 expr=$4 what=$5 topts
    case "$set_:$kind" in
        full:* | models:model* | quick:model) ;;
        *) return 0 ;;
    esac
    topts=$(test_opts "$test")
    local opts=""
    [ "${topts#* }" != "$topts" ] && opts=${topts#* }
    mutate "$file" "$expr" "$what [hole test $test]" "${topts%% *}" "$opts"
}
# hole 1: 2 MB pages and nocache PTEs (large_pages: --preload)
hole model large_pages cmodel/ptw.c 's/((pte >> GMMU_PTE_D) \& 1u);/((pte >> GMMU_PTE_A) \& 1u);/' \
    "model: walker reads nocache from the A bit instead of D (nocache translations cached)"
hole model2 large_pages cmodel/l1_tlb.c 's/^                (vpn \& GMMU_IDX_MASK);/                (vpn \& 0u);/' \
    "model: L1 large hit returns the region's first page (4 KB offset in the region dropped)"
hole model2 large_pages cmodel/l1_tlb.c 's/tlb_large_tag(fl->asid, fl->vpn),/tlb_large_tag(fl->asid, fl->vpn >> 1),/' \
    "model: L1 page invalidate of the large array compares the wrong region"
hole rtl large_pages rtl/gmmu_ptw.sv 's/assign cpl_nocache_o = rsp_done \&\& !rk_lmode \&\& pte\[gmmu_pkg::PTE_D\];/assign cpl_nocache_o = rsp_done \&\& !rk_lmode \&\& pte[gmmu_pkg::PTE_A];/' \
    "RTL: walker reads nocache from the A bit instead of D (nocache translations cached)"
hole rtl large_pages rtl/gmmu_l1_tlb.sv 's/{l_lk_data\[p\].lppn, lk_vpn\[p\]\[OffW-1:0\]}/{l_lk_data[p].lppn, {OffW{1'"'"'b0}}}/' \
    "RTL: L1 large hit returns the region's first page (4 KB offset in the region dropped)"
hole rtl large_pages rtl/gmmu_l2_tlb.sv 's/assign l_flush_tag.region  = cmd_vpn_i\[VpnW-1:OffW\];/assign l_flush_tag.region  = cmd_vpn_i[VpnW-2:OffW-1];/' \
    "RTL: L2 page invalidate of the large array compares the wrong region"
hole rtl large_pages rtl/gmmu_ptw.sv 's/if (int.(rk_level) == Levels - 2 \&\& pte\[gmmu_pkg::PTE_L\]) begin/if (int'"'"'(rk_level) == Levels - 1 \&\& pte[gmmu_pkg::PTE_L]) begin/' \
    "RTL: walker takes the large path at the wrong level (a large PDE read as a table pointer)"
# hole 2: a write to a read-only page cached in L1 / L2 (ro_hit)
hole model ro_hit cmodel/ptw.c 's/} else if (w->write\[k\] \&\& !((pte >> GMMU_PTE_W) \& 1u)) {/} else if (w->write[k] \&\& !((pte >> GMMU_PTE_V) \& 1u)) {/' \
    "model: walker RO check reads the V bit (a write to a read-only page completes OK)"
hole model2 ro_hit cmodel/tlb_fa.h 's/if (!hit \&\& (!write || a->w\[i\])) {/if (!hit \&\& (!write || 1)) {/' \
    "model: TLB lookup ignores the W bit (a write hits a read-only entry)"
hole rtl ro_hit rtl/gmmu_ptw.sv 's/end else if (w_write_q\[rk\] \&\& !pte\[gmmu_pkg::PTE_W\]) begin/end else if (w_write_q[rk] \&\& !pte[gmmu_pkg::PTE_V]) begin/' \
    "RTL: walker RO check reads the V bit (a write to a read-only page completes OK)"
hole rtl ro_hit rtl/gmmu_tlb_fa.sv 's/(!lk_write_i\[p\] || ent_w\[i\])/(!lk_write_i[p] || 1'"'"'b1)/' \
    "RTL: L1 / L2 large lookup ignores the W bit (a write hits a read-only entry)"
# hole 3: CSR error paths (csr_errors: scripted CSR accesses)
hole model csr_errors cmodel/csr.c 's/else if (addr == GMMU_CSR_CMD \&\& (cmd_valid_q || ff->co_busy))/else if (addr == GMMU_CSR_CMD_STATUS \&\& (cmd_valid_q || ff->co_busy))/' \
    "model: CMD busy check on the wrong address (ERR_CMD_BUSY never set)"
hole model2 csr_errors cmodel/csr.c 's/^            set_err(c, GMMU_ERR_BAD_ADDR, addr);/            set_err(c, GMMU_ERR_RO_WRITE, addr);/' \
    "model: a read of an unmapped address sets ERR_RO_WRITE instead of ERR_BAD_ADDR"
hole rtl csr_errors rtl/gmmu_csr.sv 's/end else if (csr_addr_i == gmmu_pkg::CSR_CMD \&\& (cmd_valid_q || co_busy_i)) begin/end else if (csr_addr_i == gmmu_pkg::CSR_CMD_STATUS \&\& (cmd_valid_q || co_busy_i)) begin/' \
    "RTL: CMD busy check on the wrong address (ERR_CMD_BUSY never set)"
hole rtl csr_errors rtl/gmmu_csr.sv 's/if (!rd_mapped) err_set\[gmmu_pkg::ERR_BAD_ADDR\] = 1.b1;/if (!rd_mapped) err_set[gmmu_pkg::ERR_RO_WRITE] = 1'"'"'b1;/' \
    "RTL: a read of an unmapped address sets ERR_RO_WRITE instead of ERR_BAD_ADDR"
# hole 4: same-cycle races at the fault ring (fb_race: writes timed to the ring events)
hole model fb_race cmodel/gmmu.c 's/    if (wr.ovf_w1c \&\& !fc.ovf_set)/    if (wr.ovf_w1c)/' \
    "model: OVERFLOW W1C wins over the unit's set in the same cycle"
hole model2 fb_race cmodel/gmmu.c 's/const ff_ring_t ring = {m->csr.fb_base, m->csr.fb_size, m->csr.get};/const ff_ring_t ring = {m->csr.fb_base, m->csr.fb_size, (in->csr_valid \&\& in->csr_write \&\& in->csr_addr == GMMU_CSR_FB_GET) ? (uint16_t)in->csr_wdata : m->csr.get};/' \
    "model: the far-fault unit sees a same-cycle FB_GET write (ring full tested on the new GET)"
hole rtl fb_race rtl/gmmu_ff.sv 's/if (ovf_clr_i \&\& !o_ovf) overflow_d = 1.b0;/if (ovf_clr_i) overflow_d = 1'"'"'b0;/' \
    "RTL: OVERFLOW W1C wins over the unit's set in the same cycle"
hole rtl fb_race rtl/gmmu_csr.sv 's/assign get_o         = get_q;/assign get_o         = get_d;/' \
    "RTL: the far-fault unit sees a same-cycle FB_GET write (GET forwarded from get_d)"
[ -n "${MUT_RANDOM:-}" ] && echo "random mix ($MUT_RANDOM seeds) caught $rnd_caught of $rnd_total mutations"
exit $fail
