# nsim reference: how ns-2.35's one-way TCP starts, on Fall & Floyd's topology with one drop.
# usage: ns scenario.tcl <variant> <syn> <windowInit> <outprefix> [stoptime] [delay_growth]
#   variant   : Reno | Sack1 | Fack
#   syn       : true | false (Agent/TCP syn_)
#   delay_growth: true (default, ns-2.35's) | false (Agent/TCP delay_growth_)
#   windowInit: Agent/TCP windowInit_
#   outprefix : writes <outprefix>.tr (packet trace) and <outprefix>.cw (cwnd/ssthresh trace)
# Shows (1) with syn_ false, seqno 0 goes out as packetSize_ bytes with no header and the first
# ACK still resets cwnd to windowInit_ (delay_growth_); (2) Agent/TCP/Fack ignores
# delay_growth_: its cwnd is 1 + 1 = 2 after the SYN whatever windowInit_ is.
set variant [lindex $argv 0]
set syn [lindex $argv 1]
set iw [lindex $argv 2]
set out [lindex $argv 3]
set stoptime 3.0
if {[llength $argv] > 4} { set stoptime [lindex $argv 4] }
set growth true
if {[llength $argv] > 5} { set growth [lindex $argv 5] }

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

# Packet index 14 (0-based, counted at the head of r1->k1) is lost: seq 14 in every case.
set em [new ErrorModule Fid]
[$ns link $r1 $k1] errormodule $em
set errmodel [new ErrorModel/List]
$errmodel droplist {14}
$em insert $errmodel
$em bind $errmodel 1

switch $variant {
    Reno  { set tcp [$ns create-connection TCP/Reno $s1 TCPSink $k1 1] }
    Sack1 { set tcp [$ns create-connection TCP/Sack1 $s1 TCPSink/Sack1 $k1 1] }
    Fack  { set tcp [$ns create-connection TCP/Fack $s1 TCPSink/Sack1 $k1 1] }
    default { puts stderr "unknown variant $variant"; exit 1 }
}
$tcp set window_ 28
$tcp set packetSize_ 1000
$tcp set syn_ $syn
$tcp set windowInit_ $iw
$tcp set delay_growth_ $growth
set ftp [$tcp attach-app FTP]
$ns at 0.0 "$ftp start"

set cwf [open $out.cw w]
$tcp trace cwnd_
$tcp trace ssthresh_
$tcp attach $cwf

proc finish {} {
    global ns tf cwf
    $ns flush-trace
    close $tf
    close $cwf
    exit 0
}
$ns at $stoptime "finish"
$ns run
