#!/bin/sh
# Re-creates summary.csv: ns-2.35 runs of scenario.tcl (Bakthavachalu 2004 Fig. 6.9, UDP CBR
# against Sack1 FTP on 1 Mb/s RED) at every CBR rate of the study's sweep, seeds 1-3.
set -e
here=$(cd "$(dirname "$0")" && pwd)
echo "rate,seed,cbr_mbps,ftp_mbps" > "$here/summary.csv"
for r in 100kb 200kb 300kb 400kb 500kb 600kb 700kb 800kb 900kb 1000kb; do
  for s in 1 2 3; do
    ns "$here/scenario.tcl" "$r" "$s" | sed "s/^\([^,]*\),/\1,$s,/" >> "$here/summary.csv"
  done
done
