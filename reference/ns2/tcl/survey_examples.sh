#!/bin/sh
# Runs every script of the ns-2.35 distribution's tcl/ex (apt-get install ns2-examples) under
# nsim and, when `ns` is installed, under ns-2.35, each in a copy of its folder, with a
# timeout; prints one tab-separated line per script: path, nsim's exit status, ns's exit
# status (- without ns), nsim's error (the first command it stops at). What
# docs/guide/ns2-scripts.md ranks comes from this. Usage: survey_examples.sh [NSIM...]
# (default `nsim`; e.g. `python -m nsim`). Slow: a minute per script at most, twice.
ex=/usr/share/doc/ns2/examples/tcl/ex
[ $# -gt 0 ] || set -- nsim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$ex" || exit 2
find . -name '*.tcl' | sort | while read -r s; do
    name=$(basename "$s")
    for side in nsim ns; do
        mkdir -p "$tmp/$side" && cp -r "$ex/$(dirname "$s")/." "$tmp/$side/"
    done
    (cd "$tmp/nsim" && timeout 60 "$@" run "$name" -o _out >/dev/null 2>err </dev/null; echo $? >rc)
    nsrc=-
    if command -v ns >/dev/null; then
        nsrc=$(cd "$tmp/ns" && timeout 60 ns "$name" >/dev/null 2>&1 </dev/null; echo $?)
    fi
    err=$(grep -m1 '^error' "$tmp/nsim/err" | cut -c1-300)
    printf '%s\t%s\t%s\t%s\n' "$s" "$(cat "$tmp/nsim/rc")" "$nsrc" "$err"
    rm -rf "$tmp/nsim" "$tmp/ns"
done
