# nsim large-topology benchmark in ns-2: benches/scenarios/large/dumbbell_10000_pairs.toml with
# N pairs (ns-2's static route set-up grows faster than n^2, so only small N finish).
# usage: ns dumbbell.tcl <pairs> [simtime]
set N [lindex $argv 0]
set T 3.0
if {[llength $argv] > 1} { set T [lindex $argv 1] }
set wall0 [clock milliseconds]
set ns [new Simulator]
set r0 [$ns node]
set r1 [$ns node]
$ns duplex-link $r0 $r1 1Gb 10ms DropTail
$ns queue-limit $r0 $r1 1000
$ns queue-limit $r1 $r0 1000
set qmon [$ns monitor-queue $r0 $r1 ""]
for {set i 0} {$i < $N} {incr i} {
    set s [$ns node]
    set d [$ns node]
    $ns duplex-link $s $r0 1Gb 1ms DropTail
    $ns duplex-link $r1 $d 1Gb 1ms DropTail
    foreach {a b} [list $s $r0 $r0 $s $r1 $d $d $r1] { $ns queue-limit $a $b 100 }
    set tcp [new Agent/TCP/Sack1]
    $tcp set packetSize_ 1000
    $tcp set window_ 20
    $tcp set fid_ $i
    set snk [new Agent/TCPSink/Sack1]
    $ns attach-agent $s $tcp
    $ns attach-agent $d $snk
    $ns connect $tcp $snk
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    $ns at [expr 0.00001 * $i] "$ftp start"
}
set wall_run0 0
$ns at 0.0 {set wall_run0 [clock milliseconds]}
proc finish {} {
    global qmon N T wall0 wall_run0
    puts "RESULT scenario=dumbbell_pairs pairs=$N sim_seconds=$T bottleneck_departures=[$qmon set pdepartures_] setup_wall_s=[format %.3f [expr ($wall_run0 - $wall0)/1000.0]] run_wall_s=[format %.3f [expr ([clock milliseconds] - $wall_run0)/1000.0]]"
    exit 0
}
$ns at $T "finish"
$ns run
