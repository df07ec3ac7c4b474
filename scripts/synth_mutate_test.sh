#!/usr/bin/env bash
# The netlist engine catches a mis-synthesized construct (make test-netlist, docs/cosim.md "The
# netlist engine"): scripts/synth_mutate.py makes two bits of a member of an array of packed
# structs (the L1 request table's ent_q, SM 0, entry 0, ppn[0] and ppn[1]) take each other's next
# value, the mis-read the old Yosys front end made on member selects of arrays of structs.
#  1. the mutated netlist has as many flip-flops as the checked one (the count check of
#     scripts/synth.py cannot see the mutation);
#  2. the checked netlist runs the trace in lock-step with the C model without a mismatch;
#  3. the mutated netlist, same trace and seed, stops with a lock-step mismatch (exit 1).
# With the second argument ecp5 (make test-netlist-ecp5): the same on the ECP5 netlist of
# synth_ecp5 (vnetlist-ecp5, gmmu-sim-netlist-ecp5): the two TRELLIS_FF cells swap their data
# inputs, a mis-mapped netlist with the same cells.
# Usage: synth_mutate_test.sh build/<config> [ecp5]
#        (gmmu-sim-netlist[-ecp5] and gmmu-sim-netlist[-ecp5]-mut built)
set -euo pipefail
dir=${1:?usage: synth_mutate_test.sh build/<config> [ecp5]}
config=$(basename "$dir")
trace=tb/traces/small.trc
fail() { echo "synth_mutate_test: FAIL: $*" >&2; exit 1; }
case "${2:-}" in
    "")   nl=netlist;      ffpat='always @(posedge clk_i, negedge rst_ni)' ;;
    ecp5) nl=netlist-ecp5; ffpat='TRELLIS_FF #(' ;;
    *)    fail "unknown netlist kind '$2' (give none or ecp5)" ;;
esac
out=$dir/$nl-mutation
mkdir -p "$out"

ffs() { grep -cF "$ffpat" "$1"; }
good=$(ffs "$dir/v$nl/gmmu_top_syn.v")
mut=$(ffs "$dir/v$nl-mut/gmmu_top_syn.v")
[ "$good" = "$mut" ] || fail "flip-flops: $good in the netlist, $mut in the mutated one"
cmp -s "$dir/v$nl/gmmu_top_syn.v" "$dir/v$nl-mut/gmmu_top_syn.v" &&
    fail "the mutated netlist equals the checked one"
echo "synth_mutate_test: both netlists have $good flip-flops (the count check passes on both)"

run() { # binary, name -> exit status
    local rc=0
    "$dir/$1" --config "configs/$config.cfg" --trace $trace --engine cmodel,netlist --quiet \
        --stats "$out/$2.json" > "$out/$2.log" 2>&1 || rc=$?
    return $rc
}
rc=0
run gmmu-sim-$nl good || rc=$?
[ $rc = 0 ] || { tail -20 "$out/good.log" >&2; fail "checked netlist: exit $rc, expected 0"; }
echo "synth_mutate_test: checked netlist vs C model: 0 mismatches ($trace)"
rc=0
run gmmu-sim-$nl-mut mut || rc=$?
[ $rc = 1 ] || { tail -20 "$out/mut.log" >&2; fail "mutated netlist: exit $rc, expected 1"; }
line=$(grep -m1 'actual (netlist)' "$out/mut.log") ||
    fail "mutated netlist: exit 1 without a lock-step mismatch line (see $out/mut.log)"
echo "synth_mutate_test: mutated netlist caught: $line"
