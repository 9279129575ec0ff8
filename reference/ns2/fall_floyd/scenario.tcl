# nsim reference: Fall & Floyd 1996 single-flow drop scenarios on ns-2.35.
# usage: ns scenario.tcl <variant> <droplist> <mode> <outprefix> [stoptime]
#   variant  : Tahoe | Reno | Newreno | Sack1 | Fack, or (../rto_ssthresh) Gaimd, GaimdReno,
#              GaimdNewreno (GAIMD(1, 0.125) variables on Sack1/Reno/Newreno), Sqrt (Sack1,
#              windowOption_ 6, k = l = 0.5)
#   droplist : Tcl list of packet indices to drop at r1->k1 (e.g. "14 26 28")
#   mode     : default (ns-2.35 defaults) | classic (globals of ns-2's
#              tcl/test/test-suite-tcpVariants.tcl, see README.md) | nobugfix (defaults but
#              bugFix_ false, 4.3BSD-Reno's second fast retransmit in one window, ../bugfix)
#   outprefix: writes <outprefix>.tr (packet trace), <outprefix>.cw (cwnd/ssthresh
#              trace) and <outprefix>.stats (end-of-run agent counters)
set variant [lindex $argv 0]
set droplist [lindex $argv 1]
set mode [lindex $argv 2]
set out [lindex $argv 3]
set stoptime 10.0
if {[llength $argv] > 4} { set stoptime [lindex $argv 4] }

if {$mode == "classic"} {
    Agent/TCP set precisionReduce_ false
    Agent/TCP set rtxcur_init_ 6.0
    Agent/TCP set updated_rttvar_ false
    Agent/TCP set minrto_ 1
    Agent/TCP/Newreno set newreno_changes1_ 0
    Agent/TCP/Newreno set partial_window_deflation_ 0
    Agent/TCP set singledup_ 0
} elseif {$mode == "nobugfix"} {
    Agent/TCP set bugFix_ false
} elseif {$mode != "default"} {
    puts stderr "unknown mode $mode"; exit 1
}

set ns [new Simulator]
set tf [open $out.tr w]
$ns trace-all $tf

# node ids: s1=0 r1=1 k1=2
set s1 [$ns node]
set r1 [$ns node]
set k1 [$ns node]
$ns duplex-link $s1 $r1 8Mb 0ms DropTail
$ns duplex-link $r1 $k1 800Kb 100ms DropTail
$ns queue-limit $r1 $k1 8
$ns queue-limit $k1 $r1 8

# Deterministic loss: ErrorModel/List on the r1->k1 link. The list holds
# indices of packets (0-based count of fid-1 packets that have passed the
# error model, which sits after the r1->k1 queue); see README.md.
set lossy [$ns link $r1 $k1]
set em [new ErrorModule Fid]
$lossy errormodule $em
set errmodel [new ErrorModel/List]
$errmodel droplist $droplist
$em insert $errmodel
$em bind $errmodel 1

set fid 1
switch $variant {
    Tahoe   { set tcp [$ns create-connection TCP $s1 TCPSink $k1 $fid] }
    Reno    { set tcp [$ns create-connection TCP/Reno $s1 TCPSink $k1 $fid] }
    Newreno { set tcp [$ns create-connection TCP/Newreno $s1 TCPSink $k1 $fid] }
    Sack1   { set tcp [$ns create-connection TCP/Sack1 $s1 TCPSink/Sack1 $k1 $fid] }
    Fack    { set tcp [$ns create-connection TCP/Fack $s1 TCPSink/Sack1 $k1 $fid] }
    Gaimd   { set tcp [$ns create-connection TCP/Sack1 $s1 TCPSink/Sack1 $k1 $fid]; $tcp set decrease_num_ 0.875; $tcp set increase_num_ 1.0 }
    GaimdReno    { set tcp [$ns create-connection TCP/Reno $s1 TCPSink $k1 $fid]; $tcp set decrease_num_ 0.875; $tcp set increase_num_ 1.0 }
    GaimdNewreno { set tcp [$ns create-connection TCP/Newreno $s1 TCPSink $k1 $fid]; $tcp set decrease_num_ 0.875; $tcp set increase_num_ 1.0 }
    Sqrt    { set tcp [$ns create-connection TCP/Sack1 $s1 TCPSink/Sack1 $k1 $fid]; $tcp set windowOption_ 6; $tcp set k_parameter_ 0.5; $tcp set l_parameter_ 0.5; $tcp set increase_num_ 1.5; $tcp set decrease_num_ 0 }
    default { puts stderr "unknown variant $variant"; exit 1 }
}
$tcp set window_ 28
$tcp set packetSize_ 1000
set ftp [$tcp attach-app FTP]
$ns at 0.0 "$ftp start"

set cwf [open $out.cw w]
$tcp trace cwnd_
$tcp trace ssthresh_
$tcp attach $cwf

proc finish {} {
    global ns tf cwf tcp out
    $ns flush-trace
    close $tf
    close $cwf
    set sf [open $out.stats w]
    foreach v {nrexmit_ nrexmitpack_ nrexmitbytes_ ndatapack_ ndatabytes_ nackpack_ ncwndcuts_ ncwndcuts1_ t_seqno_ maxseq_ highest_ack_ cwnd_ ssthresh_ srtt_ rttvar_ rto_ backoff_ dupacks_} {
        if {[catch {puts $sf "$v [$tcp set $v]"}]} { puts $sf "$v NA" }
    }
    close $sf
    exit 0
}
$ns at $stoptime "finish"
$ns run
