#!/bin/sh
# Re-creates whatif.csv: the two-flow runs at 15 Mb/s (seed 1, no limited transmit) with the TCP
# timers of ns-2.1b8, the thesis' release (June 2001), run in ns-2.35: tcpTick_ 0.1 (0.01 from
# 2002/03/07), rtxcur_init_ 6 (3 from 2006/01/21), rfc2988_ false (true from 2002/03/07), and
# minrto_ 0 or 1 s (CHANGES.html, May 2001: "Added minrto_ ... with a default of 1 second";
# 0.2 from 2004/10/14). Columns as summary.csv, led by minrto_.
set -e
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
echo "minrto,agent,rate_mbps,seed,singledup,flow,mean_mbps,std_mbps,cov_pct,timeouts" > "$here/whatif.csv"
for m in 0 1; do for a in Reno Sack1; do
  d="$tmp/${a}_$m"; mkdir -p "$d"; cd "$d"
  ns "$here/scenario.tcl" "$a" 15 1 0 "$m" > /dev/null
  python3 "$here/reduce.py" "$a" 15 1 0 | sed "s/^/$m,/" >> "$here/whatif.csv"
  rm -f bott.tr
done; done
rm -rf "$tmp"
