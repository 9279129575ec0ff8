#!/bin/sh
# Re-runs the ns-2 scripts of this folder under ns-2.35 (`ns`) and keeps reduced outputs:
# <script>.bottleneck (reduce.py: the bottleneck's lines and every drop; tbf_shaper's two links), reno_dumbbell.cwnd
# (the traced cwnd_ file as ns-2 wrote it), lossmonitor.dat, cwnd_probe.txt and
# queue_monitor.txt (the scripts' own output), errormodule.json, old_defaults.json and
# dv_table.json (fingerprint.py of their traces), dv_table.routes (the route tables
# dv_table.tcl prints).
# distribution.jsonl: fingerprints (fingerprint.py) of the traces ns-2.35 writes running the
# distribution's own tcl/ex examples that nsim runs (apt-get install ns2-examples; the
# scripts are ns-2's and are not copied here), and what example.tcl prints; test-drr.tcl and
# test-tbf.tcl draw ns-2's random numbers: their entries' per-source counts are what is compared.
# Needs ns 2.35 and python3 (stdlib). Raw traces go to a temporary folder and are deleted.
set -e
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here"/*.tcl "$tmp"/
cd "$tmp"
for s in reno_dumbbell red_forced cbr_null lossmonitor droplist full_tcp cwnd_probe rtmodel queue_monitor errormodule old_defaults drr_hash tbf_shaper; do
    ns $s.tcl >/dev/null 2>&1 || true   # cbr_null's finish runs `exec nam`, absent here
done
ns dv_table.tcl > "$here/dv_table.routes"   # DV route tables (nsim-core's dv_tests.rs reads them)
python3 "$here/fingerprint.py" dv_table.tcl dv_table.tr > "$here/dv_table.json"
python3 "$here/reduce.py" reno_dumbbell.tr 2:3 3:2 > "$here/reno_dumbbell.bottleneck"
python3 "$here/reduce.py" red_forced.tr 3:4 4:3 > "$here/red_forced.bottleneck"
python3 "$here/reduce.py" cbr_null.tr 2:3 > "$here/cbr_null.bottleneck"
python3 "$here/reduce.py" full_tcp.tr 2:3 3:2 > "$here/full_tcp.bottleneck"
python3 "$here/reduce.py" drr_hash.tr 4:5 > "$here/drr_hash.bottleneck"
python3 "$here/reduce.py" tbf_shaper.tr 0:1 2:1 > "$here/tbf_shaper.bottleneck"
python3 "$here/reduce.py" rtmodel.tr 0:1 1:0 1:2 2:1 1:3 3:1 2:3 3:2 > "$here/rtmodel.links"
grep '^v ' rtmodel.tr > "$here/rtmodel.v"
for s in errormodule old_defaults; do
    python3 "$here/fingerprint.py" $s.tcl $s.tr > "$here/$s.json"
done
cp reno_dumbbell.cwnd lossmonitor.dat cwnd_probe.txt queue_monitor.txt "$here/"
# suites.jsonl: the same for the tests of ns-2's own tcl/test suites that nsim runs (their all.tr).
suites=/usr/share/doc/ns2/examples/tcl/test
: > "$here/suites.jsonl"
for s in oddBehaviors:onedrop_reno sack:sack1 sack:sack1z sack:sack1a sack:sack1aa sack:sack1b sack:sack1c \
         sack:sack3 sack:sack_dupacks sack:sackB2; do
    suite=${s%%:*}; name=${s##*:}
    mkdir "$tmp/$suite-$name" && cd "$tmp/$suite-$name"
    cp "$suites/test-suite-$suite.tcl" "$suites/misc_simple.tcl" "$suites/support.tcl" .
    ns "test-suite-$suite.tcl" "$name" >/dev/null 2>&1 || true   # their finish runs perl and xgraph
    python3 "$here/fingerprint.py" "test-suite-$suite.tcl $name" all.tr >> "$here/suites.jsonl"
    cd "$tmp"
done
ex=/usr/share/doc/ns2/examples/tcl/ex
: > "$here/distribution.jsonl"
# name:trace[:before] (before: where ns-2's random draws part the runs, tcp-et's RED early drop;
# or where a same-instant tie does, in the DV examples: docs/guide/ns2-scripts.md)
for s in simple-tcp:out.ns simple-heap:out.tr ss:out.tr tcpecn:out.tr example:out.tr tcp-et:out.tr:1.28 \
         simple:out.tr nam-large-flowid:out.tr nam-simplexlink:out.tr test-drr:out.tr test-tbf:out.tr \
         simple-dyn:out.tr:1.028 simple-rtg:out.tr:1.028 simple-eqp1:out.tr:2.9997; do
    name=${s%%:*}; rest=${s#*:}; trace=${rest%%:*}; before=${rest#"$trace"}
    mkdir "$tmp/$name" && cp "$ex/$name.tcl" "$tmp/$name/" && cd "$tmp/$name"
    ns "$name.tcl" > stdout 2>/dev/null || true   # several end with `exec nam`, absent here
    python3 "$here/fingerprint.py" "$name.tcl" "$trace" stdout ${before#:} >> "$here/distribution.jsonl"
    cd "$tmp"
done
