#!/bin/sh
# check_layers_test.sh - the layer checker bites: three objects a -> b -> c -> a must fail (exit
# 1, the cycle named; 0 with --report-only); without the back reference c -> a they pass with
# three layers.
set -eu
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cc=${CC:-cc}
printf 'int b(void);\nint a(void) { return b(); }\n' > "$d/a.c"
printf 'int c(void);\nint b(void) { return c(); }\n' > "$d/b.c"
printf 'int a(void);\nint c(void) { return a(); }\n' > "$d/c.c"
for f in a b c; do $cc -c "$d/$f.c" -o "$d/$f.o"; done
if python3 "$(dirname "$0")/check_layers.py" "$d" > "$d/out" 2>&1; then
    echo "check_layers_test: a -> b -> c -> a passed"; cat "$d/out"; exit 1
fi
grep -q '^cycle (3 files): a -> b -> c -> a' "$d/out" || { cat "$d/out"; exit 1; }
python3 "$(dirname "$0")/check_layers.py" --report-only "$d" > /dev/null
printf 'int c(void) { return 1; }\n' > "$d/c.c"
$cc -c "$d/c.c" -o "$d/c.o"
python3 "$(dirname "$0")/check_layers.py" "$d" > "$d/out" || { cat "$d/out"; exit 1; }
grep -q 'no cycle, 3 layers' "$d/out" || { cat "$d/out"; exit 1; }
echo "check_layers_test: a cycle is named and fails, a layered graph passes"
