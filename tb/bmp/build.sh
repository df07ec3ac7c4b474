#!/bin/sh
# Build the block-level lock-step test of gmmu_bmp (docs/microarch.md §20.4, §20.5) for
# NumScan = $2, NumDep = $3 into directory $1: the C model compiled as C11 (-Werror), the RTL by
# Verilator with its SVA.
set -e
out=$1
nscan=$2
ndep=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
${CC:-cc} -std=c11 -Wall -Wextra -Werror -O2 -I"$root/cmodel" -I"$root/cmodel/gen" \
  -c "$root/cmodel/bmp.c" -o "$out/bmp_c.o"
${VERILATOR:-verilator} --lint-only -Wall --top-module gmmu_bmp -GNumScan="$nscan" \
  -GNumDep="$ndep" "$root/rtl/lint/waivers.vlt" "$root/rtl/gen/gmmu_pkg.sv" "$root/rtl/gmmu_bmp.sv"
${VERILATOR:-verilator} --cc --exe --build -j 1 --assert -O1 \
  -Wno-fatal -Wno-lint -Wno-style \
  -CFLAGS "-DBMP_NSCAN=$nscan -DBMP_NDEP=$ndep -I$root/cmodel -I$root/cmodel/gen -I$root/common" \
  -LDFLAGS "$out/bmp_c.o" -GNumScan="$nscan" -GNumDep="$ndep" --top-module gmmu_bmp \
  -Mdir "$out/obj" "$root/rtl/gen/gmmu_pkg.sv" "$root/rtl/gmmu_bmp.sv" \
  "$root/tb/bmp/bmp_lockstep.cpp" > "$out/verilator.log" 2>&1 || { cat "$out/verilator.log"; exit 1; }
