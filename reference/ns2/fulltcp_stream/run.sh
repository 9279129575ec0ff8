#!/bin/sh
# Run the FullTcp request/echo references (each prints its own reduced lines: no trace).
# usage: sh run.sh
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
{ echo "keystroke,sent_s,echo_s"; ns "$HERE/echo.tcl" | tr ' ' ','; } > "$HERE/echo.csv"
{ echo "request,sent_s,answer_s"; ns "$HERE/page.tcl" | tr ' ' ','; } > "$HERE/page.csv"
