#!/bin/sh
# Builds benches/ns3/tcp_dumbbell (not committed) against Debian's ns-3.37 packages
# (apt-get install ns3 libns3-dev). Their pkg-config files carry a broken "-I/usr\;", so the
# include directory and libraries are named here directly.
set -e
cd "$(dirname "$0")"
exec g++ -O2 -std=c++17 -o tcp_dumbbell tcp_dumbbell.cc \
    -lns3-applications -lns3-internet -lns3-traffic-control -lns3-point-to-point \
    -lns3-network -lns3-core
