#!/bin/sh
# Build the block-level lock-step test of gmmu_acc (docs/microarch.md §19) for AccEntries = $2
# into directory $1: the C model compiled as C11 (-Werror), the RTL by Verilator with its SVA.
set -e
out=$1
n=$2
asids=${3:-4}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
${CC:-cc} -std=c11 -Wall -Wextra -Werror -O2 -I"$root/cmodel" -I"$root/cmodel/gen" \
  -c "$root/cmodel/acc.c" -o "$out/acc_c.o"
${VERILATOR:-verilator} --cc --exe --build -j 1 --assert -O1 --public-flat-rw \
  -Wno-fatal -Wno-lint -Wno-style \
  -CFLAGS "-DACC_N=$n -DACC_ASIDS=$asids -I$root/cmodel -I$root/cmodel/gen -I$root/common" -LDFLAGS "$out/acc_c.o" \
  -GAccEntries="$n" -GNumAsids="$asids" --top-module gmmu_acc -Mdir "$out/obj" \
  "$root/rtl/gen/gmmu_pkg.sv" "$root/rtl/gmmu_acc.sv" "$root/tb/acc/acc_lockstep.cpp" \
  > "$out/verilator.log" 2>&1 || { cat "$out/verilator.log"; exit 1; }
