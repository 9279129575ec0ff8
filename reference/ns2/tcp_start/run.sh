#!/bin/sh
# Runs the TCP start-up cases and reduces them into this directory (needs ns-2.35, python3).
# usage: sh run.sh <rawdir>
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
RAW=$1
mkdir -p "$RAW"
for v in Reno Sack1 Fack; do
  lv=$(echo $v | tr 'A-Z' 'a-z')
  ns "$HERE/scenario.tcl" $v false 2 "$RAW/${lv}_nosyn"
  ns "$HERE/scenario.tcl" $v true 4 "$RAW/${lv}_iw4"
  ns "$HERE/scenario.tcl" $v false 2 "$RAW/${lv}_nosyn_nogrowth" 3.0 false
  ns "$HERE/scenario.tcl" $v true 4 "$RAW/${lv}_iw4_nogrowth" 3.0 false
done
python3 "$HERE/reduce.py" "$RAW" "$HERE"
