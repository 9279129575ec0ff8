# Vegas loss recovery in ns-2.35: one Agent/TCP/Vegas flow (ns-2 defaults) on the Fall & Floyd
# path s1 -8 Mb/s 0 ms- r1 -800 kb/s 100 ms DropTail(8)- k1, packetSize_ 1000, window_ 28,
# Agent/TCPSink, FTP from 0 s. Packets listed in <droplist> are dropped by an ErrorModel/List
# on r1->k1 (0-based count of the flow's data packets offered to the link, as in
# ../fall_floyd/scenario.tcl; Vegas sends no SYN, so index k is the k-th transmission).
# argv: droplist outprefix stoptime [sink]; sink TCPSink (default) or TCPSink/DelAck (an ACK
# every second segment or after 100 ms; with SYN_immediate_ack_ false, as nsim's delayed-ACK
# sink also delays segment 0's ACK). Writes <outprefix>.tr (packet trace) and
# <outprefix>.cw (cwnd_ and ssthresh_ variable trace).
set droplist [lindex $argv 0]
set out [lindex $argv 1]
set stoptime [lindex $argv 2]
set sink TCPSink
if {[llength $argv] > 3} { set sink [lindex $argv 3] }
set ns [new Simulator]
set tf [open $out.tr w]
$ns trace-all $tf
# node ids: s1=0 r1=1 k1=2
set s1 [$ns node]; set r1 [$ns node]; set k1 [$ns node]
$ns duplex-link $s1 $r1 8Mb 0ms DropTail
$ns duplex-link $r1 $k1 800Kb 100ms DropTail
$ns queue-limit $r1 $k1 8
$ns queue-limit $k1 $r1 8
set em [new ErrorModule Fid]
[$ns link $r1 $k1] errormodule $em
set errmodel [new ErrorModel/List]
$errmodel droplist $droplist
$em insert $errmodel
$em bind $errmodel 1
Agent/TCPSink set SYN_immediate_ack_ false
set tcp [$ns create-connection TCP/Vegas $s1 $sink $k1 1]
$tcp set window_ 28
$tcp set packetSize_ 1000
set ftp [$tcp attach-app FTP]
$ns at 0.0 "$ftp start"
set cwf [open $out.cw w]
$tcp trace cwnd_
$tcp trace ssthresh_
$tcp attach $cwf
proc finish {} { global ns tf cwf; $ns flush-trace; close $tf; close $cwf; exit 0 }
$ns at $stoptime "finish"
$ns run
