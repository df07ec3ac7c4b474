#!/usr/bin/env bash
# make test-slurm: gmmu-sweep's slurm backend on a real one-node Slurm cluster (docs/sweep.md).
#
# Starts munged, slurmctld and slurmd as foreground daemons of this script (no systemd) with
# their configuration, key, sockets, state and logs in a temporary directory, on free ports;
# stops them at the end, also on failure (trap). Then, with a study whose simulator waits
# SLURM_TEST_DELAY seconds before each run (so a task can be caught while it runs):
#   1. the study through the local backend (the reference store);
#   2. the same study submitted with --backend slurm --no-wait, chunks of 2 runs per array task;
#      one array task is cancelled (scancel JOB_TASK) while it runs;
#   3. the array drains: the cancelled task's runs have no result (status says so), nothing
#      half-written is in runs/;
#   4. gmmu-sweep run --backend slurm again: it resubmits exactly the missing runs and waits;
#   5. every run is done; the collected slurm store equals the local one (gmmu-sweep diff),
#      with the same run keys; every task left its log;
#   6. a study whose simulator fails one run once: a single `run --backend slurm` resubmits
#      that run after the array and ends with every run done.
# Needs root (slurmd runs jobs as their user) and make deps (slurm-wlm, munge).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
SWEEP="${PYTHON:-python3} $ROOT/scripts/gmmu-sweep --root $ROOT"
DELAY=${SLURM_TEST_DELAY:-1.5}
fail() { echo "test-slurm: FAIL: $*" >&2; exit 1; }
for t in munged mungekey slurmctld slurmd sbatch squeue scancel sinfo; do
  command -v "$t" >/dev/null || fail "$t not installed (make deps installs slurm-wlm and munge)"
done
[ "$(id -u)" = 0 ] || fail "needs root (slurmd starts the jobs as their user)"
for b in "$ROOT/build/tiny/gmmu-sim" "$ROOT/build/bin/gmmu-gen"; do
  [ -x "$b" ] || fail "$b not built (make sweep-tools)"
done

T0=$(date +%s.%N)
TMP=$(mktemp -d /tmp/gmmu-slurm.XXXXXX)
chmod 755 "$TMP"
PIDS=()
cleanup() {
  local rc=$?
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ $rc -ne 0 ]; then
    for f in munged.out slurmctld.log slurmd.log; do
      [ -f "$TMP/$f" ] && { echo "--- $f (last lines)"; tail -n 15 "$TMP/$f"; }
    done
  fi
  rm -rf "$TMP"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
free_port() { ${PYTHON:-python3} -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# ---- munge -------------------------------------------------------------------------------------
mkdir -p "$TMP/munge"
chmod 711 "$TMP/munge"
mungekey --create --keyfile="$TMP/munge/munge.key" >/dev/null
chmod 600 "$TMP/munge/munge.key"
SOCK="$TMP/munge/munge.sock"
munged -F --force --socket="$SOCK" --key-file="$TMP/munge/munge.key" \
  --pid-file="$TMP/munge/munged.pid" --log-file="$TMP/munged.log" \
  --seed-file="$TMP/munge/munge.seed" 2>"$TMP/munged.out" &
PIDS+=($!)
for _ in $(seq 100); do [ -S "$SOCK" ] && break; sleep 0.05; done
[ -S "$SOCK" ] || fail "munged did not start"

# ---- slurm -------------------------------------------------------------------------------------
HOST=$(hostname -s)
NCPU=$(nproc)
mkdir -p "$TMP/state" "$TMP/spool"
export SLURM_CONF="$TMP/slurm.conf"
cat > "$SLURM_CONF" <<EOF
ClusterName=gmmutest
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCK
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool
SlurmctldPidFile=$TMP/slurmctld.pid
SlurmdPidFile=$TMP/slurmd.pid
SlurmctldLogFile=$TMP/slurmctld.log
SlurmdLogFile=$TMP/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MinJobAge=2
InactiveLimit=0
KillWait=2
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$NCPU State=UNKNOWN
PartitionName=test Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -i -f "$SLURM_CONF" >"$TMP/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -f "$SLURM_CONF" >"$TMP/slurmd.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 150); do
  state=$(sinfo -h -n "$HOST" -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.2
done
[ "$state" = idle ] || fail "the node is not idle after 30 s (sinfo: '$state')"
UP=$(since "$T0")
echo "test-slurm: munged, slurmctld, slurmd up ($UP s)"

# ---- the study ---------------------------------------------------------------------------------
cat > "$TMP/slow-sim" <<EOF
#!/bin/sh
sleep $DELAY
exec $ROOT/build/tiny/gmmu-sim "\$@"
EOF
chmod 755 "$TMP/slow-sim"
sed -e "s|^\[study\]|[study]\nsim = \"$TMP/slow-sim\"|" "$ROOT/studies/smoke.toml" > "$TMP/study.toml"
TR="--traces $TMP/traces"
$SWEEP run "$TMP/study.toml" --store "$TMP/local" $TR -j "$NCPU" --quiet
$SWEEP collect "$TMP/study.toml" --store "$TMP/local" $TR >/dev/null
NRUNS=$($SWEEP plan "$TMP/study.toml" $TR | grep -vc '^#')

# submit, cancel one array task while it runs
out=$($SWEEP run "$TMP/study.toml" --store "$TMP/slurm" $TR --backend slurm --chunk 2 --no-wait 2>&1)
echo "$out"
JOB=$(cat "$TMP"/slurm/slurm/*/jobid)
VICTIM=1
for _ in $(seq 200); do
  st=$(squeue -h -r -j "${JOB}_$VICTIM" -o %T 2>/dev/null || true)
  [ "$st" = RUNNING ] && break
  sleep 0.05
done
[ "$st" = RUNNING ] || fail "array task ${JOB}_$VICTIM never seen running ('$st')"
scancel "${JOB}_$VICTIM"
echo "test-slurm: cancelled array task ${JOB}_$VICTIM while it ran"
for _ in $(seq 600); do
  [ -z "$(squeue -h -r -j "$JOB" 2>/dev/null)" ] && break
  sleep 0.1
done
[ -z "$(squeue -h -r -j "$JOB" 2>/dev/null)" ] || fail "job $JOB did not drain in 60 s"
status=$($SWEEP status "$TMP/study.toml" --store "$TMP/slurm" $TR || true)
echo "test-slurm: after the cancel: $status"
missing=$(echo "$status" | sed -nE 's/.* ([0-9]+) missing.*/\1/p')
[ "${missing:-0}" -ge 1 ] || fail "the cancelled task left no run missing"
[ "${missing}" -le 2 ] || fail "$missing runs missing, more than the cancelled task's chunk of 2"
ls "$TMP/slurm/runs" | grep -v '\.json$' && fail "a non-record file in runs/"
for f in "$TMP"/slurm/runs/*.json; do
  ${PYTHON:-python3} -c "import json,sys; json.load(open(sys.argv[1]))['stats']" "$f" ||
    fail "$f: not a complete record"
done

# run resubmits exactly the missing runs, then everything is done
out=$($SWEEP run "$TMP/study.toml" --store "$TMP/slurm" $TR --backend slurm --chunk 2 2>&1)
echo "$out"
echo "$out" | grep -q "submitted $missing runs as job" || fail "run did not resubmit the $missing missing runs"
echo "$out" | grep -q "$NRUNS/$NRUNS runs done" || fail "not every run done after the resubmission"
$SWEEP status "$TMP/study.toml" --store "$TMP/slurm" $TR
ntask=$(ls "$TMP"/slurm/slurm/*/task-*.out | wc -l)
[ "$ntask" -ge 5 ] || fail "$ntask task logs (expected one per array task of both jobs)"

# the slurm store equals the local one
$SWEEP collect "$TMP/study.toml" --store "$TMP/slurm" $TR >/dev/null
$SWEEP diff "$TMP/local/results.sqlite" "$TMP/slurm/results.sqlite" || fail "slurm and local stores differ"
cmp <(ls "$TMP/local/runs") <(ls "$TMP/slurm/runs") || fail "run keys differ"
backend=$(${PYTHON:-python3} -c "import sqlite3,sys; print(sorted({r[0] for r in sqlite3.connect(sys.argv[1]).execute('select run_backend from smoke')}))" "$TMP/slurm/results.sqlite")
[ "$backend" = "['slurm']" ] || fail "slurm store's runs not from the slurm backend: $backend"
# a run that fails once (its task exits 1): the same run command resubmits it and waits
cat > "$TMP/flaky-sim" <<EOF
#!/bin/sh
case "\$*" in *small.trc*prefetch_policy=none*)
  [ -e "$TMP/flaked" ] || { touch "$TMP/flaked"; exit 6; } ;; esac
exec $ROOT/build/tiny/gmmu-sim "\$@"
EOF
chmod 755 "$TMP/flaky-sim"
sed -e "s|^\[study\]|[study]\nsim = \"$TMP/flaky-sim\"|" "$ROOT/studies/smoke.toml" > "$TMP/flaky.toml"
out=$($SWEEP run "$TMP/flaky.toml" --store "$TMP/flaky" $TR --backend slurm --chunk 4 2>&1)
echo "$out"
echo "$out" | grep -q "1 runs still missing: resubmitting" || fail "the failed run was not resubmitted"
echo "$out" | grep -q "$NRUNS/$NRUNS runs done" || fail "not every run done after the resubmission"
[ -z "$(ls "$TMP/flaky/failed")" ] || fail "a failure record left after the run succeeded"
grep -q FAILED "$TMP"/flaky/slurm/*/task-*.out || fail "the failing task's log does not say FAILED"

echo "test-slurm: PASS ($NRUNS runs; cluster start $UP s, total $(since "$T0") s)"
