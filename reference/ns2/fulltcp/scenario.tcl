# nsim reference: ns-2.35 Agent/TCP/FullTcp family on the Fall & Floyd topology
# (s1 -8Mb 0ms- r1 -800Kb 100ms, DropTail 8- k1), one FTP (bulk) connection s1 -> k1.
# usage: ns scenario.tcl <variant: FullTcp|Newreno|Tahoe|Sack> <droplist> <outprefix> [stoptime] [delack|-] [net0]
#   droplist: ErrorModel/List indices of fid-1 packets leaving r1 for k1 (0 = the SYN,
#             1 = the handshake's final ACK, 2 = the first data segment); "100000" = none
# Writes <outprefix>.tr (trace with show_tcphdr_ 1: ackno in column 13), .cw, .stats.
set variant [lindex $argv 0]
set droplist [lindex $argv 1]
set out [lindex $argv 2]
set stoptime 10.0
if {[llength $argv] > 3} { set stoptime [lindex $argv 3] }
# optional 5th argument "delack": the receiver ACKs every 2nd segment (segsperack_ 2) with
# its 100 ms delayed-ACK timer (interval_ 0.1)
set delack 0
if {[llength $argv] > 4 && [lindex $argv 4] == "delack"} { set delack 1 }
# optional 6th argument "net0": the set-up of ns-2.35's test-suite-full.tcl (Test/full,
# Test/delack) and test-suite-sack-full.tcl, rebuilt from their documented topology net0:
# 5 ms access delay, DropTail 6, the sender's window_ 100, ns-2's default 536 B segments,
# no error model (the suites' idle s2 is left out; their legacy agent overrides such as
# tcpTick_ 0.1, rfc2988_ false and windowInit_ 1 are not applied)
set net0 [expr {[llength $argv] > 5 && [lindex $argv 5] == "net0"}]
set access_delay [expr {$net0 ? "5ms" : "0ms"}]
set qlim [expr {$net0 ? 6 : 8}]
Trace set show_tcphdr_ 1
set ns [new Simulator]
set tf [open $out.tr w]
$ns trace-all $tf
set s1 [$ns node]
set r1 [$ns node]
set k1 [$ns node]
$ns duplex-link $s1 $r1 8Mb $access_delay DropTail
$ns duplex-link $r1 $k1 800Kb 100ms DropTail
$ns queue-limit $r1 $k1 $qlim
$ns queue-limit $k1 $r1 $qlim
if {!$net0} {
    set lossy [$ns link $r1 $k1]
    set em [new ErrorModule Fid]
    $lossy errormodule $em
    set errmodel [new ErrorModel/List]
    $errmodel droplist $droplist
    $em insert $errmodel
    $em bind $errmodel 1
}
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
$src set fid_ 1
$snk set fid_ 1
$ns connect $src $snk
$snk listen
if {$net0} {
    $src set window_ 100
} else {
    $src set window_ 28
    $src set segsize_ 1000
    $snk set window_ 28
    $snk set segsize_ 1000
}
if {$delack} { $snk set segsperack_ 2 }
set ftp [$src attach-app FTP]
$ns at 0.0 "$ftp start"
set cwf [open $out.cw w]
$src trace cwnd_
$src trace ssthresh_
$src attach $cwf
proc finish {} {
    global ns tf cwf src out
    $ns flush-trace
    close $tf
    close $cwf
    set sf [open $out.stats w]
    foreach v {nrexmit_ nrexmitpack_ nrexmitbytes_ ndatapack_ ndatabytes_ nackpack_ t_seqno_ maxseq_ highest_ack_ cwnd_ ssthresh_ srtt_ rttvar_ rto_ backoff_ dupacks_} {
        if {[catch {puts $sf "$v [$src set $v]"}]} { puts $sf "$v NA" }
    }
    close $sf
    exit 0
}
$ns at $stoptime "finish"
$ns run
