# nsim reference: the topology and connection set-up of ns-2.35's tcl/test/test-suite-full.tcl
# (Test/full, Test/delack) and test-suite-sack-full.tcl, written anew: topology net0 (s1 -8Mb
# 5ms- r1 -800Kb 100ms, DropTail 6- k1; the suite's idle s2 is left out), one FullTcp pair
# s1 -> k1 with the sender's window_ 100, FTP from 0 s, 6 s. Agent parameters are ns-2.35's
# defaults (the suite's legacy overrides such as tcpTick_ 0.1, rfc2988_ false and
# windowInit_ 1 are not applied).
# usage: ns suite.tcl <variant: FullTcp|Newreno|Tahoe|Sack> <test: full|delack> <outprefix>
set variant [lindex $argv 0]
set test [lindex $argv 1]
set out [lindex $argv 2]
Trace set show_tcphdr_ 1
set ns [new Simulator]
set tf [open $out.tr w]
$ns trace-all $tf
set s1 [$ns node]
set r1 [$ns node]
set k1 [$ns node]
$ns duplex-link $s1 $r1 8Mb 5ms DropTail
$ns duplex-link $r1 $k1 800Kb 100ms DropTail
$ns queue-limit $r1 $k1 6
$ns queue-limit $k1 $r1 6
switch $variant {
  FullTcp { set cls Agent/TCP/FullTcp }
  Newreno { set cls Agent/TCP/FullTcp/Newreno }
  Sack    { set cls Agent/TCP/FullTcp/Sack }
  Tahoe   { set cls Agent/TCP/FullTcp/Tahoe }
}
set src [new $cls]
set snk [new $cls]
$ns attach-agent $s1 $src
$ns attach-agent $k1 $snk
$src set fid_ 0
$snk set fid_ 0
$ns connect $src $snk
$snk listen
$src set window_ 100
if {$test == "delack"} { $snk set segsperack_ 2 }
set ftp [$src attach-app FTP]
$ns at 0.0 "$ftp start"
proc finish {} {
    global ns tf
    $ns flush-trace
    close $tf
    exit 0
}
$ns at 6.0 "finish"
$ns run
