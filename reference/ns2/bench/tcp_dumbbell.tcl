# nsim reference benchmark: TCP SACK dumbbell, no tracing.
# usage: ns tcp_dumbbell.tcl <nflows> [simtime]
set N [lindex $argv 0]
set T 100.0
if {[llength $argv] > 1} { set T [lindex $argv 1] }
set wall0 [clock milliseconds]
set ns [new Simulator]
set r1 [$ns node]
set r2 [$ns node]
$ns duplex-link $r1 $r2 10Mb 20ms DropTail
$ns queue-limit $r1 $r2 100
# QueueMonitor on the bottleneck r1->r2 (counts arrivals/departures/drops)
set qmon [$ns monitor-queue $r1 $r2 ""]
for {set i 0} {$i < $N} {incr i} {
    set s($i) [$ns node]
    set d($i) [$ns node]
    $ns duplex-link $s($i) $r1 100Mb 1ms DropTail
    $ns duplex-link $r2 $d($i) 100Mb 1ms DropTail
    $ns queue-limit $s($i) $r1 100
    $ns queue-limit $r2 $d($i) 100
    set tcp($i) [new Agent/TCP/Sack1]
    $tcp($i) set packetSize_ 1000
    $tcp($i) set window_ 1000
    $tcp($i) set fid_ $i
    set snk($i) [new Agent/TCPSink/Sack1]
    $ns attach-agent $s($i) $tcp($i)
    $ns attach-agent $d($i) $snk($i)
    $ns connect $tcp($i) $snk($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    # deterministic small start stagger so flows are not perfectly synchronised
    $ns at [expr 0.001 * ($i % 100)] "$ftp($i) start"
}
# wall-clock split: setup (topology + route computation, done when the
# scheduler starts) vs. event processing
set wall_run0 0
$ns at 0.0 {set wall_run0 [clock milliseconds]}
proc finish {} {
    global qmon N T wall0 wall_run0
    puts "RESULT scenario=tcp_dumbbell n_flows=$N sim_seconds=$T bottleneck_departures=[$qmon set pdepartures_] bottleneck_arrivals=[$qmon set parrivals_] bottleneck_drops=[$qmon set pdrops_] setup_wall_s=[format %.3f [expr ($wall_run0 - $wall0)/1000.0]] run_wall_s=[format %.3f [expr ([clock milliseconds] - $wall_run0)/1000.0]]"
    exit 0
}
$ns at $T "finish"
$ns run
