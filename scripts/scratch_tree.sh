# scratch_tree.sh - sourced by the scripts that run a mutated copy of the tree (mutation_test.sh,
# wave_test.sh, statecmp_test.sh): one way to copy the sources.
#
# scratch_sources ROOT WORK: the sources of ROOT into WORK (the files git tracks plus the
# generated ones, with their times, so a copied Verilator model stays up to date; outside a
# checkout every file but build/). Refreshed every call: a mutated file of an earlier run is
# overwritten by its original.
scratch_sources() {
    local root=$1 work=$2
    mkdir -p "$work"
    if git -C "$root" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
        (cd "$root" && { git ls-files -z; printf '%s\0' rtl/gen cmodel/gen rtl/files.f; } |
            tar --null -cf - -T -) | (cd "$work" && tar -xf -)
    else
        (cd "$root" && tar -cf - --exclude=./build .) | (cd "$work" && tar -xf -)
    fi
}
