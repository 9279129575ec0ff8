#!/bin/sh
# Run the 20 Fall & Floyd runs for one mode into a raw directory.
# usage: sh run.sh <mode: default|classic> <rawdir>
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
MODE=$1; RAW=$2
mkdir -p "$RAW"
for v in Tahoe Reno Newreno Sack1 Fack; do
  lv=$(echo $v | tr 'A-Z' 'a-z')
  for n in 1 2 3 4; do
    case $n in 1) dl="14";; 2) dl="14 28";; 3) dl="14 26 28";; 4) dl="14 24 26 28";; esac
    ns "$HERE/scenario.tcl" $v "$dl" $MODE "$RAW/${lv}_${n}drop" 6.0
  done
done
