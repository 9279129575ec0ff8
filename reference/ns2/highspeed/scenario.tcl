# nsim reference: one HighSpeed TCP flow (RFC 3649; Agent/TCP/Sack1 with windowOption_ 8, the
# sender of ns-2's test-suite-tcpHighspeed) through a DropTail bottleneck, on ns-2.35.
# usage: ns scenario.tcl <windowOption> <outprefix> [stoptime]
#   windowOption: 8 (HighSpeed) or 1 (standard AIMD, for contrast)
#   writes <outprefix>.cw (cwnd_/ssthresh_ TracedVar), <outprefix>.tr (bottleneck drops
#   only) and <outprefix>.stats (end-of-run counters).
# node ids: s1=0 r1=1 k1=2; s1-r1 1.2Gb 1ms, r1-k1 99Mb 49ms DropTail limit 300.
set wopt [lindex $argv 0]
set out [lindex $argv 1]
set stoptime 30.0
if {[llength $argv] > 2} { set stoptime [lindex $argv 2] }

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
    foreach v {nrexmit_ nrexmitpack_ ndatapack_ ncwndcuts_ highest_ack_ cwnd_ ssthresh_ boot_time_} {
        if {[catch {puts $sf "$v [$tcp set $v]"}]} { puts $sf "$v NA" }
    }
    close $sf
    exit 0
}
$ns at $stoptime "finish"
$ns run
