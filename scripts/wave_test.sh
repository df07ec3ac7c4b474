#!/usr/bin/env bash
# Waveform test (make test-wave, docs/cosim.md "Waveforms"): one RTL mutation of
# scripts/mutation_test.sh (the fully associative TLB array returns entry 0's payload on every
# hit) is applied to a scratch copy of the tree, the tiny model is rebuilt (one Verilator build),
# the lock-step run must stop on a mismatch and write its FST, and scripts/wave_check.py reads the
# FST back: the RTL and model values of the reported port side by side and differing at the
# mismatch time, equal before it, the diff bit and marker, and the GTKWave save file naming them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/scratch_tree.sh
. "$root/scripts/scratch_tree.sh"
work=${WAVE_WORK:-$root/build/wave-test}
config=tiny
trace=tb/traces/replay.trc
file=rtl/gmmu_tlb_fa.sv
expr='s/      rd_idx\[p\]    = lk_idx_o\[p\];/      rd_idx[p]    = '"'"'0;/'

mkdir -p "$work"
# sources only (the files git tracks plus the generated ones), as scripts/mutation_test.sh does
scratch_sources "$root" "$work"
mkdir -p "$work/build"
for d in lib obj; do
    rm -rf "${work:?}/build/$d"
    [ -d "$root/build/$d" ] && cp -a "$root/build/$d" "$work/build/"
done
[ -d "$root/build/$config" ] && rm -rf "${work:?}/build/$config" && cp -a "$root/build/$config" "$work/build/"

sed -i "$expr" "$work/$file"
n=$(diff "$root/$file" "$work/$file" | grep -c '^>' || true)
if [ "$n" != 1 ]; then
    echo "wave_test: the mutation changed $n lines of $file, expected 1" >&2
    exit 1
fi
echo "== wave test: mutation of $file"
diff "$root/$file" "$work/$file" | sed 's/^/   /' || true
(cd "$work" && make -s sim CONFIG=$config > "$work/build.log" 2>&1) ||
    { echo "wave_test: the mutant did not build:" >&2; tail -20 "$work/build.log" >&2; exit 1; }
rm -f "$work/stats-mismatch.fst" "$work/stats-mismatch.gtkw"
set +e
(cd "$work" && ./build/$config/gmmu-sim --config configs/$config.cfg --trace $trace \
    --engine cosim --quiet --stats "$work/stats.json") > "$work/run.log" 2>&1
rc=$?
set -e
if [ $rc -eq 0 ]; then
    echo "wave_test: the mutant was not caught (exit 0)" >&2
    tail -20 "$work/run.log" >&2
    exit 1
fi
nports=$(sed -n 's/^num_ports *= *\([0-9]*\).*/\1/p' "$root/configs/$config.cfg")
python3 "$root/scripts/wave_check.py" "$work/run.log" "$nports"
