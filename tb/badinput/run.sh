#!/usr/bin/env bash
# tb/badinput/run.sh - bad input and valid input that went wrong (issue 11, items 1-19 and the
# watchdog): each case runs a tool on one input and checks its exit status and message
# (docs/cosim.md "Bad input"). make test-badinput; outputs in build/badinput/.
#   run.sh [BUILD]      BUILD = the build folder (build/tiny/gmmu-sim, build/bin/gmmu-*)
set -u
cd "$(dirname "$0")/../.."
B=${1:-build}
SIM=$B/tiny/gmmu-sim
TRC=$B/bin/gmmu-trace
GEN=$B/bin/gmmu-gen
PY=${PYTHON:-python3}
T=$B/badinput
rm -rf "$T" && mkdir -p "$T"
CFG=configs/tiny.cfg
pass=0 fail=0

# check NAME WANT_RC PATTERN -- CMD...: runs CMD (output in $T/NAME.log), wants exit WANT_RC and a
# line matching the extended regex PATTERN ('' = any) in its output
check() {
    local name=$1 want=$2 pat=$3
    shift 4
    local rc=0
    "$@" > "$T/$name.log" 2>&1 || rc=$?
    if [ "$rc" != "$want" ]; then
        echo "FAIL  $name: exit $rc, want $want ($T/$name.log)"; tail -5 "$T/$name.log"
        fail=$((fail + 1)); return 1
    fi
    if [ -n "$pat" ] && ! grep -q -E -- "$pat" "$T/$name.log"; then
        echo "FAIL  $name: no line matching '$pat' ($T/$name.log)"; tail -5 "$T/$name.log"
        fail=$((fail + 1)); return 1
    fi
    if grep -q -E 'Traceback|ERROR: AddressSanitizer|runtime error' "$T/$name.log"; then
        echo "FAIL  $name: traceback or sanitizer report ($T/$name.log)"; fail=$((fail + 1))
        return 1
    fi
    echo "ok    $name (exit $rc)"; pass=$((pass + 1))
}
# ok NAME COND-CMD...: a plain assertion
ok() {
    local name=$1; shift
    if "$@"; then echo "ok    $name"; pass=$((pass + 1)); else
        echo "FAIL  $name"; fail=$((fail + 1)); fi
}
stat_of() { $PY -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }
sim() { "$SIM" --config "$CFG" --quiet "$@"; }

A=0x90000000
# ---- 1, 9: the 48-bit space, one rule in the reader, gmmu-trace check and the writer ------------
printf 'alloc a %s 0x8000\nkernel k\ns 0 0 R 1 0x1 0x1000090000000 4\n' $A > "$T/hi.trc"
check 1-sim-addr-48 2 'lane 0 address 0x1000090000000 is outside the 48-bit' -- sim --trace "$T/hi.trc"
check 1-check-addr-48 1 'hi.trc:3: lane 0 address .* outside the 48-bit' -- "$TRC" check "$T/hi.trc"
printf 'alloc a 0xfffffffff000 0x2000\nkernel k\n' > "$T/hialloc.trc"
check 9-check-alloc-48 1 'hialloc.trc:1: allocation .* outside the 48-bit' -- "$TRC" check "$T/hialloc.trc"
check 9-sim-alloc-48 2 'outside the 48-bit' -- sim --trace "$T/hialloc.trc"
mkdir -p "$T/nv"
sed 's/0x00007f6a9c000200 /0x01007f6a9c000200 /' tb/import/nvbit-memtrace/memtrace.log > "$T/nv/memtrace.log"
check 9-nvbit-addr-48 1 'outside the 48-bit' -- $PY tools/import/import_nvbit.py "$T/nv/memtrace.log" -o "$T/nv.trc" --binary
ok 9-nvbit-no-output test ! -e "$T/nv.trc"
check 9-ctypes-width 0 'does not fit the format.s 32-bit field' -- $PY -c "
import sys; sys.path.insert(0, 'tools/trace'); import trace_ctypes as t
w = t.Writer('$T/ct.trc', True); w.kernel('k')
try: w.mem(1 << 33, 0, 0, 0, 1, [0x1000])
except t.TraceLibError as e: print(e)"
# ---- 2: a pipe or FIFO is read once (> 64 KB) --------------------------------------------------
"$GEN" backprop -o "$T/big.txt" > /dev/null 2>&1
ok 2-trace-over-64k test "$(stat -c %s "$T/big.txt")" -gt 65536
sim --engine cmodel --trace "$T/big.txt" --stats "$T/big-file.json" > /dev/null 2>&1
check 2-process-substitution 0 'RESULT +PASS' -- sim --engine cmodel --trace <(cat "$T/big.txt") --stats "$T/big-pipe.json"
mkfifo "$T/fifo"
(cat "$T/big.txt" > "$T/fifo" &)
check 2-fifo 0 'RESULT +PASS' -- sim --engine cmodel --trace "$T/fifo" --stats "$T/big-fifo.json"
ok 2-same-instructions test "$(stat_of "$T/big-file.json" instructions)" = "$(stat_of "$T/big-pipe.json" instructions)" -a \
    "$(stat_of "$T/big-file.json" instructions)" = "$(stat_of "$T/big-fifo.json" instructions)"
# ---- 3: the watchdog: timed waits longer than watchdog_cycles pass; a hang and a livelock stop ---
printf 'alloc a %s 0x8000\nkernel k\ns 0 0 R 1 0x1 %s 4\ns 0 0 R 50000 0x1 0x90001000 4\n' $A $A > "$T/gap.trc"
check 3-compute-gap 0 'RESULT +PASS$' -- sim --trace "$T/gap.trc" --set watchdog_cycles=10000
check 3-mem-latency 0 'RESULT +PASS$' -- sim --trace "$T/gap.trc" --set watchdog_cycles=10000 --set mem_latency=20000
check 3-handler-time 0 'RESULT +PASS$' -- sim --trace "$T/gap.trc" --set watchdog_cycles=10000 --set hdl_irq_ns=40000
check 3-hang 4 'WATCHDOG: hang: .*watchdog_cycles = 3000' -- sim --trace tb/traces/small.trc --set watchdog_cycles=3000 --test-hang 30000
# ---- 16: invalidation storms: a chaos command every 40 cycles restarts every walk (4 levels of
# 100-cycle reads); the restart-streak bound guarantees progress, without it the watchdog reports
# the livelock --------------------------------------------------------------------------------------
$PY scripts/gen_random_trace.py --seed 1 -o "$T/rand1.trc" > /dev/null
n=$("$TRC" stats "$T/rand1.trc" | awk '/^instructions/ {print $2}')
STORM=(--trace "$T/rand1.trc" --set chaos_inval=40 --set mem_latency=100)
check 16-chaos-storm 0 'RESULT +PASS' -- sim "${STORM[@]}" --stats "$T/storm.json"
ok 16-storm-all-instructions test "$(stat_of "$T/storm.json" instructions)" = "$n"
ok 16-storm-held-back test "$(stat_of "$T/storm.json" chaos_held)" -gt 0
check 3-livelock 4 'WATCHDOG: livelock: .*watchdog_cycles = 200000' -- sim "${STORM[@]}" --chaos-streak 0 --set watchdog_cycles=200000
check 16-chaos-every-cycle 0 'RESULT +PASS' -- sim --trace tb/traces/small.trc --set chaos_inval=1
# ---- 4: a directory, an empty trace ---------------------------------------------------------------
check 4-directory 2 'is a directory' -- sim --trace "$T"
: > "$T/empty.trc"
check 4-empty 2 'no kernel: nothing was simulated' -- sim --trace "$T/empty.trc"
# ---- 5: a program fault fails the run unless expected ------------------------------------------
check 5-program-fault 3 'RESULT +FAIL \(program fault\)' -- sim --trace tb/traces/fatal.trc
check 5-expected-fault 0 'RESULT +PASS \(program faults expected\)' -- sim --trace tb/traces/fatal.trc --expect-fault
# ---- 6: pcie_peak_gbps range --------------------------------------------------------------------
check 6-pcie-tiny 2 'pcie_peak_gbps: .* not a number in \[0.001' -- sim --set pcie_peak_gbps=1e-300
# ---- 6b: the L2 data cache's geometry (issue 24 item 2): a capacity that is not whole sets -------
check 6b-l2d-geometry 2 'l2d: l2d_kb = 3 is not a whole number of sets of 16 ways x 128 B lines' -- sim --trace tb/traces/small.trc --set l2d_kb=3
check 6b-l2d-line 2 'l2d_line: 96 is not a power of two' -- sim --set l2d_kb=64 --set l2d_line=96
check 6b-tlb-shootdown 2 "tlb_shootdown: 'some' is not one of entry.all" -- sim --set tlb_shootdown=some
# ---- 7: --stats unwritable; JSON escaped ----------------------------------------------------------
check 7-stats-unwritable 2 'cannot write' -- sim --trace tb/traces/small.trc --stats "$T/no/such/dir/s.json"
mkdir -p "$T/q\"d"; cp $CFG "$T/q\"d/c.cfg"
check 7-json-escaped 0 'RESULT +PASS' -- "$SIM" --config "$T/q\"d/c.cfg" --quiet --trace tb/traces/small.trc --stats "$T/q.json"
ok 7-json-valid $PY -c "import json,sys; assert 'q\"d' in json.load(open(sys.argv[1]))['config_file']" "$T/q.json"
# ---- 8: convert IN IN refused; a failed convert leaves nothing --------------------------------------
cp tb/traces/small.trc "$T/same.trc"; sum=$(md5sum < "$T/same.trc")
check 8-convert-same 2 'are the same file' -- "$TRC" convert "$T/same.trc" "$T/same.trc"
ok 8-input-intact test "$(md5sum < "$T/same.trc")" = "$sum"
check 8-convert-fails 1 'bad_record.trc:7' -- "$TRC" convert tb/traces/bad_record.trc "$T/out.bin"
ok 8-no-output test -z "$(ls "$T" | grep '^out\.bin')"
# an .xz output in a directory that does not exist: an error with its reason (it died of SIGPIPE
# before: xz never started, found by make fuzz, harness trace_args, 2026-11-28)
check 8-convert-xz-no-dir 1 'no/such/dir/o.trc.xz: cannot create: No such file' -- "$TRC" convert tb/traces/small.trc "$T/no/such/dir/o.trc.xz"
# ---- 10: huge sizes bounded ---------------------------------------------------------------------
mkdir -p "$T/as"; cp tb/import/accelsim-modes/kernel-* "$T/as/"
printf 'MemcpyHtoD,0x00007f0000000000,100000000000000000\nkernel-1.traceg\n' > "$T/as/kernelslist.g"
check 10-memcpy-huge 1 'outside the 48-bit' -- timeout 60 $PY tools/import/import_accelsim.py "$T/as" -o "$T/as.trc"
printf 'MemcpyHtoD,0x0000000000000000,100000000000000\nkernel-1.traceg\n' > "$T/as/kernelslist.g"
check 10-memcpy-granules 1 'granules' -- timeout 60 $PY tools/import/import_accelsim.py "$T/as" -o "$T/as.trc" --granule 4096
check 10-gen-size 2 'size-mb 1048576: expected a number in' -- "$GEN" backprop --size-mb 1048576 -o "$T/g.trc"
# ---- 11: make cosim TEST=x TRACE=y does not inherit the test's exit, sets, args ------------------
mkdir -p "$T/rt" && ln -s "$(pwd)/$B/tiny" "$T/rt/tiny"
check 11-trace-override 0 'test watchdog: PASS' -- $PY scripts/run_test.py --no-build --build "$T/rt" watchdog --trace tb/traces/small.trc
check 11-no-expect-fault 1 'exited 3, expected 0' -- $PY scripts/run_test.py --no-build --build "$T/rt" fatal --trace tb/traces/fatal.trc
check 11-unknown-config 2 'configs/nosuch.cfg: no such configuration' -- $PY scripts/run_test.py --no-build --build "$T/rt" fatal --config nosuch
# ---- further surfaces (docs/cosim.md "Bad input") ----------------------------------------------
check x-convert-no-dir 1 'gmmu-trace: /nonexistent/x.trc: cannot create' -- "$TRC" convert tb/traces/small.trc /nonexistent/x.trc
check x-gen-size-hex 2 'size-mb 0x10: expected a number' -- "$GEN" backprop --size-mb 0x10 -o "$T/g.trc"
# ---- 12: control bytes and NUL in a text trace ------------------------------------------------------
printf 'kernel k\001x\n' > "$T/ctl.trc"
check 12-control-byte 2 'ctl.trc:1: column 9: control byte 0x01' -- sim --trace "$T/ctl.trc"
printf 'alloc a %s 0x8000\nkernel k\000 junk\n' $A > "$T/nul.trc"
check 12-nul-byte 1 'nul.trc:2: column 9: control byte 0x00' -- "$TRC" check "$T/nul.trc"
# ---- 13, 6: configuration ranges with file:line -----------------------------------------------------
sed 's/^fb_entries.*//' $CFG > "$T/fb.cfg"; echo "fb_entries = 1" >> "$T/fb.cfg"
check 13-fb-entries-1 2 'fb.cfg:[0-9]+: fb_entries: 1 is out of range \[2,' -- "$SIM" --config "$T/fb.cfg" --quiet
# ---- 14: allocation base not page-aligned --------------------------------------------------------
printf 'alloc a 0x90000010 0x8000\nkernel k\ns 0 0 R 1 0x1 0x90000010 4\n' > "$T/unal.trc"
check 14-alloc-unaligned 2 'unal.trc:1: allocation .a. base 0x90000010 is not 4 KB-aligned' -- sim --trace "$T/unal.trc"
# ---- 15: leading zeros: the C parser (common/num.c, every key) and scripts/cfg_vflags.py (the
# RTL keys of the Verilator build) give the same answer: decimal or 0x hex, never octal ----------
for v in 010 08 0x10 00 1e3 -1 0o7 " "; do
    crc=0; "$SIM" --config $CFG --engine cmodel --set "chaos_inval=$v" --trace tb/traces/small.trc > "$T/lz-c.log" 2>&1 || crc=$?
    cval=$(awk '$1 == "chaos_inval" {print $3}' "$T/lz-c.log")
    prc=0; pval=$($PY -c "import sys; sys.path.insert(0, 'scripts'); import cfg_vflags; print(cfg_vflags.cfg_int(sys.argv[1]))" "$v" 2>/dev/null) || prc=$?
    # the same acceptance, and the same value when accepted
    if { [ $crc = 2 ] && [ $prc != 0 ]; } || { [ $crc = 0 ] && [ $prc = 0 ] && [ "$cval" = "$pval" ]; }; then
        ok "15-number-'$v'" true
    else ok "15-number-'$v' (C exit $crc value '$cval', cfg_vflags exit $prc value '$pval')" false; fi
done
# ---- 17: replay_policy = block with a batch of only fatal faults (quota drops) ---------------------
printf 'alloc a %s 0x8000\nkernel k\nm 0 0 R 1 0xf 0x99000000 0x99001000 0x99002000 0x99003000\n' $A > "$T/blk.trc"
check 17-block-fatal-batch 0 'RESULT +PASS' -- sim --trace "$T/blk.trc" --set replay_policy=block --expect-fault --stats "$T/blk.json" --set watchdog_cycles=200000
ok 17-all-faults-cancelled test "$(stat_of "$T/blk.json" fatal_faults)" = 4 -a "$(stat_of "$T/blk.json" ff_drops)" -gt 0
# ---- 18: out of page-table pages --------------------------------------------------------------------
printf 'alloc a %s 0x8000\nalloc b 0x7f0000000000 0x8000\nkernel k\ns 0 0 R 1 0x1 %s 4\ns 0 1 R 1 0x1 0x7f0000000000 4\n' $A $A > "$T/pt.trc"
check 18-out-of-pt-pages 6 'RESULT +FAIL \(valid accesses cancelled\)' -- sim --trace "$T/pt.trc" --set pt_pages=4
# ---- 18b: --preload names an allocation that exists only in address space 1 (space 0 only) -------
printf 'alloc a 0x40000000 0x200000\nspace 1\nalloc b 0x40000000 0x200000\nkernel k\nspace 0\nm 0 0 R 1 0x1 0x40000000\n' > "$T/pl1.trc"
check 18b-preload-space1 2 'preload b: the allocation is in address space 1; --preload maps allocations of address space 0 only' -- "$B/asid4/gmmu-sim" --config configs/asid4.cfg --engine cmodel --trace "$T/pl1.trc" --preload b:large
# ---- 22: host calls (docs/trace-format.md "Host calls"): malformed, outside one allocation, a free
# of no allocation, a use after free, a call not acted on yet -----------------------------------
printf 'alloc a %s 0x8000\nprefetch %s 0x1000 device\nkernel k\n' $A $A > "$T/h1.trc"
check 22-prefetch-dest 2 'h1.trc:2: field 4 \(destination\): .device. is not gpu or host' -- sim --trace "$T/h1.trc"
check 22-check-prefetch-dest 1 'h1.trc:2: field 4 \(destination\)' -- "$TRC" check "$T/h1.trc"
printf 'alloc a %s 0x8000\nadvise %s 0x9000 read_mostly\nkernel k\ns 0 0 R 1 0x1 %s 4\n' $A $A $A > "$T/h2.trc"
check 22-check-range-inside 1 'h2.trc:2: field 3 \(size\): advise range .* does not lie inside allocation a' -- "$TRC" check "$T/h2.trc"
check 22-sim-range-inside 2 'h2.trc:2: field 3: advise range .* does not lie inside one allocation' -- sim --trace "$T/h2.trc"
printf 'alloc a %s 0x8000\nkernel k\ns 0 0 R 1 0x1 %s 4\nfree b\nkernel k2\n' $A $A > "$T/h3.trc"
check 22-check-free-unknown 1 "h3.trc:4: field 2 \(name\): free of 'b': no such allocation" -- "$TRC" check "$T/h3.trc"
check 22-sim-free-unknown 2 "h3.trc:4: field 2 \(name\): free of 'b': no such allocation" -- sim --trace "$T/h3.trc"
printf 'alloc a %s 0x8000\nkernel k\ns 0 0 W 1 0x1 %s 4\nfree a\nkernel k2\ns 0 0 R 1 0x1 %s 4\n' $A $A $A > "$T/h4.trc"
check 22-check-use-after-free 1 'h4.trc:6: lane 0 address .* is outside every allocation' -- "$TRC" check "$T/h4.trc"
check 22-sim-use-after-free 3 'RESULT +FAIL \(program fault\)' -- sim --trace "$T/h4.trc"
printf 'alloc a %s 0x8000\nadvise %s 0x10 read_mostly\nkernel k\n' $A $A > "$T/h5b.trc"
check 22-sim-read-mostly-2m 2 "h5b.trc:2: advise: uvm: advise read_mostly: read duplication needs the 4k placement .*'2m'" -- sim --trace "$T/h5b.trc" --set page_size=2m
printf 'alloc a %s 0x8000\nalloc b 0x91000000 0x1000\nkernel k\ns 0 0 W 1 0x1 %s 4\ncpu 0x91000000 0x1000 W\nfree b\ncpu 0x91000000 0x10 R\nkernel k2\n' $A $A > "$T/h6.trc"
check 22-sim-cpu-after-free 2 "h6.trc:7: field 2: cpu range .* does not lie inside one allocation" -- sim --trace "$T/h6.trc"
printf 'alloc a %s 0x2000000\nprefetch %s 0x2000000 gpu\nkernel k\n' $A $A > "$T/h7.trc"
check 22-sim-prefetch-evicts 2 'h7.trc:2: prefetch: uvm: prefetch a: 8192 pages to copy, .* needs evictions is not modeled yet' -- sim --trace "$T/h7.trc"
"$TRC" convert "$T/h4.trc" "$T/h4.bin" > /dev/null 2>&1
check 22-sim-use-after-free-bin 3 'RESULT +FAIL \(program fault\)' -- sim --trace "$T/h4.bin"
# Li & Chapman's object policies (docs/handler.md §6s): the object profile reads the trace twice
printf 'alloc a %s 0x8000\nkernel k\ns 0 0 W 1 0x1 %s 4\n' $A $A > "$T/h8.trc"
check 22-sim-objects-stdin 2 'object_policy reads the trace twice \(its object profile\): give a file, not -' -- sh -c "'$SIM' --config '$CFG' --quiet --trace - --set object_policy=rdm < '$T/h8.trc'"
check 22-sim-objects-value 2 "object_policy: 'bogus' is not one of none\|transfer\|rlm\|glm\|rdm\|lru\|host" -- sim --trace "$T/h8.trc" --set object_policy=bogus
check 22-sim-partial-policy 2 "object_partial = on needs object_policy rlm, glm, rdm or lru" -- sim --trace "$T/h8.trc" --set object_policy=host --set object_partial=on
# ---- 19: SIGTERM: summary and stats written; an old stats file is removed at start ----------------
echo '{"result": "PASS"}' > "$T/sig.json"
"$SIM" --config configs/oversub.cfg --engine cmodel --no-skip --trace tb/traces/replay.trc --stats "$T/sig.json" --progress-every 0.2 > "$T/sig.log" 2>&1 &
pid=$!
sleep 1
ok 19-old-stats-removed test ! -e "$T/sig.json"
kill -TERM $pid; rc=0; wait $pid || rc=$?
ok 19-sigterm-exit-143 test $rc = 143
ok 19-sigterm-summary grep -q 'RESULT *INTERRUPTED (signal)' "$T/sig.log"
ok 19-progress-in-log grep -q '^gmmu-sim: progress: *cycle' "$T/sig.log"
ok 19-sigterm-stats test "$(stat_of "$T/sig.json" result)" = "INTERRUPTED (signal)"
# ---- issue 26, 1: an output that is not a regular file is written in place, never replaced or
# removed; a symbolic link is followed (the link stays); a write error is reported -----------------
mkdir -p "$T/o"
"$TRC" convert tb/traces/small.trc "$T/o/small.txt" > /dev/null 2>&1
# a char device like /dev/full (mknod needs root; otherwise /dev/full itself, which a non-root
# run cannot replace either way)
if mknod "$T/o/full" c 1 7 2> /dev/null; then FULL=$T/o/full; else FULL=/dev/full; fi
ln -s /dev/full "$T/o/lfull"
check 26.1-convert-chardev 1 'full: write error: No space left on device' -- "$TRC" convert tb/traces/small.trc "$FULL"
ok 26.1-chardev-untouched test -c "$FULL"
check 26.1-convert-symlink-dev 1 'lfull: write error: No space left on device' -- "$TRC" convert tb/traces/small.trc "$T/o/lfull"
ok 26.1-symlink-untouched test -L "$T/o/lfull" -a "$(readlink "$T/o/lfull")" = /dev/full
check 26.1-mix-chardev 1 'full: write error: No space left on device' -- "$TRC" mix "$FULL" tb/traces/small.trc
ok 26.1-mix-chardev-untouched test -c "$FULL"
check 26.1-mix-symlink-dev 1 'lfull: write error' -- "$TRC" mix "$T/o/lfull" tb/traces/small.trc
ok 26.1-mix-symlink-untouched test -L "$T/o/lfull"
check 26.1-import-chardev 1 'full: write error: No space left on device' -- $PY tools/import/import_nvbit.py tb/import/nvbit-memtrace/memtrace.log -o "$FULL" --binary
ok 26.1-import-chardev-untouched test -c "$FULL"
check 26.1-import-symlink-dev 1 'lfull: write error' -- $PY tools/import/import_nvbit.py tb/import/nvbit-memtrace/memtrace.log -o "$T/o/lfull"
ok 26.1-import-symlink-untouched test -L "$T/o/lfull"
# a symbolic link to a regular file: the file gets the trace, the link stays a link
: > "$T/o/reg.trc"; ln -s reg.trc "$T/o/lreg"
check 26.1-convert-symlink-file 0 '' -- "$TRC" convert tb/traces/small.trc "$T/o/lreg" --text
ok 26.1-symlink-file-link-stays test -L "$T/o/lreg"
ok 26.1-symlink-file-written cmp -s "$T/o/small.txt" "$T/o/reg.trc"
rm -f "$T/o/reg.trc"; : > "$T/o/reg.trc"
check 26.1-import-symlink-file 0 '' -- $PY tools/import/import_nvbit.py tb/import/nvbit-memtrace/memtrace.log -o "$T/o/lreg"
ok 26.1-import-symlink-file-written test -L "$T/o/lreg" -a -s "$T/o/reg.trc"
# a FIFO: written in place, read back whole by a reader
mkfifo "$T/o/fifo"
(timeout 20 cat "$T/o/fifo" > "$T/o/fifo.out" &)
check 26.1-convert-fifo 0 '' -- timeout 20 "$TRC" convert tb/traces/small.trc "$T/o/fifo" --text
sleep 0.2
ok 26.1-fifo-stays test -p "$T/o/fifo"
ok 26.1-fifo-got-trace cmp -s "$T/o/small.txt" "$T/o/fifo.out"
ok 26.1-no-temporary-left test -z "$(ls "$T/o" | grep tmp)"
# ---- issue 26, 8: importer write error without a traceback; check refuses a trace without kernel --
check 26.8-import-granule-huge 1 'allocation size 1180591620717411303424 does not fit' -- $PY tools/import/import_nvbit.py tb/import/nvbit-memtrace/memtrace.log -o "$T/o/g.trc" --granule 1180591620717411303424
ok 26.8-import-granule-no-output test ! -e "$T/o/g.trc"
check 26.8-check-empty 1 'empty.trc: no kernel record' -- "$TRC" check "$T/empty.trc"
printf 'alloc a %s 0x1000\n' $A > "$T/o/nokernel.trc"
check 26.8-check-no-kernel 1 'nokernel.trc: no kernel record' -- "$TRC" check "$T/o/nokernel.trc"
# ---- issue 26, minor: mix with more inputs than address spaces names the limit ------------------
many=(); for _ in $(seq 257); do many+=(tb/traces/small.trc); done
check 26.m-mix-257 2 'mix: 257 inputs; at most 256' -- "$TRC" mix "$T/o/m.trc" "${many[@]}"
# ---- issue 26, 2: an access in an address space without any allocation is a program fault --------
printf 'alloc a 0x40000000 0x4000\nkernel k\nspace 1\ns 0 0 R 1 0x1 0x40000000 4\n' > "$T/o/nd1.trc"
check 26.2-space-without-alloc 3 'RESULT +FAIL \(program fault\)' -- "$B/asid4/gmmu-sim" --config configs/asid4.cfg --quiet --trace "$T/o/nd1.trc"
check 26.2-space-without-alloc-expected 0 'RESULT +PASS \(program faults expected\)' -- "$B/asid4/gmmu-sim" --config configs/asid4.cfg --quiet --trace "$T/o/nd1.trc" --expect-fault
check 26.2-space-without-alloc-cmodel 3 'RESULT +FAIL \(program fault\)' -- "$B/asid4/gmmu-sim" --config configs/asid4.cfg --quiet --engine cmodel --trace "$T/o/nd1.trc"
# ---- issue 26, 3: page_size = 2m with fewer than 512 GPU frames is refused at start ------------------
check 26.3-2m-few-frames 2 'page_size 2m needs at least 512 GPU frames .* has 100 \(gpu_mem_pages\)' -- sim --trace tb/traces/small.trc --set page_size=2m --set gpu_mem_pages=100
# ---- issue 26, 4, 5: a large preload of an allocation not a multiple of 2 MB; two preloads of one ----
printf 'alloc s 0x8000000000 0x4000\nkernel k\ns 0 0 R 1 0x1 0x8000100000 4\n' > "$T/o/nd4.trc"
check 26.4-preload-large-small 2 'preload s:large: size 0x4000 is not a multiple of 2 MB' -- sim --trace "$T/o/nd4.trc" --preload s:large
check 26.4-preload-nocache-small-fault 3 'RESULT +FAIL \(program fault\)' -- sim --trace "$T/o/nd4.trc" --preload s:nocache
printf 'alloc a 0x8000000000 0x200000\nkernel k\ns 0 0 R 1 0x1 0x8000000000 4\n' > "$T/o/nd5.trc"
check 26.5-preload-twice 2 'preload a: the allocation is preloaded twice' -- sim --trace "$T/o/nd5.trc" --preload a:large --preload a:nocache
check 26.5-preload-once 0 'RESULT +PASS' -- sim --trace "$T/o/nd5.trc" --preload a:large
# ---- issue 26, 6: gmmu-board checks the trace and the policies before it opens the board link -------
BOARD=$B/fpga/gmmu-board
check 26.6-board-no-trace 2 'gmmu-board: --trace .*/nosuch.trc: No such file' -- "$BOARD" --port "$T/o/nosuchport" --trace "$T/o/nosuch.trc"
check 26.6-board-bad-trace 2 'bad_record.trc:7: field 6' -- "$BOARD" --port "$T/o/nosuchport" --trace tb/traces/bad_record.trc
check 26.6-board-bad-replay 2 "gmmu-board: --replay-policy: 'bogus' is not one of" -- "$BOARD" --port "$T/o/nosuchport" --trace tb/traces/small.trc --replay-policy bogus
check 26.6-board-bad-evict 2 "gmmu-board: --evict-policy: 'lruu' is not one of" -- "$BOARD" --port "$T/o/nosuchport" --trace tb/traces/small.trc --evict-policy lruu
check 26.6-board-then-link 1 'board link: cannot open .*nosuchport' -- "$BOARD" --port "$T/o/nosuchport" --trace tb/traces/small.trc --replay-policy batch
# ---- issue 26, test hole: traces_check.py fails a run whose statistics file is missing or bad ----
TCK="import sys; sys.path.insert(0, 'tb/tools'); import traces_check as t"
check 26.h-traces-check-no-stats 0 'missing or unreadable' -- $PY -c "$TCK
r = t.finish('small', 'x', ['x'], 0, '', '$T/o/nosuch.json', 0.0)
print(r['log']); sys.exit(1 if r['ok'] else 0)"
echo '{"cycles": 5' > "$T/o/cut.json"
check 26.h-traces-check-cut-stats 0 'missing or unreadable' -- $PY -c "$TCK
r = t.finish('small', 'x', ['x'], 0, '', '$T/o/cut.json', 0.0)
print(r['log']); sys.exit(1 if r['ok'] else 0)"
echo '{"cycles": 5}' > "$T/o/nokey.json"
check 26.h-traces-check-no-counters 0 'lack mismatches' -- $PY -c "$TCK
r = t.finish('small', 'x', ['x'], 0, '', '$T/o/nokey.json', 0.0)
print(r['log']); sys.exit(1 if r['ok'] else 0)"
echo '{"mismatches": 0, "fatal_faults": 0}' > "$T/o/good.json"
check 26.h-traces-check-good-stats 0 '' -- $PY -c "$TCK
r = t.finish('small', 'x', ['x'], 0, '', '$T/o/good.json', 0.0)
sys.exit(0 if r['ok'] else 1)"
# ---- issue 26, 8: a huge in-range mem_latency is a long wait, not a hang --------------------------
check 26.8-mem-latency-1e6 0 'RESULT +PASS$' -- sim --engine cmodel --trace tb/traces/small.trc --set mem_latency=1000000
# ---- issue 26, 8: a ' in the TRACE= path of make cosim --------------------------------------------
mkdir -p "$T/o/it's"; cp tb/traces/small.trc "$T/o/it's/a'b.trc"
check 26.8-make-trace-quote 0 'test watchdog: PASS' -- make -s --no-print-directory cosim TEST=watchdog BUILD="$B" TRACE="$T/o/it's/a'b.trc"
# ---- issue 26, 8: a configuration cfg_vflags.py refuses stops the Verilator build (no model
# without -G flags); VERILATOR=echo: nothing is really built --------------------------------------
VB=configs/badinput-vflags.cfg
trap 'rm -f "$VB"' EXIT
sed 's/^num_sm.*/num_sm = 08x/' configs/tiny.cfg > "$VB"
check 26.8-vflags-stops-build 2 "badinput-vflags.cfg:[0-9]+: num_sm: '08x' is not an integer" -- make --no-print-directory BUILD="$T/vb" VERILATOR=echo "$T/vb/badinput-vflags/vdut/obj/.model"
ok 26.8-vflags-no-verilator-run test ! -e "$T/vb/badinput-vflags/vdut/verilator.log"
rm -f "$VB"
# ---- issue 26, minor messages: a real number for an integer key; overlap without the ASID bits -----
check 26.m-integer-key 2 "hbm_gbps: '1.5' is not an integer: the key takes whole numbers .* in \[0, 1000000\]" -- sim --set hbm_gbps=1.5
printf 'alloc a 0x90000000 0x8000\nspace 1\nalloc b 0x90000000 0x8000\nalloc c 0x90004000 0x8000\nkernel k\n' > "$T/o/ov.trc"
check 26.m-overlap-va 2 "allocation 'c' \[0x90004000, 0x9000c000\) overlaps allocation 'b' \[0x90000000, 0x90008000\) \(address space 1\)" -- "$B/asid4/gmmu-sim" --config configs/asid4.cfg --quiet --trace "$T/o/ov.trc"
# ---- issue 26, acceptance: make deps prints one line per step, the tools' output in its log -------
# (fake dpkg-query: nothing installed; fake apt-get: 300 lines of unpacking, exit FAKE_APT_RC)
mkdir -p "$T/o/fakebin"
printf '#!/bin/sh\nexit 1\n' > "$T/o/fakebin/dpkg-query"
printf '#!/bin/sh\ni=0; while [ $i -lt 300 ]; do echo "Unpacking fake-$i"; i=$((i+1)); done\nexit ${FAKE_APT_RC:-0}\n' > "$T/o/fakebin/apt-get"
# fake python: no package importable, pip install succeeds (nothing is really installed)
printf '#!/bin/sh
[ "$1" = -m ] && { echo "Collecting (fake pip) $*"; exit 0; }
exit 1
' > "$T/o/fakebin/fakepy"
chmod +x "$T/o/fakebin/dpkg-query" "$T/o/fakebin/apt-get" "$T/o/fakebin/fakepy"
check 26.a-deps-one-line-per-step 0 '^deps: ok$' -- env PATH="$T/o/fakebin:$PATH" PYTHON="$T/o/fakebin/fakepy" DEPS_LOG="$T/o/deps.log" bash scripts/deps.sh
ok 26.a-deps-terminal-short test "$(grep -vc '^deps: ' "$T/26.a-deps-one-line-per-step.log")" = 0
ok 26.a-deps-pip-in-log grep -q 'Collecting (fake pip)' "$T/o/deps.log"
ok 26.a-deps-log-kept test "$(grep -c '^Unpacking fake-' "$T/o/deps.log")" = 600
check 26.a-deps-failure-shows-log 1 'deps: FAILED: apt-get update; the whole log' -- env PATH="$T/o/fakebin:$PATH" PYTHON="$T/o/fakebin/fakepy" DEPS_LOG="$T/o/deps.log" FAKE_APT_RC=100 bash scripts/deps.sh
ok 26.a-deps-failure-log-printed grep -q '^Unpacking fake-299' "$T/26.a-deps-failure-shows-log.log"
echo "test-badinput: $pass passed, $fail failed"
[ $fail = 0 ]
