#!/usr/bin/env bash
# The netlist engine catches a mis-synthesized construct (make test-netlist, docs/cosim.md "The
# netlist engine"): scripts/synth_mutate.py makes two bits of a member of an array of packed
# structs (the L1 request table's ent_q, SM 0, entry 0, ppn[0] and ppn[1]) take each other's next
# value, the mis-read the old Yosys front end made on member selects of arrays of structs.
#  1. the mutated netlist has as many flip-flops as the checked one (the count check of
#     scripts/synth.py cannot see the mutation);
#  2. the checked netlist runs the trace in lock-step with the C model without a mismatch;
#  3. the mutated netlist, same trace and seed, stops with a lock-step mismatch (exit 1).
# Usage: synth_mutate_test.sh build/<config>   (gmmu-sim-netlist and gmmu-sim-netlist-mut built)
set -euo pipefail
dir=${1:?usage: synth_mutate_test.sh build/<config>}
config=$(basename "$dir")
trace=tb/traces/small.trc
out=$dir/netlist-mutation
mkdir -p "$out"
fail() { echo "synth_mutate_test: FAIL: $*" >&2; exit 1; }

ffs() { grep -c 'always @(posedge clk_i, negedge rst_ni)' "$1"; }
good=$(ffs "$dir/vnetlist/gmmu_top_syn.v")
mut=$(ffs "$dir/vnetlist-mut/gmmu_top_syn.v")
[ "$good" = "$mut" ] || fail "flip-flops: $good in the netlist, $mut in the mutated one"
cmp -s "$dir/vnetlist/gmmu_top_syn.v" "$dir/vnetlist-mut/gmmu_top_syn.v" &&
    fail "the mutated netlist equals the checked one"
echo "synth_mutate_test: both netlists have $good flip-flops (the count check passes on both)"

run() { # binary, name -> exit status
    local rc=0
    "$dir/$1" --config "configs/$config.cfg" --trace $trace --engine cmodel,netlist --quiet \
        --stats "$out/$2.json" > "$out/$2.log" 2>&1 || rc=$?
    return $rc
}
rc=0
run gmmu-sim-netlist good || rc=$?
[ $rc = 0 ] || { tail -20 "$out/good.log" >&2; fail "checked netlist: exit $rc, expected 0"; }
echo "synth_mutate_test: checked netlist vs C model: 0 mismatches ($trace)"
rc=0
run gmmu-sim-netlist-mut mut || rc=$?
[ $rc = 1 ] || { tail -20 "$out/mut.log" >&2; fail "mutated netlist: exit $rc, expected 1"; }
line=$(grep -m1 'actual (netlist)' "$out/mut.log") ||
    fail "mutated netlist: exit 1 without a lock-step mismatch line (see $out/mut.log)"
echo "synth_mutate_test: mutated netlist caught: $line"
