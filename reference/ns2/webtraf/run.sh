#!/bin/sh
# Re-creates pages.csv: when WebTraf's server starts the response and when the page is done,
# for windowInit_ 1 and 2, without loss and with the request's acknowledgment lost (syn_ false),
# and without loss with syn_ true.
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
echo "syn,window_init,ack_lost,request_s,response_start_s,page_done_s" > "$HERE/pages.csv"
for run in "false 1 -1" "false 1 0" "false 2 -1" "false 2 0" "true 1 -1" "true 2 -1"; do
  set -- $run
  syn=$1 iw=$2 drop=$3
  lost=$([ "$drop" = 0 ] && echo true || echo false)
  ns "$HERE/page.tcl" "$iw" "$drop" "$syn" | awk -v syn="$syn" -v iw="$iw" -v lost="$lost" '
      $1 == "req" && $2 == "+" { req = $7 }
      $1 == "resp" && $2 == "+" { start = $9 }
      $1 == "resp" && $2 == "-" { done = $9 }
      END { printf "%s,%s,%s,%s,%s,%s\n", syn, iw, lost, req, start, done }' >> "$HERE/pages.csv"
done
