#!/usr/bin/env bash
# Test of gmmu-sim --state-compare (docs/cosim.md), configuration tiny:
#  1. a clean lock-step run with --state-compare (strict: every _q register has a model accessor)
#     passes, and its statistics equal those of the same run without the option;
#  2. a one-line mutation of the C model's PLRU update (a register whose divergence reaches the
#     ports only when a later fill picks a victim) is reported by --state-compare naming a plru_q
#     register, at an earlier cycle than the port mismatch of the same mutated binary without it.
# The mutation is applied to a scratch copy of the tree (build/statecmp-test), never the sources.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/scratch_tree.sh
. "$root/scripts/scratch_tree.sh"
work=${STATECMP_WORK:-$root/build/statecmp-test}
config=tiny
trace=tb/traces/replay.trc
sim="$root/build/$config/gmmu-sim-state"
run() { # binary, stats, log, extra options...
    local bin=$1 stats=$2 log=$3
    shift 3
    set +e
    (cd "$root" && "$bin" --config configs/$config.cfg --trace $trace --engine cosim --quiet \
        --stats "$stats" "$@") > "$log" 2>&1
    local rc=$?
    set -e
    return $rc
}
fail() { echo "statecmp_test: $*" >&2; exit 1; }
mkdir -p "$work"

# 1. clean run
run "$sim" "$work/clean-state.json" "$work/clean-state.log" --state-compare ||
    { tail -20 "$work/clean-state.log" >&2; fail "clean run with --state-compare failed"; }
run "$sim" "$work/clean.json" "$work/clean.log" ||
    { tail -20 "$work/clean.log" >&2; fail "clean run without --state-compare failed"; }
python3 - "$work/clean.json" "$work/clean-state.json" <<'PY' || fail "statistics differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
diff = [k for k in sorted(set(a) | set(b)) if k != "wall_seconds" and a.get(k) != b.get(k)]
for k in diff:
    print(f"  {k}: {a.get(k)} without, {b.get(k)} with --state-compare", file=sys.stderr)
sys.exit(1 if diff else 0)
PY
echo "statecmp_test: clean run with --state-compare passes, statistics identical"

# 2. mutated model
scratch_sources "$root" "$work"
mkdir -p "$work/build"
# the clean tree's objects too (with their times), so no object of an earlier run survives
rm -rf "${work:?}/build/lib" "${work:?}/build/obj" "${work:?}/build/$config"
cp -a "$root/build/lib" "$root/build/obj" "$root/build/$config" "$work/build/"
file=cmodel/plru.c
sed -i 's/(node == 2u \* parent + 1u) ? 1u : 0u/(node == 2u * parent + 1u) ? 0u : 1u/' "$work/$file"
[ "$(diff "$root/$file" "$work/$file" | grep -c '^>' || true)" = 1 ] ||
    fail "the mutation of $file did not change exactly one line"
(cd "$work" && make -s sim-state CONFIG=$config > "$work/build.log" 2>&1) ||
    { tail -20 "$work/build.log" >&2; fail "the mutated gmmu-sim-state did not build"; }
msim="$work/build/$config/gmmu-sim-state"
run "$msim" "$work/mut-state.json" "$work/mut-state.log" --state-compare &&
    fail "the mutation was not caught with --state-compare"
run "$msim" "$work/mut.json" "$work/mut.log" && fail "the mutation was not caught by the ports"
sline=$(grep -m1 "^STATE MISMATCH at cycle" "$work/mut-state.log") ||
    { tail -20 "$work/mut-state.log" >&2; fail "no STATE MISMATCH report"; }
pline=$(grep -m1 "^MISMATCH at cycle" "$work/mut.log") ||
    { tail -20 "$work/mut.log" >&2; fail "no port MISMATCH report"; }
echo "  with --state-compare:    $sline"
echo "  without (ports only):    $pline"
echo "$sline" | grep -q "plru_q" || fail "the state report does not name a plru_q register"
scyc=$(echo "$sline" | sed -E 's/^STATE MISMATCH at cycle ([0-9]+).*/\1/')
pcyc=$(echo "$pline" | sed -E 's/^MISMATCH at cycle ([0-9]+).*/\1/')
[ "$scyc" -lt "$pcyc" ] || fail "state mismatch at cycle $scyc is not before port mismatch $pcyc"
echo "statecmp_test: the mutated PLRU is named at cycle $scyc, $((pcyc - scyc)) cycles before the port mismatch"
