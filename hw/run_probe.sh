#!/bin/bash
# hw/run_probe.sh OUTDIR [PROBE_DIR]: build hw/uvm_probe_ext.cu on a machine with an NVIDIA GPU and
# CUDA, and run it: the new experiments three times and the original probe's chase and sparse
# experiments twice, each run in a fresh process (interleaved, so a run cut short still leaves
# every experiment measured at least once). PROBE_DIR holds the original uvm_probe.cu
# (default ../shared/hw). Results: OUTDIR/new_N.csv, OUTDIR/old_N.csv, OUTDIR/gpu.txt, build.log.
set -u
out=${1:?usage: hw/run_probe.sh OUTDIR [PROBE_DIR]}
probe_dir=${2:-../shared/hw}
mkdir -p "$out"
bin=$(mktemp -d)/uvm_probe_ext
{ date -u; uname -r
  nvidia-smi --query-gpu=name,driver_version,memory.total,memory.used,pcie.link.gen.current,pcie.link.width.current,clocks.max.sm --format=csv
  nvcc --version | tail -1; } > "$out/gpu.txt" 2>&1
inc=$(find /usr/local /opt / -name cupti.h -path '*include*' 2>/dev/null | head -1)
lib=$(find /usr/local /opt / -name 'libcupti.so*' 2>/dev/null | head -1)
{ if [ -n "$inc" ] && [ -n "$lib" ] &&
     nvcc -O3 -arch=sm_90 -diag-suppress 550 -I"$probe_dir" -DUSE_CUPTI -I"$(dirname "$inc")" \
          -L"$(dirname "$lib")" -lcupti -Xlinker -rpath="$(dirname "$lib")" -o "$bin" hw/uvm_probe_ext.cu; then
    echo "built with CUPTI ($inc, $lib)"
  else
    echo "CUPTI not found or its build failed: building without the unified-memory counters"
    nvcc -O3 -arch=sm_90 -diag-suppress 550 -I"$probe_dir" -o "$bin" hw/uvm_probe_ext.cu
  fi; } > "$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
for r in 1 2 3; do
  timeout 120 "$bin" new > "$out/new_$r.csv" 2>&1; echo "new run $r: exit $? at $(date -u +%T)"
  if [ "$r" -le 2 ]; then
    timeout 90 "$bin" old > "$out/old_$r.csv" 2>&1; echo "old run $r: exit $? at $(date -u +%T)"
  fi
done
