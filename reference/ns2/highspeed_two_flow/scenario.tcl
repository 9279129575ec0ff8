# nsim reference: two Agent/TCP/Sack1 flows with a chosen window rule (windowOption_ 8 =
# HighSpeed, RFC 3649; 1 = standard AIMD) sharing the path of ../highspeed/scenario.tcl, the
# second starting later; nsim's twin is experiments/lab2003/scenarios/hstcp_fast.toml.
# usage: ns scenario.tcl <windowOption> <start2> <stoptime> <outprefix>
#   writes <outprefix>.tr (bottleneck queue trace, flow ids 1 and 2) and <outprefix>.stats.
# node ids: s1=0 r1=1 k1=2; s1-r1 1.2Gb 1ms, r1-k1 99Mb 49ms DropTail limit 300.
set wopt [lindex $argv 0]
set start2 [lindex $argv 1]
set stoptime [lindex $argv 2]
set out [lindex $argv 3]

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

foreach i {1 2} {
    set tcp($i) [$ns create-connection TCP/Sack1 $s1 TCPSink/Sack1 $k1 $i]
    $tcp($i) set window_ 10000
    $tcp($i) set packetSize_ 1000
    $tcp($i) set windowOption_ $wopt
    set ftp($i) [$tcp($i) attach-app FTP]
}
$ns at 0.0 "$ftp(1) start"
$ns at $start2 "$ftp(2) start"

proc finish {} {
    global ns tf tcp out
    $ns flush-trace
    close $tf
    set sf [open $out.stats w]
    foreach i {1 2} {
        foreach v {nrexmit_ nrexmitpack_ ndatapack_ ncwndcuts_ cwnd_} {
            puts $sf "$i $v [$tcp($i) set $v]"
        }
    }
    close $sf
    exit 0
}
$ns at $stoptime "finish"
$ns run
