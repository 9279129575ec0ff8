#!/bin/sh
# Re-creates failover_events.csv and failover_delivered.csv from ns-2.35 (needs `ns`).
set -e
cd "$(dirname "$0")"
tmp=$(mktemp -d)
ns failover.tcl "$tmp/failover.tr"
python3 reduce.py "$tmp/failover.tr" .
rm -rf "$tmp"
