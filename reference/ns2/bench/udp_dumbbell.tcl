# nsim reference benchmark: UDP/CBR dumbbell at 120% overload, no tracing.
# usage: ns udp_dumbbell.tcl [npairs] [simtime]
set N 64
set T 100.0
if {[llength $argv] > 0} { set N [lindex $argv 0] }
if {[llength $argv] > 1} { set T [lindex $argv 1] }
set wall0 [clock milliseconds]
set ns [new Simulator]
set r1 [$ns node]
set r2 [$ns node]
$ns duplex-link $r1 $r2 100Mb 10ms DropTail
$ns queue-limit $r1 $r2 100
set qmon [$ns monitor-queue $r1 $r2 ""]
# per-source rate: 100Mb/s / N * 1.2
set rate [expr 100.0e6 / $N * 1.2]
for {set i 0} {$i < $N} {incr i} {
    set s($i) [$ns node]
    set d($i) [$ns node]
    $ns duplex-link $s($i) $r1 100Mb 1ms DropTail
    $ns duplex-link $r2 $d($i) 100Mb 1ms DropTail
    $ns queue-limit $s($i) $r1 100
    $ns queue-limit $r2 $d($i) 100
    set udp($i) [new Agent/UDP]
    $udp($i) set packetSize_ 1000
    $udp($i) set fid_ $i
    set nul($i) [new Agent/Null]
    $ns attach-agent $s($i) $udp($i)
    $ns attach-agent $d($i) $nul($i)
    $ns connect $udp($i) $nul($i)
    set cbr($i) [new Application/Traffic/CBR]
    $cbr($i) set packetSize_ 1000
    $cbr($i) set rate_ $rate
    $cbr($i) set random_ 0
    $cbr($i) attach-agent $udp($i)
    $ns at [expr 0.0001 * $i] "$cbr($i) start"
}
# wall-clock split: setup (topology + route computation, done when the
# scheduler starts) vs. event processing
set wall_run0 0
$ns at 0.0 {set wall_run0 [clock milliseconds]}
proc finish {} {
    global qmon N T wall0 wall_run0
    puts "RESULT scenario=udp_dumbbell n_flows=$N sim_seconds=$T bottleneck_departures=[$qmon set pdepartures_] bottleneck_arrivals=[$qmon set parrivals_] bottleneck_drops=[$qmon set pdrops_] setup_wall_s=[format %.3f [expr ($wall_run0 - $wall0)/1000.0]] run_wall_s=[format %.3f [expr ([clock milliseconds] - $wall_run0)/1000.0]]"
    exit 0
}
$ns at $T "finish"
$ns run
