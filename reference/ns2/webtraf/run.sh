#!/bin/sh
# Re-creates pages.csv: when WebTraf's server starts the response and when the page is done,
# for windowInit_ 1 and 2, without loss and with the request's acknowledgment lost.
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
echo "window_init,ack_lost,request_s,response_start_s,page_done_s" > "$HERE/pages.csv"
for iw in 1 2; do
  for drop in -1 0; do
    lost=$([ "$drop" = 0 ] && echo true || echo false)
    ns "$HERE/page.tcl" "$iw" "$drop" | awk -v iw="$iw" -v lost="$lost" '
      $1 == "req" && $2 == "+" { req = $7 }
      $1 == "resp" && $2 == "+" { start = $9 }
      $1 == "resp" && $2 == "-" { done = $9 }
      END { printf "%s,%s,%s,%s,%s\n", iw, lost, req, start, done }' >> "$HERE/pages.csv"
  done
done
