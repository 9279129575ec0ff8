#!/usr/bin/env bash
# Optional tools some tests use: headless Chromium (the HTML reports rendered as a person sees
# them, tests/test_report_browser.py), tshark (pcap files analysed as Wireshark does) and ns-2.35's
# example scripts (package ns2-examples: tests/test_ns2_scripts.py runs them unchanged). Installed
# from Debian's packages when missing and this runs as root with apt-get; otherwise those tests
# skip with a notice saying what to install. Never fails the test command.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v tshark >/dev/null 2>&1 || missing+=(tshark)
[ -d /usr/share/doc/ns2/examples/tcl/ex ] || missing+=(ns2-examples)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "test-tools: ${missing[*]} not installed (the tests that need them will skip)" >&2
    exit 0
fi
echo "test-tools: installing ${missing[*]} from Debian's packages" >&2
export DEBIAN_FRONTEND=noninteractive
{ timeout 300 apt-get update -qq && timeout 600 apt-get install -y -qq --no-install-recommends "${missing[@]}"; } \
    >/dev/null 2>&1 || echo "test-tools: could not install ${missing[*]} (the tests that need them will skip)" >&2
exit 0
