#!/usr/bin/env bash
# make fpga-sim: board-sim (the board top in Verilator, UART on a pseudo-terminal) in the
# background, gmmu-board on the terminal in the foreground; the result is gmmu-board's.
#   run_fpga_sim.sh BOARD_SIM GMMU_BOARD TRACE OUTDIR
set -uo pipefail
sim=$1 host=$2 trace=$3 out=$4
mkdir -p "$out"
link=$out/pty
rm -f "$link"
"$sim" --pty-link "$link" > "$out/board-sim.log" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -s "$link" ] && break; kill -0 $pid 2>/dev/null || break; sleep 0.05; done
if [ ! -s "$link" ]; then
  cat "$out/board-sim.log"; echo "fpga-sim: board-sim did not start"; kill $pid 2>/dev/null; exit 1
fi
start=$(date +%s.%N)
"$host" --port "$(cat "$link")" --trace "$trace" --timeout-ms 20000 | tee "$out/gmmu-board.log"
rc=${PIPESTATUS[0]}
# the simulator ends when the host has closed the terminal; a stuck one is stopped
for _ in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done
kill $pid 2>/dev/null
wait $pid 2>/dev/null
cat "$out/board-sim.log"
end=$(date +%s.%N)
printf 'fpga-sim: %s (%.1f s) trace %s\n' "$([ $rc = 0 ] && echo PASS || echo FAIL)" \
  "$(echo "$end - $start" | bc)" "$trace"
exit $rc
