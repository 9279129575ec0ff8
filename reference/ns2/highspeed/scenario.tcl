# nsim reference: one Agent/TCP/Sack1 flow through a DropTail bottleneck, on ns-2.35, with a
# chosen window rule: windowOption_ 8 (HighSpeed, RFC 3649; the sender of ns-2's
# test-suite-tcpHighspeed), 1 (standard AIMD; GAIMD with increase_num_/decrease_num_) or 6
# (binomial, k_parameter_/l_parameter_). Used by run.sh here and by ../aimd/run.sh.
# usage: ns scenario.tcl <windowOption> <increase_num> <decrease_num> <k> <l> <outprefix> [stoptime]
#   writes <outprefix>.cw (cwnd_/ssthresh_ TracedVar), <outprefix>.tr (bottleneck queue
#   trace) and <outprefix>.stats (end-of-run counters).
# node ids: s1=0 r1=1 k1=2; s1-r1 1.2Gb 1ms, r1-k1 99Mb 49ms DropTail limit 300.
set wopt [lindex $argv 0]
set inc [lindex $argv 1]
set dec [lindex $argv 2]
set k [lindex $argv 3]
set l [lindex $argv 4]
set out [lindex $argv 5]
set stoptime 30.0
if {[llength $argv] > 6} { set stoptime [lindex $argv 6] }

set ns [new Simulator]
set s1 [$ns node]
set r1 [$ns node]
set k1 [$ns node]
$ns duplex-link $s1 $r1 1.2Gb 1ms DropTail
$ns duplex-link $r1 $k1 99Mb 49ms DropTail
$ns queue-limit $s1 $r1 10000
$ns queue-limit $r1 $k1 300
$ns queue-limit $k1 $r1 10000

set tf [open $out.tr w]
$ns trace-queue $r1 $k1 $tf

set tcp [$ns create-connection TCP/Sack1 $s1 TCPSink/Sack1 $k1 1]
$tcp set window_ 10000
$tcp set packetSize_ 1000
$tcp set windowOption_ $wopt
$tcp set increase_num_ $inc
$tcp set decrease_num_ $dec
$tcp set k_parameter_ $k
$tcp set l_parameter_ $l
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
    foreach v {nrexmit_ nrexmitpack_ ndatapack_ ncwndcuts_ cwnd_ ssthresh_} {
        puts $sf "$v [$tcp set $v]"
    }
    close $sf
    exit 0
}
$ns at $stoptime "finish"
$ns run
