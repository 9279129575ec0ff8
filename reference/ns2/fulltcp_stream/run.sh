#!/bin/sh
# Run the FullTcp request/answer references (the script prints its own reduced lines: no
# trace). usage: sh run.sh
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
# telnet: a 60 B keystroke at 0..4 s, echoed as 60 B
{ echo "keystroke,sent_s,echo_s"; ns "$HERE/exchange.tcl" 60 60 0.0 1.0 2.0 3.0 4.0 | tr ' ' ','; } > "$HERE/echo.csv"
# HTTP/1.1 page: a 536 B request at 0, answered with 41000 B (1 KB + 4 x 10 KB)
{ echo "request,sent_s,answer_s"; ns "$HERE/exchange.tcl" 536 41000 0.0 | tr ' ' ','; } > "$HERE/page.csv"
