#!/usr/bin/env bash
# make fpga-sim: for each run, a fresh board-sim (the board top in Verilator, its UART on a
# pseudo-terminal) in the background and gmmu-board on the terminal in the foreground.
#   run_fpga_sim.sh BOARD_SIM GMMU_BOARD TRACE OUTDIR
# Runs: all frames (PASS expected); oversubscribed, --frames 40 of the trace's 64 pages (evictions
# and write-backs, PASS expected); a wrong content tag injected into the 5th page moved to the
# board (gmmu-board must FAIL with a CONTENT ERROR: the checks catch a bad page).
set -uo pipefail
sim=$1 host=$2 trace=$3 out=$4
mkdir -p "$out"
t0=$(date +%s.%N)

one_run() {  # name expect(0|1) gmmu-board args...
  local name=$1 want=$2; shift 2
  local d=$out/$name link=$out/$name/pty
  mkdir -p "$d"; rm -f "$link"
  "$sim" --pty-link "$link" > "$d/board-sim.log" 2>&1 &
  local pid=$!
  for _ in $(seq 200); do [ -s "$link" ] && break; kill -0 $pid 2>/dev/null || break; sleep 0.05; done
  if [ ! -s "$link" ]; then
    cat "$d/board-sim.log"; echo "fpga-sim: $name: board-sim did not start"; kill $pid 2>/dev/null
    return 1
  fi
  "$host" --port "$(cat "$link")" --trace "$trace" --timeout-ms 20000 --quiet "$@" \
    > "$d/gmmu-board.log" 2>&1
  local rc=$?
  # the simulator ends when the host has closed the terminal; a stuck one is stopped
  for _ in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done
  kill $pid 2>/dev/null; wait $pid 2>/dev/null
  if [ "$want" = 0 ]; then
    cat "$d/gmmu-board.log" "$d/board-sim.log"
    [ $rc = 0 ] && { echo "fpga-sim: $name: PASS"; return 0; }
    echo "fpga-sim: $name: FAIL (gmmu-board exit $rc)"; return 1
  fi
  if [ $rc != 0 ] && grep -q "CONTENT ERROR" "$d/gmmu-board.log"; then
    echo "fpga-sim: $name: the injected bad page was caught: $(grep -m1 'CONTENT ERROR' "$d/gmmu-board.log")"
    return 0
  fi
  cat "$d/gmmu-board.log"; echo "fpga-sim: $name: the injected bad page was NOT caught (exit $rc)"
  return 1
}

st=0
one_run all-frames 0 || st=1
[ $st = 0 ] && { one_run oversub 0 --frames 40 || st=1; }
[ $st = 0 ] && { one_run inject 1 --inject-bad-h2d 5 || st=1; }
t1=$(date +%s.%N)
printf 'fpga-sim: %s (%s s, 3 runs of %s)\n' "$([ $st = 0 ] && echo PASS || echo FAIL)" \
  "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" "$trace"
exit $st
